"""Where rubi loses an answer a baseline ranks higher: each search step's rank of it.

Usage::

    python bench/loss_causes.py record STEPS.jsonl -- <bench/retrieval_eval.py arguments>
    python bench/loss_causes.py report DUMP.jsonl:STEPS.jsonl [DUMP:STEPS ...] [--verbose]

``record`` runs :mod:`retrieval_eval` unchanged (pass ``--systems rubi,bm25s,rrf`` and
``--dump DUMP.jsonl``) with the search engine's steps wrapped, and writes one JSON line
per notes search of the engine: the text list as BM25F ranked it (``raw``), the same
list after the note window (``window``, :func:`rubi.search.notewindow.by_best_passage`),
the lists fused (``fused``: RRF of the text, name and graph lists with the node
weights, :func:`rubi.search.engine.fuse`) and the places after stubs and
near-duplicates are collapsed (``slots``, :func:`rubi.search.duplicates.collapse`),
each by the note's path, the first :data:`KEPT` of each. The first line is the
evaluation's warm-up search; the others follow rubi's records of the dump in order.

``report`` reads dump and steps pairs (one per set) and, for every on-topic question
where ``bm25s`` or ``rrf`` ranks the answer above ``rubi``, names the step that lost
it (:func:`cause`), then counts the causes per set and in all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

__all__ = ["CAUSES", "KEPT", "Ranks", "cause", "losses", "main", "rank_of"]

KEPT = 50
"""Places of each step's list written: the text list's depth (``BM25_LIMIT``)."""
MISSED = 11
"""The rank a step's list gives an answer outside its first ten: all such ranks are
equal to the evaluation (MRR@10), so a step that moves an answer from 12th to 30th
lost nothing."""
CAUSES = (
    "dense only",
    "text list (BM25F)",
    "note window",
    "fusion (names, graph)",
    "collapse",
)
"""The causes :func:`cause` names, in the order of the search's steps after the first:
``dense only``: bm25s ranks the answer no higher than rubi, only rrf (bm25s fused with
the embedding model) does, so what separates them is a list rubi plain does not have;
the others: the step whose output moved the answer furthest below bm25s's rank."""


@dataclass(frozen=True, slots=True)
class Ranks:
    """One question's 1-based ranks of its best-placed answer (None: not listed):
    rubi's result, the baselines', and each of rubi's steps."""

    rubi: int | None
    bm25s: int | None
    rrf: int | None
    raw: int | None
    window: int | None
    fused: int | None


def rank_of(ids: Sequence[str], relevant: Iterable[str]) -> int | None:
    """The 1-based place of the first of ``ids`` that is one of ``relevant`` (paths; a
    path matches a relevant one that it ends with, or that ends with it, at a folder
    boundary), None when none is."""
    wanted = list(relevant)
    for place, found in enumerate(ids, 1):
        for rel in wanted:
            if found == rel or found.endswith("/" + rel) or rel.endswith("/" + found):
                return place
    return None


def _capped(place: int | None) -> int:
    return MISSED if place is None or place > MISSED else place


def cause(r: Ranks) -> str | None:
    """The step that lost the answer (one of :data:`CAUSES`), None when no baseline
    ranks it above rubi.

    Every rank is capped at :data:`MISSED`. When bm25s is no better than rubi but rrf
    is, ``dense only``. Otherwise each step's loss is how many places it moved the
    answer down: the text list's against bm25s's rank (what BM25F with its fields and
    parameters did that plain BM25 over the same notes did not), then the note window
    against the text list, fusion against the window and the collapse (the result)
    against fusion; the largest names the cause (the earlier step on a tie).
    """
    mine = _capped(r.rubi)
    best = min(_capped(r.bm25s), _capped(r.rrf))
    if best >= mine:
        return None
    if _capped(r.bm25s) >= mine:
        return CAUSES[0]
    steps = (
        _capped(r.raw) - _capped(r.bm25s),
        _capped(r.window) - _capped(r.raw),
        _capped(r.fused) - _capped(r.window),
        mine - _capped(r.fused),
    )
    return CAUSES[1 + max(range(len(steps)), key=lambda i: (steps[i], -i))]


def losses(
    records: Sequence[dict[str, Any]], steps: Sequence[dict[str, Any]]
) -> list[tuple[str, Ranks, str]]:
    """``(question id, ranks, cause)`` of every on-topic question of one set's dump
    (``records``, :mod:`retrieval_eval`'s ``--dump``) that a baseline ranks above rubi;
    ``steps``: the lines ``record`` wrote for the same run (warm-up first).

    Raises:
        ValueError: ``steps`` does not hold one line per rubi search of ``records``.
    """
    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for rec in records:
        by_id.setdefault(rec["id"], {})[rec["system"]] = rec
    rubi = [rec for rec in records if rec["system"] == "rubi"]
    searched = list(steps[1:])  # the first is the warm-up search
    if len(searched) != len(rubi):
        raise ValueError(f"{len(searched)} recorded searches for {len(rubi)} rubi records")
    out = []
    for rec, step in zip(rubi, searched, strict=True):
        relevant = rec["relevant"]
        if not relevant:
            continue
        systems = by_id[rec["id"]]
        ranks = Ranks(
            rank_of(rec["results"], relevant),
            _rank_in(systems.get("bm25s"), relevant),
            _rank_in(systems.get("rrf"), relevant),
            rank_of(step.get("raw", []), relevant),
            rank_of(step.get("window", []), relevant),
            rank_of(step.get("fused", []), relevant),
        )
        why = cause(ranks)
        if why is not None:
            out.append((rec["id"], ranks, why))
    return out


def _rank_in(found: dict[str, Any] | None, relevant: list[str]) -> int | None:
    """A system's rank of the answer in its record, None without a record."""
    return rank_of(found["results"], relevant) if found else None


def record(out_path: Path, rest: list[str]) -> int:
    """Run :func:`retrieval_eval.main` on ``rest`` with the engine's steps wrapped."""
    import rubi.search.engine as engine

    out = out_path.open("w", encoding="utf-8")
    state: dict[str, Any] = {}
    text_list, by_best_passage = engine.text_list, engine.by_best_passage
    fuse, collapse = engine.fuse, engine.collapse

    def path(node: str) -> str:
        return str(state["graph"].nodes[node].get("path", node))

    def text_step(index: Any, g: Any, *args: Any, **kwargs: Any) -> Any:
        hits = text_list(index, g, *args, **kwargs)
        state.clear()
        state["graph"] = g
        state["raw"] = [path(h.id) for h in hits[:KEPT]]
        return hits

    def window_step(hits: Any, *args: Any, **kwargs: Any) -> Any:
        moved = by_best_passage(hits, *args, **kwargs)
        state["window"] = [path(h.id) for h in moved[:KEPT]]
        return moved

    def fuse_step(g: Any, cands: Any, *args: Any, **kwargs: Any) -> Any:
        fused, variants = fuse(g, cands, *args, **kwargs)
        state["fused"] = [path(f.id) for f in fused[:KEPT]]
        return fused, variants

    def collapse_step(ids: Any, *args: Any, **kwargs: Any) -> Any:
        slots = collapse(ids, *args, **kwargs)
        state["slots"] = [path(s.lead) for s in slots]
        line = {k: v for k, v in state.items() if k != "graph"}
        out.write(json.dumps(line, ensure_ascii=False) + "\n")
        return slots

    engine.text_list = text_step  # type: ignore[assignment]
    engine.by_best_passage = window_step  # type: ignore[assignment]
    engine.fuse = fuse_step  # type: ignore[assignment]
    engine.collapse = collapse_step  # type: ignore[assignment]
    import retrieval_eval

    try:
        return retrieval_eval.main(rest)
    finally:
        engine.text_list, engine.by_best_passage = text_list, by_best_passage
        engine.fuse, engine.collapse = fuse, collapse
        out.close()


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def report(pairs: Sequence[str], verbose: bool) -> str:
    """The cause table of ``pairs`` (``DUMP:STEPS`` paths, one set each)."""
    totals: Counter[str] = Counter()
    lines = []
    for pair in pairs:
        dump, _, steps = pair.rpartition(":")
        records = _read(Path(dump))
        found = losses(records, _read(Path(steps)))
        name = records[0]["set"] if records else dump
        counts = Counter(why for _, _, why in found)
        totals.update(counts)
        lines.append(f"{name}: " + ", ".join(f"{c} {counts[c]}" for c in CAUSES if counts[c]))
        if verbose:
            for qid, r, why in found:
                lines.append(
                    f"  {qid}: rubi {r.rubi} bm25s {r.bm25s} rrf {r.rrf}"
                    f" | text {r.raw} window {r.window} fused {r.fused} -> {why}"
                )
    lines.append("all: " + ", ".join(f"{c} {totals[c]}" for c in CAUSES))
    return "\n".join(lines)


def record_or_report(
    argv: list[str] | None,
    record: Callable[[Path, list[str]], int],
    report: Callable[[list[str], bool], str],
    description: str,
    pairs_help: str,
) -> int:
    """The command line of a record/report bench: ``record STEPS.jsonl [--] EVAL ARGS``
    runs ``record``; ``report PAIRS... [--verbose]`` prints ``report``'s table."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["record"] and len(args) >= 2:
        rest = args[args.index("--") + 1 :] if "--" in args else args[2:]
        return record(Path(args[1]), rest)
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("command", choices=("report",))
    parser.add_argument("pairs", nargs="+", help=pairs_help)
    parser.add_argument("--verbose", action="store_true")
    parsed = parser.parse_args(args)
    print(report(parsed.pairs, parsed.verbose))
    return 0


def main(argv: list[str] | None = None) -> int:
    return record_or_report(
        argv, record, report, __doc__.split("\n", 1)[0], "DUMP.jsonl:STEPS.jsonl, one per set"
    )


if __name__ == "__main__":
    raise SystemExit(main())
