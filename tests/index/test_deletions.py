"""An index updated edit by edit ranks exactly like a fresh build of the same files."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from whoosh import index as windex

import rubi.index.deletions as deletions
from bm25f_reference import reference_bm25f
from rubi import app
from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.index.querymatch import query_clauses
from rubi.index.searchindex import SearchIndex

from helpers import copy_vault, write


def _scores(paths: object, queries: list[str]) -> dict[str, list[tuple[str, float]]]:
    index = SearchIndex(paths.whoosh_dir)  # type: ignore[attr-defined]
    try:
        return {q: [(h.id, h.score) for h in index.bm25(q, limit=20)] for q in queries}
    finally:
        index.close()


def _edit_and_delete(vault: Path, rng: random.Random, rounds: int) -> None:
    """A scripted session: appended paragraphs, deleted and added notes, one index run
    after each round (Whoosh replaces an edited note and keeps the old one deleted)."""
    paths = app.locate(vault)
    notes = sorted(vault.rglob("*.md"))
    words = " ".join(p.read_text(encoding="utf-8") for p in notes[:30]).split()
    for r in range(rounds):
        live = sorted(vault.rglob("*.md"))
        for p in rng.sample(live, 3):
            with open(p, "a", encoding="utf-8") as fh:
                fh.write("\n\n" + " ".join(rng.sample(words, 30)) + "\n")
        if r % 3 == 0:
            rng.choice(live).unlink()
        if r % 4 == 1:
            text = f"# Added {r}\n\n{' '.join(rng.sample(words, 60))}\n"
            (vault / f"added-{r}.md").write_text(text, encoding="utf-8")
        app.index(paths)


@pytest.mark.timeout(240)
def test_edits_and_deletes_rank_like_a_fresh_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)  # deletions pile up
    vault = copy_vault("obsidian-help-en", tmp_path / "incremental")
    app.index(app.locate(vault))
    _edit_and_delete(vault, random.Random(7), rounds=12)
    paths = app.locate(vault)
    index = SearchIndex(paths.whoosh_dir)
    assert index.deleted_share() > 0.1  # many deleted documents still in the index
    index.close()

    fresh = tmp_path / "fresh" / "vault"
    shutil.copytree(vault, fresh)
    fresh_paths = app.locate(fresh)
    app.index(fresh_paths, full=True)

    notes = sorted(p.stem for p in vault.rglob("*.md"))
    queries = [*random.Random(3).sample(notes, 30), "sync settings", "formulas in bases"]
    want = _scores(fresh_paths, queries)
    got = _scores(paths, queries)
    for q in queries:
        assert [i for i, _ in got[q]] == [i for i, _ in want[q]], q
        assert [s for _, s in got[q]] == pytest.approx([s for _, s in want[q]], rel=1e-12), q
    for q in queries:
        hits = [h.id for h in app.search(paths, q, refresh=False).hits]
        assert hits == [h.id for h in app.search(fresh_paths, q, refresh=False).hits], q

    # The term-at-a-time scorer gives the plain BM25F reference with the live
    # statistics, to the last bit; counting the deleted documents in N, the same
    # index scores differently (what the live statistics correct).
    def reference(q: str, count_deleted: bool) -> list[tuple[str, float]]:
        found = reference_bm25f(
            paths.whoosh_dir, query_clauses(q), limit=20, count_deleted=count_deleted
        )
        return [(i, s) for i, s, _ in found]

    assert all(got[q] == reference(q, False) for q in queries)
    assert any(reference(q, True) != want[q] for q in queries)


def _doc(i: int, version: int) -> IndexDoc:
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    body = " ".join(words[(i + k * version) % len(words)] for k in range(5 + i % 7))
    return IndexDoc(
        f"d{i}", "note", f"d{i}.md", "note", "active", {"title": f"Doc {i}", "body": body}
    )


def test_past_the_deleted_share_every_segment_is_merged(tmp_path: Path) -> None:
    index = SearchIndex(cache_home() / "merge-test" / "whoosh")
    index.rebuild(_doc(i, 0) for i in range(40))
    merged = False
    for version in range(1, 25):
        index.apply([_doc(version % 40, version)], [])
        share = index.deleted_share()
        assert share <= deletions.MERGE_DELETED_SHARE
        if version > 1 and share == 0.0:
            merged = True
    index.close()
    assert merged  # the deleted share went back to 0: every segment merged into one


def test_field_length_totals_are_the_same_built_fresh_or_merged(tmp_path: Path) -> None:
    docs = [_doc(i, 3) for i in range(60)]
    fresh = SearchIndex(cache_home() / "fresh" / "whoosh")
    fresh.rebuild(docs)
    pieces = SearchIndex(cache_home() / "pieces" / "whoosh")
    pieces.rebuild(docs[:20])
    pieces.apply(docs[20:40], [])
    pieces.apply(docs[40:], [])
    pieces.close()
    writer = windex.open_dir(str(pieces.directory)).writer()
    deletions.total_stored_lengths(writer)
    writer.commit(optimize=True)
    a = windex.open_dir(str(fresh.directory)).reader()
    b = windex.open_dir(str(pieces.directory)).reader()
    try:
        for name in a.schema.scorable_names():
            assert a.field_length(name) == b.field_length(name), name
    finally:
        a.close()
        b.close()
        fresh.close()


def test_equal_scores_are_ordered_by_id(tmp_path: Path) -> None:
    index = SearchIndex(cache_home() / "ties" / "whoosh")
    same = {"title": "Twin", "body": "same words here"}
    index.rebuild(IndexDoc(i, "note", f"{i}.md", "note", "active", same) for i in ("c", "a", "b"))
    assert [h.id for h in index.bm25("same words")] == ["a", "b", "c"]
    index.close()


def test_an_index_too_big_to_merge_inline_is_not_merged_and_ranks_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_MAX_TOKENS", 10)  # every index is "big"
    optimized = []
    monkeypatch.setattr(deletions, "OPTIMIZE", lambda w, segs: optimized.append(1) or [])
    index = SearchIndex(cache_home() / "big" / "whoosh")
    index.rebuild(_doc(i, 0) for i in range(40))
    final = {i: _doc(i, 0) for i in range(40)}
    for version in range(1, 31):
        final[version % 40] = _doc(version % 40, version)
        index.apply([final[version % 40]], [])
    assert optimized == []  # 30 of 40 documents replaced, and no full merge
    fresh = SearchIndex(cache_home() / "big-fresh" / "whoosh")
    fresh.rebuild(final.values())
    for query in ("alpha beta", "gamma", "theta zeta eta", "doc 7"):
        got = [(h.id, h.score) for h in index.bm25(query)]
        want = [(h.id, h.score) for h in fresh.bm25(query)]
        assert [i for i, _ in got] == [i for i, _ in want], query
        assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-12), query
    index.close()
    fresh.close()


def test_rubi_index_advises_a_full_build_when_copies_pile_up_in_a_big_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deletions, "MERGE_MAX_TOKENS", 10)  # too big to merge inline
    for i in range(60):
        write(tmp_path / "v" / f"n{i}.md", f"# Note {i}\n\nwords about topic {i}\n")
    paths = app.locate(tmp_path / "v")
    assert not app.index(paths).warnings
    for i in range(20):
        with open(tmp_path / "v" / f"n{i}.md", "a", encoding="utf-8") as fh:
            fh.write("\nmore words\n")
    app.index(paths)
    [warning] = app.index(paths).warnings  # `rubi index` shows it
    assert "rubi index --full" in str(warning) and "25%" in str(warning)
    app.index(paths, full=True)
    assert not app.index(paths).warnings


def test_live_document_frequencies_match_a_count_of_live_postings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)
    index = SearchIndex(cache_home() / "df" / "whoosh")
    index.rebuild(_doc(i, 0) for i in range(400))  # posting lists of several blocks
    rng = random.Random(11)
    for batch in range(3):
        index.apply([_doc(i, batch + 1) for i in rng.sample(range(400), 60)], [])
    index.apply([], [f"d{i}" for i in rng.sample(range(400), 30)])
    assert index.deleted_share() > 0.2
    reader = windex.open_dir(str(index.directory)).reader()
    try:
        stats = deletions._LiveStats(reader)
        assert stats.leaves and stats.doc_count == reader.doc_count()
        checked = 0
        for name in ("body", "title"):
            for term in reader.lexicon(name):
                live = sum(1 for _ in reader.postings(name, term).all_ids())
                assert stats.doc_frequency(name, term) == live, (name, term)
                checked += 1
        assert checked > 10
    finally:
        reader.close()
        index.close()


def test_field_length_totals_leave_out_deleted_documents(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(deletions, "MERGE_DELETED_SHARE", 2.0)
    final = {i: _doc(i, 0) for i in range(50)}
    index = SearchIndex(cache_home() / "totals" / "whoosh")
    index.rebuild(final.values())
    for version in (1, 2):
        changed = [_doc(i, version) for i in range(version, 50, 4)]
        final.update((int(d.id[1:]), d) for d in changed)
        index.apply(changed, [])
    index.apply([], ["d0", "d9"])
    del final[0], final[9]
    assert index.deleted_share() > 0
    fresh = SearchIndex(cache_home() / "totals-fresh" / "whoosh")
    fresh.rebuild(final.values())
    a = windex.open_dir(str(index.directory)).reader()
    b = windex.open_dir(str(fresh.directory)).reader()
    try:
        for name in a.schema.scorable_names():
            assert a.field_length(name) == b.field_length(name), name
    finally:
        a.close()
        b.close()
        index.close()
        fresh.close()
