"""Term-at-a-time BM25F equals a plain implementation of BM25F proper, and a kept-open
index follows the commits and rebuilds made after it was opened."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

import rubi.index.deletions as deletions
import rubi.index.segmentdata as segmentdata
import rubi.index.termscore as termscore
from bm25f_reference import reference_bm25f
from rubi import app
from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.querymatch import query_clauses
from rubi.index.searchindex import SearchIndex
from rubi.index.warm import forget_indexes, index_at

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "sync",
    "vault",
    "同期する",
    "設定",
]

CODE_FIELDS = {"symbols": "sync_vault cfg", "docs": "configuration of the vault"}


def _doc(i: int, version: int, rng: random.Random) -> IndexDoc:
    body = " ".join(rng.choice(WORDS) for _ in range(3 + (i * 7 + version) % 40))
    kind = "file" if i % 5 == 0 else "note"
    return IndexDoc(
        f"d{i:03d}",
        kind,
        f"d{i:03d}.md",
        "python" if kind == "file" else "note",
        "superseded" if i % 11 == 0 else "active",
        {
            "title": f"Doc {i} {WORDS[i % len(WORDS)]}",
            "headings": WORDS[(i + version) % len(WORDS)] if i % 3 else "",
            "body": body,
            **(CODE_FIELDS if i % 5 == 0 else {}),
        },
    )


QUERIES = [
    ("alpha", {}),
    ("sync vault", {}),
    ("beta gamma delta", {"limit": 7}),
    ("vault", {"kind": "note", "exclude_status": ("superseded",)}),
    ("configuration sync", {"kind": "file", "extra_terms": ("cfg",)}),
    ("theta lambda kappa doc", {"exclude_status": ("superseded",), "limit": 5}),
    ("doc", {"fields": ("title", "body"), "limit": 100}),
    ("no such words", {}),
    ("設定を同期する vault", {}),  # CJK bigrams: RSJ's IDF; a word: Whoosh's
]


def _compare(index: SearchIndex) -> None:
    for text, opts in QUERIES:
        got = index.bm25(text, **opts)  # type: ignore[arg-type]
        clauses = query_clauses(
            text,
            extra_terms=opts.get("extra_terms", ()),  # type: ignore[arg-type]
            kind=opts.get("kind"),  # type: ignore[arg-type]
            fields=opts.get("fields"),  # type: ignore[arg-type]
        )
        want = reference_bm25f(
            index.directory,
            clauses,
            limit=int(opts.get("limit", 50)),  # type: ignore[call-overload]
            kind=opts.get("kind"),  # type: ignore[arg-type]
            exclude_status=opts.get("exclude_status", ()),  # type: ignore[arg-type]
        )
        assert [(h.id, h.score, h.matched) for h in got] == want, text


@pytest.mark.parametrize("summed_with", ["dict", "numpy"])
def test_scores_equal_the_reference_over_segments_and_deletions(
    monkeypatch: pytest.MonkeyPatch, summed_with: str
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    if summed_with == "numpy":
        import numpy  # noqa: F401  (loaded: the scorer sums with it)

    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 0 if summed_with == "numpy" else 10**9)
    rng = random.Random(5)
    index = SearchIndex(cache_home() / "ts" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(300))  # postings of several blocks
    _compare(index)
    for version in range(1, 4):  # edits: more segments, deleted documents
        index.apply([_doc(i, version, rng) for i in rng.sample(range(300), 40)], ["d007"])
        _compare(index)
    assert index.deleted_share() > 0
    index.close()


def test_a_kept_open_index_follows_commits_and_rebuilds() -> None:
    rng = random.Random(1)
    directory = cache_home() / "kept" / "whoosh"
    writer = SearchIndex(directory)
    writer.rebuild(_doc(i, 0, rng) for i in range(20))
    kept = SearchIndex(directory, keep_open=True)
    assert [h.id for h in kept.bm25("unheardof")] == []
    writer.apply([IndexDoc("new", "note", "new.md", "note", "active", {"body": "unheardof"})], [])
    assert [h.id for h in kept.bm25("unheardof")] == ["new"]  # a commit: reopened
    writer.rebuild([IndexDoc("other", "note", "o.md", "note", "active", {"body": "unheardof"})])
    assert [h.id for h in kept.bm25("unheardof")] == ["other"]  # a new folder: reopened
    kept.close()
    writer.close()


def test_the_postings_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(termscore, "MAX_CACHED_POSTINGS", 50)
    rng = random.Random(2)
    index = SearchIndex(cache_home() / "bounded" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(120))
    for text, _ in QUERIES:
        index.bm25(text)
        scorer = index._scorer
        assert scorer is not None
        held = sum(len(p.docs) for p in scorer._postings.values())
        assert scorer._cached == held and (held <= 50 or len(scorer._postings) == 1)
    _compare(index)  # evictions change nothing
    index.close()


def test_app_search_keeps_the_index_open_and_sees_new_notes(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "one.md").write_text("# One\n\nabout quokkas\n", encoding="utf-8")
    paths = app.locate(vault)
    assert [h.id for h in app.search(paths, "quokkas").hits] == ["one"]
    kept = index_at(paths.whoosh_dir)
    assert kept._scorer is not None  # still open after the search
    (vault / "two.md").write_text("# Two\n\nquokkas and wombats\n", encoding="utf-8")
    assert {h.id for h in app.search(paths, "quokkas").hits} == {"one", "two"}
    app.index(paths, full=True)  # a rebuild swaps the folder
    assert [h.id for h in kept.bm25("wombats")] == ["two"]
    assert app.search(paths, "wombats", refresh=False).hits[0].id == "two"
    forget_indexes()
    assert kept._scorer is None


def test_after_a_commit_only_the_new_segment_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    directory = cache_home() / "segments" / "whoosh"
    writer = SearchIndex(directory)
    writer.rebuild(_doc(i, 0, rng) for i in range(200))
    kept = SearchIndex(directory, keep_open=True)
    reads: list[str] = []
    real = segmentdata._read_postings

    def counting(leaf: object, *args: object) -> None:
        reads.append(segmentdata.segment_id(leaf))
        real(leaf, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(segmentdata, "_read_postings", counting)
    assert kept.bm25("alpha beta quokka")
    old = set(reads)
    writer.apply([IndexDoc("new", "note", "new.md", "note", "active", {"body": "quokka"})], [])
    reads.clear()
    assert "new" in [h.id for h in kept.bm25("alpha beta quokka")]
    assert reads and old.isdisjoint(reads)  # the old segment's postings were kept
    _compare(kept)
    kept.close()
    writer.close()


@pytest.mark.parametrize("seed", range(20))
def test_the_best_are_those_of_a_full_sort(seed: int) -> None:
    import heapq
    import random

    from rubi.index.bm25fsums import best as _best

    rng = random.Random(seed)
    acc = {
        d: float(rng.choice([0.5, 1.0, 1.5, rng.random()])) for d in rng.sample(range(5000), 800)
    }
    for limit in (1, 10, 50, 2000):
        want = heapq.nsmallest(limit, [(-s, d) for d, s in acc.items()])
        assert _best(acc, acc.keys(), limit, whole=True) == want  # ties: lower number first
        some = {d for d in acc if d % 3}
        want = heapq.nsmallest(limit, [(-acc[d], d) for d in some])
        assert _best(acc, some, limit, whole=False) == want


@pytest.mark.parametrize("seed", range(20))
def test_numpy_sums_give_the_dict_sums_hits_to_the_last_bit(seed: int) -> None:
    """Words of several clauses (ties, sums whose float order matters), a mask."""
    from array import array

    from rubi.index.bm25fsums import Postings
    from rubi.index.bm25fsums import best as _best
    from rubi.index.bm25fsums import best_numpy as _best_numpy
    from rubi.index.bm25fsums import word_sums as _word_sums

    np = pytest.importorskip("numpy")
    rng = random.Random(seed)
    lists = []
    for _ in range(rng.randint(1, 8)):
        docs = sorted(rng.sample(range(3000), rng.randint(0, 900)))
        weights = [rng.choice([0.5, 1.0, 0.1 + 0.2, rng.random() * 7]) for _ in docs]
        lists.append(Postings(array("i", docs), array("d", weights)))
    order = list(range(len(lists)))
    rng.shuffle(order)  # a word's clauses need not be next to each other
    cuts = sorted(rng.sample(range(1, len(lists)), rng.randint(0, len(lists) - 1)))
    words = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(lists)], strict=True)]

    def idf(df: int) -> float:
        return math.log(3000 / (df + 1)) + 1

    scales = [rng.choice([1.0, 1.5, 3.0]) for _ in words]  # alone clauses' boosts
    acc = _word_sums(lists, words, scales, [idf] * len(words), 1.2)
    mask = frozenset(rng.sample(range(3200), 100))
    for limit in (1, 10, 50, 5000):
        assert _best_numpy(
            np, lists, words, scales, [idf] * len(words), 1.2, limit, frozenset()
        ) == _best(acc, acc.keys(), limit, whole=True)
        assert _best_numpy(np, lists, words, scales, [idf] * len(words), 1.2, limit, mask) == _best(
            acc, set(acc) - mask, limit, whole=False
        )


def test_a_word_saturates_once_over_its_fields() -> None:
    """BM25F proper: a word's weighted frequencies in every field are added before
    one saturation, so a word in a title and a body adds less than two words."""
    from array import array

    from rubi.index.bm25fsums import Postings
    from rubi.index.bm25fsums import word_sums as _word_sums

    title = Postings(array("i", [1, 2]), array("d", [4.0, 4.0]))
    body = Postings(array("i", [1, 3]), array("d", [1.0, 1.0]))
    other = Postings(array("i", [3, 4, 5]), array("d", [1.0, 1.0, 1.0]))
    one = _word_sums([title, body, other], [(0, 1), (2,)], [1.0, 1.0], [lambda df: 2.0] * 2, 1.2)
    assert one[1] == 2.0 * 5.0 / (1.2 + 5.0)  # title and body: one saturation
    assert one[2] == 2.0 * 4.0 / (1.2 + 4.0)
    assert one[3] == 2.0 * 1.0 / 2.2 + 2.0 * 1.0 / 2.2  # two words, each its own
    assert one[1] < 2.0  # at most the word's IDF, however many fields hold it
    assert one[3] > one[2]  # two words in a body outweigh one in a title


def test_a_numpy_another_thread_is_importing_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``rubi watch`` imports numpy in a background thread while the engine answers a
    search: ``sys.modules`` then holds a half-made numpy (no ``bincount`` yet), which
    the scorer must leave alone and sum with the dict."""
    import sys
    import types
    from importlib.machinery import ModuleSpec

    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 0)
    index = SearchIndex(cache_home() / "ts-half" / "whoosh", keep_open=True)
    rng = random.Random(6)
    index.rebuild(_doc(i, 0, rng) for i in range(40))
    want = [(h.id, h.score) for h in index.bm25("alpha beta")]
    half = types.ModuleType("numpy")
    half.__spec__ = ModuleSpec("numpy", None)
    half.__spec__._initializing = True  # type: ignore[attr-defined]  (as importlib marks it)
    monkeypatch.setitem(sys.modules, "numpy", half)
    try:
        assert want and [(h.id, h.score) for h in index.bm25("alpha beta")] == want
    finally:
        index.close()


def test_an_index_of_no_documents_answers_nothing_then_follows_its_first_commit() -> None:
    """An empty vault (a personal vault with no notes yet) has an index of no segments,
    whose reader has no generation: every search crashed with a TypeError."""
    index = SearchIndex(cache_home() / "empty" / "whoosh", keep_open=True)
    index.rebuild([])
    assert index.bm25("deploy") == [] and index.bm25("deploy") == []
    index.apply([IndexDoc("d001", "note", "d001.md", "note", "active", {"body": "deploy"})], [])
    assert [h.id for h in index.bm25("deploy")] == ["d001"]
    index.close()


def test_the_most_common_kind_is_found_as_the_others_complement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A notes search of a vault with a code map: the notes (four in five documents here)
    are every live document but the code files, so only the files' postings are read;
    the same documents as the notes' own postings, over segments and deletions."""
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    rng = random.Random(7)
    index = SearchIndex(cache_home() / "kinds" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(300))
    index.apply([_doc(i, 1, rng) for i in rng.sample(range(300), 40)], ["d007", "d010"])
    reads: list[tuple[str, str]] = []
    real = segmentdata._read_postings

    def counting(leaf: object, field: str, text: str, *args: object) -> None:
        reads.append((field, text))
        real(leaf, field, text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(segmentdata, "_read_postings", counting)
    index.bm25("vault")  # opens the scorer
    scorer = index._scorer
    assert scorer is not None and len(scorer._leaves) > 1
    reads.clear()
    notes = scorer.docs_with("kind", "note", ("note", "file"))
    assert ("kind", "note") not in reads and ("kind", "file") in reads
    files = scorer.docs_with("kind", "file", ("note", "file"))  # the fewer: its own postings
    assert ("kind", "note") not in reads
    scorer._docsets.clear()
    assert notes == scorer.docs_with("kind", "note")  # read from the notes' own postings
    assert ("kind", "note") in reads
    assert notes.isdisjoint(files) and len(notes) + len(files) == scorer.doc_count
    ids = {scorer.stored(d)["id"] for d in notes}
    assert "d007" not in ids and "d001" in ids and "d005" not in ids
    index.close()


@pytest.mark.parametrize("summed_with", ["dict", "numpy"])
def test_a_query_saturates_at_the_k1_it_asks_for(
    monkeypatch: pytest.MonkeyPatch, summed_with: str
) -> None:
    # One index, one postings cache, two saturations: a search of notes asks for
    # BM25_PROSE_K1, one of code for the scorer's own BM25_K1.
    from rubi.index.bm25params import BM25_K1, BM25_PROSE_K1

    if summed_with == "numpy":
        import numpy  # noqa: F401  (loaded: the scorer sums with it)
    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 0 if summed_with == "numpy" else 10**9)
    rng = random.Random(7)
    index = SearchIndex(cache_home() / "k1" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(120))
    assert BM25_PROSE_K1 != BM25_K1
    for text in ("alpha beta", "sync vault theta"):
        clauses = query_clauses(text)
        for k1 in (None, BM25_PROSE_K1, BM25_K1):
            got = index.bm25(text, k1=k1)
            want = reference_bm25f(index.directory, clauses, K1=k1 or BM25_K1)
            assert [(h.id, h.score, h.matched) for h in got] == want, (text, k1)
        prose = [h.score for h in index.bm25(text, k1=BM25_PROSE_K1)]
        assert prose != [h.score for h in index.bm25(text)]  # the cache kept no k1
    index.close()


@pytest.mark.parametrize("summed_with", ["dict", "numpy"])
def test_a_query_normalises_a_field_by_the_b_it_asks_for(
    monkeypatch: pytest.MonkeyPatch, summed_with: str
) -> None:
    # A plain-words question of notes asks for the body's b at BM25_PROSE_FIELD_B;
    # the postings are cached by b, so the next query at the index's own b gets its own.
    from rubi.index.bm25params import BM25_B, BM25_FIELD_B, BM25_PROSE_FIELD_B, BM25_PROSE_K1

    if summed_with == "numpy":
        import numpy  # noqa: F401  (loaded: the scorer sums with it)
    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 0 if summed_with == "numpy" else 10**9)
    rng = random.Random(11)
    index = SearchIndex(cache_home() / "fieldb" / "whoosh", keep_open=True)
    index.rebuild(_doc(i, 0, rng) for i in range(120))
    assert BM25_PROSE_FIELD_B["body"] != BM25_B
    prose_b = {**BM25_FIELD_B, **BM25_PROSE_FIELD_B}
    for text in ("alpha beta", "sync vault theta"):
        clauses = query_clauses(text)
        for field_b, want_b in ((None, BM25_FIELD_B), (BM25_PROSE_FIELD_B, prose_b)):
            got = index.bm25(text, k1=BM25_PROSE_K1, field_b=field_b)
            want = reference_bm25f(index.directory, clauses, K1=BM25_PROSE_K1, field_B=want_b)
            assert [(h.id, h.score, h.matched) for h in got] == want, (text, field_b)
        own = [h.score for h in index.bm25(text, k1=BM25_PROSE_K1)]
        assert own != [h.score for h in index.bm25(text, k1=BM25_PROSE_K1, field_b=prose_b)]
    index.close()
