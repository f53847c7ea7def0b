"""The search path stays light: hooks and the CLI pay every import on every call."""

from __future__ import annotations

import subprocess
import sys


def test_search_path_does_not_import_the_code_map_or_rich() -> None:
    code = (
        "import sys, rubi.app, rubi.search.engine, rubi.cli.searchcmds;"
        "print(' '.join(m for m in ('rubi.codemap', 'rich.progress', 'rubi.sessions')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
