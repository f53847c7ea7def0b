"""A committed file whose name is not UTF-8 (``b"caf\\xe9.md"``, from a Latin-1 system)
is left out of git's answers: search, read, recall and MCP search answer as if it were
not there, and ``rubi index`` names it once."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from codemap.codemap_helpers import git
from mcp import Client
from rubi import app
from rubi.core.gitrepo import changes_since
from rubi.dates.hitdays import commit_days
from rubi.knowledge.githistory import changed_in_worktree, history
from rubi.mcp.server import build_server

from helpers import rubi_project

RUBI = str(Path(sys.executable).with_name("rubi"))

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="names as raw bytes: Linux")


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, str]:
    """A project with a note, and a note and a code file whose names are Latin-1,
    all committed; (the project, the commit before the odd names)."""
    root = rubi_project(tmp_path / "proj", {"src/app.py": "def serve_requests():\n    pass\n"})
    app.register(
        app.locate(root / ".rubi"),
        [
            {
                "type": "decision",
                "title": "Serve requests with a thread pool",
                "body": "Threadpoolword keeps latency flat.",
                "files": ["src/app.py"],
            }
        ],
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", "note")
    before = git(root, "rev-parse", "HEAD").strip()
    for name, text in ((b"caf\xe9.md", "# Cafe\n\nThreadpoolword too.\n"), (b"caf\xe9.py", "")):
        folder = (
            os.fsencode(root / ".rubi" / "notes") if name.endswith(b".md") else os.fsencode(root)
        )
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "latin-1 names")
    return root, before


def _rubi(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [RUBI, *args], cwd=root, input=stdin, capture_output=True, text=True, timeout=60
    )


def test_git_answers_leave_the_name_out(project: tuple[Path, str]) -> None:
    root, before = project
    notes = root / ".rubi" / "notes"
    found = history(root, [notes])
    assert found is not None
    assert all(p.isprintable() and p.encode() for p in found.blobs)
    assert any(p.endswith(".md") for p in found.blobs)
    assert changes_since(root, [before]) == {before: set()}  # the odd names are left out
    assert commit_days(root, ["src/app.py"]) != {}
    os.utime(os.path.join(os.fsencode(notes), b"caf\xe9.md"), (1, 1))
    assert changed_in_worktree(root, ["src/app.py"]) == set()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_search_read_recall_and_mcp_answer(project: tuple[Path, str]) -> None:
    root, _ = project
    indexed = _rubi(root, "index")
    assert indexed.returncode == 0, indexed.stderr
    assert "caf\\xe9.md: file name is not UTF-8" in indexed.stdout + indexed.stderr

    found = _rubi(root, "search", "thread pool threadpoolword")
    assert found.returncode == 0, found.stderr
    assert "Serve requests with a thread pool" in found.stdout
    assert "codec" not in found.stderr

    read = _rubi(root, "read", "Serve requests with a thread pool")
    assert read.returncode == 0, read.stderr
    assert "Threadpoolword keeps latency flat" in read.stdout

    payload = {
        "session_id": "s1",
        "transcript_path": str(root / "none.jsonl"),
        "cwd": str(root),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "how do we serve requests with the threadpoolword pool?",
    }
    recalled = _rubi(root, "hook", "UserPromptSubmit", stdin=json.dumps(payload))
    assert recalled.returncode == 0, recalled.stderr
    assert "Serve requests with a thread pool" in recalled.stdout

    async def search() -> Any:
        async with Client(build_server(app.locate(root / ".rubi"))) as client:
            return await client.call_tool("search", {"query": "threadpoolword thread pool"})

    result = asyncio.run(asyncio.wait_for(search(), 60))
    assert not result.is_error
    assert "Serve requests with a thread pool" in json.dumps(result.model_dump(mode="json"))
