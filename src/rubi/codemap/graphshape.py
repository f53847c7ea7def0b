"""Whether two code maps give a graph the same code nodes: the same files, their
languages, modules and symbol names and kinds, the same modules and the same edges and
weights (:attr:`rubi.codemap.model.BuildStats.kept_graph`). Such a map keeps the other's
ranks, degrees and shape id (:func:`with_graph_of`): PageRank over the same edges would
only find them again within its tolerance, and a graph made of one is made of both.
"""

from __future__ import annotations

from dataclasses import replace

from rubi.codemap.model import CodeFile, CodeMap, Module

__all__ = ["keeps_graph", "same_graph", "with_graph_of"]


def keeps_graph(old: CodeMap, new: CodeMap) -> bool:
    """``new`` gives a graph what ``old`` gives it (see :attr:`BuildStats.kept_graph`):
    the same modules, paths, edges and weights, and every file entry that differs of
    the same language, module and symbol names and kinds. About 25 ms on
    spring-framework's 9,724 files read from two pickles (an entry ``new`` took over
    from ``old`` itself is not compared)."""
    return same_graph(old, new.modules, new.files, new.edges)


def same_graph(
    old: CodeMap,
    modules: dict[str, Module],
    files: dict[str, CodeFile],
    edges: dict[tuple[str, str], float],
) -> bool:
    """:func:`keeps_graph` of a map with these ``modules``, ``files`` and ``edges``
    (a reshape asks before it assembles the map)."""
    if (
        edges != old.edges
        or files.keys() != old.files.keys()
        or (modules is not old.modules and modules != old.modules)
    ):
        return False
    old_files = old.files
    for path, new in files.items():
        before = old_files[path]
        if before is new or before == new:
            continue
        if (
            before.language != new.language
            or before.module != new.module
            or [(s.name, s.kind) for s in before.symbols] != [(s.name, s.kind) for s in new.symbols]
        ):
            return False
    return True


def with_graph_of(old: CodeMap, new: CodeMap) -> CodeMap:
    """``new`` with ``old``'s ranks, degrees, module links and shape id, marked
    ``kept_graph`` (and not ``reused_shape``): for a ``new`` that :func:`keeps_graph`
    of ``old``, whose ranks PageRank would only find again within its tolerance."""
    stats = replace(new.stats, reused_shape=False, kept_graph=True)
    return replace(
        new,
        file_rank=old.file_rank,
        module_rank=old.module_rank,
        in_degree=old.in_degree,
        out_degree=old.out_degree,
        module_links=old.module_links,
        shape_id=old.shape_id,
        stats=stats,
    )
