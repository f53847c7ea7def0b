"""The flat graph's searched sections are checked once per file: the first reader of a
file that has settled records its check (``graph.flat.checked``), a later one that opens
the same file unchanged skips the CRC, and anything else (a file written since, a fresh
file, a record for other bytes, an untrusted record) is checked in full."""

from __future__ import annotations

import os
import zlib
from pathlib import Path
from typing import Any

import pytest

from rubi.core.errors import IndexCorruptError
from rubi.core.paths import cache_home
from rubi.graph import flat, flatcheck, flatlayout
from rubi.graph.flat import read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.live import LiveGraph

from helpers import graph_notes


class _Counting:
    """``zlib`` for :mod:`rubi.graph.flat`, counting the bytes its ``crc32`` reads."""

    def __init__(self) -> None:
        self.read = 0

    def crc32(self, data: Any, value: int = 0) -> int:
        self.read += len(data)
        return zlib.crc32(data, value)


@pytest.fixture
def path() -> Path:
    path = cache_home() / "indexes" / "vault-1" / "graph.flat"
    write_flat(path, LiveGraph.from_notes(graph_notes(), []).build, 7, 3)
    return path


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    stub = _Counting()
    monkeypatch.setattr(flat, "zlib", stub)
    return stub


def _settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock moved past :data:`flatcheck.SETTLED_NS` after every file's last change."""
    later = flatcheck.now_ns() + flatcheck.SETTLED_NS + 1
    monkeypatch.setattr(flatcheck, "now_ns", lambda: later)


def test_a_settled_file_is_checked_once_then_opened_without_its_crc(
    path: Path, counting: _Counting, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settled(monkeypatch)
    first = read_flat(path)[0].graph
    assert counting.read > 0 and flatcheck.checked_file(path).is_file()
    assert flatcheck.checked_file(path).stat().st_mode & 0o777 == 0o600
    counting.read = 0
    again = read_flat(path)[0].graph
    # the section table's CRC only: the record says the sections' bytes were checked
    assert counting.read == flatlayout.BODY - flatlayout.HEADER.size
    assert list(again) == list(first) and again.nodes["plan"] == first.nodes["plan"]


def test_a_file_written_moments_ago_is_checked_every_time_and_never_recorded(
    path: Path, counting: _Counting
) -> None:
    """A write in the same tick of the file system's clock would leave its times as
    they were: no record is made for a file that may still be written so."""
    for _ in range(2):
        counting.read = 0
        read_flat(path)
        assert counting.read > flatlayout.BODY
    assert not flatcheck.checked_file(path).exists()


def test_a_file_written_after_its_check_is_checked_again_and_refused_when_damaged(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settled(monkeypatch)
    read_flat(path)
    assert flatcheck.checked_file(path).is_file()
    data = bytearray(path.read_bytes())
    start, size = flat._spans(bytes(data))["attrs"]
    data[start + size // 2] ^= 0x20
    with path.open("r+b") as fh:  # in place: the same inode and size
        fh.write(data)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    with pytest.raises(IndexCorruptError, match="checksum differs"):
        read_flat(path)


@pytest.mark.parametrize("case", ["other bytes", "untrusted", "garbage"])
def test_a_record_that_does_not_match_or_is_not_trusted_means_a_full_check(
    case: str, path: Path, counting: _Counting, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settled(monkeypatch)
    read_flat(path)
    record = flatcheck.checked_file(path)
    held = record.read_bytes()
    if case == "other bytes":  # a record of the same file with another CRC
        record.write_bytes(held[:-4] + bytes(4))
    elif case == "untrusted":
        record.chmod(0o666)
    else:
        record.write_bytes(b"not a record")
    monkeypatch.setattr(flatcheck, "mark_checked", lambda *args: False)
    counting.read = 0
    read_flat(path)
    assert counting.read > flatlayout.BODY, case
