"""The flat graph (``graph.flat``, :mod:`rubi.graph.flat`) at a project's size and at
copies of it: what writing it costs (CPU, the writer's traced memory peak), its size,
and what opening it and a search's reads cost.

Usage::

    python bench/flat_graph.py PROJECT [--copies 1,8] [--runs 5]

PROJECT must be indexed (``rubi init && rubi index``). Its graph snapshot is read with
networkx; ``--copies K`` makes a graph of K copies of it (copy k's ids, names and link
problems suffixed ``~k``; copy 0 keeps the originals), so 8 copies of a 6,334-note
project stand for a 50,000-note vault of the same shape. Per size, ``--runs`` times:

- ``write``: :func:`~rubi.graph.flatwrite.write_flat` to a temp file in the user cache
  (CPU, ``time.process_time``), and once more under ``tracemalloc`` for the peak of
  what the writer allocates beyond the graph it writes;
- ``open``: :func:`~rubi.graph.flat.read_flat` in this process (CPU);
- ``reads``: after opening, what a search reads: the attributes and both neighbour
  lists of 300 nodes spread over the graph and 50 name lookups (CPU).

Printed: p50 per figure (ms), the file's size, the peak (MiB), and the floor
(``python -c pass``, CPU of a fresh process) from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any


def copies_of(build: Any, copies: int) -> Any:
    """A :class:`~rubi.graph.build.GraphBuild` of ``copies`` copies of ``build``."""
    from rubi.graph.build import GraphBuild, LinkProblem
    from rubi.graph.frozen import FrozenGraph

    if copies == 1:
        return build
    g = build.graph
    nodes: dict[str, Any] = {}
    succ: dict[str, Any] = {}
    pred: dict[str, Any] = {}
    names: dict[str, list[str]] = {}
    problems: dict[str, list[LinkProblem]] = {}
    for k in range(copies):
        sfx = f"~{k}" if k else ""
        for node, attrs in g._node.items():
            nodes[node + sfx] = attrs
        for table, adjacency in ((succ, g._succ), (pred, g._pred)):
            for node, row in adjacency.items():
                table[node + sfx] = {other + sfx: keys for other, keys in row.items()}
        for key, ids in build.names.items():
            names[key + sfx] = [i + sfx for i in ids]
        for source, found in build.problems_by_note.items():
            problems[source + sfx] = found
    return GraphBuild(
        FrozenGraph(dict(g.graph), nodes, succ, pred),  # type: ignore[arg-type]
        problems,
        names,
        dict(build.type_names),
        dict(build.defined_names),
    )


def measure(build: Any, runs: int, out: Path) -> dict[str, Any]:
    from rubi.graph.flat import read_flat
    from rubi.graph.flatwrite import write_flat

    write: list[float] = []
    opened: list[float] = []
    reads: list[float] = []
    ids = list(build.graph._node)
    sample = ids[:: max(1, len(ids) // 300)][:300]
    keys = list(build.names)[:: max(1, len(build.names) // 50)][:50]
    for _ in range(runs):
        start = time.process_time()
        write_flat(out, build, 1, 1)
        write.append(time.process_time() - start)
        start = time.process_time()
        flat, _, _ = read_flat(out)
        opened.append(time.process_time() - start)
        start = time.process_time()
        g = flat.graph
        for node in sample:
            g.nodes[node].get("kind")
            len(g.succ[node]) + len(g.pred[node])
        for key in keys:
            flat.names.get(key)
        reads.append(time.process_time() - start)
        del flat, g
    tracemalloc.start()
    write_flat(out, build, 1, 1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "nodes": len(ids),
        "write": statistics.median(write) * 1000,
        "open": statistics.median(opened) * 1000,
        "reads": statistics.median(reads) * 1000,
        "bytes": out.stat().st_size,
        "peak": peak / 2**20,
    }


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from benchproc import run_child

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--copies", default="1,8", help="sizes as copies (default 1,8)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from rubi.app import locate
    from rubi.graph.snapshot import load_snapshot

    paths = locate(cwd=args.project.resolve())
    live, _ = load_snapshot(paths.graph_file)
    out = paths.index_dir / "bench-graph.flat"
    floor = statistics.median(
        run_child([sys.executable, "-c", "pass"]).cpu_s * 1000 for _ in range(args.runs)
    )
    print(f"flat graph, {args.project.resolve().name}, CPU p50 of {args.runs} runs (ms)")
    heads = ("copies", 6), ("nodes", 7), ("write", 8), ("open", 7), ("reads", 7), ("MiB", 6)
    print(" ".join(f"{h:>{w}}" for h, w in heads) + f" {'peak MiB':>9}")
    try:
        for copies in (int(c) for c in args.copies.split(",")):
            row = measure(copies_of(live.build, copies), args.runs, out)
            print(
                f"{copies:>6} {row['nodes']:>7} {row['write']:>8.1f} {row['open']:>7.1f} "
                f"{row['reads']:>7.1f} {row['bytes'] / 2**20:>6.1f} {row['peak']:>9.1f}"
            )
    finally:
        out.unlink(missing_ok=True)
    print(f"floor: python -c pass {floor:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
