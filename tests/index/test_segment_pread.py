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

import pytest

import rubi.index.segmentdata as segmentdata
import rubi.index.segmentterms as segmentterms
from index.test_segment_files import _index
from index.test_termscore import QUERIES, _doc
from rubi.index.searchindex import SearchIndex
from rubi.index.segmentdata import SegmentData, _read_postings
from rubi.index.segmentterms import open_terms


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
