"""Rank files and modules by PageRank over the import graph.

PageRank: Brin & Page, "The anatomy of a large-scale hypertextual Web search engine"
(1998), computed by :func:`rubi.core.pagerank.pagerank`. An edge points from the importer
to the imported file, so rank flows to the files the code depends on.
"""

from __future__ import annotations

from collections.abc import Mapping

from rubi.core.pagerank import pagerank

__all__ = [
    "CODE_DAMPING",
    "CODE_MAX_ITERATIONS",
    "CODE_TOLERANCE",
    "degrees",
    "module_tables",
    "rank_files",
    "rank_module_graph",
    "rank_modules",
]

CODE_DAMPING = 0.85
"""Brin & Page's value: a reader follows an import 85% of the time, jumps 15%."""
CODE_MAX_ITERATIONS = 100
"""Power iterations at most; import graphs converge in 20-60."""
CODE_TOLERANCE = 1.0e-9
"""Mean absolute change per node at which iteration stops: tight enough that ranks,
rounded for ordering, do not depend on how far the iteration ran."""


def _pagerank(
    nodes: list[str],
    triples: list[tuple[str, str, float]],
    start: Mapping[str, float] | None,
) -> dict[str, float]:
    return pagerank(
        nodes,
        triples,
        damping=CODE_DAMPING,
        max_iterations=CODE_MAX_ITERATIONS,
        tolerance=CODE_TOLERANCE,
        start=start,
    )


def rank_files(
    files: list[str],
    edges: Mapping[tuple[str, str], float],
    start: Mapping[str, float] | None = None,
    *,
    ordered: bool = False,
) -> dict[str, float]:
    """PageRank of every file over the weighted import edges.

    Args:
        files: every file, sorted (the order fixes the arithmetic, so results repeat).
        edges: ``{(importer, imported): weight}``.
        start: ranks to start from (the map's before an edit: a few iterations
            instead of tens); None to start uniform. Either way the ranks are the
            same within :data:`CODE_TOLERANCE`.

        ordered: ``edges`` is sorted already (the same ranks; no sort).

    Returns:
        ``{path: rank}`` summing to 1 (empty for no files).
    """
    items = edges.items() if ordered else sorted(edges.items())
    triples = [(src, dst, w) for (src, dst), w in items]
    return _pagerank(files, triples, start)


def rank_modules(
    module_of: Mapping[str, str],
    edges: Mapping[tuple[str, str], float],
    start: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """PageRank of modules over the module graph (file edges summed between modules;
    edges inside a module are dropped).

    Ranking modules on their own graph, rather than summing file ranks, keeps a big
    module that nothing imports (``tests``) from outranking the package it tests.

    Args:
        module_of: ``{path: module name}``.
        edges: file edges ``{(importer, imported): weight}``.
        start: ranks to start from, as for :func:`rank_files`.

    Returns:
        ``{module: rank}`` summing to 1.
    """
    weights, _ = module_tables(module_of, edges)
    return rank_module_graph(module_of, weights, start)


def module_tables(
    module_of: Mapping[str, str], edges: Mapping[tuple[str, str], float], *, ordered: bool = False
) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], int]]:
    """File edges summed between modules, in one pass: ``(weights, counts)``, each
    ``{(from, to): ...}`` (edges inside a module dropped); counts sorted, as
    :meth:`rubi.codemap.model.CodeMap.module_edges` gives them. ``ordered``: ``edges``
    is sorted already (the weights are summed in sorted order either way)."""
    weights: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], int] = {}
    for (src, dst), w in edges.items() if ordered else sorted(edges.items()):
        key = (module_of[src], module_of[dst])
        if key[0] != key[1]:
            weights[key] = weights.get(key, 0.0) + w
            counts[key] = counts.get(key, 0) + 1
    return weights, dict(sorted(counts.items()))


def rank_module_graph(
    module_of: Mapping[str, str],
    weights: Mapping[tuple[str, str], float],
    start: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """:func:`rank_modules` from the module weights :func:`module_tables` gave."""
    nodes = sorted(set(module_of.values()))
    triples = [(a, b, w) for (a, b), w in sorted(weights.items())]
    return _pagerank(nodes, triples, start)


def degrees(
    files: list[str], edges: Mapping[tuple[str, str], float]
) -> tuple[dict[str, int], dict[str, int]]:
    """In- and out-degree of every file: distinct importers, distinct imported files."""
    indeg = dict.fromkeys(files, 0)
    outdeg = dict.fromkeys(files, 0)
    for src, dst in edges:
        outdeg[src] += 1
        indeg[dst] += 1
    return indeg, outdeg
