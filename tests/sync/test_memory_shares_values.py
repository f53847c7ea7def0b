"""The code map's memory on disk writes a repeated value once (an ident every parse
holds, an import many files write alike) and reads it back as one object: what is
read back equals, field by field, the memory that was written."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from rubi import app
from rubi.codemap.build import build_parts
from rubi.codemap.files import stat_files
from rubi.codemap.incremental import MapMemory, remember
from rubi.codemap.model import ImportSpec, Parsed
from rubi.sync.memorystore import load_memory, save_memory

ROUTES = "web/src/main/kotlin/org/demo/web/Routes.kt"
HANDLER = "web/src/main/java/org/demo/web/Handler.java"


def _in_process(tmp_path: Path) -> tuple[MapMemory, app.VaultPaths]:
    """A memory made in this process by a full build of the reshape tests' project
    (never pickled), and the project's paths."""
    from codemap.codemap_helpers import indexed_code_project
    from codemap.test_codemap_reshape import FILES

    root = indexed_code_project(tmp_path / "proj", FILES)
    paths = app.locate(root / ".rubi")
    code_map, parts = build_parts(root, paths.codemap_cache)
    assert parts is not None
    return remember(code_map, parts, stat_files(root, parts.listing.paths)), paths


def _state(value: Any) -> Any:
    """An index's or resolver memo's attributes, its back reference to the index left
    out (compared by identity in the test), records and containers as they are."""
    if dataclasses.is_dataclass(value) or isinstance(value, str | int | tuple | list | dict):
        return value
    attrs = value.__dict__ if hasattr(value, "__dict__") else {}
    return {k: v for k, v in attrs.items() if k != "repo"}


def _assert_equal(written: MapMemory, read: MapMemory) -> None:
    for field in dataclasses.fields(MapMemory):
        if field.name != "resolved":
            assert getattr(read, field.name) == getattr(written, field.name), field.name
    for field in dataclasses.fields(written.resolved):
        if field.name != "repo":
            got, want = getattr(read.resolved, field.name), getattr(written.resolved, field.name)
            assert got == want, field.name
    repo, want = read.resolved.repo, written.resolved.repo
    assert repo.code is read.resolved.code  # the index reads the resolution's parses
    for name in ("root", "code", "listed", "dirs", "warnings", "_texts"):
        assert getattr(repo, name) == getattr(want, name), name
    assert repo._memo.keys() == want._memo.keys()
    for key, memo in want._memo.items():
        assert _state(repo._memo[key]) == _state(memo), key
        if hasattr(memo, "repo"):
            assert repo._memo[key].repo is repo


def test_a_memory_read_back_equals_the_memory_written(tmp_path: Path) -> None:
    memory, paths = _in_process(tmp_path)
    assert save_memory(paths, memory)  # holding its own map: every record pickled here
    read = load_memory(paths)
    assert read is not None
    _assert_equal(memory, read)
    assert read.code_map.files == memory.code_map.files
    assert read.code_map.file_rank == memory.code_map.file_rank


def test_equal_values_are_read_back_as_one_object(tmp_path: Path) -> None:
    """Two files import ``org.demo.core.Loader`` alike and every Java parse holds the
    ident ``demo``: made separately by the parser, read back as one object each (on
    the base, as many objects as the parses held)."""
    memory, paths = _in_process(tmp_path)
    code = memory.resolved.code
    java, kotlin = code[HANDLER][1], code[ROUTES][1]
    assert java.imports[0] == kotlin.imports[0] and java.imports[0] is not kotlin.imports[0]
    assert save_memory(paths, memory)
    read = load_memory(paths)
    assert read is not None
    parses: list[Parsed] = [p for _, p in read.resolved.code.values()]
    java, kotlin = read.resolved.code[HANDLER][1], read.resolved.code[ROUTES][1]
    assert java.imports[0] is kotlin.imports[0]
    assert isinstance(java.imports[0], ImportSpec)
    demos = [i for p in parses for i in p.idents if i == "demo"]
    assert len(demos) > 2 and all(d is demos[0] for d in demos)


def test_a_shared_write_is_read_again_the_same(tmp_path: Path) -> None:
    """A memory read back and written again (a cold run's rewrite) reads the same."""
    memory, paths = _in_process(tmp_path)
    assert save_memory(paths, memory)
    first = load_memory(paths)
    assert first is not None
    assert save_memory(paths, first)
    second = load_memory(paths)
    assert second is not None
    _assert_equal(memory, second)
