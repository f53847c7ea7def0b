"""A damaged segment (truncated, garbled) that neither the cold reader
(:mod:`rubi.index.segmentfiles`) nor Whoosh can read: a search and a document count
raise :class:`IndexCorruptError` (one line, and ``rubi index`` rebuilds), never
Whoosh's ``EOFError`` (which click prints as a bare ``Aborted!``) or a pickle's error."""

from __future__ import annotations

import pytest

import rubi.core.segmentreads as segmentreads
from index.test_segment_files import _index
from rubi.core.errors import IndexCorruptError
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
