"""Recall with the dense list and without it (the lists that are ready in a process
that has not imported NumPy), per development question, so the rule that leaves the
dense list out of a cold recall is read exactly offline.

Usage::

    python bench/recall_dense.py dump --set bench/sets/NAME --corpus PATH
        [--split dev] --out NAME.jsonl
    python bench/recall_dense.py table NAME.jsonl [...]

``dump`` copies the set's corpus into a vault, indexes it with vectors (the
``semantic`` extra must be installed and ``RUBI_SEMANTIC`` not ``0``), and for each
development question runs ``rubi.app.recall`` (700 tokens, as the hook) twice: as
shipped (the dense list read where it may vote) and with the dense list left out
where it would have been read (``rubi.app.searching._dense`` answering None after
its own checks, which is where ``ready_only`` leaves it out). Recorded per question:
whether the dense index was read (``dense``), and per run whether recall said
something, whether it named a relevant note, whether its first note is one, and its block's
digest.

``table`` prints per kind of set and pooled: off-topic questions left silent and
on-topic questions whose answer was named, with and without the dense list, the
questions whose block differs, and each of those. The test half is not read:
``--split`` accepts ``dev`` only.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import indexed_copy, load_set
from recall_routes import RECALL_TOKENS, kind

Row = dict[str, Any]


@contextmanager
def _ready_lists(counts: dict[str, int]) -> Iterator[None]:
    """Within the block, a search reads no dense index: ``_dense`` runs its own checks
    (channel on, scope embedded, the vault's measurement lets the list vote) and
    answers None where it would have read the index; ``counts["dense"]`` counts
    those."""
    searching = importlib.import_module("rubi.app.searching")
    shipped: Callable[..., Any] = searching._dense

    def ready(*args: Any, **kwargs: Any) -> None:
        if shipped(*args, **kwargs) is not None:
            counts["dense"] = counts.get("dense", 0) + 1
        return None

    searching._dense = ready
    try:
        yield
    finally:
        searching._dense = shipped


def _outcome(block: str, relevant: Sequence[str]) -> Row:
    ids = re.findall(r"\(id ([^)]+)\)", block)
    return {
        "said": bool(block),
        "answer": any(f"{i}.md" in relevant or i in relevant for i in ids),
        "first": bool(ids) and (f"{ids[0]}.md" in relevant or ids[0] in relevant),
        "notes": len(ids),
        "digest": hashlib.sha256(block.encode()).hexdigest()[:16],
    }


def dump(set_dir: Path, corpus: Path, out: Path) -> int:
    """Write one line per development question of the set at ``set_dir``.

    Raises:
        SystemExit: the dense channel is off in this environment."""
    from rubi import app, semantic

    if not semantic.enabled():
        raise SystemExit("the dense channel is off: install the semantic extra")
    evalset = load_set(set_dir)
    rows: list[Row] = []
    with indexed_copy(evalset, corpus, "rubi-recall-dense-") as paths:
        for q in evalset.queries:
            if q.split != "dev":
                continue
            relevant = list(q.relevant)
            shipped = app.recall(paths, q.query, max_tokens=RECALL_TOKENS) or ""
            counts: dict[str, int] = {}
            with _ready_lists(counts):
                ready = app.recall(paths, q.query, max_tokens=RECALL_TOKENS) or ""
            rows.append(
                {
                    "set": evalset.name,
                    "id": q.id,
                    "on": bool(q.relevant),
                    "dense": counts.get("dense", 0),
                    "with": _outcome(shipped, relevant),
                    "ready": _outcome(ready, relevant),
                }
            )
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return len(rows)


def table(rows: Sequence[Row]) -> str:
    """The printed table (see the module)."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(kind(r["set"]), []).append(r)
    groups["all"] = list(rows)
    lines = [
        f"{'kind':12} {'halves':>6} {'questions':>9} {'dense read':>10}  "
        f"{'off-topic silent (with -> ready)':>32}  {'answers named (with -> ready)':>30}  "
        "blocks differ"
    ]
    for name, sel in groups.items():
        off = [r for r in sel if not r["on"]]
        on = [r for r in sel if r["on"]]
        s = [sum(not r[k]["said"] for r in off) for k in ("with", "ready")]
        a = [sum(r[k]["answer"] for r in on) for k in ("with", "ready")]
        differ = sum(r["with"]["digest"] != r["ready"]["digest"] for r in sel)
        lines.append(
            f"{name:12} {len({r['set'] for r in sel}):6} {len(sel):9} "
            f"{sum(r['dense'] > 0 for r in sel):10}  "
            f"{s[0]:13} -> {s[1]:4} of {len(off):4}    {a[0]:12} -> {a[1]:4} of {len(on):4}  "
            f"{differ}"
        )
    for r in rows:
        if r["with"]["digest"] != r["ready"]["digest"]:
            w, d = r["with"], r["ready"]
            lines.append(
                f"{r['set']} {r['id']} {'on' if r['on'] else 'off'}: said {w['said']} -> "
                f"{d['said']}, answer {w['answer']} -> {d['answer']}, first note right "
                f"{w['first']} -> {d['first']}, notes {w['notes']} -> {d['notes']}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", type=Path, required=True)
    d.add_argument("--corpus", type=Path, required=True)
    d.add_argument("--split", choices=("dev",), default="dev")
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("dumps", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "dump":
        print(f"{dump(args.set, args.corpus, args.out)} questions")
        return 0
    rows = [
        json.loads(line)
        for path in args.dumps
        for line in path.read_text("utf-8").splitlines()
        if line.strip()
    ]
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
