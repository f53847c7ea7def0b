"""The server's warm-up converts the vectors' passages to float32, as a resident
process's second search would, so its first client search does not; the rankings are
the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rubi import app, semantic
from rubi.mcp.startup import warm_vault
from rubi.semantic.dense import DenseIndex, dense_index_for, query_vector
from rubi.semantic.sync import vectors_file

from helpers import copy_vault, write

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)


def test_the_warm_up_leaves_the_passages_converted(tmp_path: Path) -> None:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    warm_vault(paths)
    index = dense_index_for(paths.index_dir)
    assert index is not None
    assert index._passages.dtype == np.float32  # the first client search converts nothing
    other = DenseIndex(vectors_file(paths.index_dir), on_demand=False)
    other.refresh()
    for q in ("a new journal page for each day", "publish notes as a website"):
        vector = query_vector(q, [])
        assert index.ranked(vector, lambda _: True, 30) == other.ranked(vector, lambda _: True, 30)


def test_an_index_not_searched_or_read_on_demand_stays_as_it_is(tmp_path: Path) -> None:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    path = vectors_file(paths.index_dir)
    fresh = DenseIndex(path, on_demand=False)
    fresh.refresh()
    fresh.stay()  # never searched: a one-shot process never converts the rest
    assert fresh._passages.dtype == np.float16
    lazy = DenseIndex(path, on_demand=True)
    lazy.refresh()
    lazy.ranked(query_vector("daily notes", []), lambda _: True, 5)
    lazy.stay()  # read on demand: its candidates' rows only
    assert lazy._lazy


def test_an_edit_after_the_warm_up_is_seen_by_the_next_search(tmp_path: Path) -> None:
    root = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(root)
    app.index(paths)
    warm_vault(paths)
    question = "a lighthouse keeper logs the storms of the north sea"
    vector = query_vector(question, [])
    index = dense_index_for(paths.index_dir)
    assert index is not None
    before = index.ranked(vector, lambda _: True, 10)
    write(
        root / "Lighthouse keeper.md",
        "# Lighthouse keeper\n\nThe keeper logs every storm of the North Sea.\n\n"
        "## Storms\n\nA lighthouse log of gales, waves and the nights they kept.\n",
    )
    app.index(paths)
    index = dense_index_for(paths.index_dir)  # caught up with the write
    assert index is not None
    after = index.ranked(vector, lambda _: True, 10)
    assert after != before and "Lighthouse keeper" in after.matches[0].id
    fresh = DenseIndex(vectors_file(paths.index_dir), on_demand=False)
    fresh.refresh()
    fresh.ranked(vector, lambda _: True, 10)  # its first search: float16 rows
    assert fresh.ranked(vector, lambda _: True, 10) == after  # converted, as the kept one


def test_a_warm_up_whose_search_read_no_vectors_reads_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.semantic import dense, separation

    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    path = vectors_file(paths.index_dir)
    monkeypatch.setattr(dense, "_INDEXES", {})
    # a vault whose measurement says its list misjudges the warm-up query's script:
    # the search imports the dense module and reads no vector
    monkeypatch.setattr(separation, "list_may_vote", lambda *_: False)
    warm_vault(paths)
    assert path not in dense._INDEXES  # no vectors read for a list that did not vote
