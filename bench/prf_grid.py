"""Pseudo-relevance feedback (RM3) settings against the base, on development halves.

Usage::

    python bench/prf_grid.py notes --set bench/sets/NAME --corpus PATH --json OUT
        [--settings base,interp:10:10:0.5,list:10:10:0.5]
    python bench/prf_grid.py code CHECKOUTS --data bench/sets/code-unseenN --json OUT
        [--settings ...]
    python bench/prf_grid.py table OUT.json [OUT.json ...]

Each set is indexed once; every query is then asked of every setting in turn (the
settings alternate query by query, so the machine's load falls on all alike). A
setting is ``base`` (no feedback) or ``MODE:DOCS:TERMS:ALPHA``: ``interp`` (the
second pass, the question and its feedback terms at ``ALPHA``, is the text list),
``list`` (the second pass is a list of its own in the fusion, weighed by the first
pass's concentration, ``1 - s_k / s_1`` over its feedback documents), from the
first ``DOCS`` hits' ``TERMS`` heaviest words (:mod:`rubi.index.feedback`,
:func:`rubi.index.feedback.rm3`). The experiment is
wired here, around the engine's text list and fusion (:func:`install`): nothing of
it is in the search itself.

Notes sets: MRR@10, NDCG@10, off-topic questions answered above the floor, on-topic
below it, mean ms a query (:mod:`evalmetrics`), development half only. Code sets:
mean NDCG@10 over the repositories (``code_search.py``'s measure), mean ms.
``table``: each set's figure (MRR@10 of a notes set, NDCG@10 of a code set) per
setting, their pooled mean, and the off-topic questions answered above the floor
(counted over the notes sets). The test halves are never read.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import EvalSet, corpus_of, load_set, vault_copy
from retrieval_eval import WARM_UP, ask, index_paths, pick, summaries

DEFAULT_SETTINGS = "base,interp:10:10:0.5,list:10:10:0.5"


@dataclass
class Feedback:
    """The experiment's state: the setting searched now, the vault's and project's
    folders (to read a feedback document's text), and the feedback list of the search
    under way (``list`` mode: fused by :func:`_rrf`)."""

    mode: str = ""
    docs: int = 10
    terms: int = 10
    alpha: float = 0.5
    vault: Path | None = None
    project: Path | None = None
    pending: tuple[list[str], float] = ([], 0.0)


STATE = Feedback()


def apply(setting: str) -> None:
    """Set the experiment's knobs to ``setting``."""
    if setting == "base":
        STATE.mode = ""
        return
    mode, docs, terms, alpha = setting.split(":")
    if mode not in ("interp", "list"):
        raise ValueError(f"unknown feedback mode {mode!r}")
    STATE.mode, STATE.docs, STATE.terms, STATE.alpha = mode, int(docs), int(terms), float(alpha)


def _text(attrs: dict[str, Any], node: str) -> str:
    """A feedback document's text, read from the vault or the project ('' unread)."""
    root = STATE.project if attrs.get("kind") == "file" and STATE.project else STATE.vault
    if root is None:
        return ""
    try:
        return (root / str(attrs.get("path", node))).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def feedback_hits(
    index: Any,
    g: Any,
    query: str,
    terms: Any,
    scope: str,
    include_superseded: bool,
    eligible: Any,
    first: list[Any],
    limit: int,
    analysis: Any,
    k1: Any,
    field_b: Any,
) -> tuple[list[Any], float]:
    """The text list again with RM3's feedback terms from the first ``STATE.docs``
    hits of ``first`` (tests, examples and benchmarks left out unless the question
    asks for them), each analysed in its language; and the first pass's concentration
    ``1 - s_k / s_1`` over its feedback documents (0: a flat first pass)."""
    from rubi.index.analysis import analyze, chain_language
    from rubi.index.feedback import rm3
    from rubi.index.schema import CODE_FIELDS
    from rubi.search.codecoverage import by_coverage, question_field_b, question_words
    from rubi.search.lists import BM25_LIMIT, KIND_FOR_SCOPE
    from rubi.search.nodeweights import wants_tests

    tests = wants_tests(" ".join([query, *terms]))
    docs = [h for h in first if tests or not g.nodes[h.id].get("secondary")]
    docs = [h for h in docs if h.score > 0][: STATE.docs]
    if not docs:
        return [], 0.0
    fed = [(h.score, analyze(_text(g.nodes[h.id], h.id), chain_language(h.lang))) for h in docs]
    kind = KIND_FOR_SCOPE[scope]
    words = question_words(query, analysis) if kind == "file" else 0
    if kind == "file" and field_b is None:
        field_b = question_field_b(words)
    bm25 = index.bm25(
        query,
        extra_terms=terms,
        limit=limit,
        kind=kind,
        exclude_status=() if include_superseded else ("superseded",),
        fields=CODE_FIELDS if kind == "file" else None,
        analysis=analysis,
        k1=k1,
        field_b=field_b,
        expand=rm3(fed, STATE.terms, STATE.alpha, CODE_FIELDS if kind == "file" else None),
    )
    hits = [h for h in bm25 if h.id in g and eligible(h.id)][:BM25_LIMIT]
    hits = by_coverage(hits, words) if kind == "file" else hits
    top = docs[0].score
    return hits, max(0.0, 1.0 - docs[-1].score / top) if top > 0 else 0.0


def install(vault: Path, project: Path | None) -> None:
    """Wrap the engine's text list and fusion with the experiment (once per process;
    ``vault`` and ``project``: where the searched documents' files are)."""
    from rubi.search import engine

    STATE.vault, STATE.project = vault, project
    if getattr(engine, "_prf_installed", False):
        return
    text_list, rrf = engine.text_list, engine.rrf

    def with_feedback(*args: Any) -> list[Any]:
        first = text_list(*args)
        STATE.pending = ([], 0.0)
        index, g, query, terms, scope, superseded, eligible, limit, analysis, k1, fb = args
        if not STATE.mode or scope == "sessions":
            return first
        fed, weight = feedback_hits(
            index, g, query, terms, scope, superseded, eligible, first, limit, analysis, k1, fb
        )
        if STATE.mode == "interp":
            return fed or first
        STATE.pending = ([h.id for h in fed], weight)
        return first

    def fused(lists: dict[str, Any], *, weights: dict[str, float], **kw: Any) -> Any:
        ids, weight = STATE.pending
        if ids and weight > 0:
            lists, weights = {**lists, "feedback": ids}, {**weights, "feedback": weight}
        return rrf(lists, weights=weights, **kw)

    engine.text_list = with_feedback  # type: ignore[assignment]
    engine.rrf = fused  # type: ignore[assignment]
    engine._prf_installed = True  # type: ignore[attr-defined]


def with_setting(setting: str, search: Callable[..., Any]) -> Callable[..., Any]:
    """``search`` run under ``setting``."""

    def run(*args: Any, **kwargs: Any) -> Any:
        apply(setting)
        return search(*args, **kwargs)

    return run


def run_notes(set_dir: Path, corpus: Path, settings: list[str]) -> dict[str, Any]:
    """Figures of each setting on a notes set's development half."""
    from evalsystems import RubiSystem

    from rubi import app

    evalset = load_set(set_dir)
    chosen = EvalSet(
        evalset.folder,
        evalset.name,
        evalset.kind,
        evalset.description,
        evalset.sources,
        evalset.languages,
        tuple(pick(evalset.queries, "dev")),
    )
    work, vault = vault_copy(corpus_of(evalset, corpus), "rubi-prf-notes-")
    paths = app.locate(vault)
    try:
        index_paths(paths, False)
        install(paths.root, paths.project_root)
        rubi = RubiSystem(paths, "notes", semantic=False).search
        systems = {s: with_setting(s, rubi) for s in settings}
        for search in systems.values():
            search(WARM_UP, 1)
        records = [r for q in chosen.queries for r in ask(systems, chosen, q, 10, {})]
    finally:
        shutil.rmtree(paths.index_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return {"set": evalset.name, "figures": summaries(records)["dev"]}


def run_code(checkouts: Path, data: Path, settings: list[str]) -> dict[str, Any]:
    """Mean NDCG@10 of each setting over a code set's repositories (development
    entries only when the set has halves)."""
    from code_search import ndcg_at_10, target_path

    from rubi import app
    from rubi.core.paths import VaultPaths, index_dir_for
    from rubi.sync import load_code_map

    per_repo: dict[str, dict[str, float]] = {}
    ms: dict[str, list[float]] = {s: [] for s in settings}
    for repo in json.loads((data / "repos.json").read_text(encoding="utf-8")):
        name, root_rel = repo["name"], repo.get("benchmark_root") or ""
        prefix = f"{root_rel.strip('/')}/" if root_rel else ""
        annotations = data / "annotations" / f"{name}.json"
        root = checkouts / name / root_rel
        if not annotations.is_file() or not root.is_dir():
            continue
        entries = json.loads(annotations.read_text(encoding="utf-8"))
        if any("split" in e for e in entries):  # a set with halves: its development one
            entries = [e for e in entries if e.get("split") == "dev"]
        if not entries:
            continue
        vault = Path(tempfile.mkdtemp(prefix=f"rubi-prf-{name}-")) / "vault"
        (vault / "notes").mkdir(parents=True)
        paths = VaultPaths(vault, index_dir_for(vault), root)
        try:
            app.index(paths)
            install(paths.root, root)
            code_map = load_code_map(paths)
            indexed = {prefix + p for p in (code_map.files if code_map else {})}
            scores: dict[str, list[float]] = {s: [] for s in settings}
            for s in settings:
                apply(s)
                app.search(paths, WARM_UP, scope="code", refresh=False)
            for entry in entries:
                targets = [
                    target_path(t) for t in [*entry["relevant"], *(entry.get("secondary") or [])]
                ]
                for s in settings:
                    apply(s)
                    t0 = time.perf_counter()
                    hits = app.search(
                        paths, entry["query"], top_k=10, scope="code", refresh=False
                    ).hits
                    ms[s].append((time.perf_counter() - t0) * 1000)
                    score, _ = ndcg_at_10([prefix + h.path for h in hits], targets, indexed)
                    scores[s].append(score)
            per_repo[name] = {s: statistics.mean(v) for s, v in scores.items()}
        finally:
            shutil.rmtree(paths.index_dir, ignore_errors=True)
            shutil.rmtree(vault.parent, ignore_errors=True)
    figures = {
        s: {
            "ndcg": statistics.mean(r[s] for r in per_repo.values()) if per_repo else 0.0,
            "mean_ms": statistics.mean(ms[s]) if ms[s] else 0.0,
        }
        for s in settings
    }
    return {"set": data.name, "figures": figures, "repos": per_repo}


def print_table(outs: list[dict[str, Any]]) -> None:
    """Sets as rows, settings as columns; then the pooled mean, the mean NDCG@10 of
    the notes sets, off-topic questions above the floor and the mean ms a query."""
    settings = list(outs[0]["figures"])
    print("set".ljust(28) + "".join(s.rjust(18) for s in settings))
    main: dict[str, list[float]] = {s: [] for s in settings}
    ndcg: dict[str, list[float]] = {s: [] for s in settings}
    above: dict[str, float] = dict.fromkeys(settings, 0.0)
    off = 0.0
    ms: dict[str, list[float]] = {s: [] for s in settings}
    for out in outs:
        f = out["figures"]
        key = "mrr" if "mrr" in f[settings[0]] else "ndcg"
        row = out["set"].ljust(28)
        for s in settings:
            main[s].append(f[s][key])
            ms[s].append(f[s]["mean_ms"])
            if key == "mrr":
                ndcg[s].append(f[s]["ndcg"])
                share = f[s]["off_above_floor"]  # "n/a" without off-topic questions
                if isinstance(share, (int, float)):
                    above[s] += share * (f[s]["off_topic"] or 0)
            row += f"{f[s][key]:.3f}".rjust(18)
        if key == "mrr":
            off += f[settings[0]]["off_topic"] or 0
        print(row)
    print("mean".ljust(28) + "".join(f"{statistics.mean(main[s]):.3f}".rjust(18) for s in settings))
    if ndcg[settings[0]]:
        print(
            "notes NDCG@10".ljust(28)
            + "".join(f"{statistics.mean(ndcg[s]):.3f}".rjust(18) for s in settings)
        )
        print(
            f"off >floor (of {off:.0f})".ljust(28)
            + "".join(f"{above[s]:.0f}".rjust(18) for s in settings)
        )
    print(
        "mean ms".ljust(28) + "".join(f"{statistics.mean(ms[s]):.1f}".rjust(18) for s in settings)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("kind", choices=("notes", "code", "table"))
    parser.add_argument("checkouts", type=Path, nargs="*", default=[])
    parser.add_argument("--set", dest="set_dir", type=Path, default=None)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--settings", default=DEFAULT_SETTINGS)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.kind == "table":
        print_table([json.loads(p.read_text(encoding="utf-8")) for p in args.checkouts])
        return 0
    if args.json is None:
        parser.error("--json is needed")
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    for s in settings:
        apply(s)  # refuse a malformed setting before indexing
    if args.kind == "notes":
        if args.set_dir is None or args.corpus is None:
            parser.error("notes: --set and --corpus are needed")
        out = run_notes(args.set_dir, args.corpus, settings)
    else:
        if len(args.checkouts) != 1 or args.data is None:
            parser.error("code: one CHECKOUTS folder and --data are needed")
        from code_search import personal_vault

        with personal_vault(None):
            out = run_code(args.checkouts[0], args.data, settings)
    args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    for s, f in out["figures"].items():
        print(out["set"], s, json.dumps({k: round(v, 4) for k, v in f.items() if v is not None}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
