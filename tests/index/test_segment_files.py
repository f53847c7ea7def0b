"""A process that searches once reads the index without Whoosh
(:mod:`rubi.index.segmentfiles`): the same postings, lengths, stored fields and
statistics as Whoosh's reader, term by term, over several segments and deleted
documents; the same hits; Whoosh's reader for anything it does not know, and again
through Whoosh when a read fails midway."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import rubi.core.segmentreads as segmentreads
import rubi.index.deletions as deletions
import rubi.index.segmentfiles as segmentfiles
from index.test_termscore import QUERIES, _compare, _doc
from rubi.core.paths import cache_home
from rubi.index.searchindex import SearchIndex
from rubi.index.segmentdata import SegmentData, _stored_lengths
from rubi.index.segmentfiles import ColdSegment, open_segments


def _index(monkeypatch: pytest.MonkeyPatch, name: str) -> SearchIndex:
    """An index of three commits: two segments at least, deleted documents in each."""
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    rng = random.Random(5)
    index = SearchIndex(cache_home() / name / "whoosh")
    index.rebuild(_doc(i, 0, rng) for i in range(300))
    for version in range(1, 3):
        index.apply([_doc(i, version, rng) for i in rng.sample(range(300), 40)], ["d011"])
    index.close()
    return index


def test_the_cold_reader_reads_what_whoosh_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    from whoosh import index as windex

    directory = _index(monkeypatch, "both").directory
    whoosh = windex.open_dir(str(directory)).reader()
    cold = open_segments(directory)
    try:
        leaves = list(whoosh.leaf_readers())
        assert len(leaves) >= 2 and any(leaf.has_deletions() for leaf, _ in leaves)
        assert [o for _, o in leaves] == [o for _, o in cold.leaf_readers()]
        assert cold.doc_count() == whoosh.doc_count()
        assert cold.generation() == whoosh.generation() == cold.latest_generation()
        fields = list(whoosh.schema.names())
        for field in fields:
            assert cold.field_length(field) == whoosh.field_length(field), field
        assert cold.lexicon("lang") == sorted(whoosh.lexicon("lang"))
        terms = 0
        for (wleaf, _), (cleaf, _) in zip(leaves, cold.leaf_readers(), strict=True):
            assert cleaf.deleted_docs_set == wleaf.deleted_docs_set
            assert cleaf.has_deletions() == wleaf.has_deletions()
            for field in fields:
                assert _stored_lengths(cleaf, field) == _stored_lengths(wleaf, field), field
                # kept as Whoosh's one-byte codes, decoded where a posting reads one
                codes, table = SegmentData().lengths("c", cleaf, field)
                assert isinstance(codes, bytes) and len(codes) == wleaf.doc_count_all()
                assert [table[c] for c in codes] == [
                    int(wleaf.doc_field_length(d, field, 1) or 0)
                    for d in range(wleaf.doc_count_all())
                ], field
            want, got = SegmentData(), SegmentData()
            every = [(f, t.decode("utf-8")) for f, t in wleaf.all_terms()]
            for field, text in [*every, ("body", "nowhere"), ("nofield", "x")]:
                a, b = want.postings("w", wleaf, field, text), got.postings("c", cleaf, field, text)
                assert (list(b[0]), list(b[1])) == (list(a[0]), list(a[1])), (field, text)
                assert ((field, text) in cleaf) == ((field, text) in wleaf)
                if field in fields:
                    assert cleaf.doc_frequency(field, text) == wleaf.doc_frequency(field, text)
                terms += 1
            for docnum in range(wleaf.doc_count_all()):
                assert cleaf.stored_fields(docnum) == wleaf.stored_fields(docnum)
        assert terms > 500
    finally:
        whoosh.close()
        cold.close()


def test_deleted_documents_that_are_not_document_numbers_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A segment's deleted documents are Whoosh's ints; anything else (a digit string,
    a float, a bool) is a format this reader does not know (read through Whoosh)."""
    directory = str(_index(monkeypatch, "deleted").directory)
    fields, states = segmentfiles._read_toc(directory, segmentfiles.latest_generation(directory))
    state = next(s for s in states if s.get("_deleted"))
    segment = ColdSegment(directory, state, fields)
    assert segment.deleted_docs_set == frozenset(state["_deleted"]) and segment.has_deletions()
    segment.close()
    for bad in ({"3"}, {1.0}, {True}, [1, "2"]):
        with pytest.raises(segmentfiles.SegmentFormatError, match="deleted documents"):
            ColdSegment(directory, {**state, "_deleted": bad}, fields)


def test_a_search_reads_without_whoosh_and_ranks_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "search")
    plain = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    cold = SearchIndex(index.directory, keep_open=True)
    assert [cold.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert cold._cold and cold._ix is None
    _compare(cold)  # the BM25F reference
    assert cold.term_df(["alpha", "sync"]) == index.term_df(["alpha", "sync"])
    assert cold.term_idf(["alpha", "vault"]) == index.term_idf(["alpha", "vault"])
    assert cold.languages() == index.languages()
    rng = random.Random(9)  # a commit since: the next search reads the new generation
    index.apply([_doc(i, 5, rng) for i in range(20)], ["d002"])
    index.close()
    assert [cold.bm25(text, **opts) for text, opts in QUERIES] == [
        index.bm25(text, **opts)  # type: ignore[arg-type]
        for text, opts in QUERIES
    ]
    assert cold._cold
    cold.close()


def test_a_format_it_does_not_know_is_read_through_whoosh(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "unknown")
    plain = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    monkeypatch.setattr(segmentfiles, "_TOC_VERSION", -112)
    with pytest.raises(segmentfiles.SegmentFormatError):
        open_segments(index.directory)
    cold = SearchIndex(index.directory, keep_open=True)
    assert [cold.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert not cold._cold and cold._ix is not None
    cold.close()


def test_a_read_that_fails_midway_is_done_again_through_whoosh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = _index(monkeypatch, "midway")
    plain = [index.bm25(text, **opts) for text, opts in QUERIES]  # type: ignore[arg-type]
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])

    def broken(self: ColdSegment, field: str, text: str) -> object:
        raise segmentfiles.SegmentFormatError("a block of another format")

    monkeypatch.setattr(ColdSegment, "term_postings", broken)
    cold = SearchIndex(index.directory, keep_open=True)
    assert [cold.bm25(text, **opts) for text, opts in QUERIES] == plain  # type: ignore[arg-type]
    assert not cold._cold and cold._whoosh
    cold.close()


_PROBE = """
import sys
from pathlib import Path
from rubi.core.segmentreads import map_segments
from rubi.index.searchindex import SearchIndex
map_segments()
hits = SearchIndex(Path(sys.argv[1])).bm25("alpha sync vault")
print(len(hits), " ".join(sorted(m for m in sys.modules if m.startswith("whoosh."))))
"""


def test_a_cold_search_imports_no_whoosh_reading_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    index = _index(monkeypatch, "probe")
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, str(index.directory)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    count, modules = run.stdout.strip().split(" ", 1)
    assert int(count) == len(index.bm25("alpha sync vault")) > 0
    loaded = set(modules.split())
    assert "whoosh.analysis" in loaded  # the query's analysis is still Whoosh's
    for reading in ("whoosh.index", "whoosh.reading", "whoosh.codec.whoosh3", "whoosh.fields"):
        assert reading not in loaded, json.dumps(sorted(loaded))


class _Runs:
    """An object whose pickle calls a function when loaded."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return (os.getenv, ("HOME",))


def test_a_segment_pickle_that_names_a_function_is_refused_before_it_runs() -> None:
    import pickle
    from array import array

    from rubi.index.segmentpickles import SegmentFormatError, plain_loads

    plain = ([1, 2], array("f", [1.0, 0.5]), {"path": "a.md"}, b"\x00\xff", 2.5)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert plain_loads(pickle.dumps(plain, protocol)) == plain
        with pytest.raises(SegmentFormatError, match=r"(os|posix)\.getenv"):
            plain_loads(pickle.dumps({"x": _Runs()}, protocol))


def test_protocol_2_bytes_load_without_the_latin1_codec_module() -> None:
    """Protocol 2 writes bytes as ``_codecs.encode(text, "latin1")``: the loader gives
    the same bytes through ``str.encode``'s own Latin-1 path (no codec looked up, so a
    cold hook does not import ``encodings.latin_1``), and any other encoding or value
    as ``_codecs.encode`` does."""
    import _codecs
    import pickle

    from rubi.index.segmentpickles import _encode, plain_loads

    every = bytes(range(256))
    script = (
        "import pickle, sys\nfrom rubi.index.segmentpickles import plain_loads\n"
        f"assert plain_loads({pickle.dumps([every, b'a'], 2)!r}) == [{every!r}, b'a']\n"
        "print('encodings.latin_1' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.stdout.strip() == "False", run.stderr
    assert plain_loads(pickle.dumps(every, 2)) == every
    text = every.decode("latin-1")
    assert _encode(text, "latin1") == _codecs.encode(text, "latin1") == every
    assert _encode("é", "utf-8") == _codecs.encode("é", "utf-8")
    with pytest.raises(UnicodeEncodeError):
        _encode("€", "latin1")
    with pytest.raises(TypeError):
        _encode(b"x", "latin1")
