"""The search path stays light: hooks and the CLI pay every import on every call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def printed(code: str, cwd: Path | None = None) -> str:
    """What ``python -c code`` run in a fresh process in ``cwd`` prints, stripped;
    raises ``subprocess.CalledProcessError`` when it fails."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=cwd
    )
    return out.stdout.strip()


def notes_project(root: Path, notes: dict[str, str]) -> Path:
    """A project at ``root`` with ``rubi init`` done and ``notes`` (name → markdown)
    written as ``.rubi/notes/<name>.md``, not indexed yet."""
    from rubi import app

    root.mkdir()
    app.init_project(root)
    folder = root / ".rubi" / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    return root


def test_search_path_does_not_import_the_code_map_or_rich() -> None:
    code = (
        "import sys, rubi.app, rubi.search.engine, rubi.cli.searchcmds;"
        "print(' '.join(m for m in ('rubi.codemap', 'rich.progress', 'rubi.transcripts')"
        " if m in sys.modules))"
    )
    assert printed(code) == ""


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
    assert printed(code) == ""


def test_a_cold_recall_imports_no_index_writer_stale_check_or_git(tmp_path: Path) -> None:
    """A recall in a fresh process (as a cold UserPromptSubmit runs it) loads the
    index's reader only: not its writer side, nor the stale check and git (the hook
    shows no stale flag), nor the networkx graph, nor the facade's other use cases (map
    pages, updates, session start, the personal vault), nor the passage cutter and the
    session ranking (a note's recall line shows no passage), nor the documents' builder
    and its relative dates (indexing's), nor the note parser and markdown-it (the
    comment scanner, ``rubi.markdown.comments``, needs only ``re`` for the
    generated pages' ``<!-- -->`` markers); and it compiles no CJK pattern for an
    ASCII prompt."""
    from rubi import app

    project = notes_project(
        tmp_path / "proj",
        {
            "sync-vault": "---\ntype: decision\n---\n# Sync the vault between devices\n\n"
            "The vault syncs between two devices through git; the index is rebuilt.\n"
        },
    )
    app.index(app.locate(project / ".rubi"))
    code = (
        "import sys, pathlib\n"
        "from rubi.app.searching import one_search\n"
        "from rubi.app import locate, recall\n"
        "one_search()\n"
        f"paths = locate(cwd=pathlib.Path({str(project)!r}))\n"
        "text = recall(paths, 'how does the vault sync between two devices?', max_tokens=700)\n"
        "assert text and 'sync-vault' in text, text\n"
        "from rubi.index import analysis\n"
        "loaded = [m for m in ('rubi.index.writing', 'rubi.index.deletions',"
        " 'rubi.index.twoprocess', 'whoosh.writing', 'whoosh.scoring', 'rubi.knowledge.stale',"
        " 'rubi.core.gitrepo', 'subprocess', 'networkx', 'rubi.app.mappages', 'rubi.app.updates',"
        " 'rubi.app.sessionstart', 'rubi.app.personalvault', 'rubi.search.passages',"
        " 'rubi.search.turnranking', 'rubi.markdown.parse', 'rubi.markdown.blocks',"
        " 'markdown_it', 'yaml', 'rubi.index.documents',"
        " 'rubi.dates.relativedays') if m in sys.modules]\n"
        "if analysis._CJK_RE._compiled is not None: loaded.append('the CJK pattern')\n"
        "print(' '.join(loaded))\n"
    )
    assert printed(code, cwd=project) == ""


def test_a_cold_search_of_an_unchanged_vault_takes_no_lock_and_checks_no_staleness(
    tmp_path: Path,
) -> None:
    """A search in a fresh process (as a cold ``rubi search`` runs it) of a vault whose
    files are as the last run left them neither runs the indexer (its lock, Whoosh's
    writer) nor, when no hit names ``files:``, loads the stale check and git; a hit
    that names them still gets its stale flag."""
    import os
    import time

    from rubi import app

    project = notes_project(
        tmp_path / "proj",
        {
            "sync-vault": "---\ntype: decision\n---\n# Sync the vault between devices\n\n"
            "The vault syncs between two devices; the index is rebuilt.\n",
            "parser": "---\ntype: gotcha\nfiles: [src/gone.py]\n---\n# The parser drops tabs\n\n"
            "Tabs vanish in the parser.\n",
        },
    )
    paths = app.locate(project / ".rubi")
    app.index(paths)  # writes the map pages
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in (project / ".rubi").rglob("*"):
        os.utime(path, ns=(hour_ago, hour_ago))  # saved well before the index's listing
    app.index(paths)
    code = (
        "import sys, pathlib\n"
        "from rubi.app.searching import one_search, search\n"
        "from rubi.app import locate\n"
        "one_search()\n"
        f"paths = locate(cwd=pathlib.Path({str(project)!r}))\n"
        "hits = search(paths, 'sync the vault between devices', scope='notes').hits\n"
        "assert hits and hits[0].id == 'notes/sync-vault', hits\n"
        "loaded = [m for m in ('filelock', 'rubi.index.writing', 'whoosh.writing',"
        " 'rubi.knowledge.stale') if m in sys.modules]\n"
        "hit = search(paths, 'parser drops tabs', scope='notes').hits[0]\n"
        "assert hit.id == 'notes/parser' and hit.stale == ('src/gone.py',), hit\n"
        "print(' '.join(loaded))\n"
    )
    assert printed(code, cwd=project) == ""


def test_a_tool_hook_imports_no_platformdirs_tempfile_or_inspect(tmp_path: Path) -> None:
    """The guard, the meter and Stop, run as the console script runs them with no engine
    (a fresh process), find the vault's derived-data folder without platformdirs, whose
    Linux module imports ``tempfile`` (and ``shutil``, ``random``, ``bz2``, ``lzma``),
    and make their dataclasses without ``inspect`` (and ``ast``, ``dis``, ``tokenize``)."""
    import json

    project = notes_project(tmp_path / "proj", {"a": "# A\n\nSome text.\n"})
    big = tmp_path / "logs" / "big.log"  # outside the project: no code map to outline it
    big.parent.mkdir()
    big.write_text("x\n" * 200_000, encoding="utf-8")
    payloads = {
        "PreToolUse": {"tool_name": "Read", "tool_input": {"file_path": str(big)}},
        "PostToolUse": {"tool_name": "Grep", "tool_input": {"pattern": "x"}},
        "Stop": {"stop_hook_active": False, "last_assistant_message": "Done."},
    }
    for event, fields in payloads.items():
        payload = {"session_id": "s1", "cwd": str(project), "hook_event_name": event, **fields}
        code = (
            "import io, sys\n"
            "from rubi.entry import _run_hook\n"
            "out = io.StringIO()\n"
            f"_run_hook([{event!r}], io.StringIO({json.dumps(payload)!r}), out)\n"
            "print(repr(out.getvalue()[:200]))\n"
            "print(' '.join(m for m in ('platformdirs', 'tempfile', 'inspect', 'ast')"
            " if m in sys.modules))\n"
        )
        answer, loaded = [*printed(code, cwd=project).splitlines(), ""][:2]
        assert loaded == "", (event, answer, loaded)
        if event == "PreToolUse":
            assert "deny" in answer or "permissionDecision" in answer, answer


def test_a_cold_recall_of_a_current_vault_loads_no_vault_sync(tmp_path: Path) -> None:
    """A recall in a fresh process (a cold UserPromptSubmit) of a vault whose flat graph
    is current opens it without the vault sync: no note cache, code memory, manifest or
    vault scanner is imported."""
    from rubi import app

    project = notes_project(
        tmp_path / "proj",
        {
            "sync-vault": "---\ntype: decision\n---\n# Sync the vault between devices\n\n"
            "The vault syncs between two devices through git; see [[git-sync]].\n",
            "git-sync": "# Git sync\n\nThe vault is a git repository synced between devices.\n",
        },
    )
    app.index(app.locate(project / ".rubi"))
    code = (
        "import sys, pathlib\n"
        "from rubi.app.searching import one_search\n"
        "from rubi.app import locate, recall\n"
        "one_search()\n"
        f"paths = locate(cwd=pathlib.Path({str(project)!r}))\n"
        "text = recall(paths, 'how does the vault sync between devices?', max_tokens=700)\n"
        "assert text and 'sync-vault' in text, text\n"
        "print(' '.join(m for m in ('rubi.sync.run', 'rubi.sync.vaultsync', 'rubi.sync.notes',"
        " 'rubi.sync.manifest', 'rubi.vault.scan') if m in sys.modules))\n"
    )
    printed(code)  # the first one-shot reader writes the flat graph
    assert printed(code) == ""


def test_dataclasses_defer_inspect_until_a_class_without_a_docstring_needs_it() -> None:
    """``dataclasses`` imported for a hook leaves ``inspect`` unimported while every class
    has a docstring; a class without one still gets its signature as its docstring."""
    code = (
        "import sys\n"
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()\n"
        "import dataclasses\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\n"
        "class Documented:\n"
        "    'A point.'\n"
        "    x: int\n"
        "    y: int = 0\n"
        "assert Documented(1) == Documented(1, 0) and Documented.__doc__ == 'A point.'\n"
        "print('inspect' in sys.modules)\n"
        "@dataclasses.dataclass\n"
        "class Bare:\n"
        "    a: int\n"
        "    b: str = 'x'\n"
        "import inspect\n"
        "print(Bare.__doc__, dataclasses.inspect is inspect)\n"
    )
    assert printed(code).splitlines() == ["False", "Bare(a: int, b: str = 'x') True"]
