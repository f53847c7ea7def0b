"""rubi.app.fileoutline.saved_code_map: the Read guard's outline reads the saved code
map without the vault sync's modules when the process has no vault sync, the same map
the vault sync reads, read again once an index run saved another."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi import app
from rubi.app import fileoutline
from rubi.app.fileoutline import saved_code_map, symbol_ranges

from helpers import login_project, write

_PROBE = """
import json, sys
from rubi.core.paths import find_vault
from rubi.app.fileoutline import symbol_ranges
paths = find_vault(sys.argv[1])
ranges = symbol_ranges(paths, sys.argv[2], 100)
print(json.dumps({"ranges": [[r.kind, r.name, r.start, r.end] for r in ranges],
                  "sync": "rubi.sync.run" in sys.modules}))
"""


def test_a_fresh_process_outlines_from_the_map_without_the_vault_sync(tmp_path: Path) -> None:
    root = login_project(tmp_path / "proj", "def login():\n    pass\n\n\nclass Token:\n    x = 1\n")
    vault = app.locate(root / ".rubi")
    from rubi.sync import load_code_map

    assert load_code_map(vault) is not None  # this process holds a vault sync of it
    through_sync = symbol_ranges(vault, str(root / "src" / "auth.py"), 100)
    assert [r.name for r in through_sync] == ["login", "Token"]
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(root / ".rubi"), str(root / "src" / "auth.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    got = json.loads(done.stdout)
    assert got["sync"] is False  # the base imported rubi.sync.run for this
    assert got["ranges"] == [[r.kind, r.name, r.start, r.end] for r in through_sync]


def test_the_kept_map_is_read_again_after_an_index_run_saves_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = login_project(tmp_path / "proj")
    vault = app.locate(root / ".rubi")
    from rubi.sync import run

    monkeypatch.setattr(fileoutline, "_READ", None)
    monkeypatch.setattr(run, "has_vault_sync", lambda _paths: False)  # read as a server would
    first = saved_code_map(vault)
    assert first is not None and first is saved_code_map(vault)  # kept, not read again
    write(root / "src" / "auth.py", "def login():\n    pass\n\n\ndef logout():\n    pass\n")
    app.index(vault)
    again = saved_code_map(vault)
    assert again is not first
    names = [s.name for s in again.files["src/auth.py"].symbols] if again else []
    assert names == ["login", "logout"]
