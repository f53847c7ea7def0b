from __future__ import annotations

import networkx as nx
import pytest
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

from rubi.core.pagerank import pagerank


@pytest.mark.parametrize("personalization", [None, {0: 1.0}, {3: 2.0, 7: 1.0}])
def test_matches_networkx_reference(personalization: dict[int, float] | None) -> None:
    g = nx.gnp_random_graph(120, 0.04, directed=True, seed=7)
    ours = pagerank(g.nodes, [(a, b, 1.0) for a, b in g.edges], personalization=personalization)
    ref = _pagerank_python(g, personalization=personalization, tol=1e-12, max_iter=500)
    assert max(abs(ours[k] - ref[k]) for k in ref) < 1e-5
    assert sum(ours.values()) == pytest.approx(1.0)


def test_weights_and_known_ranks() -> None:
    # A star: everything points at the hub, which must rank first.
    ranks = pagerank(["hub", "a", "b", "c"], [(x, "hub", 1.0) for x in "abc"])
    assert max(ranks, key=ranks.__getitem__) == "hub"
    # A heavier edge carries more of the walk.
    ranks = pagerank("sxy", [("s", "x", 3.0), ("s", "y", 1.0)], personalization={"s": 1})
    assert ranks["x"] > ranks["y"] * 2.5


def test_empty_and_bad_damping() -> None:
    assert pagerank([], []) == {}
    with pytest.raises(ValueError, match="damping"):
        pagerank(["a"], [], damping=1.0)


def _reference(
    nodes: list[int],
    edges: list[tuple[int, int, float]],
    personalization: dict[int, float] | None,
    start: dict[int, float] | None,
) -> dict[int, float]:
    """The power iteration written plainly: each node's in-edges in a list, sources
    ascending, its shares summed in that order from 0.0; the same stopping rule."""
    from operator import mul

    from rubi.core.pagerank import DAMPING, MAX_ITERATIONS, TOLERANCE, _adjacency, _start, _teleport

    index, out = _adjacency(nodes, edges)
    n = len(index)
    sources: list[list[int]] = [[] for _ in range(n)]
    shares: list[list[float]] = [[] for _ in range(n)]
    for i, targets in enumerate(out):
        if targets:
            scale = DAMPING / sum(targets.values())
            for j, w in targets.items():
                sources[j].append(i)
                shares[j].append(w * scale)
    teleport = dict(_teleport(index, personalization))
    uniform = len(teleport) == n and personalization is None
    rank = _start(index, list(teleport.items()), start, bool(personalization))
    # in the implementation's order: linked nodes first (its error sum runs so)
    perm = [j for j in range(n) if sources[j]] + [j for j in range(n) if not sources[j]]
    for _ in range(MAX_ITERATIONS):
        pulled = [sum(map(mul, (rank[i] for i in sources[j]), shares[j]), 0.0) for j in range(n)]
        restart = (1.0 - DAMPING) + DAMPING * sum((rank[i] for i in range(n) if not out[i]), 0.0)
        if uniform:
            nxt = [restart / n + pulled[j] if sources[j] else restart / n for j in range(n)]
        else:
            nxt = [
                pulled[j] + restart * teleport[j] if j in teleport else pulled[j] for j in range(n)
            ]
        err = sum((abs(nxt[j] - rank[j]) for j in perm), 0.0)
        rank = nxt
        if err < n * TOLERANCE:
            break
    order = list(index)
    return {order[j]: rank[j] for j in perm}


@pytest.mark.parametrize("seed", range(40))
def test_the_same_ranks_as_the_plain_iteration(seed: int) -> None:
    """Exactly the plain iteration's ranks, in its order: sources added in ascending
    order, parallel edges summed, self-loops and weights not above 0 dropped, nodes
    only named by edges, personalized or not, from a start or not."""
    import random

    rnd = random.Random(seed)
    n = rnd.randint(1, 40)
    nodes = list(range(n))
    edges = [
        (rnd.randrange(n + 3), rnd.randrange(n), rnd.choice([1.0, 0.5, 2.0, 0.0, 0.3]))
        for _ in range(rnd.randint(0, 200))
    ]
    personalization = {i: rnd.random() for i in nodes if rnd.random() < 0.3} if seed % 2 else None
    start = {i: rnd.random() for i in nodes if rnd.random() < 0.8} if seed % 3 else None
    got = pagerank(nodes, edges, personalization=personalization, start=start)
    want = _reference(nodes, edges, personalization, start)
    assert got == want
    assert list(got) == list(want)
