"""Retrieval evaluation: every system on one set's documents, figures per split.

Usage::

    python bench/retrieval_eval.py --set bench/sets/NAME --corpus PATH
        [--split dev|test|all] [--final] [--systems rubi,rubi-semantic,bm25s,rrf]
        [--top-k 10] [--json OUT] [--dump FILE]

A set folder (``bench/sets/<name>/``, format in :mod:`evalset`) names its queries and
their answers; ``--corpus`` is a checkout of its source at the set's commit:

- a notes set: the folder of notes (set.json's ``folder`` inside the checkout, or
  that folder itself). It is copied to a temporary folder, opened as a vault and
  indexed by rubi; the baselines read the notes rubi indexed (the same files).
- an issues set: a git repository (work tree or bare) holding every task's
  ``base_commit``. Each base commit is checked out into a temporary worktree
  (:mod:`evalgit`), opened as a project (code map on), indexed, queried and removed;
  the baselines read the files of rubi's code map (the same files).

Systems (:mod:`evalsystems`): ``rubi`` (the dense channel off: ``RUBI_SEMANTIC=0``),
``rubi-semantic`` (on), ``bm25s`` and ``rrf`` (RRF k=60 of bm25s and the model rubi
ships); asked for by name, ``rubi-semantic-open`` (the vault's stored dense measurement
taken as open) and ``rubi-dense`` (rubi's dense list alone, notes sets). The
baselines analyse text in the set's language (the first of set.json's
``languages``): its Snowball stemmer and bm25s stop words where they exist, CJK
character bigrams for zh/ja/ko; the run prints which. Figures (:mod:`evalmetrics`):
MRR@10, hits@1/5/10, NDCG@10 over on-topic queries; for off-topic queries (no
relevant document) how often a system answered at all and above its relevance floor
("n/a": none has one) with the median top score, and how often an on-topic query
fell below the floor (``on <floor``: answers the floor would hide from the recall
hook); mean and p95 ms a query. Issues sets
add the title alone as the query (``/title``) and every changed file as relevant
(``/all-files``).

The test half is reported once, at the end of the work: ``--split test`` and
``--split all`` need ``--final``, and the run says that the test half was looked at.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalgit import GitError, checkout
from evalmetrics import Outcome, summarise
from evalset import EvalSet, Query, SetError, corpus_of, load_set, vault_copy
from evalsystems import (
    Bm25System,
    DenseModel,
    Document,
    RubiDenseSystem,
    RubiSystem,
    Searched,
    bm25s_missing,
    code_documents,
    note_documents,
    rrf,
    semantic_switch,
)

SYSTEMS = ("rubi", "rubi-semantic", "bm25s", "rrf")
EXTRA_SYSTEMS = ("rubi-semantic-open", "rubi-dense")
"""Asked for by name only: rubi-semantic with the vault's stored dense measurement
taken as open (the per-query weight alone decides), and rubi's dense list alone (its
weight, gap and lead in the dump's ``evidence``)."""
WARM_UP = "warm up the caches"
Search = Callable[[str, int], Searched]
Record = dict[str, Any]


def pick(queries: Sequence[Query], split: str) -> list[Query]:
    """The queries of ``split`` (``all``: every one), in set order."""
    return [q for q in queries if split == "all" or q.split == split]


def set_language(evalset: EvalSet) -> str:
    """The language the baselines analyse a set's documents and queries in: the first
    of its ``languages`` (a set lists its main language first), English without one."""
    return evalset.languages[0] if evalset.languages else "en"


def build_systems(
    names: Sequence[str],
    docs: Sequence[Document],
    paths: Any,
    scope: str,
    notes: list[str],
    lang: str = "en",
) -> dict[str, Search]:
    """A search function per system name, over ``docs`` (baselines, analysed in
    ``lang``) and the index of ``paths`` (rubi); ``notes`` collects one line per
    baseline setting to print."""
    out: dict[str, Search] = {}
    bm25 = Bm25System(docs, lang) if {"bm25s", "rrf"} & set(names) else None
    if bm25 is not None:
        notes.append(f"bm25s (and rrf's BM25): {bm25.analysis}; {len(docs)} documents")
    from rubi.semantic import unavailable

    missing = unavailable()
    if missing and {"rrf", "rubi-semantic", "rubi-dense"} & set(names):
        notes.append(f"dense model unavailable ({missing}): no rrf; rubi-semantic = rubi")
    dense = DenseModel(docs) if "rrf" in names and not missing else None
    for name in names:
        if name == "rubi":
            out[name] = RubiSystem(paths, scope, semantic=False).search
        elif name == "rubi-semantic":
            out[name] = RubiSystem(paths, scope, semantic=True).search
        elif name == "rubi-semantic-open":
            out[name] = RubiSystem(paths, scope, semantic=True, gated=False).search
        elif name == "rubi-dense" and not missing:
            out[name] = RubiDenseSystem(paths).search
        elif name == "bm25s" and bm25 is not None:
            out[name] = bm25.search
        elif name == "rrf" and bm25 is not None and dense is not None:
            b, d = bm25, dense

            def fused(query: str, k: int, b: Any = b, d: Any = d) -> Searched:
                return rrf([b.search(query, 100).ids, d.search(query, 100).ids], k)

            out[name] = fused
    for search in out.values():
        search(WARM_UP, 1)  # caches and the model load outside the timed queries
    return out


def timed(search: Search, query: str, k: int) -> tuple[Searched, float]:
    """The answer and its wall time in ms."""
    t0 = time.perf_counter()
    found = search(query, k)
    return found, (time.perf_counter() - t0) * 1000


def variants(evalset: EvalSet, q: Query) -> list[tuple[str, str, tuple[str, ...]]]:
    """(suffix, query text, relevant) for each way a query is asked: the issue's
    title alone and all changed files too for an issues set."""
    if evalset.kind == "notes":
        return [("", q.query, q.relevant)]
    return [("", q.query, q.relevant), ("/title", q.title, q.relevant)]


def ask(
    systems: dict[str, Search], evalset: EvalSet, q: Query, k: int, extra: Record
) -> list[Record]:
    """One record per system and variant of ``q`` (the dump's lines)."""
    records = []
    for name, search in systems.items():
        for suffix, text, relevant in variants(evalset, q):
            found, ms = timed(search, text, k)
            rows = [(suffix, relevant)]
            if suffix == "" and evalset.kind == "issues":
                rows.append(("/all-files", q.relevant_all))
            for label, rel in rows:
                records.append(
                    {
                        "set": evalset.name,
                        "id": q.id,
                        "split": q.split,
                        "lang": q.lang,
                        "system": name + label,
                        "query": text[:500],
                        "relevant": list(rel),
                        "results": list(found.ids),
                        "scores": [round(s, 6) for s in found.scores],
                        "refused": found.refused,
                        "relevant_said": found.relevant,
                        "coverage": found.coverage,
                        "evidence": found.evidence,
                        "ms": round(ms, 3),
                        **extra,
                    }
                )
    return records


def index_paths(paths: Any, semantic: bool) -> None:
    """Index ``paths`` as a user would; with vectors when a semantic system runs."""
    from rubi import app

    with semantic_switch(semantic):
        app.index(paths)


def run_notes(
    evalset: EvalSet, corpus: Path, names: Sequence[str], k: int, notes: list[str]
) -> list[Record]:
    """Records of every selected query of a notes set (``evalset.queries`` already
    picked) on a copy of ``corpus``."""
    from rubi import app
    from rubi.sync import notes_for

    work, vault = vault_copy(corpus, "rubi-eval-notes-")
    paths = app.locate(vault)
    try:
        index_paths(paths, bool({"rubi-semantic", "rubi-semantic-open", "rubi-dense"} & set(names)))
        indexed = sorted(n.path for n in notes_for(paths).values())
        docs = note_documents(vault, indexed)
        systems = build_systems(names, docs, paths, "notes", notes, set_language(evalset))
        return [r for q in evalset.queries for r in ask(systems, evalset, q, k, {})]
    finally:
        shutil.rmtree(paths.index_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def run_issues(
    evalset: EvalSet, corpus: Path, names: Sequence[str], k: int, notes: list[str]
) -> list[Record]:
    """Records of every selected task of an issues set, each at its base commit."""
    from rubi.core.paths import VaultPaths, index_dir_for
    from rubi.sync import load_code_map

    by_commit: dict[str, list[Query]] = {}
    for q in evalset.queries:
        by_commit.setdefault(q.base_commit, []).append(q)
    records: list[Record] = []
    for commit, tasks in by_commit.items():
        with checkout(corpus, commit) as tree:
            vault = Path(tempfile.mkdtemp(prefix="rubi-eval-vault-")) / "vault"
            (vault / "notes").mkdir(parents=True)
            paths = VaultPaths(vault, index_dir_for(vault), tree)
            try:
                index_paths(paths, bool({"rubi-semantic", "rubi-semantic-open"} & set(names)))
                code_map = load_code_map(paths)
                docs = code_documents(tree, list(code_map.files) if code_map else [])
                systems = build_systems(names, docs, paths, "code", notes, set_language(evalset))
                extra = {"checked_out": commit, "worktree": str(tree)}
                for q in tasks:
                    records += ask(systems, evalset, q, k, extra)
            finally:
                shutil.rmtree(paths.index_dir, ignore_errors=True)
                shutil.rmtree(vault.parent, ignore_errors=True)
    return records


def summaries(records: Sequence[Record]) -> dict[str, dict[str, Any]]:
    """``{split: {system: figures}}`` for each split in ``records`` and ``all``."""
    out: dict[str, dict[str, Any]] = {}
    for split in [*sorted({r["split"] for r in records}), "all"]:
        chosen = [r for r in records if split == "all" or r["split"] == split]
        systems = list(dict.fromkeys(r["system"] for r in chosen))
        out[split] = {
            s: summarise(
                [
                    Outcome(
                        tuple(r["results"]),
                        tuple(r["scores"]),
                        tuple(r["relevant"]),
                        r["ms"],
                        r["refused"],
                        _above_floor(r),
                    )
                    for r in chosen
                    if r["system"] == s
                ]
            )
            for s in systems
        }
    return out


def _above_floor(record: Record) -> int | None:
    """How many results the system called relevant: all or none by its floor's label
    (None: the system has no floor, or the record predates it)."""
    said = record.get("relevant_said")
    if said is None:
        return None
    return len(record["results"]) if said else 0


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def table(title: str, figures: dict[str, Any]) -> str:
    """One plain-text table, systems as rows."""
    cols = [
        ("system", None),
        ("n", "on_topic"),
        ("MRR@10", "mrr"),
        ("hits@1", "hits@1"),
        ("hits@5", "hits@5"),
        ("hits@10", "hits@10"),
        ("NDCG@10", "ndcg"),
        ("refused", "refused"),
        ("off n", "off_topic"),
        ("off answered", "off_answered"),
        ("off >floor", "off_above_floor"),
        ("on <floor", "on_below_floor"),
        ("off top", "off_top_score_median"),
        ("on top", "on_top_score_median"),
    ]
    rows = [[c[0] for c in cols] + ["mean ms", "p95 ms"]]
    for system, f in figures.items():
        cells = [system] + [_fmt(f[key]) for _, key in cols[1:]]
        rows.append([*cells, f"{f['mean_ms']:.1f}", f"{f['p95_ms']:.1f}"])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [title]
    for row in rows:
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    return "\n".join(lines)


def baselines_missing(names: Sequence[str]) -> str | None:
    """Why the baselines among ``names`` (``bm25s``, ``rrf``) cannot run, or None: they
    need ``bm25s`` (the ``bench`` extra), which a plain install of rubi lacks."""
    if not {"bm25s", "rrf"} & set(names):
        return None
    return bm25s_missing("--systems rubi,rubi-semantic")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--set", dest="set_dir", type=Path, required=True)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--final", action="store_true", help="allow the test half")
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--dump", type=Path, default=None)
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = sorted(set(names) - set(SYSTEMS) - set(EXTRA_SYSTEMS))
    if unknown or not names:
        parser.error(
            f"--systems: unknown {', '.join(unknown) or '(none)'};"
            f" use {','.join(SYSTEMS + EXTRA_SYSTEMS)}"
        )
    if args.top_k < 1:
        parser.error("--top-k must be at least 1")
    missing = baselines_missing(names)
    if missing:
        parser.error(missing)
    if args.split != "dev" and not args.final:
        parser.error(
            f"--split {args.split} reads the test half, which is reported once at the end"
            " of the work: add --final to do that now, or use --split dev"
        )
    try:
        evalset = load_set(args.set_dir)
    except SetError as exc:
        parser.error(str(exc))
    if not args.corpus.is_dir():
        parser.error(f"--corpus {args.corpus}: not a folder; pass a checkout of the set's source")
    chosen = pick(evalset.queries, args.split)
    if args.split != "dev":
        test_n = sum(1 for q in chosen if q.split == "test")
        print(f"FINAL: the test half of {evalset.name} was looked at ({test_n} queries)")
    corpus = corpus_of(evalset, args.corpus) if evalset.kind == "notes" else args.corpus
    selected = EvalSet(
        evalset.folder,
        evalset.name,
        evalset.kind,
        evalset.description,
        evalset.sources,
        evalset.languages,
        tuple(chosen),
    )
    notes: list[str] = []
    try:
        runner = run_notes if evalset.kind == "notes" else run_issues
        records = runner(selected, corpus, names, args.top_k, notes)
    except GitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    figures = summaries(records)
    for line in dict.fromkeys(notes):
        print(line)
    for split, per_system in figures.items():
        if split == "all" and len(figures) == 2:
            continue  # one split only: "all" repeats it
        print(
            table(f"{evalset.name} ({evalset.kind}), split {split}, top {args.top_k}", per_system)
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "set": evalset.name,
                    "kind": evalset.kind,
                    "split": args.split,
                    "notes": notes,
                    "figures": figures,
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
