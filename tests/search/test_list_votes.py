"""Candidate lists vote only with evidence (rubi.search.reweighting): an exact name when it
is rare in the vault, the whole query or an identifier; the graph's neighbours when
its seeds link to one another."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import pytest

from rubi.index.querymatch import BM25Hit
from rubi.search.lists import graph_list
from rubi.search.reweighting import (
    GRAPH_MIN_LINKED_SEEDS,
    NAME_MIN_IDF,
    graph_votes,
    identifier_like,
    linked_seeds,
    name_idf,
    name_votes,
)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("binding.go", True),
        ("RouterGroup", True),
        ("dispatch_request", True),
        ("2-factor", True),
        ("Engineering", False),
        ("random note", False),
        ("vs code", False),
    ],
)
def test_identifiers_are_told_from_words(written: str, expected: bool) -> None:
    assert identifier_like(written) is expected


def test_a_names_rarity_sums_its_words_idf() -> None:
    idf = {"random": 4.4, "note": 1.2}
    assert name_idf(["random", "note"], idf) == pytest.approx(5.6)
    assert name_idf(["random", "random"], idf) == pytest.approx(4.4)  # counted once
    assert name_idf(["zebrafish"], idf) == math.inf  # unknown to the index: rare
    assert name_idf([], idf) == 0.0  # stop words only


def test_a_common_word_names_no_note_unless_it_is_the_whole_query() -> None:
    common, rare = NAME_MIN_IDF - 0.1, NAME_MIN_IDF
    assert not name_votes("engineering", common, "note")
    assert name_votes("engineering", common, "note", whole=True)
    assert name_votes("random note", rare, "note")
    assert name_votes("context", common, "file")  # a file's name is an identifier
    assert name_votes("RouterGroup", common, "note")
    # The threshold: as rare as a word in 1 document in 20 (IDF = log(N / df) + 1).
    assert math.isclose(NAME_MIN_IDF, 1 + math.log(20))


def test_seeds_agree_when_they_link_to_one_another() -> None:
    links = {"a": {"b"}, "b": {"a", "x"}, "c": {"y"}, "x": {"b"}, "y": {"c"}}
    assert linked_seeds(["a", "b", "c"], lambda n: links.get(n, set())) == 2
    assert linked_seeds(["c"], lambda n: links.get(n, set())) == 0


def test_the_graph_brings_neighbours_only_when_its_seeds_agree() -> None:
    assert graph_votes(GRAPH_MIN_LINKED_SEEDS, 8)
    assert not graph_votes(GRAPH_MIN_LINKED_SEEDS - 1, 8)
    assert graph_votes(2, 2)  # fewer seeds than the bar: all of them must link
    assert not graph_votes(0, 2)
    assert graph_votes(0, 1)  # a lone seed: its links are all the graph knows


def test_unrelated_seeds_rank_alone_in_the_graph_list() -> None:
    """Eight text hits, none linked to another: their neighbours stay out and no hit
    says it is linked; link three of them and the neighbours come in."""
    g = nx.MultiDiGraph()
    for i in range(8):
        g.add_node(f"s{i}", kind="note", title=f"s{i}")
        g.add_node(f"n{i}", kind="note", title=f"n{i}")
        g.add_edge(f"s{i}", f"n{i}")
    hits = [BM25Hit(f"s{i}", 8.0 - i, {}, "note", f"s{i}.md", f"s{i}") for i in range(8)]
    ranked, via, said = graph_list(g, hits, [], lambda _id: True)
    assert (
        set(ranked) == {f"s{i}" for i in range(8)}
        and via == {}
        and said == "0 of 8 top matches interlinked"
    )
    g.add_edge("s0", "s1")
    g.add_edge("s1", "s2")
    ranked, via, said = graph_list(g, hits, [], lambda _id: True)
    assert "n0" in ranked and via["n0"] == "s0" and said == "3 of 8 top matches interlinked"


@pytest.mark.parametrize("linked", [True, False])
def test_the_graph_list_asks_eligibility_only_until_it_is_full(linked: bool) -> None:
    """The graph list is the first BM25_LIMIT eligible nodes of the walk's order (of
    its seeds only, when they do not agree): the same list as filtering every node
    reached, with eligibility asked of far fewer of them."""
    from rubi.search.lists import BM25_LIMIT
    from rubi.search.ppr import personalized_pagerank

    g = nx.MultiDiGraph()
    seeds = [f"s{i}" for i in range(8)]
    for s in seeds:
        g.add_node(s, kind="note", title=s)
        for j in range(40):
            g.add_node(f"{s}c{j}", kind="note", title=f"{s}c{j}")
            g.add_edge(s, f"{s}c{j}")
    if linked:
        for a, b in itertools.pairwise(seeds):
            g.add_edge(a, b)
    hits = [BM25Hit(s, 8.0 - i, {}, "note", f"{s}.md", s) for i, s in enumerate(seeds)]
    asked: list[str] = []

    def eligible(node: str) -> bool:
        asked.append(node)
        return not node.endswith("3")  # a few left out

    ranked, _, _ = graph_list(g, hits, [], eligible)
    walk = personalized_pagerank(
        g, {h.id: h.score / hits[0].score for h in hits}, linked_only=True
    ).ranked
    order = [n for n, _ in walk]
    every = [n for n in order if not n.endswith("3")]
    if linked:
        assert len(order) > 3 * BM25_LIMIT  # the walk reaches many more than it keeps
        assert ranked == every[:BM25_LIMIT] and len(ranked) == BM25_LIMIT
        assert len(asked) < 2 * BM25_LIMIT < len(order)
    else:
        assert ranked == [n for n in every if n in seeds][:BM25_LIMIT]
        assert set(asked) <= set(seeds)
