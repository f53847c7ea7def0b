"""``python -m rubi`` and ``python -m rubi.entry`` run the CLI (they once ran nothing
and exited 0: a silent success that looked like an empty answer)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("module", ["rubi", "rubi.entry"])
def test_python_m_runs_the_cli(module: str, tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", module, "--version"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("rubi, version ")
