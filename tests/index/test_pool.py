"""The writer's posting pool gives the codec Whoosh's postings in Whoosh's order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage
from whoosh.writing import PostingPool

from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.pool import Posting, RunPool
from rubi.index.searchindex import SearchIndex


def _postings(rng: random.Random, docs: int, monotonic: bool) -> list[Posting]:
    """Postings as a writer adds them: document by document (numbers growing when
    ``monotonic``), each with its fields' terms."""
    out: list[Posting] = []
    numbers = list(range(docs))
    if not monotonic:
        rng.shuffle(numbers)
    for doc in numbers:
        for field in ("body", "title"):
            for term in rng.sample(range(300), rng.randrange(1, 40)):
                value = None if rng.random() < 0.3 else bytes([rng.randrange(4)])
                out.append((field, f"t{term}".encode(), doc, float(rng.randrange(1, 4)), value))
    return out


def _drain(pool: PostingPool, items: list[Posting], maxfiles: int = 128) -> list[Posting]:
    for item in items:
        pool.add(item)
    return list(pool.items(maxfiles=maxfiles))


@pytest.mark.parametrize("monotonic", [True, False])
@pytest.mark.parametrize("maxfiles", [2, 3, 128])
def test_same_order_as_whoosh(tmp_path: Path, monotonic: bool, maxfiles: int) -> None:
    rng = random.Random(7)
    items = _postings(rng, 400, monotonic)
    storage = FileStorage(str(tmp_path)).create()
    ours = RunPool(storage, None, limitmb=1)
    ours.limit = 40_000  # a run every few hundred postings
    theirs = PostingPool(storage, None, limitmb=1)
    theirs.limit = 40_000
    got = _drain(ours, items, maxfiles)
    assert got == _drain(theirs, items, maxfiles) == sorted(items)
    assert not list(tmp_path.glob("*.run"))  # every run read and removed


def test_without_spill_is_sorted(tmp_path: Path) -> None:
    items = _postings(random.Random(3), 50, True)
    pool = RunPool(FileStorage(str(tmp_path)).create(), None, limitmb=64)
    assert _drain(pool, items) == sorted(items)
    assert pool.runs == []


def test_index_with_runs_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that spills finds the same documents as one that does not."""
    docs = [
        IndexDoc(
            id=f"n{i}",
            kind="note",
            path=f"n{i}.md",
            type="note",
            status="active",
            fields={"title": f"note {i}", "body": f"alpha beta{i % 7} gamma{i % 13} word{i}"},
        )
        for i in range(300)
    ]
    whole = SearchIndex(cache_home() / "pool-test" / "whole")
    whole.rebuild(docs)
    saves: list[int] = []
    save = RunPool.save

    def counted(self: RunPool) -> None:
        saves.append(len(self.current))
        save(self)

    monkeypatch.setattr(RunPool, "save", counted)
    monkeypatch.setattr("rubi.index.pool._POSTING_BYTES", 64 * 2**20 // 500)  # spill often
    spilled = SearchIndex(cache_home() / "pool-test" / "spilled")
    spilled.rebuild(docs)
    assert len(saves) > 3
    for query in ("alpha", "beta3", "gamma12 word5", "note 42"):
        expected = [(h.id, h.score) for h in whole.bm25(query)]
        assert expected
        assert [(h.id, h.score) for h in spilled.bm25(query)] == expected
