"""A hand-made ``graph.codeback`` the JSON parser takes but :func:`read_back` must not
trust: nested past the parser's limit, a weight no float holds, a weight that is not a
number (NaN, Infinity). Each is a file ignored (the code nodes rebuilt), never an
exception out of the reader (a crash of every cold search until the file is gone)."""

from __future__ import annotations

import os

import pytest

from rubi.core.paths import cache_home
from rubi.sync.codeback import read_back

_HEAD = b'{"format":1,"base":"B","head":"H","files":{},"modules":[],"edges":'


@pytest.mark.parametrize(
    "edges",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'[["a","b",' + b"9" * 400 + b"]]",
        b'[["a","b",NaN]]',
        b'[["a","b",Infinity]]',
        b'[["a","b",-Infinity]]',
    ],
    ids=["nested", "huge-weight", "nan", "infinity", "minus-infinity"],
)
def test_a_hostile_moves_file_is_ignored(edges: bytes) -> None:
    folder = cache_home() / "hostile"
    folder.mkdir(parents=True)
    path = folder / "graph.codeback"
    path.write_bytes(_HEAD + edges + b"}")
    os.chmod(path, 0o600)
    assert read_back(path, "B") is None


def test_a_well_made_moves_file_is_read() -> None:
    """The same shape with a finite weight is read (the cases above fail on content)."""
    folder = cache_home() / "fine"
    folder.mkdir(parents=True)
    path = folder / "graph.codeback"
    path.write_bytes(_HEAD + b'[["a","b",2],["a","c",null]]}')
    os.chmod(path, 0o600)
    back = read_back(path, "B")
    assert back is not None and back.edges == {("a", "b"): 2.0, ("a", "c"): None}


def test_a_moves_file_over_the_cap_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file longer than :data:`MAX_BYTES` (only a hand-made one is) is ignored, not
    read whole and parsed: here valid JSON padded with spaces past a lowered cap."""
    from rubi.sync import codeback

    monkeypatch.setattr(codeback, "MAX_BYTES", 4096)
    folder = cache_home() / "huge"
    folder.mkdir(parents=True)
    path = folder / "graph.codeback"
    path.write_bytes(_HEAD + b"[]" + b" " * 5000 + b"}")
    os.chmod(path, 0o600)
    assert read_back(path, "B") is None
    path.write_bytes(_HEAD + b"[]}")
    assert read_back(path, "B") is not None
