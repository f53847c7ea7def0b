"""A code file's symbols come from the file kept beside the code map
(:mod:`rubi.sync.keptsymbols`) in a process that has not read the map: the same
symbols as the map's, for every file; a stale, damaged or untrusted kept file is not
read; a process that holds the map answers from it and writes nothing; a search's
answer is the same bytes either way."""

from __future__ import annotations

import marshal
import os
import zlib
from pathlib import Path

import pytest

from codemap.codemap_helpers import indexed_code_project
from codemap.test_codemap_reshape import FILES
from rubi import app
from rubi.app.codesymbols import code_symbols, symbols_of
from rubi.core.paths import VaultPaths
from rubi.sync import forget_vault_syncs, load_code_map
from rubi.sync.codestore import read_code_map
from rubi.sync.keptsymbols import forget_kept_symbols, symbols_file

PY_APP = "py/pkg/app.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return indexed_code_project(tmp_path / "proj", FILES)


def _fresh() -> None:
    """As a new process starts: nothing read or kept in memory."""
    forget_vault_syncs()
    forget_kept_symbols()


def _map_symbols(paths: VaultPaths) -> dict[str, list[tuple[str, int]]]:
    code_map = read_code_map(paths)
    assert code_map is not None
    return {name: symbols_of(code_map, name) for name in code_map.files}


def _decoded(kept: Path) -> tuple[int, object, dict[str, object]]:
    """The kept file's payload, its CRC-32 checked."""
    data = kept.read_bytes()
    assert int.from_bytes(data[:4], "big") == zlib.crc32(data[4:])
    fmt, key, table = marshal.loads(data[4:])
    return fmt, key, table


def _encoded(value: object) -> bytes:
    payload = marshal.dumps(value)
    return zlib.crc32(payload).to_bytes(4, "big") + payload


def _no_map_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(paths: VaultPaths) -> None:
        raise AssertionError("the code map was read")

    monkeypatch.setattr("rubi.sync.codememory.read_code_map", refuse)


def test_the_kept_symbols_are_the_maps_for_every_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    expected = _map_symbols(paths)
    assert any(expected.values())
    _fresh()
    assert not symbols_file(paths).exists()
    first = {name: code_symbols(paths, name) for name in expected}  # reads the map
    assert first == expected and symbols_file(paths).exists()
    _fresh()
    _no_map_read(monkeypatch)  # the next process reads the kept file only
    assert {name: code_symbols(paths, name) for name in expected} == expected
    assert code_symbols(paths, "no/such/file.py") == []


def test_a_code_edit_makes_the_kept_symbols_stale(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    _fresh()
    assert code_symbols(paths, PY_APP) == [("App", 4)]  # kept now
    text = (project / PY_APP).read_text(encoding="utf-8")
    (project / PY_APP).write_text(text + "\n\ndef later():\n    pass\n", encoding="utf-8")
    _fresh()
    app.index(paths)  # another process's run saves the map (or a delta)
    _fresh()
    assert code_symbols(paths, PY_APP) == [("App", 4), ("later", 8)]
    assert code_symbols(paths, PY_APP) == _map_symbols(paths)[PY_APP]


@pytest.mark.parametrize("damage", ["garbage", "group-writable", "other format", "bad entry"])
def test_an_unfit_kept_file_is_not_read(project: Path, damage: str) -> None:
    paths = app.locate(project / ".rubi")
    expected = _map_symbols(paths)
    _fresh()
    code_symbols(paths, PY_APP)
    kept = symbols_file(paths)
    fmt, key, table = _decoded(kept)
    if damage == "garbage":
        kept.write_bytes(b"\x00not marshal")
    elif damage == "group-writable":
        table[PY_APP] = (("Planted", 1),)
        kept.write_bytes(_encoded((fmt, key, table)))
        os.chmod(kept, 0o660)
    elif damage == "other format":
        table[PY_APP] = (("Planted", 1),)
        kept.write_bytes(_encoded((fmt + 1, key, table)))
    else:
        table[PY_APP] = (("Planted", "one"),)
        kept.write_bytes(_encoded((fmt, key, table)))
    os.chmod(kept, 0o660 if damage == "group-writable" else 0o600)
    _fresh()
    assert {name: code_symbols(paths, name) for name in expected} == expected


@pytest.mark.parametrize("damage", ["truncated", "a huge tuple's header", "one byte changed"])
def test_a_damaged_kept_file_never_reaches_marshal(
    project: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A damaged file is refused by its checksum before ``marshal`` reads it: a few bytes
    of garbage (``(`` and a count of 2**31 - 1) make ``marshal.loads`` allocate a tuple
    that large before it fails (35 s of CPU, 16 GB of address space)."""
    from rubi.sync import keptsymbols

    paths = app.locate(project / ".rubi")
    expected = _map_symbols(paths)
    _fresh()
    code_symbols(paths, PY_APP)
    kept = symbols_file(paths)
    data = kept.read_bytes()
    if damage == "truncated":
        kept.write_bytes(data[: len(data) // 2])
    elif damage == "one byte changed":
        kept.write_bytes(data[:-3] + bytes([data[-3] ^ 1]) + data[-2:])
    else:
        kept.write_bytes(data[:4] + b"(" + (2**31 - 1).to_bytes(4, "little"))
    loads: list[object] = []

    class Spy:
        dumps = staticmethod(marshal.dumps)

        @staticmethod
        def loads(data: bytes) -> object:
            loads.append(data)
            raise ValueError("bad marshal data")  # the damage is never decoded

    monkeypatch.setattr(keptsymbols, "marshal", Spy)
    _fresh()
    assert {name: code_symbols(paths, name) for name in expected} == expected
    assert loads == []


def test_a_process_that_holds_the_map_writes_nothing(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    _fresh()
    assert load_code_map(paths) is not None  # held by this process's vault sync
    assert code_symbols(paths, PY_APP) == [("App", 4)]
    assert not symbols_file(paths).exists()


def test_a_search_answers_the_same_bytes_from_the_kept_symbols(project: Path) -> None:
    paths = app.locate(project / ".rubi")

    def answer() -> str:
        result = app.search(paths, "App helper Loader class", refresh=False)
        text, data = app.search_answer(result, 2000, open_hint="read(ids)")
        assert "py/pkg/app.py#L4-5 (App)" in text  # a passage named by its symbol
        return text + repr(data)

    _fresh()
    assert load_code_map(paths) is not None
    from_map = answer()  # symbols from the map this process holds
    assert not symbols_file(paths).exists()
    _fresh()
    first = answer()  # reads the map from disk, keeps its symbols
    assert symbols_file(paths).exists()
    _fresh()
    kept = answer()  # reads the kept symbols
    assert from_map == first == kept
