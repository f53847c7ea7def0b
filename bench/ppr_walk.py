"""Time the search's personalized PageRank walk on a real vault, beside its floor.

The vault (copied) is indexed, then :func:`rubi.search.ppr.personalized_pagerank` runs
for 200 seed sets (1, 2, 3, 5 and 8 random notes, 40 of each, fixed random seed) three
times; the floor is the neighbourhood walk alone (:func:`rubi.search.ppr._neighbourhood`),
which every walk pays first. Prints wall and CPU milliseconds per walk.

Usage::

    python bench/ppr_walk.py <vault> [<vault> ...]

Run it under a fresh ``HOME`` and ``XDG_CACHE_HOME``.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROUNDS = 3


def _timed(
    label: str, cases: list[dict[str, float]], walk: Callable[[dict[str, float]], object]
) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(ROUNDS):
        for seeds in cases:
            walk(seeds)
    n = ROUNDS * len(cases)
    wall_ms = (time.perf_counter() - wall) / n * 1e3
    cpu_ms = (time.process_time() - cpu) / n * 1e3
    print(f"  {label}: {wall_ms:.3f} ms wall, {cpu_ms:.3f} ms CPU per walk")


def _seeded_neighbourhood(g: Any, seeds: dict[str, float]) -> object:
    from rubi.search.ppr import _neighbourhood

    return _neighbourhood(g, list(seeds))


def main(argv: list[str]) -> int:
    from rubi import app
    from rubi.search.ppr import personalized_pagerank
    from rubi.sync import graph_for

    for vault in argv:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "vault"
            shutil.copytree(vault, copy)
            paths = app.locate(copy)
            app.index(paths)
            g = graph_for(paths).graph
            nodes = sorted(g.nodes)
            rng = random.Random(1)
            cases = [
                {n: rng.uniform(0.1, 2.0) for n in rng.sample(nodes, k)}
                for k in (1, 2, 3, 5, 8)
                for _ in range(40)
            ]
            print(f"{Path(vault).name}: {len(g)} nodes, {g.number_of_edges()} links")
            _timed("walk", cases, partial(personalized_pagerank, g))
            _timed("floor: the neighbourhood alone", cases, partial(_seeded_neighbourhood, g))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
