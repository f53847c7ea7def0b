"""What the window rule (``rubi.search.codewindow``) costs a code search, beside the same
searches without it in the same process (the floor).

Usage::

    python bench/code_window_cost.py CHECKOUT --data bench/sets/<code set> --name NAME
        [--repeat 3]

CHECKOUT is indexed as ``bench/code_search.py`` indexes it (a project vault in a temp
folder; the checkout is not modified); the questions are the ``query`` fields of
``DATA/annotations/NAME.json``. After one warm-up search, the process runs every
question ``--repeat`` times with the rule, then without it (``by_window`` left out), then
both again, and prints per case the CPU (``time.process_time``, this process) and wall
time per search, and how many of the questions the rule applies to (6 to 20 content
words). The machine may be loaded: CPU is the figure to compare.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import rubi.search.notewindow as notewindow
from rubi import app
from rubi.core.paths import VaultPaths, index_dir_for
from rubi.search.codecoverage import COVERAGE_MAX_WORDS, COVERAGE_MIN_WORDS, question_words


def _timed(paths: VaultPaths, queries: Sequence[str], repeat: int) -> tuple[float, float]:
    """CPU and wall milliseconds per search over ``repeat`` passes of ``queries``."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(repeat):
        for query in queries:
            app.search(paths, query, scope="code", refresh=False)
    n = repeat * len(queries)
    return (time.process_time() - cpu) * 1000 / n, (time.perf_counter() - wall) * 1000 / n


def _without_rule(hits: Sequence[Any], words: int, share: Callable[..., Any]) -> list[Any]:
    return list(hits)


def main(argv: list[str] | None = None) -> int:
    """Print the cost per search with and without the window rule; return the status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    annotations = args.data / "annotations" / f"{args.name}.json"
    if not args.checkout.is_dir() or not annotations.is_file():
        print(f"{args.checkout} or {annotations}: missing; give a checkout and its set")
        return 2
    queries = [str(e["query"]) for e in json.loads(annotations.read_text(encoding="utf-8"))]
    reordered = sum(COVERAGE_MIN_WORDS <= question_words(q) <= COVERAGE_MAX_WORDS for q in queries)
    work = Path(tempfile.mkdtemp(prefix="rubi-window-cost-"))
    vault = work / "vault"
    (vault / "notes").mkdir(parents=True)
    paths = VaultPaths(vault, index_dir_for(vault), args.checkout.resolve())
    rule = notewindow.by_window
    try:
        app.index(paths)
        app.search(paths, "warm up the caches", scope="code", refresh=False)
        print(f"{args.name}: {len(queries)} questions, {reordered} reordered by the rule")
        for label in ("with the rule", "without (floor)", "with the rule", "without (floor)"):
            notewindow.by_window = rule if label == "with the rule" else _without_rule
            cpu, wall = _timed(paths, queries, args.repeat)
            print(f"  {label:16s} CPU {cpu:5.1f} ms / search, wall {wall:5.1f} ms")
    finally:
        notewindow.by_window = rule
        shutil.rmtree(paths.index_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
