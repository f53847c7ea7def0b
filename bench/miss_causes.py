"""Why an answer is not first: every on-topic question's answer traced through rubi's
search steps, plain and with the dense channel, and each miss given one cause.

Usage::

    python bench/miss_causes.py record STEPS.jsonl -- <bench/retrieval_eval.py arguments>
    python bench/miss_causes.py report DUMP.jsonl:STEPS.jsonl[:ROOT] [...] [--verbose]

``record`` runs :mod:`retrieval_eval` unchanged (pass ``--systems
rubi,rubi-semantic,bm25s,rrf`` and ``--dump DUMP.jsonl``) and writes one JSON line per
search of rubi's (``rubi`` and ``rubi-semantic`` alike, the warm-up searches too):
``query``, ``sem`` (the dense channel on), the text list as BM25F ranked it (``raw``)
and after the note window (``window``), each ``[path, score]``, the first
:data:`KEPT`; the name list (``names``), the graph list (``graph``) and the dense list
(``dense``, with its weight ``dense_w``: 0 when it did not vote), the fused list
(``fused``) and the hits with their why-lines (``why``). Unlike
:mod:`loss_causes`, which looks only at the questions a baseline ranks higher, every
miss is traced, and a line is matched to its record by query and channel, not by order.

``report`` reads dump and steps pairs (one per set; ``ROOT``, the prepared corpus
folder the set's paths are relative to, adds the answer page's share of the question's
words and each page's length) and prints, per set and pooled, for ``rubi`` and
``rubi-semantic``, how many answers are first and the cause of each other one
(:func:`cause`; of the text list's, how many lay below its first ten), and for the
answers BM25F listed but did not rank first, what it ranked first (:func:`above`).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loss_causes import MISSED, rank_of, record_or_report

__all__ = [
    "CAUSES",
    "KEPT",
    "Steps",
    "above",
    "cause",
    "main",
    "question_share",
    "steps_of",
]

KEPT = 50
"""Places of the text lists written: the text list's depth (``BM25_LIMIT``)."""
LISTED = 20
"""Places of the graph, dense and fused lists written."""
NEAR_TIE = 1.15
"""A page above the answer whose BM25F score is less than this times the answer's is
a near tie."""
LENGTH_RATIO = 3.0
"""A page above the answer this many times longer (or shorter) is a longer (shorter)
page."""
SIBLING_SHARE = 0.1
"""A folder holding at most this share of a vault's pages makes its pages siblings (a
flat vault's one folder does not)."""
WARM_UP = "warm up the caches"
CAUSES = (
    "first",
    "absent",
    "dense only",
    "text list (BM25F)",
    "note window",
    "fusion (names, graph, dense)",
    "collapse",
)
"""What :func:`cause` names: the answer ``first``; ``absent`` (no list of the search
holds it: not in BM25F's first :data:`KEPT`, nor among the names, the graph's or the
dense list's first :data:`LISTED`); ``dense only`` (only the dense list found it); else the
step that moved it furthest down (BM25F's rank below first, the window's and fusion's
moves, the collapse's), each rank capped at :data:`~loss_causes.MISSED`."""
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class Steps:
    """One question's 1-based ranks of its best-placed answer in each list (None: not
    listed)."""

    result: int | None
    raw: int | None
    window: int | None
    fused: int | None
    names: int | None = None
    graph: int | None = None
    dense: int | None = None


def _paths(items: Sequence[Any]) -> list[str]:
    return [str(x[0]) if isinstance(x, list) else str(x) for x in items]


def steps_of(line: dict[str, Any], results: Sequence[str], relevant: Sequence[str]) -> Steps:
    """The ranks of ``relevant`` in a recorded search ``line`` and its ``results``."""
    return Steps(
        rank_of(results, relevant),
        rank_of(_paths(line.get("raw", [])), relevant),
        rank_of(_paths(line.get("window", [])), relevant),
        rank_of(_paths(line.get("fused", [])), relevant),
        rank_of(_paths(line.get("names", [])), relevant),
        rank_of(_paths(line.get("graph", [])), relevant),
        rank_of(_paths(line.get("dense", [])), relevant),
    )


def _capped(place: int | None) -> int:
    return MISSED if place is None or place > MISSED else place


def cause(s: Steps) -> str:
    """The cause of an answer's place (one of :data:`CAUSES`)."""
    if s.result == 1:
        return CAUSES[0]
    if s.raw is None and s.names is None and s.graph is None:
        return CAUSES[2] if s.dense is not None else CAUSES[1]
    moves = (
        _capped(s.raw) - 1,
        _capped(s.window) - _capped(s.raw),
        _capped(s.fused) - _capped(s.window),
        _capped(s.result) - _capped(s.fused),
    )
    return CAUSES[3 + max(range(len(moves)), key=lambda i: (moves[i], -i))]


def above(
    answer: str, top: str, answer_score: float, top_score: float, words: dict[str, int]
) -> list[str]:
    """What the page BM25F ranked first (``top``) is to the answer it outranked:
    ``same folder`` (a folder holding at most :data:`SIBLING_SHARE` of the pages
    ``words`` knows), ``longer page`` or ``shorter page`` (:data:`LENGTH_RATIO`, when
    ``words`` knows both lengths), and ``near tie`` (:data:`NEAR_TIE`) or ``clear``."""
    out = []
    folder = os.path.dirname(answer)
    if words and folder == os.path.dirname(top):
        held = sum(1 for page in words if os.path.dirname(page) == folder)
        if held <= SIBLING_SHARE * len(words):
            out.append("same folder")
    a, t = words.get(answer), words.get(top)
    if a and t:
        if t >= LENGTH_RATIO * a:
            out.append("longer page")
        elif a >= LENGTH_RATIO * t:
            out.append("shorter page")
    near = answer_score > 0 and top_score < NEAR_TIE * answer_score
    out.append("near tie" if near else "clear")
    return out


def _stems(text: str) -> set[str]:
    import Stemmer  # PyStemmer and stop-words: dependencies of rubi
    from stop_words import get_stop_words

    stem, stop = Stemmer.Stemmer("english").stemWord, set(get_stop_words("en"))
    words = (w for w in _WORD.findall(text.lower()) if w not in stop and len(w) > 1)
    return {stem(w) for w in words}


def question_share(question: str, page: str) -> float:
    """The share (0 to 1) of ``question``'s content words that ``page``'s text holds:
    English Snowball stems, the ``stop-words`` package's English list left out."""
    wanted = _stems(question)
    return len(wanted & _stems(page)) / len(wanted) if wanted else 0.0


def record(out_path: Path, rest: list[str]) -> int:
    """Run :func:`retrieval_eval.main` on ``rest`` with rubi's searches recorded."""
    import evalsystems

    import rubi.app as app
    import rubi.search.engine as engine

    out = out_path.open("w", encoding="utf-8")
    state: dict[str, Any] = {}
    text_list, by_best_passage, fuse = engine.text_list, engine.by_best_passage, engine.fuse
    search, rubi_search = app.search, evalsystems.RubiSystem.search

    def path(node: str) -> str:
        return str(state["graph"].nodes[node].get("path", node))

    def text_step(index: Any, g: Any, *args: Any, **kwargs: Any) -> Any:
        hits = text_list(index, g, *args, **kwargs)
        state["graph"] = g
        state["raw"] = [[path(h.id), round(h.score, 4)] for h in hits[:KEPT]]
        return hits

    def window_step(hits: Any, *args: Any, **kwargs: Any) -> Any:
        moved = by_best_passage(hits, *args, **kwargs)
        state["window"] = [[path(h.id), round(h.score, 4)] for h in moved[:KEPT]]
        return moved

    def fuse_step(g: Any, cands: Any, *args: Any, **kwargs: Any) -> Any:
        fused, variants = fuse(g, cands, *args, **kwargs)
        state["names"] = [[path(m.id), m.name] for m in cands.names]
        state["graph_list"] = [path(n) for n in cands.graph[:LISTED]]
        state["dense"] = [[path(m.id), round(m.score, 4)] for m in list(cands.dense)[:LISTED]]
        state["dense_w"] = cands.dense_weight
        state["fused"] = [[path(f.id), round(f.score, 6)] for f in fused[:LISTED]]
        return fused, variants

    def app_search(*args: Any, **kwargs: Any) -> Any:
        result = search(*args, **kwargs)
        state["why"] = [[h.path, list(h.why)] for h in result.hits]
        return result

    def system_search(self: Any, query: str, k: int) -> Any:
        state.clear()
        found = rubi_search(self, query, k)
        line = {key: value for key, value in state.items() if key != "graph"}
        line["graph"] = line.pop("graph_list", [])
        out.write(json.dumps({"query": query, "sem": self._semantic, **line}) + "\n")
        return found

    engine.text_list = text_step  # type: ignore[assignment]
    engine.by_best_passage = window_step  # type: ignore[assignment]
    engine.fuse = fuse_step  # type: ignore[assignment]
    app.search = app_search  # type: ignore[assignment]
    evalsystems.RubiSystem.search = system_search  # type: ignore[method-assign]
    import retrieval_eval

    try:
        return retrieval_eval.main(rest)
    finally:
        engine.text_list, engine.by_best_passage, engine.fuse = text_list, by_best_passage, fuse
        app.search, evalsystems.RubiSystem.search = search, rubi_search  # type: ignore[method-assign]
        out.close()


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _page_words(root: Path | None) -> dict[str, int]:
    """Each markdown page's length in words under ``root``, by its relative path."""
    if root is None:
        return {}
    out = {}
    for page in root.rglob("*.md"):
        if page.is_file():
            rel = page.relative_to(root).as_posix()
            out[rel] = len(page.read_text(encoding="utf-8", errors="replace").split())
    return out


def _page_text(root: Path | None, relevant: Sequence[str]) -> str | None:
    if root is None or not relevant:
        return None
    page = root / relevant[0]
    try:
        return page.read_text(encoding="utf-8", errors="replace") + "\n" + relevant[0]
    except OSError:
        return None


def report(pairs: Sequence[str], verbose: bool) -> str:
    """The cause tables of ``pairs`` (``DUMP:STEPS[:ROOT]`` paths, one set each)."""
    totals: dict[str, Counter[str]] = {"rubi": Counter(), "rubi-semantic": Counter()}
    lines = []
    for pair in pairs:
        dump, steps_path, *rest = pair.split(":")
        root = Path(rest[0]) if rest and rest[0] else None
        words = _page_words(root)
        records = _read(Path(dump))
        lines_by = {
            (x["query"], bool(x["sem"])): x
            for x in _read(Path(steps_path))
            if x["query"] != WARM_UP
        }
        name = records[0]["set"] if records else dump
        for system, sem in (("rubi", False), ("rubi-semantic", True)):
            counts: Counter[str] = Counter()
            for rec in records:
                line = lines_by.get((rec["query"], sem))
                if rec["system"] != system or not rec["relevant"] or line is None:
                    continue
                s = steps_of(line, rec["results"], rec["relevant"])
                why = cause(s)
                counts[why] += 1
                text = _page_text(root, rec["relevant"])
                if text is not None:
                    share = question_share(rec["query"], text)
                    totals[system][f"words {why}"] += 1
                    totals[system][f"share% {why}"] += round(100 * share)
                if why == CAUSES[3] and s.raw is not None and s.raw > MISSED - 1:
                    counts["of which below its first ten"] += 1
                if why not in CAUSES[:3] and s.raw is not None and s.raw > 1:
                    raw = line.get("raw", [])
                    top, top_score = raw[0][0], float(raw[0][1])
                    answer, answer_score = raw[s.raw - 1][0], float(raw[s.raw - 1][1])
                    for kind in above(answer, top, answer_score, top_score, words):
                        counts["above: " + kind] += 1
                if verbose and why != "first" and not sem:
                    lines.append(f"  {rec['id']} {s} -> {why} | {rec['query'][:90]}")
            totals[system].update(counts)
            lines.append(f"{name} {system}: " + _counts(counts))
    for system, counts in totals.items():
        lines.append(f"all {system}: " + _counts(counts))
        shares = []
        for why in CAUSES[:5]:
            n = counts[f"words {why}"]
            if n:
                shares.append(f"{why} {counts[f'share% {why}'] / n:.0f}% ({n})")
        if shares:
            lines.append(f"  question words in the answer page, mean: {', '.join(shares)}")
    return "\n".join(lines)


def _counts(counts: Counter[str]) -> str:
    main = [f"{c} {counts[c]}" for c in CAUSES if counts[c]]
    sub = [f"{k} {v}" for k, v in sorted(counts.items()) if k.startswith(("above: ", "of which"))]
    return ", ".join(main) + (f"; {', '.join(sub)}" if sub else "")


def main(argv: list[str] | None = None) -> int:
    return record_or_report(
        argv,
        record,
        report,
        __doc__.split("\n", 1)[0],
        "DUMP.jsonl:STEPS.jsonl[:ROOT], one per set",
    )


if __name__ == "__main__":
    raise SystemExit(main())
