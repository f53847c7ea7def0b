"""A code edit a watcher saw (``app.apply_changes`` with ``code_paths``): the project is
not listed again, only the changed files' parse-cache rows are read, and a kept-shape
edit saves a delta beside the code map; every other process reads the same map as a
full build gives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from codemap.codemap_helpers import indexed_code_project
from rubi import app
from rubi.codemap import build_code_map
from rubi.codemap.build import update_code_map
from rubi.codemap.files import stat_files
from rubi.codemap.model import CodeMap
from rubi.sync import forget_vault_syncs, vault_sync_for
from rubi.sync.codestore import DELTA_MAX, delta_file, edits_file, read_code_map
from rubi.sync.vaultsync import VaultSync

from helpers import write

FILES = {
    "pkg/__init__.py": "",
    "pkg/app.py": "from pkg.util import helper\n\n\nclass SmartRouter:\n    pass\n\n\n"
    "def dispatch_request(req):\n    return helper(req)\n",
    "pkg/util.py": "def helper(x):\n    return x\n",
    "pkg/cli.py": "from pkg.app import dispatch_request\n",
    "README.txt": "a project\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return indexed_code_project(tmp_path / "proj", FILES)


def _same(a: CodeMap, b: CodeMap) -> None:
    """Equal maps; ranks within the rank tolerance (an updated map's PageRank starts
    from the ranks before the edit, so it stops elsewhere near the same fixed point)."""
    for f in dataclasses.fields(CodeMap):
        if f.name in ("file_rank", "module_rank"):
            assert getattr(a, f.name) == pytest.approx(getattr(b, f.name), abs=1e-6), f.name
        elif f.name not in ("stats", "warnings") and f.compare:
            assert getattr(a, f.name) == getattr(b, f.name), f.name


def _full(root: Path, tmp_path: Path) -> CodeMap:
    return build_code_map(root, tmp_path / "fresh-cache.sqlite")


def _hit(root: Path, word: str) -> list[str]:
    paths = app.locate(root / ".rubi")
    return [h.id for h in app.search(paths, word, refresh=False).hits]


def test_a_kept_shape_edit_lists_nothing_and_saves_a_delta(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    app.apply_changes(paths, [], code=True, code_paths=["README.txt"])  # the vault sync lists once
    import rubi.codemap.files as files

    def no_listing(root: Path) -> object:
        raise AssertionError("the project was listed again")

    listing = files.list_files
    monkeypatch.setattr(files, "list_files", no_listing)
    map_before = paths.codemap_file.read_bytes()
    app_py = project / "pkg" / "app.py"
    app_py.write_text(app_py.read_text() + "# quixotic comment\n", encoding="utf-8")
    report = app.apply_changes(paths, [], code=True, code_paths=["pkg/app.py"])
    assert report.code_changed == 1
    assert _hit(project, "quixotic")[0] == "pkg/app.py"
    assert paths.codemap_file.read_bytes() == map_before  # the delta holds the edit
    assert delta_file(paths).exists()
    cold = read_code_map(paths)  # what another process reads
    assert cold is not None and cold.stats.reused_shape
    assert cold.files["pkg/app.py"].size == app_py.stat().st_size
    _same(cold, _full(project, tmp_path))
    monkeypatch.setattr(files, "list_files", listing)
    forget_vault_syncs()
    assert app.index(paths).code_changed == 0  # a cold run agrees: nothing to redo


def test_an_import_edit_saves_the_maps_new_shape_in_the_delta(
    project: Path, tmp_path: Path
) -> None:
    paths = app.locate(project / ".rubi")
    map_before = paths.codemap_file.read_bytes()
    util = project / "pkg" / "util.py"
    util.write_text(util.read_text() + "# first\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py"])
    assert delta_file(paths).exists()
    util.write_text("import pkg.cli\n\n\ndef helper(x):\n    return x\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py"])
    assert paths.codemap_file.read_bytes() == map_before  # the delta holds the new shape
    cold = read_code_map(paths)
    assert cold is not None and ("pkg/util.py", "pkg/cli.py") in cold.edges
    _same(cold, _full(project, tmp_path))
    util.write_text(
        "import pkg.cli\n\n\ndef helper(x):\n    # kept shape\n    return x\n", encoding="utf-8"
    )
    shape = delta_file(paths).read_bytes()
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py"])
    assert delta_file(paths).read_bytes() == shape  # the edit went beside it
    assert edits_file(paths).exists()
    cold = read_code_map(paths)  # a kept-shape edit keeps the delta's shape
    assert (
        cold is not None and cold.stats.reused_shape and ("pkg/util.py", "pkg/cli.py") in cold.edges
    )
    _same(cold, _full(project, tmp_path))
    (project / "pkg" / "cli.py").unlink()  # a file gone, in the delta too
    app.apply_changes(paths, [], code=True, code_paths=["pkg/cli.py"])
    cold = read_code_map(paths)
    assert cold is not None and "pkg/cli.py" not in cold.files
    assert not edits_file(paths).exists()  # folded into the new delta
    _same(cold, _full(project, tmp_path))
    forget_vault_syncs()
    assert app.index(paths).code_changed == 0  # a cold run agrees: nothing to redo


def test_new_and_deleted_files_are_listed_again(project: Path, tmp_path: Path) -> None:
    paths = app.locate(project / ".rubi")
    write(project / "pkg" / "extra.py", "from pkg.util import helper\n# zanzibar\n")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/extra.py"])
    assert _hit(project, "zanzibar")[0] == "pkg/extra.py"
    (project / "pkg" / "cli.py").unlink()
    app.apply_changes(paths, [], code=True, code_paths=["pkg/cli.py"])
    cold = read_code_map(paths)
    assert cold is not None and "pkg/cli.py" not in cold.files and "pkg/extra.py" in cold.files
    _same(cold, _full(project, tmp_path))


def test_many_edits_fold_the_delta_into_the_map(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.sync.codestore as codestore

    monkeypatch.setattr(codestore, "DELTA_MAX", 1)
    assert DELTA_MAX > 1
    paths = app.locate(project / ".rubi")
    for n, rel in enumerate(["pkg/app.py", "pkg/util.py", "pkg/app.py"]):
        path = project / rel
        path.write_text(path.read_text() + f"# edit {n}\n", encoding="utf-8")
        app.apply_changes(paths, [], code=True, code_paths=[rel])
        if n == 1:  # two files: over the limit, the map was written whole
            assert not delta_file(paths).exists()
    cold = read_code_map(paths)
    assert cold is not None
    _same(cold, _full(project, tmp_path))


def test_a_delta_of_another_map_is_ignored(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app_py = project / "pkg" / "app.py"
    app_py.write_text(app_py.read_text() + "# one\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/app.py"])
    delta = delta_file(paths).read_bytes()
    forget_vault_syncs()
    app.index(paths, full=True)  # a new map file: the old delta is not its own
    delta_file(paths).write_bytes(delta)
    cold = read_code_map(paths)
    full = VaultSync(paths).code_map()
    assert cold is not None and full is not None
    assert cold.files["pkg/app.py"] == full.files["pkg/app.py"]
    assert not cold.stats.reused_shape


def test_update_code_map_declines_what_it_cannot_keep(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    first = build_code_map(project, cache)
    stats = stat_files(project, ["pkg/app.py", "pkg/util.py"])
    assert update_code_map(project, cache, first, ["pkg/new.py"], stats) is None  # not mapped
    util = project / "pkg" / "util.py"
    util.write_text("import os\n\n\ndef helper(x):\n    return x\n", encoding="utf-8")
    stats = stat_files(project, ["pkg/util.py"])
    assert update_code_map(project, cache, first, ["pkg/util.py"], stats) is None  # an import
    util.write_text("def helper(x):\n    # a body edit\n    return x\n", encoding="utf-8")
    stats = stat_files(project, ["pkg/util.py"])
    kept = update_code_map(project, cache, first, ["pkg/util.py"], stats)
    assert kept is not None and kept.stats.reused_shape
    _same(kept, _full(project, tmp_path))
    assert update_code_map(project, cache, first, ["pkg/util.py"], {}) is None  # gone


def test_the_watcher_passes_the_code_paths(project: Path) -> None:
    from rubi.watch import classify

    paths = app.locate(project / ".rubi")
    events = [(None, str(project / "pkg" / "app.py")), (None, str(paths.root / "notes" / "x.md"))]
    batch = classify(events, paths)
    assert batch is not None
    assert batch.code and batch.code_paths == {"pkg/app.py"}
    assert batch.vault_paths == {"notes/x.md"}


def test_a_temp_file_that_came_and_went_lists_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.codemap.files as files

    paths = app.locate(project / ".rubi")
    app.apply_changes(paths, [], code=True, code_paths=["README.txt"])  # the vault sync lists once
    listed: list[Path] = []
    listing = files.list_files
    monkeypatch.setattr(files, "list_files", lambda root: listed.append(root) or listing(root))
    util = project / "pkg" / "util.py"
    util.write_text(util.read_text() + "# quokka\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py", "pkg/util.py.build-tmp"])
    assert listed == [] and _hit(project, "quokka")[0] == "pkg/util.py"
    (project / "pkg").rename(project / "lib")  # a folder moved: its old path is gone
    app.apply_changes(paths, [], code=True, code_paths=["pkg", "lib"])
    assert listed == []  # the two folders listed again alone
    cold = read_code_map(paths)
    assert cold is not None and "lib/util.py" in cold.files and "pkg/util.py" not in cold.files
    (project / ".gitignore").write_text("*.log\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=[".gitignore"])
    assert listed == [project]  # new rules: the whole project


def test_new_and_gone_paths_are_listed_as_list_files_lists_them(project: Path) -> None:
    """The held listing updated for the paths a watcher named (``_restat``) equals a
    listing of the whole project: ignored files, tracked files gone, untracked files
    gone, new folders, names with glob characters."""
    from rubi.codemap.files import list_files
    from rubi.sync.code import CodeListing, _restat

    def held() -> CodeListing:
        listing = list_files(project)
        stats = stat_files(project, listing.paths)
        return CodeListing(listing, stats, frozenset(listing.paths))

    write(project / ".gitignore", "*.log\nbuild-out/\n")
    before = held()
    write(project / "pkg" / "new.py", "x = 1\n")
    write(project / "pkg" / "debug.log", "ignored\n")
    write(project / "build-out" / "gen.py", "ignored = 1\n")
    write(project / "more" / "deep" / "a[1].py", "y = 2\n")
    write(project / "more" / "b.py", "z = 3\n")
    (project / "pkg" / "cli.py").unlink()  # tracked: git still lists it
    write(project / "*.py", "star = 1\n")
    changed = ["pkg/new.py", "pkg/debug.log", "build-out", "build-out/gen.py", "more", "pkg/cli.py"]
    got = _restat(project, before, [*changed, "*.py"])
    assert got is not None
    now = held()
    assert got.listing.paths == now.listing.paths and got.listed == now.listed
    assert got.stats.keys() == now.stats.keys()
    assert "pkg/cli.py" in got.listed and "pkg/cli.py" not in got.stats
    (project / "more" / "b.py").unlink()  # untracked: no longer listed
    (project / "more").rename(project / "moved")
    again = _restat(project, got, ["more/b.py", "more", "moved"])
    assert again is not None
    now = held()
    assert again.listing.paths == now.listing.paths and again.stats.keys() == now.stats.keys()
    assert "moved/deep/a[1].py" in again.listed
    app_py = project / "pkg" / "app.py"
    app_py.write_text(app_py.read_text() + "# edit\n", encoding="utf-8")
    kept = _restat(project, again, ["pkg/app.py"])
    assert kept is not None and kept.listing is again.listing  # nothing came or went


def test_shape_edits_after_the_first_use_the_kept_code_memory(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rubi.codemap.build as build

    paths = app.locate(project / ".rubi")
    util = project / "pkg" / "util.py"
    util.write_text("import pkg.cli\n\n\ndef helper(x):\n    return x\n", encoding="utf-8")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py"])  # built in full, kept
    full_builds: list[int] = []
    real = build.build_parts

    def counted(root: Path, cache: Path, *args: object, **kwargs: object) -> object:
        if cache == paths.codemap_cache:  # the vault sync's, not a fresh build's
            full_builds.append(1)
        return real(root, cache, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "build_parts", counted)
    steps: list[tuple[str, str | None]] = [
        ("pkg/util.py", "def helper(x):\n    return x\n"),  # an import removed
        ("pkg/extra.py", "from pkg.util import helper\n"),  # a new file
        ("pkg/cli.py", None),  # a file deleted
        ("pkg/app.py", "from pkg.extra import helper\n\n\nclass SmartRouter:\n    pass\n"),
    ]
    for number, (rel, text) in enumerate(steps):
        if text is None:
            (project / rel).unlink()
        else:
            write(project / rel, text)
        app.apply_changes(paths, [], code=True, code_paths=[rel])
        cold = read_code_map(paths)
        fresh = build_code_map(project, tmp_path / f"fresh-{number}.sqlite")
        assert cold is not None and cold.warnings == fresh.warnings
        _same(cold, fresh)
    assert full_builds == []
    write(project / "package.json", '{"name": "proj"}\n')  # a manifest: built in full
    app.apply_changes(paths, [], code=True, code_paths=["package.json"])
    assert full_builds == [1]
    cold = read_code_map(paths)
    assert cold is not None
    _same(cold, _full(project, tmp_path))
    write(project / "pkg" / "util.py", "import pkg.app\n")  # the manifest is older now
    app.apply_changes(paths, [], code=True, code_paths=["pkg/util.py"])
    assert full_builds == [1]


def test_a_watcher_makes_the_memory_after_its_catch_up(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A watcher started on a project (the map read back from disk, no memory) makes
    the memory in the background after its catch-up run: its first shape-changing
    edits (an import, a new file, a deletion) update the map instead of building it."""
    import time
    from collections.abc import Iterator

    import rubi.codemap.build as build
    from rubi.sync import vault_sync_for
    from rubi.watch import watch

    forget_vault_syncs()  # a new process: the map is on disk only
    paths = app.locate(project / ".rubi")
    vault_sync = vault_sync_for(paths)
    full_builds: list[int] = []
    real = build.build_parts

    def counted(root: Path, cache: Path, *args: object, **kwargs: object) -> object:
        if cache == paths.codemap_cache:
            full_builds.append(1)
        return real(root, cache, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "build_parts", counted)
    steps: list[tuple[str, str | None]] = [
        ("pkg/util.py", "import pkg.cli\n\n\ndef helper(x):\n    return x\n"),  # an import
        ("pkg/extra.py", "from pkg.util import helper\n"),  # a new file
        ("pkg/cli.py", None),  # a file deleted
    ]

    def changes() -> Iterator[list[tuple[object, str]]]:
        deadline = time.monotonic() + 60
        # white-box: the memory the watcher makes in the background after its catch-up
        # run has no outward sign but the full builds it saves (counted below)
        while vault_sync._code._memory is None:
            assert time.monotonic() < deadline, "no memory made"
            time.sleep(0.01)
        live = vault_sync._graphs.live  # then the graph, loaded ahead, knows the map it was made of
        while live is None or live._graph_map is None:
            assert time.monotonic() < deadline, "no graph loaded"
            time.sleep(0.01)
            live = vault_sync._graphs.live
        assert live._graph_map is vault_sync.code_map()
        for rel, text in steps:
            if text is None:
                (project / rel).unlink()
            else:
                write(project / rel, text)
            yield [(None, str(project / rel))]

    watch(paths, changes=changes())
    assert full_builds == []
    cold = read_code_map(paths)
    fresh = _full(project, tmp_path)
    assert cold is not None and cold.warnings == fresh.warnings
    assert "pkg/extra.py" in cold.files and "pkg/cli.py" not in cold.files
    _same(cold, fresh)


def test_a_delta_pickled_under_its_former_module_name_loads() -> None:
    """Deltas saved before the code map's store moved to ``rubi.sync.codestore`` name
    their class ``rubi.sync.code.CodeMapDelta``; unpickling looks it up there."""
    import io
    import pickle

    from rubi.sync import code, codestore

    found = pickle.Unpickler.find_class  # what pickle.load resolves a class name with
    assert found(pickle.Unpickler(io.BytesIO()), "rubi.sync.code", "CodeMapDelta") is (
        codestore.CodeMapDelta
    )
    assert code.CodeMapDelta is codestore.CodeMapDelta


def test_a_new_file_after_an_outside_import_joins_the_graph(project: Path, tmp_path: Path) -> None:
    """An import of a name outside the project keeps the map's graph (its ranks, shape
    id); the next edit that adds a file moves the graph all the same."""
    paths = app.locate(project / ".rubi")
    write(project / "pkg" / "cli.py", "import requests\nfrom pkg.app import dispatch_request\n")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/cli.py"])
    held = vault_sync_for(paths)  # this process's: it holds the full build's memory
    kept = held.code_map()
    assert kept is not None and kept.stats.kept_graph
    write(project / "pkg" / "extra.py", "from pkg.util import helper\n# zanzibar\n")
    app.apply_changes(paths, [], code=True, code_paths=["pkg/extra.py"])
    code_map = held.code_map()
    assert code_map is not None and not code_map.stats.kept_graph
    assert "pkg/extra.py" in held.graph().graph
    assert _hit(project, "zanzibar")[0] == "pkg/extra.py"
    _same(code_map, _full(project, tmp_path))
