"""A query's common words summed only at its other words' documents (max-score
pruning, :mod:`rubi.index.commonwords`) give the reference BM25F's hits and scores to
the last bit, over segments and deletions, and the pruning is declined when a document
left out could reach the top."""

from __future__ import annotations

import random

import pytest

import rubi.index.commonwords as commonwords
import rubi.index.deletions as deletions
import rubi.index.termscore as termscore
from bm25f_reference import reference_bm25f
from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.querymatch import query_clauses
from rubi.index.searchindex import SearchIndex

COMMON = ["vault", "plugin", "note"]  # in nearly every document, as a footer puts them
RARE = [f"zq{a}{b}" for a in "bdfgkm" for b in "prstvx"]  # 36 words a stemmer keeps


def _doc(i: int, version: int, rng: random.Random) -> IndexDoc:
    words = [rng.choice(RARE) for _ in range(1 + (i * 7 + version) % 4)]
    words += [w for w in COMMON if rng.random() < 0.9] * (1 + i % 3)
    rng.shuffle(words)
    kind = "file" if i % 6 == 0 else "note"
    return IndexDoc(
        f"d{i:03d}",
        kind,
        f"d{i:03d}.md",
        "python" if kind == "file" else "note",
        "superseded" if i % 13 == 0 else "active",
        {
            "title": f"Doc {i} {RARE[i % len(RARE)]} {COMMON[i % 3] if i % 4 else ''}",
            "headings": RARE[(i + version) % len(RARE)] if i % 3 else "vault",
            "body": " ".join(words),
        },
    )


def _extremes() -> list[IndexDoc]:
    """Short documents of the common words alone, and long ones holding a rare word
    once and no common word: the rare word's documents score below the first."""
    heavy = [
        IndexDoc(
            f"heavy{i}",
            "note",
            f"heavy{i}.md",
            "note",
            "active",
            {"body": "vault plugin note " * 3},
        )
        for i in range(5)
    ]
    weak = [
        IndexDoc(
            f"weak{i}",
            "note",
            f"weak{i}.md",
            "note",
            "active",
            {"body": "zzweak " + "zzfill " * 80},
        )
        for i in range(10)
    ]
    return heavy + weak


def _queries(rng: random.Random) -> list[tuple[str, dict[str, object]]]:
    out: list[tuple[str, dict[str, object]]] = [
        ("vault plugin", {}),  # common words alone: nothing to prune
        ("zqbp my vault", {}),
        ("which plugin lets me note zqdr", {"kind": "note", "limit": 5}),
        ("zqgs note plugin vault", {"exclude_status": ("superseded",), "limit": 3}),
        ("zqkt vault", {"limit": 200}),  # more hits asked than candidates: declined
    ]
    # The rare word's documents score below a document of the common words alone.
    out.append(("zzweak vault plugin note", {"limit": 8}))
    for _ in range(30):
        words = rng.sample(RARE, rng.randint(1, 3)) + rng.sample(COMMON, rng.randint(1, 3))
        rng.shuffle(words)
        opts: dict[str, object] = {"limit": rng.choice([1, 3, 10, 50])}
        if rng.random() < 0.5:
            opts["kind"] = "note"
        if rng.random() < 0.3:
            opts["exclude_status"] = ("superseded",)
        out.append((" ".join(words), opts))
    return out


def _compare(index: SearchIndex, queries: list[tuple[str, dict[str, object]]]) -> None:
    for text, opts in queries:
        got = index.bm25(text, **opts)  # type: ignore[arg-type]
        clauses = query_clauses(
            text,
            kind=opts.get("kind"),  # type: ignore[arg-type]
        )
        want = reference_bm25f(
            index.directory,
            clauses,
            limit=int(opts.get("limit", 50)),  # type: ignore[call-overload]
            kind=opts.get("kind"),  # type: ignore[arg-type]
            exclude_status=opts.get("exclude_status", ()),  # type: ignore[arg-type]
        )
        assert [(h.id, h.score, h.matched) for h in got] == want, text


def test_pruned_sums_equal_the_reference_and_are_declined_when_unsafe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 10**9)  # the pure-Python sums
    monkeypatch.setattr(commonwords, "COMMON_MIN_DOCS", 20)  # a small index prunes too
    outcomes: list[bool] = []
    real = termscore.pruned_top

    def counted(*args: object) -> object:
        found = real(*args)  # type: ignore[arg-type]
        outcomes.append(found is not None)
        return found

    monkeypatch.setattr(termscore, "pruned_top", counted)
    rng = random.Random(11)
    queries = _queries(rng)
    index = SearchIndex(cache_home() / "pruned" / "whoosh", keep_open=True)
    index.rebuild([*(_doc(i, 0, rng) for i in range(400)), *_extremes()])  # several blocks
    _compare(index, queries)
    for version in range(1, 3):  # edits: more segments, deleted documents
        index.apply([_doc(i, version, rng) for i in rng.sample(range(400), 50)], ["d007"])
        _compare(index, queries)
    assert index.deleted_share() > 0
    assert outcomes.count(True) >= 20  # pruned...
    assert outcomes.count(False) >= 3  # ...and declined (all common, or a bound too high)
    index.close()


def test_common_words_need_a_rare_one_beside_them() -> None:
    assert commonwords.common_words([5000, 10], 8000) == [True, False]
    assert commonwords.common_words([5000, 6000], 8000) == [False, False]  # no candidates
    assert commonwords.common_words([900, 10], 1000) == [False, False]  # a small index
    assert commonwords.common_words([1500, 10], 8000) == [False, False]  # under a quarter
