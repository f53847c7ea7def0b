"""The code map's memory on disk (format 2) holds no copy of its map: its header names
the map file written whole with it, which the run reads anyway. Every way that file
can go (written whole again, a run killed between the map and the memory, a memory of
the previous format, a map found nowhere) leaves a cold import edit the map, the graph
and the pages of a rebuild, never a crash."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from codemap.test_codemap_reshape import assert_same
from rubi import app
from rubi.codemap import CodeMap, build_code_map
from rubi.core.paths import VaultPaths
from rubi.sync import codestore
from rubi.sync.codestore import map_file_id, memory_map_file
from rubi.sync.memorystore import load_memory, memory_file, memory_map_id
from rubi.sync.vaultsync import VaultSync
from sync.test_cold_map_memory import ColdRepo, _no_full_resolution

HANDLER = "web/src/main/java/org/demo/web/Handler.java"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    from codemap.codemap_helpers import indexed_code_project
    from codemap.test_codemap_reshape import FILES

    return indexed_code_project(tmp_path / "proj", FILES)


def _import_edit(root: Path) -> None:
    """Add a project import (an edge moves): a shape change the memory reshapes."""
    original = (root / HANDLER).read_text(encoding="utf-8")
    ColdRepo(root).write(
        HANDLER, original.replace("import", "import org.demo.core.FileResource;\nimport", 1)
    )


def _assert_as_rebuilt(root: Path, cold: VaultSync) -> None:
    from sync.test_code_graph_sync import _assert_pages_rendered_in_full, _graph_of, _scratch

    code_map = cold.code_map()
    assert code_map is not None
    assert_same(code_map, build_code_map(root))
    assert _graph_of(cold) == _scratch(cold)
    assert _graph_of(VaultSync(app.locate(root / ".rubi"))) == _scratch(cold)
    _assert_pages_rendered_in_full(root, cold)


def _pickled_maps(paths: VaultPaths) -> tuple[tuple[object, ...], list[object]]:
    """The memory file's header, and the persistent ids its memory pickle names."""
    named: list[object] = []
    with memory_file(paths).open("rb") as fh:
        header = pickle.load(fh)
        reader = pickle.Unpickler(fh)
        reader.persistent_load = lambda pid: named.append(pid)  # type: ignore[method-assign]
        reader.load()
    return header, named


def test_the_memory_names_the_map_file_instead_of_a_copy(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    header, named = _pickled_maps(paths)
    assert len(header) == 4 and header[3] == map_file_id(paths)
    assert named == ["rubi-code-map"]  # the map itself is not in the file
    memory = load_memory(paths)
    saved = VaultSync(paths).code_map()
    assert memory is not None and saved is not None
    assert memory.code_map.files == saved.files and memory.code_map.edges == saved.edges


def test_a_new_process_reads_the_memory_s_map_from_the_map_file(project: Path) -> None:
    """No map read before (the memo empty): the map file named is read."""
    paths = app.locate(project / ".rubi")
    codestore._last_base = None
    memory = load_memory(paths)
    assert memory is not None and isinstance(memory.code_map, CodeMap)
    assert memory.code_map.files == build_code_map(project).files


def test_an_import_edit_after_the_map_file_was_written_whole_again(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept-shape edit past the delta's limit writes the map file whole with a new
    id: the file the memory names was kept first, so the import edit after it still
    reshapes from the memory."""
    paths = app.locate(project / ".rubi")
    named = memory_map_id(paths)
    monkeypatch.setattr(codestore, "DELTA_MAX", 0)
    ColdRepo(project).write("py/pkg/util.py", "def helper(x):\n    return x  # noted\n")
    VaultSync(paths).run()
    assert map_file_id(paths) != named and memory_map_id(paths) == named
    assert memory_map_file(paths).is_file()
    full = _no_full_resolution(monkeypatch)
    _import_edit(project)
    codestore._last_base = None  # a new process
    cold = VaultSync(paths)
    cold.run()
    assert full == []
    _assert_as_rebuilt(project, cold)


def test_a_memory_whose_map_is_found_nowhere_is_built_in_full(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs at once may leave a memory naming a map file the other replaced: the
    map is built in full (once), never a crash, and the memory written again."""
    paths = app.locate(project / ".rubi")
    monkeypatch.setattr(codestore, "DELTA_MAX", 0)
    ColdRepo(project).write("py/pkg/util.py", "def helper(x):\n    return x  # noted\n")
    VaultSync(paths).run()
    memory_map_file(paths).unlink()
    codestore._last_base = None
    assert load_memory(paths) is None
    full = _no_full_resolution(monkeypatch)
    _import_edit(project)
    cold = VaultSync(paths)
    cold.run()
    assert full == ["full"]
    _assert_as_rebuilt(project, cold)
    assert memory_map_id(paths) == map_file_id(paths)  # written again with its map file


class _Killed(BaseException):
    """A run stopped between the map file and the memory."""


def test_a_run_killed_between_the_map_and_the_memory_leaves_a_usable_memory(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    named = memory_map_id(paths)

    def killed(*_: object, **__: object) -> bool:
        raise _Killed

    with monkeypatch.context() as patched:
        patched.setattr("rubi.sync.code.save_memory", killed)
        with pytest.raises(_Killed):
            app.index(paths, full=True)
    assert memory_map_id(paths) == named and map_file_id(paths) != named
    full = _no_full_resolution(monkeypatch)
    _import_edit(project)
    codestore._last_base = None
    cold = VaultSync(paths)
    cold.run()
    assert full == []
    _assert_as_rebuilt(project, cold)


def test_a_memory_of_the_previous_format_is_read(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Format 1 held its own copy of the map: read as before, no full build."""
    from rubi.codemap.lang import PARSER_VERSION

    paths = app.locate(project / ".rubi")
    memory = load_memory(paths)
    assert memory is not None
    with memory_file(paths).open("wb") as fh:
        pickle.dump((1, PARSER_VERSION, str(paths.project_root)), fh)
        pickle.dump(memory, fh)
    memory_file(paths).chmod(0o600)
    codestore._last_base = None
    again = load_memory(paths)
    assert again is not None and again.code_map.files == memory.code_map.files
    full = _no_full_resolution(monkeypatch)
    _import_edit(project)
    cold = VaultSync(paths)
    cold.run()
    assert full == []
    _assert_as_rebuilt(project, cold)


_FULL = "import sys\nsys.argv = ['rubi', 'index', '--full']\nfrom rubi.entry import main\nmain()\n"


def test_two_full_runs_at_once_leave_a_memory_that_gives_a_rebuild(project: Path) -> None:
    """Two processes each write the map file whole and then their memory: whichever
    memory is left names a map found (or none: built in full once), and an import edit
    after them gives the map, the graph and the pages of a rebuild."""
    import os
    import subprocess
    import sys

    paths = app.locate(project / ".rubi")
    runs = [
        subprocess.Popen([sys.executable, "-c", _FULL], cwd=project, env=os.environ.copy())
        for _ in range(2)
    ]
    assert [p.wait(timeout=120) for p in runs] == [0, 0]
    codestore._last_base = None
    _import_edit(project)
    cold = VaultSync(paths)
    cold.run()
    _assert_as_rebuilt(project, cold)
