"""Search and the relevance floor with and without their reading of unseen compounds,
per question.

Usage::

    python bench/compound_floor.py dump --set bench/sets/NAME --corpus PATH --out ROWS.jsonl
    python bench/compound_floor.py table ROWS.jsonl [...]

``dump`` indexes the set's notes as ``bench/relevance_floor.py dump`` does (a copy of
the corpus opened as a vault) and, for each development question, runs rubi's search
of notes (top 10) and the recall hook (700 tokens) as shipped; when the question has a
compound the floor read as its parts (:func:`rubi.index.compounds.unseen_parts` gave
any), it runs both again with that reading off (the function replaced by one giving
None: neither the floor nor the text list reads the parts), so one index gives both
sides; otherwise both sides are the same run. Each row:
the answer's rank in the top 10, the floor's label, whether recall injected a block and
whether it named the answer, for ``new`` and ``base``, and the compounds split.

``table`` prints per set and pooled: MRR@10, answers in the top 10 the floor hides,
on-topic questions it hides, off-topic ones it silences, off-topic prompts recall
leaves silent and on-topic ones whose answer it names, base → new. Only ``--split
dev`` is read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import indexed_copy, load_set
from floorsearch import dev_queries, recalled, top_notes

Row = dict[str, Any]


def _side(paths: Any, query: str, relevant: Sequence[str]) -> Row:
    """One question's search (rank of the answer in the top 10, label) and recall."""
    searched = top_notes(paths, query, relevant)
    block, recalled_answer = recalled(paths, query, relevant)
    return {
        "found": searched.found,
        "relevant": searched.result.relevant,
        "coverage": round(searched.result.coverage, 4),
        "recalled": bool(block),
        "recalled_answer": recalled_answer,
    }


def dump(set_dir: Path, corpus: Path, out: Path) -> int:
    """Write one line per development question of the set at ``set_dir``."""
    from rubi.index import compounds

    shipped: Callable[..., Any] = compounds.unseen_parts
    split: list[str] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        parts = shipped(*args, **kwargs)
        if parts is not None:
            split.append(str(sorted(parts.replaced)))
        return parts

    evalset = load_set(set_dir)
    rows: list[Row] = []
    with indexed_copy(evalset, corpus, "rubi-compound-") as paths:
        for q in dev_queries(evalset):
            split.clear()
            compounds.unseen_parts = spy  # type: ignore[attr-defined]
            try:
                new = _side(paths, q.query, q.relevant)
            finally:
                compounds.unseen_parts = shipped  # type: ignore[attr-defined]
            fired = bool(split)
            if fired:
                compounds.unseen_parts = lambda *a, **k: None  # type: ignore[attr-defined]
                try:
                    base = _side(paths, q.query, q.relevant)
                finally:
                    compounds.unseen_parts = shipped  # type: ignore[attr-defined]
            else:
                base = new
            rows.append(
                {"set": evalset.name, "id": q.id, "on": bool(q.relevant), "fired": fired}
                | {"new": new, "base": base}
            )
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return 0


def _figures(rows: Sequence[Row], side: str) -> tuple[float, int, int, int, int, int]:
    """MRR@10, answers in the top 10 hidden, on-topic hidden, off-topic silenced,
    off-topic recall silent, on-topic answers recall named."""
    on = [r[side] for r in rows if r["on"]]
    off = [r[side] for r in rows if not r["on"]]
    mrr = sum(1 / s["found"] for s in on if s["found"]) / len(on) if on else 0.0
    return (
        mrr,
        sum(1 for s in on if s["found"] and not s["relevant"]),
        sum(1 for s in on if not s["relevant"]),
        sum(1 for s in off if not s["relevant"]),
        sum(1 for s in off if not s["recalled"]),
        sum(1 for s in on if s["recalled_answer"]),
    )


def table(files: Sequence[Path]) -> str:
    """A markdown table, base → new, per set and pooled."""
    rows = [json.loads(line) for f in files for line in f.read_text("utf-8").splitlines()]
    sets = list(dict.fromkeys(r["set"] for r in rows))
    head = "| set (on, off; split) | MRR@10 | top-10 answers hidden | on-topic hidden | "
    head += "off-topic silenced | recall silent off-topic | recall names the answer |"
    lines = [head, "|---|---|---|---|---|---|---|"]
    for name in [*sets, "pooled"]:
        mine = rows if name == "pooled" else [r for r in rows if r["set"] == name]
        b, n = _figures(mine, "base"), _figures(mine, "new")
        on = sum(1 for r in mine if r["on"])
        fired = sum(1 for r in mine if r["fired"])
        cells = [f"{b[0]:.3f} → {n[0]:.3f}"] + [
            f"{x} → {y}" for x, y in zip(b[1:], n[1:], strict=True)
        ]
        lines.append(f"| {name} ({on}, {len(mine) - on}; {fired}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``dump`` or ``table``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", dest="set_dir", type=Path, required=True)
    d.add_argument("--corpus", type=Path, required=True)
    d.add_argument("--split", choices=("dev",), default="dev")
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "dump":
        return dump(args.set_dir, args.corpus, args.out)
    print(table(args.files))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
