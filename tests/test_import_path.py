"""The search path stays light: hooks and the CLI pay every import on every call."""

from __future__ import annotations

import subprocess
import sys


def test_search_path_does_not_import_the_code_map_or_rich() -> None:
    code = (
        "import sys, rubi.app, rubi.search.engine, rubi.cli.searchcmds;"
        "print(' '.join(m for m in ('rubi.codemap', 'rich.progress', 'rubi.transcripts')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_hook_path_imports_no_engine_it_does_not_use() -> None:
    """A hook process imports the facade and its handler; the graph (networkx), the
    sync, the search engine's fusion, the transcript readers and the note parser load
    only in the handlers that call them (SessionStart, PreCompact)."""
    code = (
        "import sys, rubi.app, rubi.claude.hooks.entry, rubi.claude.hooks.context,"
        " rubi.claude.hooks.recall, rubi.claude.hooks.tooluse, rubi.claude.hooks.meter,"
        " rubi.claude.hooks.stop;"
        "print(' '.join(m for m in ('networkx', 'rubi.graph', 'rubi.sync', 'rubi.search.engine',"
        " 'rubi.transcripts.transcript', 'rubi.markdown', 'yaml', 'whoosh', 'rich')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
