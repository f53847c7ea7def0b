"""Benchmark the MCP server as Claude Code uses it: a ``rubi serve`` subprocess over stdio.

Measures, per target (a vault folder or a project with ``.rubi/``, already indexed):
- start to first answer: spawn ``rubi serve``, initialize, one ``search`` (wall time);
- per-call latency of ``search`` in one session, p50/p95 over the queries;
- per-call latency of ``read`` of the first hit.

Usage::

    python bench/mcp_bench.py TARGET [TARGET ...] [--queries 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from mcp import Client, StdioServerParameters

RUBI = str(Path(sys.executable).with_name("rubi"))
QUERIES = [
    "how do I sync my vault between devices",
    "embed a note inside another",
    "keyboard shortcuts",
    "request context",
    "register a blueprint",
    "configuration from environment variables",
    "templates",
    "error handling",
    "publish a website",
    "graph view",
]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def measure(target: Path, n: int) -> dict[str, float]:
    params = StdioServerParameters(command=RUBI, args=["serve", "--project", str(target)])
    started = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        first = await client.call_tool("search", {"query": QUERIES[0]})
        start_to_first = time.perf_counter() - started
        searches: list[float] = []
        reads: list[float] = []
        for i in range(n):
            t = time.perf_counter()
            result = await client.call_tool("search", {"query": QUERIES[i % len(QUERIES)]})
            searches.append(time.perf_counter() - t)
            line = result.content[0].text.split("\n", 1)[0] if result.content else ""
            if " — " in line:
                hit = line.split(" — ", 1)[1].split("  ")[0].removesuffix(".md")
            elif "] " in line:
                hit = line.split("] ", 1)[1].strip()
            else:
                continue
            t = time.perf_counter()
            await client.call_tool("read", {"ids": [hit]})
            reads.append(time.perf_counter() - t)
        assert not first.is_error
    return {
        "start": start_to_first,
        "search_p50": statistics.median(searches),
        "search_p95": pct(searches, 95),
        "read_p50": statistics.median(reads) if reads else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("targets", nargs="+", type=Path)
    parser.add_argument("--queries", type=int, default=30)
    args = parser.parse_args()
    table = Table(title="rubi serve (stdio), wall times")
    for col in ("target", "start → first answer", "search p50", "search p95", "read p50"):
        table.add_column(col, justify="right" if col != "target" else "left")
    for target in args.targets:
        r = asyncio.run(measure(target.resolve(), args.queries))
        table.add_row(
            target.name,
            f"{r['start'] * 1000:,.0f} ms",
            f"{r['search_p50'] * 1000:,.1f} ms",
            f"{r['search_p95'] * 1000:,.1f} ms",
            f"{r['read_p50'] * 1000:,.1f} ms",
        )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
