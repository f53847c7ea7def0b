"""What ``rubi view``'s requests cost on an indexed project, against the floor of
reading and ranking the graph with one node out (``/api/graph?limit=1``).

Usage::

    python bench/view_bench.py PROJECT [--runs 5] [--query backup]

PROJECT must be indexed (``rubi index`` there: the viewer indexes nothing). A server
on a free loopback port answers real HTTP requests; each route runs ``--runs`` times,
interleaved with the floor, and the medians of wall and CPU milliseconds (the server
runs in this process, so its CPU counts) are printed with the body's size.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote


def _timed(url: str) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    with urllib.request.urlopen(url, timeout=60) as response:
        size = len(response.read())
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, size


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--query", default="backup")
    args = parser.parse_args(argv)
    from rubi import app
    from rubi.view import make_server

    server = make_server(app.locate(None, cwd=args.project))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    routes = {
        "floor: /api/graph?limit=1": "api/graph?limit=1",
        "/": "",
        "/api/graph": "api/graph",
        "/api/search": "api/search?q=" + quote(args.query),
        "/api/timeline": "api/timeline",
    }
    times: dict[str, list[tuple[float, float, int]]] = {name: [] for name in routes}
    _timed(server.url)  # first read of the index and graph, not counted
    for _ in range(args.runs):
        for name, path in routes.items():
            times[name].append(_timed(server.url + path))
    server.shutdown()
    for name, runs in times.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{name:28s} wall {wall:7.1f} ms  cpu {cpu:7.1f} ms  {runs[-1][2]:>8d} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
