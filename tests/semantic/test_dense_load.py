"""A first load of the vectors file fills the matrices at once (``DenseIndex._fill``)
and ranks exactly as the row-by-row load (passages kept in float16 either way); the
median a ranking reports is numpy's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rubi import app, semantic
from rubi.semantic.arith import median as _median
from rubi.semantic.dense import DenseIndex, query_vector
from rubi.semantic.sync import vectors_file

from helpers import copy_vault

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

QUERIES = [
    "a new journal page for each day",
    "colored boxes for warnings and tips",
    "publish notes as a website",
]


def _row_by_row(path: Path) -> DenseIndex:
    index = DenseIndex(path, on_demand=False)
    index._fill = lambda rows, dims: False
    index.refresh()
    return index


def test_a_filled_index_equals_one_loaded_row_by_row(tmp_path: Path) -> None:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    path = vectors_file(paths.index_dir)
    filled, rows = DenseIndex(path, on_demand=False), _row_by_row(path)
    filled.refresh()
    n = len(filled._ids)
    assert n > 16  # past the row-by-row load's first growth
    assert filled._ids == rows._ids and filled._slot == rows._slot
    assert filled._heads == rows._heads
    assert np.array_equal(filled._docs[:n], rows._docs[:n])
    assert np.array_equal(filled._psize[:n], rows._psize[:n])
    for slot in range(n):  # each document's passages, wherever its run starts
        mine = filled._passages[filled._pstart[slot] :][: filled._psize[slot]]
        theirs = rows._passages[rows._pstart[slot] :][: rows._psize[slot]]
        assert np.array_equal(mine, theirs)
    for q in QUERIES:
        vector = query_vector(q, [])
        assert filled.ranked(vector, lambda _: True, 30) == rows.ranked(vector, lambda _: True, 30)
        odd = lambda doc_id: len(doc_id) % 2 == 1  # noqa: E731
        assert filled.ranked(vector, odd, 5) == rows.ranked(vector, odd, 5)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 10, 101, 1000])
def test_median_is_numpys(size: int) -> None:
    rng = np.random.default_rng(size)
    values = rng.standard_normal(size).astype(np.float32)
    assert _median(values) == float(np.median(values))
    values[0] = values[-1]  # ties
    assert _median(values) == float(np.median(values))
    values[size // 2] = np.nan
    assert np.isnan(_median(values))
    assert np.isnan(_median(np.zeros(0, dtype=np.float32)))


def test_a_resident_index_ranks_alike_before_and_after_its_passages_are_converted(
    tmp_path: Path,
) -> None:
    """The first search takes its candidates' float16 rows; the second converts the
    passage matrix to float32 once: the same matches and scores, every time."""
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    index = DenseIndex(vectors_file(paths.index_dir), on_demand=False)
    index.refresh()
    vector = query_vector(QUERIES[0], [])
    first = index.ranked(vector, lambda _: True, 30)
    assert index._passages.dtype == np.float16
    assert index.ranked(vector, lambda _: True, 30) == first
    assert index._passages.dtype == np.float32
    assert index.ranked(vector, lambda _: True, 30) == first


def test_an_index_loaded_on_demand_ranks_as_one_loaded_whole(tmp_path: Path) -> None:
    """A one-shot process loads the documents' rows and reads its candidates' passages
    for its first search; a second search loads the whole file: the same matches,
    scores and headings as an index loaded whole, every time."""
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    path = vectors_file(paths.index_dir)
    odd = lambda doc_id: len(doc_id) % 2 == 1  # noqa: E731
    for q in QUERIES:
        vector = query_vector(q, [])
        for eligible, limit in ((lambda _: True, 30), (odd, 5)):
            whole = DenseIndex(path, on_demand=False)
            whole.refresh()
            expected = whole.ranked(vector, eligible, limit)
            lazy = DenseIndex(path, on_demand=True)
            lazy.refresh()
            assert lazy._lazy and np.array_equal(lazy._docs, whole._docs[: len(lazy._ids)])
            assert lazy.ranked(vector, eligible, limit) == expected
            assert lazy.ranked(vector, eligible, limit) == expected
            assert not lazy._lazy  # the second search loaded everything


def test_a_file_rewritten_between_load_and_search_is_read_again_whole(tmp_path: Path) -> None:
    """The passages read for a search must be those of the rows loaded: a write in
    between (the watcher re-embedding a note) makes the search load the file anew, and
    it ranks as an index loaded after the write."""
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    path = vectors_file(paths.index_dir)
    lazy = DenseIndex(path, on_demand=True)
    lazy.refresh()
    assert lazy._lazy
    note = next(p for p in sorted(vault.rglob("*.md")) if p.stat().st_size > 500)
    note.write_text(
        note.read_text(encoding="utf-8") + "\n\n## Tips\n\ncolored boxes for warnings\n",
        encoding="utf-8",
    )
    app.index(paths)
    vector = query_vector(QUERIES[1], [])
    after = DenseIndex(path, on_demand=False)
    after.refresh()
    reloads: list[bool] = []
    load_all = lazy._load_all

    def counted() -> None:
        reloads.append(True)
        load_all()

    lazy._load_all = counted  # type: ignore[method-assign]
    assert lazy.ranked(vector, lambda _: True, 30) == after.ranked(vector, lambda _: True, 30)
    assert reloads == [True] and not lazy._lazy


def test_a_file_gone_bad_between_load_and_search_leaves_the_channel_empty(
    tmp_path: Path,
) -> None:
    """The dense channel fails open: a vectors file overwritten with garbage after the
    documents were loaded gives no dense match, not an error."""
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    path = vectors_file(paths.index_dir)
    lazy = DenseIndex(path, on_demand=True)
    lazy.refresh()
    assert lazy._lazy and len(lazy)
    with open(path, "r+b") as fh:  # the same file, its bytes no database
        fh.write(b"\0" * 4096)
    assert lazy.ranked(query_vector(QUERIES[0], []), lambda _: True, 30).matches == []


def test_a_search_once_makes_the_process_s_index_on_demand_and_keeps_one_already_loaded(
    tmp_path: Path,
) -> None:
    """A long-lived process answering a hook cold (``searching_once``) makes its dense
    index on demand (the documents' rows only) without changing the process's
    setting; the next search, outside the block, loads everything into that same index;
    an index already loaded is used as it is, inside the block too."""
    from rubi.app.searching import searching_once
    from rubi.semantic import demand, dense

    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    query = QUERIES[0]
    expected = app.search(paths, query, refresh=False).hits
    dense._INDEXES.pop(vectors_file(paths.index_dir))
    with searching_once():
        assert app.search(paths, query, refresh=False).hits == expected
    made = dense.dense_index_for(paths.index_dir)
    assert made is not None and made._lazy and not demand.on_demand()
    assert app.search(paths, query, refresh=False).hits == expected
    assert dense.dense_index_for(paths.index_dir) is made and not made._lazy
    with searching_once():
        assert app.search(paths, query, refresh=False).hits == expected
    assert not made._lazy


def test_searches_once_keep_an_on_demand_index_on_demand_and_rank_alike(
    tmp_path: Path,
) -> None:
    """Each prompt's recall in a long-lived process (``searching_once``) reads its
    candidates' passages from the file, however many came before; a file changed
    meanwhile is read on demand again; the first search outside the block loads
    everything. The hits are the same throughout."""
    from rubi.app.searching import searching_once
    from rubi.semantic import dense

    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    expected = {q: app.search(paths, q, refresh=False).hits for q in QUERIES}
    dense._INDEXES.pop(vectors_file(paths.index_dir))
    for q in QUERIES:
        with searching_once():
            assert app.search(paths, q, refresh=False).hits == expected[q]
        made = dense.dense_index_for(paths.index_dir)
        assert made is not None and made._lazy  # no passage loaded
    note = paths.root / "A new note about tides.md"
    note.write_text("# Tides\n\nThe moon pulls the sea twice a day.\n", encoding="utf-8")
    app.index(paths)
    with searching_once():
        tides = app.search(paths, "moon tides", refresh=False).hits
    assert made._lazy and tides and tides[0].id == "A new note about tides"
    assert app.search(paths, "moon tides", refresh=False).hits == tides
    assert not made._lazy  # a search outside the block: the resident process keeps it all
