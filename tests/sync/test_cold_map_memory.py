"""A cold run (a new vault sync: ``rubi index`` in a new process) whose edit changes
files' shape reshapes the code map from the memory the last full build saved, as a
watcher reshapes it from the memory it holds; the map, the graph and the map pages
equal a build from scratch after every edit of a scripted sequence."""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from codemap.codemap_helpers import indexed_code_project
from codemap.test_codemap_reshape import FILES, STEPS, Repo, assert_same
from rubi import app
from rubi.codemap import CodeMap, build_code_map
from rubi.codemap.incremental import MapMemory
from rubi.codemap.resolution import is_manifest
from rubi.sync import memorystore
from rubi.sync.memorystore import REWRITE_AFTER, load_memory, memory_file
from rubi.sync.vaultsync import VaultSync

from helpers import rubi_project, write


class ColdRepo(Repo):
    """:class:`Repo`'s edits (dated after each other) on a rubi project."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.tick = 0

    def write(self, rel: str, content: str | bytes | None) -> None:
        """:meth:`Repo.write`; a manifest is dated now, after the saved map (how a cold
        run learns that one changed, as it would in use)."""
        super().write(rel, content)
        if content is not None and is_manifest(rel):
            now = time.time_ns()
            os.utime(self.root / rel, ns=(now, now))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return indexed_code_project(tmp_path / "proj", FILES)


def _no_full_resolution(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every full resolution of the map (there must be none)."""
    import rubi.codemap.build as build

    calls: list[str] = []
    full = build._full

    def recorded(*args: object, **kwargs: object) -> object:
        calls.append("full")
        return full(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "_full", recorded)
    return calls


def test_the_full_build_saves_the_memory(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    memory = load_memory(paths)
    assert isinstance(memory, MapMemory)
    saved = VaultSync(paths).code_map()
    assert saved is not None
    assert memory.code_map.files == saved.files and memory.code_map.edges == saved.edges


def test_cold_shape_edits_reshape_from_the_saved_memory(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    full = _no_full_resolution(monkeypatch)
    for what, step in STEPS:
        step(repo)
        cold = VaultSync(paths)  # a new process: no memory, no listing held
        cold.run()
        if what != "a manifest changed":  # which may move any import: in full
            assert full == [], what
        code_map = cold.code_map()
        assert code_map is not None
        assert_same(code_map, build_code_map(project))
        full.clear()  # the fresh build's own


def test_a_cold_import_edit_gives_the_graph_and_pages_of_a_rebuild(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sync.test_code_graph_sync import _assert_pages_rendered_in_full, _graph_of, _scratch

    paths = app.locate(project / ".rubi")
    full = _no_full_resolution(monkeypatch)
    ColdRepo(project).write(
        "web/src/main/java/org/demo/web/Handler.java",
        "package org.demo.web;\n\nimport org.demo.core.Loader;\n"
        "import org.demo.core.FileResource;\n\npublic class Handler { Loader loader; }\n",
    )
    cold = VaultSync(paths)
    cold.run()
    assert full == []
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(paths)) == _scratch(cold)  # the next process: the snapshot
    _assert_pages_rendered_in_full(project, cold)


def test_an_import_added_then_removed_moves_the_graph_back(project: Path) -> None:
    """The second run's file is as the memory remembers it, not as the saved map has
    it: the edit changes the saved map's shape all the same."""
    from sync.test_code_graph_sync import _assert_pages_rendered_in_full, _graph_of, _scratch

    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    handler = "web/src/main/java/org/demo/web/Handler.java"
    original = (project / handler).read_text(encoding="utf-8")
    repo.write(handler, original.replace("import", "import org.demo.core.FileResource;\nimport"))
    VaultSync(paths).run()
    repo.write(handler, original)
    cold = VaultSync(paths)
    cold.run()
    code_map = cold.code_map()
    assert code_map is not None
    assert_same(code_map, build_code_map(project))
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(paths)) == _scratch(cold)
    _assert_pages_rendered_in_full(project, cold)


def _answers(root: Path) -> list[list[tuple[str, str, list[str]]]]:
    """Each query's hits (id, why, matched terms), as a one-shot search gives them."""
    from rubi.sync import forget_vault_syncs

    forget_vault_syncs()
    paths = app.locate(root / ".rubi")
    return [
        [(h.id, h.why, list(h.matched)) for h in app.search(paths, query, refresh=False).hits]
        for query in ("Handler loader", "ImmutableList", "resource", "helper App")
    ]


def _fresh_copy(root: Path, to: Path) -> Path:
    """A copy of the project's files indexed from nothing (``rubi index --full``)."""
    import shutil

    shutil.copytree(root, to, symlinks=True)
    app.index(app.locate(to / ".rubi"), full=True)
    return to


def test_an_import_from_outside_the_project_leaves_the_graph_files_alone(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new import of a name no project file defines changes no edge: the map keeps
    its ranks and shape id (no PageRank), the graph snapshot and flat graph are not
    written again, yet the map, the graph and the pages (which list the module's
    external imports) are those of a build from scratch, in this process and the next;
    a later edit that does move an edge moves the code nodes from that map."""
    import rubi.codemap.incremental as incremental
    import rubi.graph.flatwrite as flatwrite
    import rubi.graph.snapshot as snapshot
    from rubi.core.pagenames import MODULES_DIR
    from rubi.graph.live import LiveGraph
    from sync.test_code_graph_sync import _assert_pages_rendered_in_full, _graph_of, _scratch

    paths = app.locate(project / ".rubi")
    before = VaultSync(paths).code_map()
    assert before is not None
    repo = ColdRepo(project)
    handler = "web/src/main/java/org/demo/web/Handler.java"
    original = (project / handler).read_text(encoding="utf-8")
    with monkeypatch.context() as patched:
        for module, name in (
            (snapshot, "save_snapshot"),
            (flatwrite, "write_flat"),
            (incremental, "rank_files"),
        ):
            patched.setattr(module, name, lambda *a, _n=name, **k: pytest.fail(f"{_n} called"))
        repo.write(
            handler,
            original.replace("import", "import com.google.common.collect.ImmutableList;\nimport"),
        )
        cold = VaultSync(paths)
        cold.run()
    code_map = cold.code_map()
    assert code_map is not None
    assert code_map.stats.kept_graph and code_map.shape_id == before.shape_id
    assert code_map.file_rank == before.file_rank
    assert code_map.files[handler].external != before.files[handler].external
    assert_same(code_map, build_code_map(project))
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(paths)) == _scratch(cold)  # the next process: the files
    _assert_pages_rendered_in_full(project, cold)
    pages = (project / ".rubi" / MODULES_DIR).glob("*.md")
    assert any("com.google.common" in p.read_text(encoding="utf-8") for p in pages)
    answers = _answers(project)
    assert all(answers)  # every query finds something
    assert answers == _answers(_fresh_copy(project, tmp_path / "fresh"))

    moved: list[bool] = []
    made_of = LiveGraph._made_of

    def recognized(live: LiveGraph, code_map: CodeMap) -> bool:
        moved.append(made_of(live, code_map))
        return moved[-1]

    monkeypatch.setattr(LiveGraph, "_made_of", recognized)
    repo.write(handler, original.replace("import", "import org.demo.core.FileResource;\nimport"))
    cold = VaultSync(paths)
    cold.run()
    assert moved == [True]  # the snapshot knew the kept map: moved from it
    code_map = cold.code_map()
    assert code_map is not None and not code_map.stats.kept_graph
    assert_same(code_map, build_code_map(project))
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(paths)) == _scratch(cold)
    _assert_pages_rendered_in_full(project, cold)


def test_an_outside_import_after_a_moved_edge_leaves_the_graph_files_alone(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memory on disk is behind the saved map (an edge moved since it was
    written, and not written again): an import from outside the project is judged
    against the saved map, which the graph was made of, and keeps its ranks."""
    import rubi.graph.flatwrite as flatwrite
    import rubi.graph.snapshot as snapshot
    from sync.test_code_graph_sync import _assert_pages_rendered_in_full, _graph_of, _scratch

    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    handler = "web/src/main/java/org/demo/web/Handler.java"
    original = (project / handler).read_text(encoding="utf-8")
    repo.write(handler, original.replace("import", "import org.demo.core.FileResource;\nimport"))
    VaultSync(paths).run()
    saved = VaultSync(paths).code_map()
    assert saved is not None and not saved.stats.kept_graph
    loader = "core/src/main/java/org/demo/core/Loader.java"
    text = (project / loader).read_text(encoding="utf-8")
    with monkeypatch.context() as patched:
        for module, name in ((snapshot, "save_snapshot"), (flatwrite, "write_flat")):
            patched.setattr(module, name, lambda *a, _n=name, **k: pytest.fail(f"{_n} called"))
        repo.write(loader, text.replace("public", "import com.google.common.io.Files;\n\npublic"))
        cold = VaultSync(paths)
        cold.run()
    code_map = cold.code_map()
    assert code_map is not None
    assert code_map.stats.kept_graph and code_map.shape_id == saved.shape_id
    assert code_map.file_rank == saved.file_rank
    assert_same(code_map, build_code_map(project))
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(paths)) == _scratch(cold)
    _assert_pages_rendered_in_full(project, cold)


def test_a_kept_shape_edit_does_not_read_the_memory(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    ColdRepo(project).write("py/pkg/util.py", "def helper(x):\n    return x  # noted\n")
    monkeypatch.setattr(memorystore, "load_memory", lambda _: pytest.fail("memory read"))
    VaultSync(paths).run()


def test_a_damaged_memory_is_built_in_full_and_written_again(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    paths = app.locate(project / ".rubi")
    memory_file(paths).write_bytes(b"\x80\x05not a pickle")
    ColdRepo(project).write("py/pkg/app.py", "class App:\n    pass\n")
    with caplog.at_level(logging.WARNING):
        VaultSync(paths).run()
    assert [r.message for r in caplog.records if "memory not read" in r.message]
    code_map = VaultSync(paths).code_map()
    assert code_map is not None
    assert_same(code_map, build_code_map(project))
    assert load_memory(paths) is not None  # the full build wrote it again


def _plant(kind: str, target: Path, elsewhere: Path) -> None:
    """Put at ``target`` a memory rubi must not read: a FIFO (opening it would block),
    a copy others may write, a symlink to a file outside the cache folder."""
    good = target.read_bytes()
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "writable":
        target.write_bytes(good)
        target.chmod(0o666)
    else:
        elsewhere.write_bytes(good)
        target.symlink_to(elsewhere)


@pytest.mark.skipif(os.name != "posix", reason="FIFOs, modes and symlinks: POSIX")
@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("fifo", "not a regular file"),
        ("writable", "owned or writable by another user"),
        ("symlink", "outside the rubi cache folder"),
    ],
)
def test_a_planted_memory_is_refused_in_one_line_and_the_map_built_in_full(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    kind: str,
    reason: str,
) -> None:
    paths = app.locate(project / ".rubi")
    path = memory_file(paths)
    _plant(kind, path, tmp_path / "planted.pickle")
    full = _no_full_resolution(monkeypatch)
    ColdRepo(project).write("py/pkg/app.py", "class App:\n    pass\n")
    with caplog.at_level(logging.WARNING):
        VaultSync(paths).run()
    told = [r.getMessage() for r in caplog.records if "memory not read" in r.getMessage()]
    assert told == [
        f"{path}: code map memory not read ({reason}); the map is built in full and the "
        "file written again"
    ]
    assert full == ["full"]
    assert path.is_file() and not path.is_symlink() and load_memory(paths) is not None


def test_a_memory_of_another_project_is_not_used(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    other = rubi_project(tmp_path / "other", {"a.py": "import b\n", "b.py": "x = 1\n"})
    app.index(app.locate(other / ".rubi"))
    memory_file(paths).write_bytes(memory_file(app.locate(other / ".rubi")).read_bytes())
    assert load_memory(paths) is None
    full = _no_full_resolution(monkeypatch)
    ColdRepo(project).write("py/pkg/app.py", "class App:\n    pass\n")
    VaultSync(paths).run()
    assert full == ["full"]


def test_a_memory_far_behind_is_written_again(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    for i in range(REWRITE_AFTER):
        repo.write(f"py/extra/m{i}.py", f"X{i} = {i}\n")
    before = memory_file(paths).stat().st_mtime_ns
    VaultSync(paths).run()
    assert memory_file(paths).stat().st_mtime_ns == before  # 32 behind: kept
    repo.write("py/pkg/app.py", "import extra.m1\n\nclass App:\n    pass\n")
    VaultSync(paths).run()
    assert memory_file(paths).stat().st_mtime_ns != before
    memory = load_memory(paths)
    assert memory is not None and "py/extra/m0.py" in memory.code_map.files


def test_a_full_index_writes_the_memory_again(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    write(project / "py/pkg/new.py", "from pkg.util import helper\n")
    app.index(paths, full=True)
    memory = load_memory(paths)
    assert memory is not None and "py/pkg/new.py" in memory.code_map.files


def test_a_vault_sync_holds_the_memory_it_reshaped_from(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    cold = VaultSync(paths)
    assert not cold.code_memory_held
    ColdRepo(project).write("py/pkg/app.py", "class App:\n    pass\n")
    cold.run()
    assert cold.code_memory_held  # its next shape edit reshapes in memory


def _memory_not_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail a test that makes the memory from the parse cache (2 s on a large repo)."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("memory made from the parse cache")

    monkeypatch.setattr("rubi.codemap.incremental.memory_of", refused)


JAVA_EDIT = (
    "web/src/main/java/org/demo/web/Handler.java",
    "package org.demo.web;\n\nimport org.demo.core.Loader;\n"
    "import org.demo.core.FileResource;\n\npublic class Handler { Loader loader; }\n",
)


def test_a_watcher_takes_the_saved_memory_and_reshapes_from_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    watcher = VaultSync(paths)
    watcher.run()  # the catch-up: the listing is held
    _memory_not_made(monkeypatch)
    full = _no_full_resolution(monkeypatch)
    assert watcher.remember_code()
    ColdRepo(project).write(*JAVA_EDIT)
    watcher.run(changed_code=[JAVA_EDIT[0]])
    assert full == []
    code_map = watcher.code_map()
    assert code_map is not None
    assert_same(code_map, build_code_map(project))


def test_a_saved_memory_behind_the_files_is_caught_up_before_a_watcher_holds_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    repo.write(*JAVA_EDIT)
    VaultSync(paths).run()  # a cold reshape: one file touched, the file not rewritten
    memory = load_memory(paths)
    assert memory is not None and JAVA_EDIT[0] in memory.code_map.files
    assert memory.code_map.files[JAVA_EDIT[0]].imports != (
        VaultSync(paths).code_map().files[JAVA_EDIT[0]].imports  # type: ignore[union-attr]
    )
    watcher = VaultSync(paths)
    watcher.run()
    _memory_not_made(monkeypatch)
    full = _no_full_resolution(monkeypatch)
    assert watcher.remember_code()
    for what, step in STEPS[:4]:
        step(repo)
        watcher.run()
        assert full == [], what
        code_map = watcher.code_map()
        assert code_map is not None
        assert_same(code_map, build_code_map(project))
        full.clear()


def test_a_saved_memory_of_another_map_is_not_held(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The memory on disk gives other edges than the map held (written for another
    tree): the watcher makes its memory from the parse cache instead."""
    paths = app.locate(project / ".rubi")
    memory = load_memory(paths)
    assert memory is not None
    watcher = VaultSync(paths)
    watcher.run()
    held = watcher.code_map()
    assert held is not None
    edges = dict(memory.code_map.edges)
    edges.popitem()
    monkeypatch.setattr(
        "rubi.sync.memorystore.load_memory",
        lambda _: MapMemory(**{**_fields(memory), "code_map": replace(held, edges=edges)}),
    )
    with caplog.at_level(logging.INFO, logger="rubi.sync.codememory"):
        assert watcher.remember_code()
    assert "code map memory on disk not used" in caplog.text
    assert watcher.code_map() is held


def _fields(memory: MapMemory) -> dict[str, object]:
    return {f.name: getattr(memory, f.name) for f in dataclasses.fields(memory)}


def _flat_state(root: Path) -> dict[str, object]:
    """What a cold reader reads of the project's flat graph on disk (ranks to 1e-6:
    PageRank started from the old ranks lands within that of one from nothing)."""
    from rubi.graph.flat import read_flat

    build, _, _ = read_flat(app.locate(root / ".rubi").graph_file.with_name("graph.flat"))
    g = build.graph

    def attrs(values: dict[str, object]) -> dict[str, object]:
        return {k: round(v, 6) if isinstance(v, float) else v for k, v in values.items()}

    return {
        "nodes": {n: attrs(dict(g.nodes[n])) for n in g},
        "edges": {
            (u, v, k): attrs(dict(d))
            for u in g
            for v, keyed in g.succ[u].items()
            for k, d in keyed.items()
        },
        **{
            name: {k: list(table[k]) for k in table}
            for name, table in (
                ("names", build.names),
                ("type_names", build.type_names),
                ("defined_names", build.defined_names),
            )
        },
    }


def test_a_cold_project_import_writes_the_flat_graph_and_answers_of_a_full_index(
    project: Path, tmp_path: Path
) -> None:
    """The files a cold reader opens after an edge-moving import edit (the flat graph
    the run writes, the search answers) are those of ``rubi index --full`` on the
    same tree; then the import removed again, likewise."""
    repo = ColdRepo(project)
    handler = "web/src/main/java/org/demo/web/Handler.java"
    original = (project / handler).read_text(encoding="utf-8")
    paths = app.locate(project / ".rubi")
    states = [_flat_state(project)]
    for n, text in enumerate(
        (original.replace("import", "import org.demo.core.FileResource;\nimport"), original)
    ):
        repo.write(handler, text)
        VaultSync(paths).run()
        fresh = _fresh_copy(project, tmp_path / f"fresh-{n}")
        state = _flat_state(project)
        assert state != states[-1]  # the edit moved an edge: the file was written again
        states.append(state)
        assert state == _flat_state(fresh)
        answers = _answers(project)
        assert all(answers) and answers == _answers(fresh)
