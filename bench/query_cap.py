"""Benchmark the cost of a search against the number of distinct words it carries,
to place and check the caps of :mod:`rubi.search.limits`.

For each word count, the query is that many distinct words taken from the target's own
text (so they match), and again that many made-up words (so they do not); each search
runs in process on an index already built, best of ``--repeat``. The engine is called
below the facade's character cap but through the reduction of long queries
(:mod:`rubi.search.longquery`), so a count over
:data:`~rubi.search.longquery.LONG_QUERY_WORDS` measures the reduction and the search
of what it keeps: the worst case a long query costs.

Usage::

    python bench/query_cap.py TARGET [--counts 10 50 100 200 400 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rubi import app
from rubi.app import searching
from rubi.core.paths import VaultPaths
from rubi.search import limits, longquery


def vocabulary(target: Path, n: int) -> list[str]:
    """``n`` distinct words of the target's markdown and code, in a fixed random order."""
    words: dict[str, None] = {}
    for path in sorted(target.rglob("*")):
        if path.suffix not in (".md", ".py", ".ts", ".js", ".go", ".rs") or ".venv" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        for word in re.findall(r"[A-Za-z][A-Za-z0-9_]{2,}", text):
            words.setdefault(word.lower(), None)
    pool = sorted(words)
    random.Random(7).shuffle(pool)
    if len(pool) < n:
        raise SystemExit(f"{target}: only {len(pool)} distinct words, {n} asked for")
    return pool[:n]


def timed(paths: VaultPaths, query: str, repeat: int) -> float:
    """Best wall time of one search of the project's notes and code, in seconds, the
    reduction of a long query included (the facade's checks cost microseconds)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        searching._search_one(paths, query, (), 10, "all", False, prefix="")
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="a project (with .rubi/) or a vault, indexed")
    parser.add_argument(
        "--counts", type=int, nargs="+", default=[10, 50, 100, 200, 400, 1000, 2000, 4000]
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    target = args.target.resolve()
    paths = app.locate(target / ".rubi" if (target / ".rubi").is_dir() else target)
    app.index(paths)
    words = vocabulary(target, max(args.counts))
    table = Table(title=f"Search time by distinct words ({target.name})")
    for column in ("words", "characters", "real words (s)", "made-up words (s)", "reduced"):
        table.add_column(column, justify="right")
    for count in args.counts:
        real = " ".join(words[:count])
        made_up = " ".join(f"zq{i:05d}x" for i in range(count))
        if len(real) > limits.MAX_QUERY_CHARS:
            continue  # refused by the facade
        reduced = count > longquery.LONG_QUERY_WORDS
        table.add_row(
            f"{count:,}",
            f"{len(real):,}",
            f"{timed(paths, real, args.repeat):.3f}",
            f"{timed(paths, made_up, args.repeat):.3f}",
            "yes" if reduced else "no",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
