"""Query performance predictors (QPP) as a "nothing relevant" signal, read offline.

Usage::

    python bench/qpp.py dump --set bench/sets/NAME --corpus PATH [--split dev] --out QPP.jsonl
    python bench/qpp.py curves QPP.jsonl [...]

``dump`` indexes the set's notes as ``bench/recall_routes.py dump`` does (a copy of the
corpus opened as a vault) and writes, per development question: the shipped floor's
label and readings, the answer's rank in the top 10, what ``rubi.app.recall`` (700
tokens) said on the shipped route and on the long route (the floor skipped), and the
ingredients of the predictors: the text list's first 100 BM25F scores
(:meth:`rubi.index.searchindex.SearchIndex.bm25`, notes, superseded left out), each
content word's document frequency, collection frequency in ``body`` and IDF, the
vault's size and body length, the documents holding any query word, and the clarity of
the top 5 and 10 notes' language model.

``curves`` (:mod:`qpp_curves`) computes the predictors and draws, leave-one-set-out,
each as a rule after the shipped floor and alone. The test half is not read:
``--split`` accepts ``dev`` only.

Predictors (higher means the list looks answered):

- NQC (Shtok, Kurland, Carmel, Raiber & Markovits 2012, "Predicting query performance
  by query-drift estimation", TOIS 30(2)): the standard deviation of the top-k scores
  over the corpus's score as one document.
- WIG (Zhou & Croft 2007, "Query performance prediction in web search environments",
  SIGIR): the top-k scores' mean gain over the corpus's score, over ``sqrt(|q|)``.
- SMV (Tao & Wu 2014, "Query performance prediction by considering score magnitude
  and variance together", CIKM): ``mean(s · |ln(s / mean s)|)`` over the corpus score.
- clarity (Cronen-Townsend, Zhou & Croft 2002, "Predicting query performance",
  SIGIR): ``KL(P(w|R) || P(w|C))`` in bits, ``R`` the top notes weighted by score,
  each note's model mixed 0.6 with the collection's.
- pre-retrieval: max and mean IDF, SCQ (Zhao, Scholer & Tsegay 2008, ECIR: max and
  mean of ``(1 + ln cf) · ln(1 + N / df)``), mean ICTF, query scope (He & Ounis 2004,
  SPIRE: ``-ln(n_Q / N)``), simplified clarity (He & Ounis 2004).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import indexed_copy, load_set
from floorsearch import dev_queries, recalled, top_notes

Row = dict[str, Any]
SCORES = 100
"""BM25F scores kept per question (the text list's first)."""
CLARITY_LAMBDA = 0.6
"""Clarity's mixing weight of a note's own model (Cronen-Townsend et al. 2002)."""


def clarity(
    notes: Sequence[tuple[float, Counter[str]]], collection: Callable[[str], float]
) -> float | None:
    """Clarity in bits of the notes ``(score, term counts)`` against ``collection``
    (a term's probability in the collection, 0 when unknown): ``P(w|R) = sum_d P(d|q)
    (λ P_ml(w|d) + (1-λ) P(w|C))`` with ``P(d|q)`` the score's share, over the terms
    the collection knows. None when no note has a positive score or a known term."""
    total = sum(s for s, _ in notes if s > 0)
    if total <= 0:
        return None
    model: dict[str, float] = {}
    for score, counts in notes:
        if score <= 0:
            continue
        size = sum(counts.values()) or 1
        for term, n in counts.items():
            model[term] = model.get(term, 0.0) + score / total * CLARITY_LAMBDA * n / size
    known = {t: collection(t) for t in model}
    out = 0.0
    for term, p in model.items():
        pc = known[term]
        if pc <= 0:
            continue
        pr = p + (1 - CLARITY_LAMBDA) * pc
        out += pr * math.log2(pr / pc)
    return out


def word_statistics(clauses: Sequence[Any], scorer: Any) -> tuple[list[Row], set[int]]:
    """Per content word of the query (the clauses' ``origin`` >= 0, in order): the live
    notes holding it in any field (``df``), its body occurrences over its distinct
    body terms (``cf``) and its terms; and the notes holding any of them."""
    words: dict[int, dict[str, Any]] = {}
    holders: set[int] = set()
    for c in clauses:
        if c.origin < 0:
            continue
        docs = scorer.docs(c)
        holders.update(docs)
        w = words.setdefault(c.origin, {"docs": set(), "cf": 0.0, "terms": [], "body": set()})
        w["docs"].update(docs)
        if c.text not in w["terms"]:
            w["terms"].append(c.text)
        if c.field == "body" and c.text not in w["body"]:
            w["body"].add(c.text)
            w["cf"] += float(scorer.reader.frequency("body", c.text))
    listed = [
        {"df": len(w["docs"]), "cf": w["cf"], "terms": w["terms"]} for _, w in sorted(words.items())
    ]
    return listed, holders


def dump(set_dir: Path, corpus: Path, out: Path) -> int:
    """Write one line per development question of the set at ``set_dir``."""
    from rubi.index.analysis import analyze
    from rubi.index.language import query_chain
    from rubi.index.queryanalysis import QueryAnalysis
    from rubi.index.querymatch import query_clauses
    from rubi.index.searchindex import SearchIndex

    recall_module = importlib.import_module("rubi.app.recall")
    shipped_count: Callable[..., int] = recall_module.prompt_words
    evalset = load_set(set_dir)
    rows: list[Row] = []
    with indexed_copy(evalset, corpus, "rubi-qpp-") as paths:
        index = SearchIndex(paths.whoosh_dir, keep_open=True)
        scorer = index._scoring()  # bench only: the statistics the predictors read
        reader = scorer.reader
        body_length = float(reader.field_length("body")) or 1.0
        cf_cache: dict[str, float] = {}

        def p_collection(term: str) -> float:
            if term not in cf_cache:
                cf_cache[term] = float(reader.frequency("body", term)) / body_length
            return cf_cache[term]

        terms_cache: dict[tuple[str, str], Counter[str]] = {}
        for q in dev_queries(evalset):
            searched = top_notes(paths, q.query, q.relevant)
            result = searched.result
            said: dict[str, tuple[bool, bool]] = {}
            for route in ("shipped", "long"):
                if route == "long":
                    recall_module.prompt_words = lambda *_: 10_000
                try:
                    block, named = recalled(paths, q.query, q.relevant)
                finally:
                    recall_module.prompt_words = shipped_count
                said[route] = (bool(block), named)
            langs = index.languages()
            lang = query_chain(QueryAnalysis(q.query).text, langs)
            clauses = query_clauses(q.query, languages=langs)
            hits = index.bm25(q.query, limit=SCORES, kind="note", exclude_status=("superseded",))
            words, holders = word_statistics(clauses, scorer)
            clar: dict[str, float | None] = {}
            notes: list[tuple[float, Counter[str]]] = []
            for h in hits[:10]:
                key = (h.path, lang)
                if key not in terms_cache:
                    try:
                        text = (paths.root / h.path).read_text("utf-8")
                    except (OSError, UnicodeDecodeError):
                        text = ""
                    terms_cache[key] = Counter(analyze(text, lang))
                notes.append((h.score, terms_cache[key]))
            for k in (5, 10):
                clar[str(k)] = clarity(notes[:k], p_collection)
            rows.append(
                {
                    "set": evalset.name,
                    "id": q.id,
                    "query": q.query,
                    "on": bool(q.relevant),
                    "found": searched.found,
                    "relevant": result.relevant,
                    "coverage": result.coverage,
                    "significance": result.significance,
                    "cjk": result.cjk,
                    "said": said["shipped"][0],
                    "answer": said["shipped"][1],
                    "long_said": said["long"][0],
                    "long_answer": said["long"][1],
                    "N": scorer.doc_count,
                    "body": body_length,
                    "k1": scorer.K1,
                    "b": scorer.B,
                    "scope": len(holders),
                    "words": words,
                    "scores": [h.score for h in hits],
                    "top_cov": [h.coverage for h in hits[:10]],
                    "clarity": clar,
                }
            )
        index.close()
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--set", type=Path, required=True)
    d.add_argument("--corpus", type=Path, required=True)
    d.add_argument("--split", choices=("dev",), default="dev")
    d.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("curves")
    c.add_argument("dumps", type=Path, nargs="+")
    c.add_argument("--detail", default="", help="NAME:USE:BUDGET, e.g. unheld:after:0.01")
    args = parser.parse_args(argv)
    if args.command == "dump":
        print(f"{dump(args.set, args.corpus, args.out)} questions")
        return 0
    from qpp_curves import detail, report

    rows = [json.loads(line) for f in args.dumps for line in f.read_text("utf-8").splitlines()]
    if args.detail:
        name, use, budget = args.detail.split(":")
        print(detail(rows, name, use, float(budget)))
        return 0
    print(report(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
