"""The relevance floor: a search says when nothing matched well, and recall stays silent.

On a real vault (the Obsidian Help vault): a question the vault cannot answer gets the
label in every surface (the result, ``--json``, the text list) with its hits still
returned, and recall injects nothing; a question it answers does not. On a vault of
short pages, a long question answered by a page that holds its rare words together,
but less than half of its IDF mass, is not labelled.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rubi import app
from rubi.index.querymatch import query_clauses, significance
from rubi.index.searchindex import SearchIndex
from rubi.search.render import NOTHING_RELEVANT
from rubi.search.reweighting import (
    CJK_UNMEASURED,
    RELEVANCE_FLOOR,
    SIGNIFICANCE_FLOOR,
    relevant,
)

from helpers import write

OFF_TOPIC = "How do I fix a dripping kitchen faucet?"
ON_TOPIC = "how do I embed a video from youtube in a note"


def test_the_floor_reads_the_share_of_the_query_or_a_named_note() -> None:
    assert relevant(RELEVANCE_FLOOR, 0, significance=0.01)
    assert not relevant(RELEVANCE_FLOOR - 0.01, 0, significance=0.01)
    assert relevant(0.0, 1)  # a note the query names is evidence enough
    assert not relevant(0.1, 0, cjk=CJK_UNMEASURED)
    assert relevant(0.1, 0, code=True)  # a search of code alone: not measured
    assert relevant(0.1, 0, significance=SIGNIFICANCE_FLOOR + 0.01)
    assert not relevant(0.1, 0, significance=SIGNIFICANCE_FLOOR)


def test_significance_is_minus_the_log_of_the_chance_expectation() -> None:
    dfs = {0: 2, 1: 5, 2: 0, 3: 50}  # word 2: no document holds it
    # Two of four words held, in 100 documents: C(4, 2) * 100 * (2/100) * (5/100).
    assert significance({0, 1}, dfs, 100) == pytest.approx(-math.log(6 * 100 * 0.02 * 0.05))
    assert significance({3}, dfs, 100) <= 0.0  # one word held is never evidence alone
    assert significance(set(), dfs, 100) == pytest.approx(-math.log(100))
    assert significance({0, 2}, dfs, 100) == pytest.approx(-math.log(4 * 100 * 0.02))


def test_extra_terms_are_measured_apart_from_the_question(help_vault_indexed: Path) -> None:
    paths = app.locate(help_vault_indexed)
    query = "the kitchen faucet keeps dripping"
    assert not app.search(paths, query, refresh=False).relevant
    assert app.search(paths, query, terms=["callouts"], refresh=False).relevant


def test_an_off_topic_question_is_labelled_and_keeps_its_hits(help_vault_indexed: Path) -> None:
    paths = app.locate(help_vault_indexed)
    result = app.search(paths, OFF_TOPIC, refresh=False)
    assert result.hits  # the floor labels; it never drops a hit
    assert not result.relevant and result.coverage < RELEVANCE_FLOOR
    data = app.search_json(result, 2000)
    assert data["relevant"] is False and data["hits"]
    text = app.render_search(result, 2000)
    assert text.splitlines()[0] == NOTHING_RELEVANT
    assert app.recall(paths, OFF_TOPIC, max_tokens=700) is None


def test_an_on_topic_question_is_not_labelled(help_vault_indexed: Path) -> None:
    paths = app.locate(help_vault_indexed)
    result = app.search(paths, ON_TOPIC, refresh=False)
    assert result.relevant and result.coverage >= RELEVANCE_FLOOR
    assert app.search_json(result, 2000)["relevant"] is True
    assert NOTHING_RELEVANT not in app.render_search(result, 2000)
    assert app.recall(paths, ON_TOPIC, max_tokens=700) is not None


@pytest.mark.parametrize(
    ("query", "share"),
    [
        ("where are the settings stored", 1.0),  # English stop words kept by no mass
        ("settings faucet", None),  # one word no note holds: part of the mass
    ],
)
def test_coverage_is_the_share_of_the_query_idf_mass(
    tmp_path: Path, query: str, share: float | None
) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Settings\n\nThe settings are stored in a folder.\n")
    write(vault / "b.md", "# Other\n\nSomething else entirely.\n")
    paths = app.locate(vault)
    app.index(paths)
    index = SearchIndex(paths.whoosh_dir)
    hits = index.bm25(query, kind="note")
    assert hits and hits[0].id == "a"
    if share is not None:
        assert hits[0].coverage == pytest.approx(share)
    else:
        assert 0.0 < hits[0].coverage < 0.5  # the unseen word is the rarer one
    assert all(c.origin >= 0 for c in query_clauses("settings faucet") if c.field == "body")


SHORT_PAGES = 100
"""Pages of the short-page vault: one answers the long question, the rest are alike."""
LONG_QUESTION = (
    "how do I compress a tarball with zstandard keeping ownership, timestamps and attributes intact"
)
"""Eight content words (short enough for recall to read the floor), three of them on
one page."""
COMMON_QUESTION = "show the list of files in the current folder quickly please"


def _short_pages(vault: Path) -> Path:
    for i in range(SHORT_PAGES - 1):
        write(vault / f"p{i:03d}.md", f"# Command {i:03d}\n\nShow the list of files. Run it.\n")
    write(
        vault / "answer.md",
        "# Command answer\n\nCompress a tarball with zstandard. Show the list of files.\n",
    )
    return vault


def test_a_page_holding_the_rare_words_of_a_long_question_is_relevant(tmp_path: Path) -> None:
    paths = app.locate(_short_pages(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, LONG_QUESTION, refresh=False)
    assert result.hits[0].id == "answer"
    assert result.coverage < RELEVANCE_FLOOR  # most of the question no page holds
    assert result.significance > SIGNIFICANCE_FLOOR
    assert result.relevant
    assert app.recall(paths, LONG_QUESTION, max_tokens=700) is not None


def test_common_words_shared_with_every_page_are_not_significant(tmp_path: Path) -> None:
    paths = app.locate(_short_pages(tmp_path / "v"))
    app.index(paths)
    result = app.search(paths, COMMON_QUESTION, refresh=False)
    assert result.hits and result.significance < 0.0
    assert not result.relevant
