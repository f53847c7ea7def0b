from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app

from helpers import write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root / "src" / "auth.py", "def login():\n    pass\n")
    app.init_project(root)
    app.register(
        app.locate(root / ".rubi"),
        [
            {
                "type": "gotcha",
                "title": "Login tokens expire at midnight UTC",
                "body": "Refresh the login token before midnight UTC or the session drops.",
                "files": ["src/auth.py"],
            },
            {"type": "decision", "title": "Use SQLite for the cache", "body": "No server."},
        ],
    )
    app.index(app.locate(root / ".rubi"))
    return root
