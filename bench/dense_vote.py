"""Is the dense list informative? Its solo MRR@10 beside the text list's, and offline
fusions with it weighted by fixed or evidence-gated rules.

Usage::

    python bench/capture_lists.py OUT/<set>.lists.jsonl -- --set bench/sets/<set> \\
        --corpus <checkout> --split dev --systems rubi-semantic --dump OUT/<set>.dump.jsonl
    python bench/dense_vote.py OUT/<set>.lists.jsonl [...]

Each ``.lists.jsonl`` (:mod:`capture_lists`) is read with the ``.dump.jsonl`` beside it
(the relevant notes of each query, from ``retrieval_eval.py --dump``). Per set and
pooled over the on-topic questions: MRR@10 of the dense list alone and of the text list
alone, how often the shipped rule let the dense list vote, and the MRR@10 of an RRF
(k = 60; text and names weight 1, graph 0.7, as :data:`rubi.search.engine.LIST_WEIGHTS`)
with the dense list at each rule of :data:`RULES` (``shipped``: the weight the search
gave it). The reweighting rules after fusion are not applied, so ``shipped`` is close
to, not equal to, rubi's own figure.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Row = dict[str, Any]
RRF_K = 60
TOP = 10


def _overlap(row: Row) -> int:
    text = {x[0] for x in row["bm25"][:TOP]}
    return len(text & {x[0] for x in row["dense"][:TOP]})


RULES: dict[str, Callable[[Row], float]] = {
    "off": lambda r: 0.0,
    "shipped": lambda r: float(r["dense_weight"]),
    "0.2": lambda r: 0.2,
    "0.5": lambda r: 0.5,
    "1.0": lambda r: 1.0,
    "agree>=3": lambda r: 1.0 if _overlap(r) >= 3 else 0.0,
    "agree>=5": lambda r: 1.0 if _overlap(r) >= 5 else 0.0,
    "agree/10": lambda r: _overlap(r) / TOP,
}
"""Dense-list weights tried: fixed, the shipped one, and gated by the dense list's
agreement with the text list (documents both lists have among their first 10)."""


def reciprocal_rank(ids: Sequence[str], relevant: set[str], paths: dict[str, str]) -> float:
    """1 / the rank of the first id whose path is relevant, among the first 10; else 0."""
    for i, x in enumerate(ids[:TOP]):
        if paths.get(x, x) in relevant:
            return 1.0 / (i + 1)
    return 0.0


def fuse(lists: Sequence[tuple[Sequence[str], float]]) -> list[str]:
    """Weighted RRF of ``(ids, weight)`` lists, best first (ties by first seen)."""
    score: dict[str, float] = {}
    for ids, weight in lists:
        for i, x in enumerate(ids):
            score[x] = score.get(x, 0.0) + weight / (RRF_K + i + 1)
    return sorted(score, key=lambda x: -score[x])


def set_figures(lists_file: Path) -> tuple[str, int, dict[str, float]]:
    """The set's name, its on-topic question count and each figure's sum over them."""
    name = lists_file.name.removesuffix(".lists.jsonl")
    dump = lists_file.with_name(f"{name}.dump.jsonl")
    relevant = {}
    for line in dump.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        relevant.setdefault(r["query"], set(r["relevant"]))
    sums: dict[str, float] = {"dense": 0.0, "text": 0.0, "voted": 0.0, **dict.fromkeys(RULES, 0.0)}
    seen: set[str] = set()
    for line in lists_file.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        query = row["query"]
        if query in seen or not relevant.get(query):
            continue  # one search per question (a system may search twice); on-topic only
        seen.add(query)
        rel, paths = relevant[query], row["paths"]
        text, dense = [x[0] for x in row["bm25"]], [x[0] for x in row["dense"]]
        sums["dense"] += reciprocal_rank(dense, rel, paths)
        sums["text"] += reciprocal_rank(text, rel, paths)
        sums["voted"] += row["dense_weight"] > 0
        for rule, weight in RULES.items():
            fused = fuse(
                [(text, 1.0), (row["names"], 1.0), (row["graph"], 0.7), (dense, weight(row))]
            )
            sums[rule] += reciprocal_rank(fused, rel, paths)
    return name, len(seen), sums


def main(argv: list[str]) -> int:
    """Print one line per set and a pooled line."""
    if not argv:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    pooled: dict[str, float] = {}
    total = 0
    head = ["dense", "text", "voted", *RULES]
    print("set".ljust(26), "n".rjust(4), *(h.rjust(9) for h in head))
    for path in map(Path, argv):
        name, n, sums = set_figures(path)
        if not n:
            continue
        total += n
        for k, v in sums.items():
            pooled[k] = pooled.get(k, 0.0) + v
        cells = [f"{int(sums[h])}/{n}" if h == "voted" else f"{sums[h] / n:.3f}" for h in head]
        print(name.ljust(26), str(n).rjust(4), *(c.rjust(9) for c in cells))
    if total:
        cells = [
            f"{int(pooled[h])}/{total}" if h == "voted" else f"{pooled[h] / total:.3f}"
            for h in head
        ]
        print("pooled".ljust(26), str(total).rjust(4), *(c.rjust(9) for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
