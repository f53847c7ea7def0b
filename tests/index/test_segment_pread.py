"""A long-lived process reads a Whoosh segment's term look-ups and postings from its
file by ``pread`` (:mod:`rubi.index.segmentterms`): the same document numbers,
weights and document frequencies as Whoosh's reader, term by term, over several
segments, deleted documents, inlined and multi-block lists, and reads cut at any
size; a kept reader's searches never ask Whoosh for postings and rank the same;
where the file cannot be read so, Whoosh reads."""

from __future__ import annotations

import os
import random
from array import array
from pathlib import Path
from typing import Any

import pytest

import rubi.index.segmentdata as segmentdata
import rubi.index.segmentterms as segmentterms
from index.test_segment_files import _index
from index.test_termscore import QUERIES, _doc
from rubi.index.searchindex import SearchIndex
from rubi.index.segmentdata import SegmentData, _read_postings
from rubi.index.segmentfiles import _INT, _LONG, _POINTER, _TERM_INFO, _USHORT
from rubi.index.segmentpickles import SegmentFormatError
from rubi.index.segmentterms import SegmentTerms, open_terms


def _whoosh(leaf: object, field: str, text: str) -> tuple[list[int], list[float]]:
    ids: array[int] = array("i")
    weights: array[float] = array("d")
    _read_postings(leaf, field, text, ids, weights)
    return list(ids), list(weights)


@pytest.mark.parametrize("small", [False, True], ids=["sized", "one-byte-steps"])
def test_pread_reads_what_whoosh_reads(monkeypatch: pytest.MonkeyPatch, small: bool) -> None:
    from whoosh import index as windex

    if small:  # every read too short: each slot run, value and block read on
        monkeypatch.setattr(segmentterms, "SLOT_RUN", 1)
        monkeypatch.setattr(segmentterms, "VALUE_BYTES", 0)
        monkeypatch.setattr(segmentterms, "BLOCK_BYTES", 1)
    directory = _index(monkeypatch, f"pread-{small}").directory
    whoosh = windex.open_dir(str(directory)).reader()
    try:
        leaves = list(whoosh.leaf_readers())
        assert len(leaves) >= 2 and any(leaf.has_deletions() for leaf, _ in leaves)
        longest, inlined = 0, 0
        for leaf, _ in leaves:
            terms = open_terms(directory, leaf)
            assert terms is not None
            every = [(f, t.decode("utf-8")) for f, t in leaf.all_terms()]
            for field, text in [*every, ("body", "nowhere"), ("nofield", "x")]:
                ids, weights = terms.term_postings(field, text)
                assert (list(ids), list(array("d", weights))) == _whoosh(leaf, field, text)
                if field in leaf.schema.names():
                    assert terms.doc_frequency(field, text) == leaf.doc_frequency(field, text)
                longest = max(longest, len(ids))
                inlined += len(ids) == 1
            terms.close()
            terms.close()  # twice: nothing more
        assert longest > 128 and inlined  # several blocks; a list inlined in its term
    finally:
        whoosh.close()


def test_a_kept_reader_never_asks_whoosh_for_postings(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "kept")
    plain = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    dfs = index.term_df(["alpha", "sync", "nowhere"])
    real = segmentdata._read_postings
    asked: list[str] = []

    def reading(leaf: object, field: str, text: str, *rest: object) -> None:
        if len(rest) < 3 or rest[2] is None:
            asked.append(text)  # through Whoosh's matcher
        real(leaf, field, text, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(segmentdata, "_read_postings", reading)
    kept = SearchIndex(index.directory, keep_open=True)
    assert [kept.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert kept.term_df(["alpha", "sync", "nowhere"]) == dfs
    assert asked == []
    rng = random.Random(9)  # a commit since: the new segment is read so too
    index.apply([_doc(i, 5, rng) for i in range(20)], ["d002"])
    index.close()
    want = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    asked.clear()
    assert [kept.bm25(text, **opts) for text, opts in QUERIES] == want  # type: ignore[arg-type]
    assert asked == []
    kept.close()


def test_whoosh_reads_where_the_file_cannot_be_read_so(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "fallback")
    plain = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    broken = SearchIndex(index.directory, keep_open=True)

    def fails(self: object, field: str, text: str) -> None:
        raise segmentterms.SegmentFormatError("a damaged list")

    monkeypatch.setattr(segmentterms.SegmentTerms, "term_postings", fails)
    assert [broken.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert broken._segments._files and not any(broken._segments._files.values())
    broken.close()
    monkeypatch.delattr(os, "pread")  # a platform without it
    leaf = SearchIndex(index.directory, keep_open=True)
    assert [leaf.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert not any(leaf._segments._files.values())
    leaf.close()


def test_a_segment_gone_from_the_reader_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "closed")
    data = SegmentData(index.directory)
    kept = SearchIndex(index.directory, keep_open=True)
    kept._segments = data
    assert kept.bm25("alpha")
    opened = dict(data._files)
    assert opened and all(opened.values())
    data.keep(set())
    assert data._files == {}
    assert all(t._fd == -1 for t in opened.values())  # type: ignore[union-attr]
    kept.close()


def _damaged_copy(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[object, Any, Path]:
    """An index of one segment (its file ``MAIN_<id>.seg``), its Whoosh leaf reader
    and the file, for a test to damage before it opens the file by pread."""
    from whoosh import index as windex

    index = _index(monkeypatch, name)
    whoosh = windex.open_dir(str(index.directory)).reader()
    leaf = next(iter(whoosh.leaf_readers()))[0]
    path = Path(index.directory, f"{leaf.segment().segment_id()}.seg")
    return whoosh, leaf, path


def _slot_at(terms: SegmentTerms, field: str, text: str) -> int:
    """Where in the file the hash slot of a held term is."""
    t = terms._table
    key = _USHORT.pack(t.fieldmap[field]) + text.encode("utf-8")
    keyhash = t.hash(key)
    table, slots = t.tables[keyhash & 255]
    slot = (keyhash >> 8) % slots
    while True:
        at = t.start + table + slot * _POINTER.size
        slothash, item = _POINTER.unpack(os.pread(terms._fd, _POINTER.size, at))
        if slothash == keyhash and terms._item(t.start + item, key) is not None:
            return at
        slot = (slot + 1) % slots


def _most_held(leaf: Any) -> tuple[str, str]:
    """The term of the longest posting list in the body field."""
    return max(
        (("body", t.decode("utf-8")) for f, t in leaf.all_terms() if f == "body"),
        key=lambda term: leaf.doc_frequency(*term),
    )


def test_a_pointer_out_of_the_term_table_is_an_error_not_an_absent_term(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whoosh reads a term table as a file of its own: a slot pointing past it fails
    there. Read by pread from the whole compound file, the pointer reached another
    part of the file, found no key there and said the term was absent: an empty
    answer where the index is damaged."""
    whoosh, leaf, path = _damaged_copy(monkeypatch, "pointer")
    field, text = _most_held(leaf)
    terms = open_terms(path.parent, leaf)
    assert terms is not None and terms.term_postings(field, text)[0]
    slot = _slot_at(terms, field, text)
    slothash = _POINTER.unpack(os.pread(terms._fd, _POINTER.size, slot))[0]
    elsewhere = terms._postings + 4 - terms._table.start  # the postings: not the table's
    with open(path, "r+b") as fh:
        fh.seek(slot)
        fh.write(_POINTER.pack(slothash, elsewhere))
    terms.close()
    whoosh.close()
    from whoosh import index as windex

    whoosh = windex.open_dir(str(path.parent)).reader()
    leaf = next(iter(whoosh.leaf_readers()))[0]
    damaged = open_terms(path.parent, leaf)
    assert damaged is not None
    with pytest.raises(SegmentFormatError):
        damaged.term_postings(field, text)
    with pytest.raises(SegmentFormatError):
        damaged.doc_frequency(field, text)
    with pytest.raises(Exception):  # noqa: B017 - Whoosh's own reading fails too
        _whoosh(leaf, field, text)
    damaged.close()
    whoosh.close()


@pytest.mark.parametrize("damage", ["huge", "garbage", "count"])
def test_a_damaged_posting_block_is_a_format_error_read_within_the_file(
    monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A block's declared length past the postings is refused before it is read (no
    read of gigabytes); a block whose header is not a pickle is a format error (read
    through Whoosh then), not the unpickler's own exception; a block whose count
    disagrees with its ids is a format error too (it had given more ids than
    weights, where Whoosh's matcher reads as many postings as the count says)."""
    whoosh, leaf, path = _damaged_copy(monkeypatch, f"block-{damage}")
    field, text = _most_held(leaf)
    terms = open_terms(path.parent, leaf)
    assert terms is not None
    value = terms._value(field, text)
    assert value is not None and not value[0]  # a posting list of its own, not inlined
    at = terms._postings + _LONG.unpack_from(value, _TERM_INFO.size)[0] + 4
    terms.close()
    with open(path, "r+b") as fh:
        if damage == "count":  # the header's document count one less than its ids
            fh.seek(at + _INT.size)
            head = fh.read(5)
            assert head[:4] == b"\x80\x02(K" and head[4] > 1  # (count, ...) pickled
            fh.seek(at + _INT.size + 4)
            fh.write(bytes([head[4] - 1]))
        else:
            fh.seek(at if damage == "huge" else at + _INT.size)
            fh.write(_INT.pack(0x7FFFFFFF) if damage == "huge" else bytes(8))
    sizes: list[int] = []
    real = os.pread

    def pread(fd: int, size: int, offset: int) -> bytes:
        sizes.append(size)
        return real(fd, size, offset)

    monkeypatch.setattr(os, "pread", pread)
    damaged = open_terms(path.parent, leaf)
    assert damaged is not None
    with pytest.raises(SegmentFormatError):
        damaged.term_postings(field, text)
    assert max(sizes) <= path.stat().st_size
    damaged.close()
    whoosh.close()


@pytest.mark.parametrize(
    "content",
    [b"abc", b"zeros", b"half", b"tail"],
    ids=["tiny", "zero-filled", "cut-in-half", "directory-damaged"],
)
def test_a_file_replaced_under_an_open_reader_is_read_through_whoosh(
    monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    """Whoosh opened the segment; a damaged file then took its name (Whoosh's map
    keeps the old one). The pread reader opens its file on first use: it reads
    through Whoosh then, where it had raised the unpickler's or struct's error."""
    whoosh, leaf, path = _damaged_copy(monkeypatch, f"replaced-{content.decode()}")
    field, text = _most_held(leaf)
    want = _whoosh(leaf, field, text)
    good = path.read_bytes()
    damaged = {
        b"abc": b"abc",
        b"zeros": bytes(len(good)),
        b"half": good[: len(good) // 2],
        b"tail": good[:-40] + bytes(40),
    }[content]
    path.unlink()
    path.write_bytes(damaged)
    assert open_terms(path.parent, leaf) is None
    data = SegmentData(path.parent)
    assert list(data.postings("s", leaf, field, text)[0]) == want[0]
    assert data._files == {"s": None}
    whoosh.close()
