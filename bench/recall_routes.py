"""Recall's two routes, per question: what the hook says on the short route (held to
the relevance floor) and on the long one (the three-word bar alone), so any rule
choosing the route, or relabelling the floor, is read exactly offline.

Usage::

    python bench/recall_routes.py dump --set bench/sets/NAME --corpus PATH
        [--split dev] --out ROUTES.jsonl
    python bench/recall_routes.py table ROUTES.jsonl [...] [--changes]
    python bench/recall_routes.py rules ROUTES.jsonl [...] [--unseen SET,SET]

``dump`` indexes the set's notes as ``bench/relevance_floor.py dump`` does (a copy of
the corpus opened as a vault) and, for each development question, runs
``rubi.app.recall`` (700 tokens) twice, the route forced short and forced long
(``rubi.app.recall.prompt_words`` replaced for the call), beside the notes search's
floor label and readings, the prompt's content terms in its chain, and the shipped
count (``prompt_words``). Why both routes are enough: on the short route a prompt the
floor labels relevant gets exactly the long route's notes (the only difference is the
floor; checked on every row of the 45 development halves, 2026-12-06), so a rule that
changes the route or the label picks one of the two recorded outcomes.

``table`` reads those lines and prints, per kind of set and pooled: off-topic
questions recall left silent and on-topic questions whose answer it named, with the
shipped count and with :func:`written_words_count` (a prompt's words as written, once
each), and the questions that change route. The test half is not read: ``--split``
accepts ``dev`` only.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import indexed_copy, load_set
from floorsearch import RECALL_TOKENS, dev_queries, top_notes

Row = dict[str, Any]
CJK_SETS = ("-ja", "-ko", "-zh")
"""A set whose name ends so is read as CJK in the table's kinds."""


def written_words_count(query: str, terms: Iterable[str], lang: str) -> int:
    """A prompt's length as its words as written, once each: its written words
    (:func:`rubi.search.longquery.written_words`) that bring a content term of
    ``terms`` (read in chain ``lang``) no earlier word brought, plus its CJK words
    counted as recall counts them (:func:`rubi.app.recall.prompt_words`). Recall's own
    count is its terms, and outside English a word brings its stem beside its surface
    and its elided forms (``pizza``, ``pizz``; ``l'impasto``, ``impast``)."""
    from rubi.app.recall import cjk_run_words
    from rubi.index.analysis import analyze, is_cjk
    from rubi.index.japanese import japanese_words
    from rubi.search.longquery import written_words

    words = japanese_words(query)
    count = len(words) if words else cjk_run_words(query)
    plain = {t for t in terms if not is_cjk(t)}
    for word in written_words(query):
        brought = plain.intersection(analyze(word, lang))
        if brought:
            count += 1
            plain -= brought
    return count


@contextmanager
def _readings() -> Iterator[Row]:
    """Within the block, record what recall's first search of notes read: its text
    hits' floor readings (``hits``: each hit's coverage, significance and words held, in
    rank order after the window reorder), the names that voted (``named``), the query's
    CJK share and the most the vault could show (``most``), and the largest share of
    the question's IDF mass one window of a note held (``window``; None when the
    question's size is outside the window's bounds)."""
    engine = importlib.import_module("rubi.search.engine")
    notewindow = importlib.import_module("rubi.search.notewindow")
    evidence: Callable[..., dict[str, Any]] = engine.text_evidence
    share: Callable[..., float | None] = notewindow.note_window_share
    seen: Row = {"window": None}

    def record(bm25: Sequence[Any], named: int, *, code: bool) -> dict[str, Any]:
        if "hits" not in seen:
            seen["hits"] = [
                {"cov": h.coverage, "sig": h.significance, "words": h.words} for h in bm25
            ]
            seen["named"] = named
            seen["most"] = bm25[0].most if bm25 else 0.0
        return evidence(bm25, named, code=code)

    def window(*args: Any, **kwargs: Any) -> float | None:
        got = share(*args, **kwargs)
        if "hits" not in seen and got is not None:
            seen["window"] = max(got, seen["window"] or 0.0)
        return got

    engine.text_evidence = record
    notewindow.note_window_share = window
    try:
        yield seen
    finally:
        engine.text_evidence = evidence
        notewindow.note_window_share = share


def dump(set_dir: Path, corpus: Path, out: Path) -> int:
    """Write one line per development question of the set at ``set_dir``."""
    from rubi import app
    from rubi.index.language import query_chain
    from rubi.index.queryanalysis import QueryAnalysis
    from rubi.index.warm import index_at
    from rubi.search.limits import fit_query
    from rubi.search.longquery import reduce_query

    recall_module = importlib.import_module("rubi.app.recall")
    shipped: Callable[..., int] = recall_module.prompt_words
    evalset = load_set(set_dir)
    rows: list[Row] = []
    with indexed_copy(evalset, corpus, "rubi-routes-") as paths:
        for q in dev_queries(evalset):
            searched = top_notes(paths, q.query, q.relevant)
            result = searched.result
            index = index_at(paths.whoosh_dir)
            query = reduce_query(fit_query(q.query), index)
            analysis = QueryAnalysis(query)
            lang = query_chain(analysis.text, index.languages())
            terms = set(analysis.terms(analysis.text, lang))
            row: Row = {
                "set": evalset.name,
                "id": q.id,
                "query": q.query,
                "on": bool(q.relevant),
                "found": searched.found,
                "relevant": result.relevant,
                "coverage": result.coverage,
                "significance": result.significance,
                "cjk": result.cjk,
                "lang": lang,
                "terms": sorted(terms),
                "reduced": query != q.query,
                "shipped": shipped(query, terms),
                "written": written_words_count(query, terms, lang),
            }
            for route, count in (("short", 0), ("long", 10_000)):
                recall_module.prompt_words = lambda *_, n=count: n
                try:
                    with _readings() as seen:
                        block = app.recall(paths, q.query, max_tokens=RECALL_TOKENS) or ""
                finally:
                    recall_module.prompt_words = shipped
                if route == "long":
                    row.update(seen)
                ids = re.findall(r"\(id ([^)]+)\)", block)
                row[f"{route}_said"] = bool(block)
                named = any(f"{i}.md" in q.relevant or i in q.relevant for i in ids)
                row[f"{route}_answer"] = named
                row[f"{route}_notes"] = len(ids)
            rows.append(row)
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return len(rows)


def outcome(row: Row, count: int, long_from: int) -> tuple[bool, bool]:
    """(recall said something, it named the answer) for ``row`` when its prompt counts
    ``count`` words and a prompt of more than ``long_from`` is long: the long route's
    outcome when the prompt is long or the floor labels it relevant, else silence."""
    if count > long_from or row["relevant"]:
        return bool(row["long_said"]), bool(row["long_answer"])
    return False, False


def kind(name: str) -> str:
    """A set's kind for the table: ``notes-qa``, ``KB``, ``CJK`` or ``alphabetic``."""
    if name == "notes-qa":
        return "notes-qa"
    if name.startswith("kb-"):
        return "KB"
    return "CJK" if name.endswith(CJK_SETS) else "alphabetic"


def counts(rows: Sequence[Row], key: str, long_from: int) -> tuple[int, int, int, int]:
    """Off-topic silent, off-topic, on-topic answers named, on-topic, with the count
    ``key`` (``shipped`` or ``written``)."""
    off = [r for r in rows if not r["on"]]
    on = [r for r in rows if r["on"]]
    silent = sum(not outcome(r, r[key], long_from)[0] for r in off)
    named = sum(outcome(r, r[key], long_from)[1] for r in on)
    return silent, len(off), named, len(on)


def table(rows: Sequence[Row], long_from: int, changes: bool = False) -> str:
    """The printed table (see the module), and with ``changes`` every question whose
    outcome the written count changes."""
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(kind(r["set"]), []).append(r)
    groups["all"] = list(rows)
    head = f"{'kind':12} {'halves':>6}  {'off-topic silent':>22}  {'answers named':>22}"
    lines = [f"{head}  routes changed"]
    for name, sel in groups.items():
        s0, off, a0, on = counts(sel, "shipped", long_from)
        s1, _, a1, _ = counts(sel, "written", long_from)
        moved = sum((r["shipped"] > long_from) != (r["written"] > long_from) for r in sel)
        halves = len({r["set"] for r in sel})
        lines.append(
            f"{name:12} {halves:6}  {s0:4} -> {s1:4} of {off:4}  {a0:4} -> {a1:4} of {on:4}"
            f"  {moved}"
        )
    if changes:
        for r in rows:
            before = outcome(r, r["shipped"], long_from)
            after = outcome(r, r["written"], long_from)
            if before != after:
                lines.append(
                    f"{r['set']} {r['id']} {'on' if r['on'] else 'off'} "
                    f"{r['shipped']} -> {r['written']} words, coverage {r['coverage']:.2f}, "
                    f"significance {r['significance']:.2f}, answer rank {r['found']}: "
                    f"said/named {before} -> {after}"
                )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", type=Path, required=True)
    d.add_argument("--corpus", type=Path, required=True)
    d.add_argument("--split", choices=("dev",), default="dev")
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("table")
    t.add_argument("dumps", type=Path, nargs="+")
    t.add_argument("--changes", action="store_true")
    r = sub.add_parser("rules", help="recall as a classifier: bench/recall_rules.py's curves")
    r.add_argument("dumps", type=Path, nargs="+")
    r.add_argument("--unseen", default="", help="comma-separated sets read only as checks")
    args = parser.parse_args(argv)
    if args.command == "dump":
        print(f"{dump(args.set, args.corpus, args.out)} questions")
        return 0
    from rubi.app.recall import LONG_PROMPT_TERMS

    rows = [json.loads(line) for f in args.dumps for line in f.read_text("utf-8").splitlines()]
    if args.command == "rules":
        from recall_rules import curves

        print(curves(rows, [s for s in args.unseen.split(",") if s]))
        return 0
    print(table(rows, LONG_PROMPT_TERMS, args.changes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
