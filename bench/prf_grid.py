"""Pseudo-relevance feedback (RM3) settings against the base, on development halves.

Usage::

    python bench/prf_grid.py notes --set bench/sets/NAME --corpus PATH --json OUT
        [--settings base,interp:10:10:0.5,list:10:10:0.5]
    python bench/prf_grid.py code CHECKOUTS --data bench/sets/code-unseenN --json OUT
        [--settings ...] [--split dev]

Each set is indexed once; every query is then asked of every setting in turn (the
settings alternate query by query, so the machine's load falls on all alike). A
setting is ``base`` (no feedback) or ``MODE:DOCS:TERMS:ALPHA``: ``interp`` (the
second pass, the question and its feedback terms at ``ALPHA``, is the text list),
``list`` (the second pass is a list of its own in the fusion, weighed by the first
pass's concentration), from the first ``DOCS`` hits' ``TERMS`` heaviest words
(:mod:`rubi.index.feedback`, :func:`rubi.search.lists.feedback_list`). The knobs are
:mod:`rubi.search.lists`' experiment constants, set before each search.

Notes sets: MRR@10, NDCG@10, off-topic questions answered above the floor, on-topic
below it, mean ms a query (:mod:`evalmetrics`), development half only. Code sets:
mean NDCG@10 over the repositories (``code_search.py``'s measure), mean ms.
The test halves are not read: ``--split`` is ``dev`` only.
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import EvalSet, corpus_of, load_set, vault_copy
from retrieval_eval import WARM_UP, ask, index_paths, pick, summaries

DEFAULT_SETTINGS = "base,interp:10:10:0.5,list:10:10:0.5"


def apply(setting: str) -> None:
    """Set :mod:`rubi.search.lists`' feedback knobs to ``setting``."""
    from rubi.search import lists

    if setting == "base":
        lists.PRF_MODE = ""
        return
    mode, docs, terms, alpha = setting.split(":")
    if mode not in ("interp", "list"):
        raise ValueError(f"unknown feedback mode {mode!r}")
    lists.PRF_MODE = mode
    lists.PRF_DOCS, lists.PRF_TERMS, lists.PRF_ALPHA = int(docs), int(terms), float(alpha)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("kind", choices=("notes", "code"))
    parser.add_argument("checkouts", type=Path, nargs="?", default=None)
    parser.add_argument("--set", dest="set_dir", type=Path, default=None)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--settings", default=DEFAULT_SETTINGS)
    parser.add_argument("--json", type=Path, required=True)
    args = parser.parse_args(argv)
    settings = [s.strip() for s in args.settings.split(",") if s.strip()]
    for s in settings:
        apply(s)  # refuse a malformed setting before indexing
    if args.kind == "notes":
        if args.set_dir is None or args.corpus is None:
            parser.error("notes: --set and --corpus are needed")
        out = run_notes(args.set_dir, args.corpus, settings)
    else:
        if args.checkouts is None or args.data is None:
            parser.error("code: CHECKOUTS and --data are needed")
        from code_search import personal_vault

        with personal_vault(None):
            out = run_code(args.checkouts, args.data, settings)
    args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    for s, f in out["figures"].items():
        print(out["set"], s, json.dumps({k: round(v, 4) for k, v in f.items() if v is not None}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
