"""Max-score pruning (:mod:`rubi.index.commonwords`) ranks as summing every posting
does, on a vault shaped like a real one (a footer's words in most notes, titles whose
words are nowhere else, headings, a very short and a very long note, edits and
deletions) for random queries over options the reference test leaves alone: a field
subset, another saturation, repeated and title-only words, one hit or fifty."""

from __future__ import annotations

import random

import pytest

import rubi.index.commonwords as commonwords
import rubi.index.deletions as deletions
import rubi.index.termscore as termscore
from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex

FOOTER = "see also the community plugin note and your vault settings"
TOPICS = [f"{a}{b}ion" for a in ("acc", "bel", "cor", "dat", "emb") for b in "dfgkmpt"]
TITLE_ONLY = [f"zz{a}{b}" for a in "bcdfg" for b in "klmnp"]  # in one title each


def _note(i: int, version: int, rng: random.Random) -> IndexDoc:
    topics = rng.sample(TOPICS, 1 + i % 4)
    body = " ".join(rng.choice(topics) for _ in range(5 + (i * 13 + version) % 60))
    if i % 5:
        body += " " + FOOTER * (1 + i % 2)
    kind = "file" if i % 9 == 0 else "note"
    return IndexDoc(
        f"n{i:03d}",
        kind,
        f"notes/n{i:03d}.md",
        "python" if kind == "file" else "note",
        "superseded" if i % 17 == 0 else "active",
        {
            "title": f"{TITLE_ONLY[i % len(TITLE_ONLY)]} {topics[0]}",
            "headings": f"{topics[-1]} plugin" if i % 3 else "",
            "body": body,
        },
    )


def _odd_notes() -> list[IndexDoc]:
    tiny = [
        IndexDoc(f"tiny{i}", "note", f"tiny{i}.md", "note", "active", {"body": w})
        for i, w in enumerate(["plugin", "note vault", "community"])
    ]
    huge = IndexDoc(
        "huge", "note", "huge.md", "note", "active", {"body": " ".join(TOPICS * 40) + FOOTER}
    )
    return [*tiny, huge]


def _query(rng: random.Random) -> tuple[str, dict[str, object]]:
    words = rng.sample(FOOTER.split(), rng.randint(1, 4))
    if rng.random() < 0.6:
        words += rng.sample(TOPICS, rng.randint(1, 2))
    if rng.random() < 0.3:
        words.append(rng.choice(TITLE_ONLY))
    if rng.random() < 0.2:
        words += words[:1]  # a word twice
    rng.shuffle(words)
    opts: dict[str, object] = {"limit": rng.choice([1, 2, 10, 50])}
    if rng.random() < 0.4:
        opts["kind"] = rng.choice(["note", "file"])
    if rng.random() < 0.3:
        opts["exclude_status"] = ("superseded",)
    if rng.random() < 0.3:
        opts["fields"] = rng.choice([("title",), ("title", "body"), ("headings", "body")])
    if rng.random() < 0.2:
        opts["k1"] = rng.choice([0.6, 2.0])
    return " ".join(words), opts


def test_pruned_ranking_equals_the_full_sums_on_a_real_looking_vault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    monkeypatch.setattr(termscore, "NUMPY_POSTINGS", 10**9)  # the pure-Python sums
    monkeypatch.setattr(commonwords, "COMMON_MIN_DOCS", 20)  # a small index prunes too
    real = termscore.pruned_top
    pruned: list[bool] = []

    def counted(*args: object) -> object:
        found = real(*args)  # type: ignore[arg-type]
        pruned.append(found is not None)
        return found

    rng = random.Random(29)
    index = SearchIndex(cache_home() / "pruned-fuzz" / "whoosh", keep_open=True)
    index.rebuild([*(_note(i, 0, rng) for i in range(240)), *_odd_notes()])
    for version in range(3):
        for _ in range(80):
            text, opts = _query(rng)
            monkeypatch.setattr(termscore, "pruned_top", counted)
            got = index.bm25(text, **opts)  # type: ignore[arg-type]
            monkeypatch.setattr(termscore, "pruned_top", lambda *args: None)
            want = index.bm25(text, **opts)  # type: ignore[arg-type]
            assert [(h.id, h.score, h.matched) for h in got] == [
                (h.id, h.score, h.matched) for h in want
            ], (text, opts)
        edited = rng.sample(range(240), 30)
        index.apply([_note(i, version + 1, rng) for i in edited], [f"n{rng.randrange(240):03d}"])
    assert index.deleted_share() > 0
    assert pruned.count(True) >= 40  # the comparison exercised the pruning...
    assert pruned.count(False) >= 10  # ...and its refusals
    index.close()
