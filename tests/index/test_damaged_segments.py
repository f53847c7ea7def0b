"""A damaged segment (truncated, garbled) that neither the cold reader
(:mod:`rubi.index.segmentfiles`) nor Whoosh can read: a search and a document count
raise :class:`IndexCorruptError` (one line, and ``rubi index`` rebuilds), never
Whoosh's ``EOFError`` (which click prints as a bare ``Aborted!``) or a pickle's error."""

from __future__ import annotations

import os
import threading

import pytest

import rubi.core.segmentreads as segmentreads
import rubi.index.segmentfiles as segmentfiles
from index.test_segment_files import _index
from rubi.core.errors import IndexCorruptError
from rubi.core.picklefiles import UntrustedCacheError
from rubi.index.searchindex import SearchIndex


# Whoosh leaves the file of a segment it failed to open to the collector.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("cold", [False, True])
@pytest.mark.parametrize("damage", ["half", "empty", "zeros", "garbled"])
def test_a_damaged_segment_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, cold: bool, damage: str
) -> None:
    index = _index(monkeypatch, f"damaged-{damage}-{cold}")
    assert index.bm25("alpha")
    biggest = max(index.directory.glob("*.seg"), key=lambda p: p.stat().st_size)
    data = biggest.read_bytes()
    changed = {
        "half": data[: len(data) // 2],  # Whoosh: EOFError
        "empty": b"",
        "zeros": bytes(len(data)),
        "garbled": data[:8] + b"\xff" * (len(data) - 8),
    }[damage]
    biggest.write_bytes(changed)
    if cold:
        monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    reading = SearchIndex(index.directory)
    with pytest.raises(IndexCorruptError, match=r"index unreadable .*run `rubi index --full`"):
        reading.bm25("alpha")
    with pytest.raises(IndexCorruptError, match="index unreadable"):
        SearchIndex(index.directory).doc_count()


@pytest.mark.parametrize("cold", [False, True])
def test_a_fifo_in_place_of_a_segment_is_refused_not_waited_on(
    monkeypatch: pytest.MonkeyPatch, cold: bool
) -> None:
    index = _index(monkeypatch, f"fifo-{cold}")
    segment = min(index.directory.glob("*.seg"))
    segment.unlink()
    os.mkfifo(segment)  # opening it for reading would wait for a writer forever
    if cold:
        monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    found: list[BaseException] = []

    def search() -> None:
        try:
            SearchIndex(index.directory).bm25("alpha")
        except BaseException as exc:  # kept for the assertion
            found.append(exc)

    thread = threading.Thread(target=search, daemon=True)
    thread.start()
    thread.join(30)
    if thread.is_alive():  # free the blocked open before failing
        os.close(os.open(segment, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the search waits on a FIFO")
    assert len(found) == 1 and isinstance(found[0], UntrustedCacheError), found
    assert "not a regular file" in str(found[0])


def test_a_run_of_continuation_bytes_is_no_number() -> None:
    assert segmentfiles._varint(b"\x81\x01", 0) == (129, 2)
    with pytest.raises(segmentfiles.SegmentFormatError):  # not 10**5 big-integer shifts
        segmentfiles._varint(b"\xff" * 100_000 + b"\x00", 0)
