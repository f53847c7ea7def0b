"""The Read guard's outline of a code file (:func:`rubi.app.fileoutline.symbol_ranges`)
comes from the outlines kept beside the code map (:func:`rubi.sync.keptsymbols.outlines_file`)
in a process that has not read the map: the same kinds, names and lines as the map's,
for every file; a stale, damaged or untrusted kept file is not read; a process that
holds the map answers from it and writes nothing."""

from __future__ import annotations

import marshal
import os
import zlib
from pathlib import Path

import pytest

from codemap.codemap_helpers import indexed_code_project
from codemap.test_codemap_reshape import FILES
from rubi import app
from rubi.app import fileoutline
from rubi.app.fileoutline import SymbolRange, symbol_ranges
from rubi.core.paths import VaultPaths
from rubi.sync import forget_vault_syncs, load_code_map
from rubi.sync.keptsymbols import OUTLINES_FORMAT, forget_kept_symbols, outlines_file

PY_APP = "py/pkg/app.py"
LINES = 40


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return indexed_code_project(tmp_path / "proj", FILES)


def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process starts: nothing read or kept in memory."""
    forget_vault_syncs()
    forget_kept_symbols()
    monkeypatch.setattr(fileoutline, "_READ", None)


def _from_map(
    paths: VaultPaths, files: list[str], monkeypatch: pytest.MonkeyPatch
) -> dict[str, list[SymbolRange]]:
    """Every file's ranges read from the saved map itself (no kept outlines)."""
    with monkeypatch.context() as patched:
        patched.setattr(fileoutline, "_kept_outline", lambda paths, rel: None)
        return {name: symbol_ranges(paths, name, LINES) for name in files}


def _files(paths: VaultPaths) -> list[str]:
    code_map = load_code_map(paths)
    assert code_map is not None
    return sorted(code_map.files)


def _no_map_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(paths: VaultPaths) -> None:
        raise AssertionError("the code map was read")

    monkeypatch.setattr("rubi.sync.codestore.read_code_map", refuse)
    monkeypatch.setattr("rubi.sync.codememory.read_code_map", refuse)


def _encoded(value: object) -> bytes:
    payload = marshal.dumps(value)
    return zlib.crc32(payload).to_bytes(4, "big") + payload


def test_the_kept_outlines_are_the_maps_for_every_file(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    files = _files(paths)
    _fresh(monkeypatch)
    expected = _from_map(paths, files, monkeypatch)
    assert any(expected.values())
    _fresh(monkeypatch)
    assert not outlines_file(paths).exists()
    first = {name: symbol_ranges(paths, name, LINES) for name in files}  # reads the map
    assert first == expected and outlines_file(paths).exists()
    _fresh(monkeypatch)
    _no_map_read(monkeypatch)  # the next process reads the kept file only
    assert {name: symbol_ranges(paths, name, LINES) for name in files} == expected
    assert symbol_ranges(paths, "no/such/file.py", LINES) == []


def test_a_code_edit_makes_the_kept_outlines_stale(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    _fresh(monkeypatch)
    assert [r.name for r in symbol_ranges(paths, PY_APP, LINES)] == ["App"]  # kept now
    text = (project / PY_APP).read_text(encoding="utf-8")
    (project / PY_APP).write_text(text + "\n\ndef later():\n    pass\n", encoding="utf-8")
    _fresh(monkeypatch)
    app.index(paths)  # another process's run saves the map (or a delta)
    _fresh(monkeypatch)
    got = symbol_ranges(paths, PY_APP, LINES)
    assert [(r.kind, r.name) for r in got] == [("class", "App"), ("function", "later")]
    _fresh(monkeypatch)
    assert got == _from_map(paths, [PY_APP], monkeypatch)[PY_APP]


@pytest.mark.parametrize(
    "damage", ["garbage", "group-writable", "other format", "bad entry", "one byte changed"]
)
def test_an_unfit_kept_file_is_not_read(
    project: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    paths = app.locate(project / ".rubi")
    files = _files(paths)
    _fresh(monkeypatch)
    expected = _from_map(paths, files, monkeypatch)
    _fresh(monkeypatch)
    symbol_ranges(paths, PY_APP, LINES)
    kept = outlines_file(paths)
    data = kept.read_bytes()
    fmt, key, table = marshal.loads(data[4:])
    assert fmt == OUTLINES_FORMAT
    planted = (("class", "Planted", 1),)
    if damage == "garbage":
        kept.write_bytes(b"\x00not marshal")
    elif damage == "group-writable":
        kept.write_bytes(_encoded((fmt, key, {**table, PY_APP: planted})))
    elif damage == "other format":
        kept.write_bytes(_encoded((fmt + 1, key, {**table, PY_APP: planted})))
    elif damage == "bad entry":
        kept.write_bytes(_encoded((fmt, key, {**table, PY_APP: (("class", "Planted"),)})))
    else:
        kept.write_bytes(data[:-3] + bytes([data[-3] ^ 1]) + data[-2:])
    os.chmod(kept, 0o660 if damage == "group-writable" else 0o600)
    _fresh(monkeypatch)
    assert {name: symbol_ranges(paths, name, LINES) for name in files} == expected


def test_a_process_that_holds_the_map_writes_nothing(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    _fresh(monkeypatch)
    assert load_code_map(paths) is not None  # held by this process's vault sync
    assert [r.name for r in symbol_ranges(paths, PY_APP, LINES)] == ["App"]
    assert not outlines_file(paths).exists()
