"""How far a code-search set's NDCG@10 can move by the draw of its questions alone, and
where its questions are lost, by category, from ``bench/code_search.py --json`` outputs.

Usage::

    python bench/code_search_noise.py RESULTS.json [RESULTS.json ...] [--rounds 4000]
                                      [--seed 28]

Each RESULTS file is one run of ``bench/code_search.py ... --json RESULTS`` (one set,
its repositories with their per-query rows and the bm25s baseline of the same run).

Per set (one file): the mean over repositories, as the runner reports it, with a 95%
percentile bootstrap interval (Efron & Tibshirani 1993), the questions of each
repository resampled with replacement within it (so every resample has the set's
repositories and their sizes), and the same for the difference to bm25s (paired: one
resample of questions for both). The small sets (6–9 questions a repository) are what
makes a development half and a test half of one set differ: this says by how much.

Pooled over every file, by category (architecture, semantic, symbol): questions, mean
NDCG@10 with its interval (questions resampled), bm25s, and the losses: the question's
first relevant file not ranked first, not in the ten, and rubi below bm25s.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["category_table", "first_relevant", "interval", "main", "set_bootstrap"]

Rows = Mapping[str, Sequence[Mapping[str, Any]]]
"""Repository name → its per-query rows (``ndcg``, ``bm25s_ndcg``, ``results``, …)."""


def first_relevant(results: Sequence[str], relevant: str) -> int | None:
    """The 1-based rank of ``relevant`` in ``results`` (the runner's matching rule:
    equal, or ending with ``/`` + it), None when it is not there."""
    for i, r in enumerate(results, start=1):
        if r == relevant or r.endswith("/" + relevant):
            return i
    return None


def interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The percentile interval holding ``level`` of ``values`` (bootstrap means)."""
    ordered = sorted(values)
    tail = (1.0 - level) / 2.0
    low = ordered[int(tail * len(ordered))]
    high = ordered[min(len(ordered) - 1, int((1.0 - tail) * len(ordered)))]
    return low, high


def _repo_mean(rows: Rows, key: str) -> float:
    return statistics.mean(statistics.mean(float(q[key]) for q in qs) for qs in rows.values())


def set_bootstrap(rows: Rows, rounds: int, rng: random.Random) -> dict[str, Any]:
    """A set's mean over repositories and its difference to bm25s, each with its 95%
    bootstrap interval (questions resampled within each repository)."""
    means: list[float] = []
    diffs: list[float] = []
    for _ in range(rounds):
        sample = {name: [rng.choice(qs) for _ in qs] for name, qs in rows.items()}
        mean = _repo_mean(sample, "ndcg")
        means.append(mean)
        diffs.append(mean - _repo_mean(sample, "bm25s_ndcg"))
    mean, base = _repo_mean(rows, "ndcg"), _repo_mean(rows, "bm25s_ndcg")
    return {
        "ndcg": mean,
        "interval": interval(means),
        "sd": statistics.pstdev(means),
        "bm25s": base,
        "difference": mean - base,
        "difference_interval": interval(diffs),
    }


def category_table(
    queries: Sequence[Mapping[str, Any]], rounds: int, rng: random.Random
) -> list[dict[str, Any]]:
    """Per category (in name order), pooled over ``queries``: how many, the mean NDCG@10
    and its interval, bm25s, and the losses (first relevant file not first, not in
    the ten, below bm25s)."""
    out = []
    for cat in sorted({str(q["category"]) for q in queries}):
        qs = [q for q in queries if q["category"] == cat]
        firsts = [first_relevant(q["results"], q["targets"][0]) for q in qs]
        means = [statistics.mean(float(rng.choice(qs)["ndcg"]) for _ in qs) for _ in range(rounds)]
        out.append(
            {
                "category": cat,
                "questions": len(qs),
                "ndcg": statistics.mean(float(q["ndcg"]) for q in qs),
                "interval": interval(means),
                "bm25s": statistics.mean(float(q["bm25s_ndcg"]) for q in qs),
                "not_first": sum(1 for f in firsts if f != 1),
                "not_in_ten": sum(1 for f in firsts if f is None),
                "below_bm25s": sum(1 for q in qs if q["ndcg"] < q["bm25s_ndcg"]),
            }
        )
    return out


def _rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    return {r["name"]: r["per_query"] for r in json.loads(path.read_text(encoding="utf-8"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    pooled: list[dict[str, Any]] = []
    print("| results | rubi [95%] | sd | bm25s | rubi − bm25s [95%] |")
    print("|---|---|---|---|---|")
    for path in args.results:
        rows = _rows(path)
        pooled += [q for qs in rows.values() for q in qs]
        s = set_bootstrap(rows, args.rounds, rng)
        lo, hi = s["interval"]
        dlo, dhi = s["difference_interval"]
        print(
            f"| {path.stem} | {s['ndcg']:.3f} [{lo:.3f}, {hi:.3f}] | {s['sd']:.3f} | "
            f"{s['bm25s']:.3f} | {s['difference']:+.3f} [{dlo:+.3f}, {dhi:+.3f}] |"
        )
    print("\n| category | questions | rubi [95%] | bm25s | not first | not in ten | below bm25s |")
    print("|---|---|---|---|---|---|---|")
    for c in category_table(pooled, args.rounds, rng):
        lo, hi = c["interval"]
        print(
            f"| {c['category']} | {c['questions']} | {c['ndcg']:.3f} [{lo:.3f}, {hi:.3f}] | "
            f"{c['bm25s']:.3f} | {c['not_first']} | {c['not_in_ten']} | {c['below_bm25s']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
