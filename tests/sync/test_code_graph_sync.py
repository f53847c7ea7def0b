"""Edits that change the code map's shape move the graph's code nodes, and every
process sees the same graph and pages as a build from scratch.

Through ``app.index`` (a run per edit, as a watcher's batch or ``rubi index`` makes):
files added, deleted, an import added, a symbol renamed, a new package. After each,
the vault sync's graph equals :meth:`LiveGraph.from_notes` of its notes and map, a fresh
process (a new vault sync) reads that graph too, and the map pages equal a full render.
A watching vault sync writes the snapshot later (:data:`SNAPSHOT_DELAY_S`); meanwhile
another process finds its code nodes older than the store says and moves them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from codemap.codemap_helpers import age_files
from rubi import app
from rubi.codemap import render_map, render_module_page
from rubi.core.pagenames import MAP_PAGE, MODULES_DIR
from rubi.graph.live import LiveGraph
from rubi.sync import forget_vault_syncs, vault_sync_for
from rubi.sync.pages import note_refs
from rubi.sync.vaultsync import CODE_STAMP, VaultSync

from helpers import rubi_project, store_generation, write

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": "from pkg.util import helper\n\n\nclass SmartRouter:\n    pass\n\n\n"
    "def dispatch_request(req):\n    return helper(req)\n",
    "pkg/util.py": "def helper(x):\n    return x\n",
    "pkg/cli.py": "from pkg.app import dispatch_request\n",
    "lib/store.py": "class SessionStore:\n    pass\n",
    **{
        f"lib/part{i}.py": f"from lib.store import SessionStore\n\ndef part_{i}():\n  pass\n"
        for i in range(12)
    },
}
"""Twelve more files: each edit changes less than the share that rebuilds the nodes."""
NOTES = {
    "notes/routing.md": "---\ntype: decision\nfiles: [pkg/app.py]\n---\n# Route with a trie\n",
    "notes/later.md": "---\ntype: gotcha\nfiles: [pkg/extra.py, web/]\n---\n# Later files\n",
    "notes/lib.md": "---\nfiles: [lib]\n---\n# The library\n\nSee [[Route with a trie]].\n",
}


def _edit(root: Path, rel: str, text: str | None) -> None:
    path = root / rel
    if text is None:
        path.unlink()
    else:
        write(path, text)


EDITS: list[tuple[str, dict[str, str | None]]] = [
    ("an import added", {"pkg/cli.py": "from pkg.app import dispatch_request\nimport pkg.util\n"}),
    ("a file added", {"pkg/extra.py": "from pkg.util import helper\n\ndef extra_step(): ...\n"}),
    ("a symbol renamed", {"pkg/util.py": "def helper_renamed(x):\n    return x\n"}),
    (
        "a package added",
        {"web/__init__.py": "", "web/views.py": "from lib.store import SessionStore\n"},
    ),
    ("a file deleted", {"pkg/cli.py": None}),
    ("a package deleted", {"web/__init__.py": None, "web/views.py": None}),
]


def _state(live: LiveGraph) -> dict[str, Any]:
    g = live.build.graph
    return {
        "nodes": dict(g.nodes(data=True)),
        "edges": {(u, v, k): dict(d) for u, v, k, d in g.edges(keys=True, data=True)},
        "names": live.build.names,
        "type_names": live.build.type_names,
        "defined_names": live.build.defined_names,
        "problems": live.build.problems,
    }


def _scratch(vault_sync: VaultSync) -> dict[str, Any]:
    """The graph built from nothing from the vault sync's notes and map."""
    store = vault_sync._open(create=False)
    try:
        attachments = store.meta_value("attachments", [])
    finally:
        store.close()
    return _state(LiveGraph.from_notes(vault_sync.notes(), attachments, vault_sync.code_map()))


def _graph_of(vault_sync: VaultSync) -> dict[str, Any]:
    store = vault_sync._open(create=False)
    try:
        return _state(vault_sync._graph(store))
    finally:
        store.close()


def _assert_pages_rendered_in_full(root: Path, vault_sync: VaultSync) -> None:
    code_map = vault_sync.code_map()
    assert code_map is not None
    notes = note_refs(vault_sync.notes())
    vault = root / ".rubi"
    assert (vault / MAP_PAGE).read_text(encoding="utf-8") == render_map(code_map, notes, None)
    for name, module in code_map.modules.items():
        page = vault / MODULES_DIR / f"{module.slug}.md"
        assert page.read_text(encoding="utf-8") == render_module_page(code_map, name, notes, None)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(tmp_path / "proj", FILES)
    for rel, text in NOTES.items():
        write(root / ".rubi" / rel, text)
    age_files(root)
    app.index(app.locate(root / ".rubi"))
    return root


def test_shape_edits_move_the_graph_to_what_a_rebuild_gives(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    vault_sync = VaultSync(paths)
    vault_sync.run()
    rebuilds: list[LiveGraph] = []
    rebuild = LiveGraph._rebuild_code_map

    def counted(self: LiveGraph, *args: Any) -> None:
        if self is vault_sync._graphs.live:
            rebuilds.append(self)
        rebuild(self, *args)

    monkeypatch.setattr(LiveGraph, "_rebuild_code_map", counted)
    for what, changes in EDITS:
        for rel, text in changes.items():
            _edit(project, rel, text)
        vault_sync.run()
        want = _scratch(vault_sync)
        assert _graph_of(vault_sync) == want, what
        assert _graph_of(VaultSync(paths)) == want, what  # another process: the snapshot
        _assert_pages_rendered_in_full(project, vault_sync)
    assert rebuilds == []  # every edit moved the code nodes
    g = vault_sync.graph().graph
    assert g.has_edge("notes/later", "pkg/extra.py", key="about_file")
    assert not any(n.startswith("web/") for n in g)


def test_a_watching_vault_sync_writes_the_snapshot_later(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    writer = VaultSync(paths)
    writer.watched = True
    writer.run()
    started: list[Callable[[], None]] = []

    class Timer:  # records the deferred write instead of starting a thread
        def __init__(self, delay: float, call: Callable[[], None]) -> None:
            started.append(call)
            self.daemon = False

        def start(self) -> None:
            pass

        def cancel(self) -> None:
            pass

    monkeypatch.setattr("rubi.sync.vaultsync.threading.Timer", Timer)
    before = paths.graph_file.stat().st_mtime_ns
    _edit(project, "pkg/extra.py", "from pkg.util import helper\n")
    writer.run()
    assert started and paths.graph_file.stat().st_mtime_ns == before  # not written yet
    want = _scratch(writer)
    assert _graph_of(writer) == want
    # Another process reads the older snapshot, finds its code nodes behind the store's
    # stamp and moves them (a reader does not write the snapshot for a watcher).
    reader = VaultSync(paths)
    assert _graph_of(reader) == want
    started[-1]()  # the timer fires
    assert paths.graph_file.stat().st_mtime_ns != before
    fresh = VaultSync(paths)
    store = fresh._open(create=False)
    try:
        live = fresh._graph(store)
        assert live.code_stamp == store.meta_value(CODE_STAMP)
    finally:
        store.close()
    assert _state(live) == want


def test_a_reader_moves_a_stale_snapshot_and_writes_it(project: Path) -> None:
    """A snapshot older than the store's code stamp (a watcher stopped before its
    deferred write): the first reader moves the code nodes and writes it back."""
    paths = app.locate(project / ".rubi")
    writer = VaultSync(paths)
    writer.watched = True
    writer.run()
    stale = paths.graph_file.read_bytes()
    _edit(project, "pkg/extra.py", "from pkg.util import helper\n")
    writer.run()
    writer.flush_snapshot()
    paths.graph_file.write_bytes(stale)  # as if the deferred write never happened
    want = _scratch(writer)
    assert _graph_of(VaultSync(paths)) == want
    assert paths.graph_file.read_bytes() != stale
    assert _graph_of(VaultSync(paths)) == want


def test_a_run_after_a_watcher_stopped_before_its_snapshot(project: Path) -> None:
    """The snapshot holds the map before the watcher's edit, the disk the map after it:
    the next process's own shape edit must not move the graph from the wrong map."""
    paths = app.locate(project / ".rubi")
    watcher = VaultSync(paths)
    watcher.watched = True
    watcher.run()
    before = paths.graph_file.read_bytes()
    _edit(project, "pkg/cli.py", "from pkg.app import dispatch_request\nimport lib.store\n")
    watcher.run()  # an import edit: the same files, another edge
    assert watcher._graphs.snapshots.timer is not None
    watcher._graphs.snapshots.timer.cancel()  # stopped before its deferred write
    assert paths.graph_file.read_bytes() == before
    later = VaultSync(paths)
    _edit(project, "pkg/util.py", "import lib.store\n\ndef helper(x):\n    return x\n")
    later.run()
    assert _graph_of(later) == _scratch(later)
    assert _graph_of(VaultSync(paths)) == _scratch(later)


def test_a_watcher_that_stops_writes_its_deferred_snapshot(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.set_watched(paths, True)
    vault_sync = vault_sync_for(paths)
    app.apply_changes(paths, [], code=True)
    before = paths.graph_file.read_bytes()
    _edit(project, "pkg/extra.py", "from pkg.util import helper\n")
    app.apply_changes(paths, [], code=True)
    assert vault_sync._graphs.snapshots.timer is not None  # deferred
    assert paths.graph_file.read_bytes() == before
    app.set_watched(paths, False)  # the watcher stops
    assert vault_sync._graphs.snapshots.timer is None
    assert paths.graph_file.read_bytes() != before
    forget_vault_syncs()
    assert _graph_of(VaultSync(paths)) == _scratch(vault_sync)


def _indexed(paths: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The store's notes and the text index's stored documents, by id."""
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(paths.whoosh_dir))
    try:
        with ix.searcher() as searcher:
            docs = {d["id"]: d for d in searcher.all_stored_fields()}
    finally:
        ix.close()
    return VaultSync(paths).notes(), docs


def test_a_shape_edit_indexes_its_map_pages_in_the_same_run(project: Path, tmp_path: Path) -> None:
    """The pages a reshaped map rewrites are indexed by the edit's own run (one store
    generation, no second run), and what is indexed equals a full build's."""
    import shutil

    paths = app.locate(project / ".rubi")
    vault_sync = VaultSync(paths)
    vault_sync.run()
    runs: list[bool] = []
    run_locked = vault_sync._run_locked

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(True)
        return run_locked(*args, **kwargs)

    vault_sync._run_locked = counted  # type: ignore[method-assign]
    for number, (what, changes) in enumerate(EDITS):
        for rel, text in changes.items():
            _edit(project, rel, text)
        runs.clear()
        report = vault_sync.run()
        assert report.pages_written, what
        assert len(runs) == 1, what
        copy = tmp_path / f"copy-{number}"
        shutil.copytree(project, copy, symlinks=True)
        fresh = app.locate(copy / ".rubi")
        full = app.index(fresh, full=True)
        assert full.pages_written == [], what  # the edit's pages are a full render's
        assert _indexed(paths) == _indexed(fresh), what


NOTE_EDITS: list[tuple[str, dict[str, str | None]]] = [
    (
        "a note about a file added",
        {".rubi/notes/trie.md": "---\ntype: decision\nfiles: [pkg/util.py]\n---\n# Helpers\n"},
    ),
    (
        "a listed note retitled",
        {".rubi/notes/routing.md": "---\ntype: decision\nfiles: [pkg/app.py]\n---\n# Radix\n"},
    ),
    ("a listed note deleted", {".rubi/notes/lib.md": None}),
]


def test_a_note_edit_indexes_the_map_pages_it_changes_in_the_same_run(
    project: Path, tmp_path: Path
) -> None:
    """A note the map pages list, added, retitled or deleted without a code change:
    the pages it rewrites are indexed by its own run (one store generation, no second
    run), and what is indexed equals a full build's."""
    import shutil

    paths = app.locate(project / ".rubi")
    vault_sync = VaultSync(paths)
    vault_sync.run()
    runs: list[bool] = []
    run_locked = vault_sync._run_locked

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(True)
        return run_locked(*args, **kwargs)

    vault_sync._run_locked = counted  # type: ignore[method-assign]

    for number, (what, changes) in enumerate(NOTE_EDITS):
        for rel, text in changes.items():
            _edit(project, rel, text)
        runs.clear()
        before = store_generation(paths)
        report = vault_sync.run()
        assert report.pages_written, what
        assert (len(runs), store_generation(paths)) == (1, before + 1), what
        copy = tmp_path / f"copy-{number}"
        shutil.copytree(project, copy, symlinks=True)
        fresh = app.locate(copy / ".rubi")
        full = app.index(fresh, full=True)
        assert full.pages_written == [], what
        assert _indexed(paths) == _indexed(fresh), what
        assert _graph_of(vault_sync) == _scratch(vault_sync), what
