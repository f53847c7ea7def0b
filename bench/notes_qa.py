"""Notes QA: plain-language questions on a real vault, scored by the first relevant hit.

Usage::

    python bench/notes_qa.py [--data DIR] [--vaults DIR] [--json results.json]
                             [--personal VAULT]

DIR (default: ``shared/data/notes-qa`` beside the project folder) holds the question
sets, ``<vault>.json``: a list of ``{"question", "relevant": [vault-relative paths]}``.
Each set's vault (``shared/data/vaults/<vault>``) is copied to a temp folder, indexed
as a user would (``rubi.app.index``) and every question goes through
``rubi.app.search`` (the function the CLI and the MCP server call) with
``scope="notes"``, ``top_k=10`` and no ``terms``. HOME and the XDG folders point
into the temp folder, so no personal vault or user cache takes part, unless
``--personal VAULT`` names one: a copy of it is then the personal vault, searched with
each set's vault as a user's would be (a personal note that pushes the relevant project
note down counts against the score).

Scores (the data README): for each question the rank of the first relevant note among
the hits; hits@1, hits@5 and MRR (reciprocal rank, 0 when no relevant note is in the
top 10) over all questions. ``--json`` also writes each question's top-10 ids, to
compare rankings before and after a change.

Answer in passage: ``bench/notes_qa_sections.json`` names, per set and question, the
section(s) of the relevant note that answer it (passage anchors: a heading as a link
writes it, or ``L<a>-<b>`` for a note's text before its first heading; labelled here by
reading the notes). Over the questions whose relevant note is in the top 10 and that
have a label, ``passage@1`` is the share whose relevant hit's best passage is one of
them, ``passage@3`` the share where any of its passages (at most 3) is.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SECTIONS = Path(__file__).resolve().parent / "notes_qa_sections.json"
TOP_K = 10


def first_rank(ids: list[str], relevant: list[str]) -> int | None:
    """1-based rank of the first id whose note path is in ``relevant``, or None."""
    wanted = {r.removesuffix(".md") for r in relevant}
    return next((i for i, doc in enumerate(ids, start=1) if doc in wanted), None)


def answer_in_passage(
    hit: Any, wanted: list[str] | None
) -> tuple[bool | None, bool | None, list[str]]:
    """Whether the hit's best passage, and any of its passages, is a wanted section
    (None, None when there is no label or no hit), and its passages' anchors."""
    anchors = [p.anchor for p in getattr(hit, "passages", ())] if hit is not None else []
    if hit is None or not wanted:
        return None, None, anchors
    return bool(anchors) and anchors[0] in wanted, any(a in wanted for a in anchors), anchors


def run_set(
    questions_file: Path,
    vaults: Path,
    work: Path,
    personal: Path | None = None,
    sections: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Index the set's vault in ``work`` and score every question."""
    from rubi import app

    name = questions_file.stem
    vault = work / name
    shutil.copytree(vaults / name, vault)
    paths = app.locate(vault)
    app.index(paths)
    if personal is not None:
        mine = work / f"{name}-personal"
        shutil.copytree(personal, mine)
        os.environ["RUBI_VAULT"] = str(mine)
        app.index(app.locate(mine))
    app.search(paths, "warm up the caches", scope="notes", refresh=False)
    entries = json.loads(questions_file.read_text(encoding="utf-8"))
    per_query: list[dict[str, Any]] = []
    times: list[float] = []
    for entry in entries:
        t0 = time.perf_counter()
        hits = app.search(paths, entry["question"], top_k=TOP_K, scope="notes", refresh=False).hits
        times.append((time.perf_counter() - t0) * 1000)
        ids = [h.id for h in hits]
        rank = first_rank(ids, entry["relevant"])
        hit = hits[rank - 1] if rank is not None else None
        at1, at3, anchors = answer_in_passage(hit, (sections or {}).get(entry["question"]))
        per_query.append(
            {
                "question": entry["question"],
                "relevant": entry["relevant"],
                "rank": rank,
                "top10": ids,
                "passages": anchors,
                "passage@1": at1,
                "passage@3": at3,
            }
        )
    ranks = [q["rank"] for q in per_query]
    n = len(ranks) or 1
    labelled = [q for q in per_query if q["passage@1"] is not None]
    m = len(labelled) or 1
    return {
        "labelled": len(labelled),
        "passage@1": sum(1 for q in labelled if q["passage@1"]) / m,
        "passage@3": sum(1 for q in labelled if q["passage@3"]) / m,
        "set": name,
        "questions": len(ranks),
        "hits@1": sum(1 for r in ranks if r == 1) / n,
        "hits@5": sum(1 for r in ranks if r is not None and r <= 5) / n,
        "mrr": sum(1 / r for r in ranks if r is not None) / n,
        "p50_ms": statistics.median(times) if times else 0.0,
        "per_query": per_query,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=SHARED / "notes-qa")
    parser.add_argument("--vaults", type=Path, default=SHARED / "vaults")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--personal", type=Path, default=None, help="a personal vault to copy")
    args = parser.parse_args(argv)
    sets = sorted(args.data.glob("*.json"))
    if not sets:
        parser.error(f"{args.data}: no question sets (*.json); pass --data <notes-qa folder>")
    missing = [s.stem for s in sets if not (args.vaults / s.stem).is_dir()]
    if missing:
        parser.error(f"{args.vaults}: no vault {', '.join(missing)}; pass --vaults <folder>")
    work = Path(tempfile.mkdtemp(prefix="rubi-notes-qa-"))
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        os.environ[var] = str(work / var.lower())
    os.environ["RUBI_VAULT"] = str(work / "no-personal-vault")
    try:
        labels = json.loads(SECTIONS.read_text(encoding="utf-8")) if SECTIONS.is_file() else {}
        results = [run_set(s, args.vaults, work, args.personal, labels.get(s.stem)) for s in sets]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"{'set':<22} {'questions':>9} {'hits@1':>7} {'hits@5':>7} {'MRR':>6} {'p50':>9}"
        f" {'passage@1':>10} {'passage@3':>10}"
    )
    for r in results:
        print(
            f"{r['set']:<22} {r['questions']:>9} {r['hits@1']:>7.3f} {r['hits@5']:>7.3f} "
            f"{r['mrr']:>6.3f} {r['p50_ms']:>6.1f} ms"
            f" {r['passage@1']:>10.3f} {r['passage@3']:>10.3f}  (of {r['labelled']} labelled)"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
