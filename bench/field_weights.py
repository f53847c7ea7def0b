"""Code search under several field-weight settings, one index per repository.

Usage::

    python bench/field_weights.py --set bench/sets/code-unseen=REPOS [--set DATA=REPOS ...]
        [--grid code_title=1,2,4] [--grid symbols=2,3] [--one-at-a-time] [--lists]
        [--json OUT]

Each ``--set`` is a code-search data folder (``repos.json`` and ``annotations/``, as
:mod:`code_search` reads it) and a folder of checkouts named as in ``repos.json``. Only
the development half of a set with a split runs (entries whose ``split`` is ``dev``);
a set without one (the public benchmark) runs whole. There is no way to run a test
half here.

Every ``--grid FIELD=V1,V2,...`` gives a field of :data:`rubi.index.schema.FIELD_BOOSTS`
the weights to try; the settings run are their Cartesian product (the other fields keep
their weights); ``--one-at-a-time`` runs the current weights and then each grid's
values alone instead. Field weights are applied at query time (nothing is re-indexed), so each
repository is indexed once, as :func:`code_search.run_repo` indexes it, and every setting
asks every question through ``rubi.app.search`` (scope ``code``, top 10) against the same
index; NDCG@10 is scored as :func:`code_search.ndcg_at_10` scores it, beside the bm25s
baseline of the same files.

``--lists`` also records, per question, the rank (1-based, None when absent) of the
first relevant file in each list before fusion (``bm25``, ``names``, ``graph``) and
after it, for reading losses.

Prints one line per setting: its weights and each set's mean NDCG@10 (a set's mean over
its repositories, as :mod:`code_search` reports it), then the mean of the set means.
``--json`` writes every setting's per-question scores.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from code_search import TOP_K, matches, ndcg_at_10, target_path
from evalsystems import Bm25System, code_documents

from rubi import app
from rubi.core.paths import VaultPaths, index_dir_for
from rubi.index.schema import FIELD_BOOSTS
from rubi.sync import load_code_map

Setting = dict[str, float]


def settings(grids: list[str], one_at_a_time: bool = False) -> list[Setting]:
    """The Cartesian product of ``FIELD=V1,V2`` grids (``[{}]`` for none); with
    ``one_at_a_time``, the current weights (``{}``) and then each value of each grid
    alone.

    Raises:
        SystemExit: a field not in :data:`FIELD_BOOSTS` or a weight not a number ≥ 0.
    """
    axes: list[list[tuple[str, float]]] = []
    for grid in grids:
        name, _, values = grid.partition("=")
        if name not in FIELD_BOOSTS:
            raise SystemExit(f"--grid: unknown field {name!r}")
        try:
            weights = [float(v) for v in values.split(",") if v.strip()]
        except ValueError as exc:
            raise SystemExit(f"--grid {grid!r}: {exc}") from exc
        if not weights or any(w < 0 for w in weights):
            raise SystemExit(f"--grid {grid!r}: weights must be numbers >= 0")
        axes.append([(name, w) for w in weights])
    if one_at_a_time:
        return [{}, *({name: w} for axis in axes for name, w in axis)]
    return [dict(combo) for combo in itertools.product(*axes)] or [{}]


class ListRanks:
    """Wraps :func:`rubi.search.engine.fuse` to keep the last call's lists (ids, best
    first) and fused order."""

    def __init__(self) -> None:
        import rubi.search.engine as engine

        self.lists: dict[str, list[str]] = {}
        original = engine.fuse

        def fuse(*args: Any, **kwargs: Any) -> Any:
            fused, variants = original(*args, **kwargs)
            cands = args[1]
            self.lists = {
                "bm25": [h.id for h in cands.bm25],
                "names": [m.id for m in cands.names],
                "graph": list(cands.graph),
                "fused": [f.id for f in fused],
            }
            return fused, variants

        engine.fuse = fuse

    def ranks(self, targets: list[str], prefix: str) -> dict[str, int | None]:
        """The rank of the first target in each kept list (ids are file paths)."""
        out: dict[str, int | None] = {}
        for name, ids in self.lists.items():
            out[name] = next(
                (
                    i
                    for i, node in enumerate(ids, start=1)
                    if any(matches(prefix + node, t) for t in targets)
                ),
                None,
            )
        return out


def targets_of(entry: dict[str, Any]) -> list[str]:
    """An entry's relevant and secondary paths (both count, as in :mod:`code_search`)."""
    return [target_path(t) for t in [*entry["relevant"], *(entry.get("secondary") or [])]]


def run_repo(
    name: str,
    root: Path,
    prefix: str,
    entries: list[dict[str, Any]],
    grid: list[Setting],
    lists: ListRanks | None,
) -> list[dict[str, Any]]:
    """Index ``root`` once and score every entry under every setting of ``grid``.

    Returns:
        One row per (setting index, entry): ``setting``, ``repo``, ``id``, ``query``,
        ``ndcg``, ``bm25s_ndcg``, ``results`` (and ``ranks`` with ``lists``).
    """
    vault_dir = Path(tempfile.mkdtemp(prefix=f"rubi-fw-{name}-")) / "vault"
    (vault_dir / "notes").mkdir(parents=True)
    paths = VaultPaths(vault_dir, index_dir_for(vault_dir), root)
    saved = dict(FIELD_BOOSTS)
    rows: list[dict[str, Any]] = []
    try:
        app.index(paths)
        code_map = load_code_map(paths)
        files = sorted(code_map.files) if code_map else []
        indexed = {prefix + p for p in files}
        bm25 = Bm25System(code_documents(root, files), "en")
        baseline = {}
        for entry in entries:
            targets = targets_of(entry)
            ids = [prefix + i for i in bm25.search(entry["query"], TOP_K).ids]
            baseline[entry["query"]] = ndcg_at_10(ids, targets, indexed)[0]
        for number, setting in enumerate(grid):
            FIELD_BOOSTS.update(saved)
            FIELD_BOOSTS.update(setting)
            for entry in entries:
                targets = targets_of(entry)
                hits = app.search(
                    paths, entry["query"], top_k=TOP_K, scope="code", refresh=False
                ).hits
                results = [prefix + h.path for h in hits]
                row: dict[str, Any] = {
                    "setting": number,
                    "repo": name,
                    "id": entry.get("id", ""),
                    "query": entry["query"],
                    "targets": targets,
                    "ndcg": round(ndcg_at_10(results, targets, indexed)[0], 4),
                    "bm25s_ndcg": round(baseline[entry["query"]], 4),
                    "results": results,
                }
                if lists is not None:
                    row["ranks"] = lists.ranks([target_path(t) for t in entry["relevant"]], prefix)
                rows.append(row)
    finally:
        FIELD_BOOSTS.update(saved)
        shutil.rmtree(paths.index_dir, ignore_errors=True)
        shutil.rmtree(vault_dir.parent, ignore_errors=True)
    return rows


def run_set(
    data: Path, repos_dir: Path, grid: list[Setting], lists: ListRanks | None
) -> list[dict[str, Any]]:
    """Every repository of ``data`` with a checkout in ``repos_dir`` (its development
    half when the set has a split)."""
    rows: list[dict[str, Any]] = []
    for repo in json.loads((data / "repos.json").read_text(encoding="utf-8")):
        name = repo["name"]
        annotations = data / "annotations" / f"{name}.json"
        checkout = repos_dir / name
        if not annotations.is_file() or not checkout.is_dir():
            continue
        root_rel = repo.get("benchmark_root") or ""
        prefix = f"{root_rel.strip('/')}/" if root_rel else ""
        entries = json.loads(annotations.read_text(encoding="utf-8"))
        if any("split" in e for e in entries):
            entries = [e for e in entries if e.get("split") == "dev"]
        if entries:
            rows += run_repo(name, checkout / root_rel, prefix, entries, grid, lists)
    return rows


def set_mean(rows: list[dict[str, Any]], key: str = "ndcg") -> float:
    """The mean over repositories of each repository's mean ``key``."""
    by_repo: dict[str, list[float]] = {}
    for row in rows:
        by_repo.setdefault(row["repo"], []).append(row[key])
    return statistics.mean(statistics.mean(v) for v in by_repo.values()) if by_repo else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--set", dest="sets", action="append", default=[], required=True)
    parser.add_argument("--grid", action="append", default=[])
    parser.add_argument("--one-at-a-time", action="store_true")
    parser.add_argument("--lists", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    grid = settings(args.grid, args.one_at_a_time)
    lists = ListRanks() if args.lists else None
    by_set: dict[str, list[dict[str, Any]]] = {}
    for spec in args.sets:
        data, _, repos = spec.partition("=")
        if not repos:
            raise SystemExit(f"--set {spec!r}: want DATA=REPOS")
        by_set[Path(data).name] = run_set(Path(data), Path(repos), grid, lists)
    names = list(by_set)
    print("setting | " + " | ".join(names) + " | mean")
    first = {n: [r for r in by_set[n] if r["setting"] == 0] for n in names}
    print("bm25s | " + " | ".join(f"{set_mean(first[n], 'bm25s_ndcg'):.3f}" for n in names))
    for number, setting in enumerate(grid):
        means = [set_mean([r for r in by_set[n] if r["setting"] == number]) for n in names]
        label = ",".join(f"{k}={v:g}" for k, v in setting.items()) or "current"
        cells = " | ".join(f"{m:.3f}" for m in means)
        print(f"{label} | {cells} | {statistics.mean(means):.3f}")
    if args.json is not None:
        out = {"settings": grid, "sets": by_set}
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
