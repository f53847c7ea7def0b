"""The note window's factor, varied: every development question of a notes set asked
under each variant, the set indexed once.

Usage::

    python bench/window_grid.py run --set bench/sets/NAME --corpus PATH \\
        [--variants base,off,power:0.5,apart:0.5,blend:0.3] --out ROWS.jsonl
    python bench/window_grid.py table ROWS.jsonl [...] [--base base]

``run`` indexes a copy of the set's notes as ``bench/retrieval_eval.py`` does
(:func:`evalset.indexed_copy`, the dense list off: rubi plain), then for each variant
replaces :func:`rubi.search.notewindow.by_note_window` with one that scores each of the
first :data:`~rubi.search.notewindow.WINDOW_HITS` text hits by that variant's factor
(:func:`factor`) and asks every development question (``rubi search --scope notes``,
no personal vault: :func:`floorsearch.top_notes`). One JSON line per set and variant:
MRR@10 of the on-topic questions, each question's rank of its answer, and each
off-topic question's relevance label. With ``base`` the shipped function runs
unchanged, so its MRR@10 is ``retrieval_eval.py --split dev``'s for ``rubi``.

The factor of a hit from its best window's share ``s`` of the question's IDF mass and
the share ``w`` its whole text holds (:func:`rubi.search.notewindow.note_window_share`,
the whole text as one window):

- ``base``: as shipped (``s`` to :data:`~rubi.search.notewindow.WINDOW_POWER`);
- ``off``: 1 (BM25F's order, the prose saturation kept);
- ``power:P``: ``s ** P``;
- ``apart:G``: ``s * (s / w) ** G``, a page whose matches lie apart losing the part of
  BM25F's credit its best window does not hold (``G`` 0 is ``base``); ``apart:G:P``:
  ``s ** P * (s / w) ** G`` (``apart:0.5:0.5`` is ``s / sqrt(w)``);
- ``blend:L``: ``(1 - L) * s + L * w``, passage and document evidence mixed (Callan
  1994).

``table`` prints one markdown row per set (MRR@10 per variant) and, per variant, the
halves and questions above and below ``--base``, and off-topic questions labelled
below the relevance floor. The test half is never read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import indexed_copy, load_set
from floorsearch import dev_queries, top_notes

Row = dict[str, Any]
WHOLE = 10**9
"""A window no note is longer than: its share is the whole text's."""


def factor(variant: str, share: float, whole: float, power: float, min_share: float) -> float:
    """A hit's factor under ``variant`` (see the module's docstring) from its window's
    ``share`` and its whole text's ``whole`` (both 0 to 1); ``power`` and ``min_share``
    are the shipped ``WINDOW_POWER`` and ``MIN_SHARE``.

    Raises:
        ValueError: an unknown variant.
    """
    name, _, arg = variant.partition(":")
    s = max(share, min_share)
    if name == "base":
        return s**power
    if name == "off":
        return 1.0
    if name == "apart":  # apart:G or apart:G:P
        spread, _, power_arg = arg.partition(":")
        at = s ** float(power_arg or 1.0)
        return at * ((share / whole) if whole > 0 else 1.0) ** float(spread)
    value = float(arg)
    if name == "power":
        return s**value
    if name == "blend":
        return max((1 - value) * share + value * whole, min_share)
    raise ValueError(f"unknown variant {variant!r}: base, off, power:P, apart:G or blend:L")


@contextmanager
def window_variant(variant: str) -> Iterator[None]:
    """:func:`rubi.search.notewindow.by_note_window` scoring by ``variant`` inside the
    block (the shipped one for ``base``), restored after."""
    from rubi.search import notewindow as nw

    shipped = nw.by_note_window
    factor(variant, 1.0, 1.0, 1.0, 0.0)  # an unknown variant fails here

    def by_note_window(
        hits: Sequence[Any],
        asked: Any,
        text_of: Callable[[Any], str],
        digest_of: Callable[[Any], bytes] | None = None,
    ) -> list[Any]:
        if not nw.COVERAGE_MIN_WORDS <= asked.size <= nw.COVERAGE_MAX_WORDS:
            return list(hits)
        head = []
        for h in hits[: nw.WINDOW_HITS]:
            text = text_of(h)
            digest = digest_of(h) if text and digest_of is not None else None
            share = nw.note_window_share(text, asked, nw.WINDOW_WORDS, digest) if text else None
            f = 1.0
            if share is not None:
                whole = nw.note_window_share(text, asked, WHOLE, digest) or 0.0
                f = factor(variant, share, whole, nw.WINDOW_POWER, nw.MIN_SHARE)
            head.append(replace(h, score=h.score * f))
        head.sort(key=lambda h: -h.score)
        return [*head, *hits[nw.WINDOW_HITS :]]

    if variant != "base":
        nw.by_note_window = by_note_window  # type: ignore[assignment]
    try:
        yield
    finally:
        nw.by_note_window = shipped  # type: ignore[assignment]


def run(set_dir: Path, corpus: Path, variants: Sequence[str], out: Path) -> int:
    """Append one row per variant of the set at ``set_dir`` to ``out``."""
    from rubi.semantic import DISABLE_ENV

    os.environ[DISABLE_ENV] = "0"  # rubi plain: the dense list off
    evalset = load_set(set_dir)
    questions = list(dev_queries(evalset))
    with indexed_copy(evalset, corpus, "rubi-window-") as paths, out.open("a") as sink:
        for variant in variants:
            ranks: dict[str, int | None] = {}
            silent: dict[str, bool] = {}
            with window_variant(variant):
                for q in questions:
                    searched = top_notes(paths, q.query, q.relevant)
                    if q.relevant:
                        ranks[q.id] = searched.found
                    else:
                        silent[q.id] = not searched.result.relevant
            row = {"set": evalset.name, "variant": variant, "mrr": mrr(ranks.values())}
            sink.write(json.dumps({**row, "ranks": ranks, "off_silent": silent}) + "\n")
            print(f"{evalset.name} {variant} MRR@10 {row['mrr']:.3f}", flush=True)
    return 0


def mrr(ranks: Any) -> float:
    """MRR@10 of 1-based ranks (None or beyond 10: 0)."""
    found = list(ranks)
    return sum(1 / r for r in found if r and r <= 10) / len(found) if found else 0.0


def table(rows: Sequence[Row], base: str = "base") -> str:
    """The markdown table of ``rows`` (see the module's docstring)."""
    sets = list(dict.fromkeys(r["set"] for r in rows))
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    at = {(r["set"], r["variant"]): r for r in rows}
    lines = ["| development half | " + " | ".join(variants) + " |"]
    lines.append("|---" * (len(variants) + 1) + "|")
    for s in sets:
        cells = [f"{at[s, v]['mrr']:.3f}" if (s, v) in at else "" for v in variants]
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    summary = []
    for v in variants:
        up = down = q_up = q_down = silent = asked = 0
        for s in sets:
            b, n = at.get((s, base)), at.get((s, v))
            if b is None or n is None:
                continue
            up += n["mrr"] > b["mrr"] + 1e-9
            down += n["mrr"] < b["mrr"] - 1e-9
            for q, r in n["ranks"].items():
                before, after = b["ranks"].get(q) or 99, r or 99
                q_up += after < before
                q_down += after > before
            silent += sum(n.get("off_silent", {}).values())
            asked += len(n.get("off_silent", {}))
        summary.append(f"{up} / {down} ({q_up} / {q_down}); {silent} of {asked}")
    lines.append(
        "| halves up / down (questions up / down); off-topic silent | " + " | ".join(summary) + " |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--set", dest="set_dir", type=Path, required=True)
    r.add_argument("--corpus", type=Path, required=True)
    r.add_argument("--variants", default="base,off,power:0.5,apart:0.5,apart:0.5:0.5,blend:0.3")
    r.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("rows", type=Path, nargs="+")
    t.add_argument("--base", default="base")
    args = parser.parse_args(argv)
    if args.cmd == "run":
        variants = [v for v in args.variants.split(",") if v]
        for v in variants:
            factor(v, 1.0, 1.0, 1.0, 0.0)  # an unknown name fails before indexing
        return run(args.set_dir, args.corpus, variants, args.out)
    rows = [json.loads(x) for f in args.rows for x in f.read_text("utf-8").splitlines() if x]
    print(table(rows, args.base))
    return 0


if __name__ == "__main__":
    sys.exit(main())
