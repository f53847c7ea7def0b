"""An abstention model for the relevance floor: a logistic regression over per-query
readings the search already computes, chosen by leave-one-set-out cross-validation.

Usage::

    python bench/floor_model.py DUMP.jsonl [...] [--features NAME,...] [--json OUT]

Reads the dumps of ``bench/relevance_floor.py dump`` (development halves only), one
row per question, and for each fold (one set held out) fits the model on the other
sets, picks its threshold there (the most off-topic questions silenced among the
thresholds hiding no more top-10 answers than the shipped label hides on those
sets), and labels the held-out set. Two ways of using the model are read: ``alone``
(the model is the floor; a query naming a note stays relevant) and ``and`` (the
shipped label, and the model may only silence more). Prints per fold and pooled:
off-topic questions silenced and top-10 answers hidden, the shipped label beside.
numpy only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

Row = dict[str, Any]


def _held_idf(row: Row, hit: Row) -> tuple[float, int, int]:
    """The hit's share of the query's Whoosh-IDF mass, the rare query words it holds
    (df at most N/20) and the query's rare words."""
    n = max(int(row["N"]), 1)
    idf = {int(w): math.log(n / (info["df"] + 1)) + 1 for w, info in row["words"].items()}
    mass = sum(idf.values()) or 1.0
    rare = {int(w) for w, info in row["words"].items() if 0 < info["df"] <= n / 20}
    held = set(hit["held"])
    return sum(idf.get(w, 0.0) for w in held) / mass, len(held & rare), len(rare)


def features(row: Row) -> dict[str, float]:
    """Per-query readings, each one the search has at hand when it labels a result."""
    hits = row["hits"]
    n = max(int(row["N"]), 1)
    words = row["words"]
    content = max(len(words), 1)
    unheld = [w for w, info in words.items() if info["df"] == 0]
    if not hits:
        return {"empty": 1.0}
    top = hits[0]
    share, rare_held, rare = _held_idf(row, top)
    best_cov = max(h["coverage"] for h in hits)
    best_sig = max(h["significance"] for h in hits)
    several = max((h["significance"] for h in hits if h["words"] >= 3), default=0.0)
    second = hits[1]["score"] if len(hits) > 1 else 0.0
    avg = row["avglen"] or 1.0
    from rubi.index.querymatch import significance

    dfs = {int(w): info["df"] for w, info in words.items()}
    most = significance({w for w, df in dfs.items() if df > 0}, dfs, n)
    return {
        "most": max(-10.0, min(20.0, most)),
        "sig_share": several / most if most > 0 else 0.0,
        "whole": float(best_cov >= 1.0 - 1e-9),
        "coverage": best_cov,
        "top_coverage": top["coverage"],
        "significance": max(-10.0, min(20.0, best_sig)),
        "several": max(-10.0, min(20.0, several)),
        "sig_pos": float(best_sig > 0.0),
        "words_held": float(max(h["words"] for h in hits)),
        "top_words_share": top["words"] / content,
        "rare_held": float(rare_held),
        "rare_share": rare_held / rare if rare else 0.0,
        "log_ratio": math.log((top["score"] + 1e-9) / (second + 1e-9)) if second else 1.0,
        "content_words": math.log(content),
        "unheld_share": len(unheld) / content,
        "top_len": math.log((top["len"] + 1) / avg),
        "cjk": float(row["cjk"]),
        "log_n": math.log(n),
        "top_share": share,
    }


DEFAULT = (
    "coverage,several,significance,most,sig_share,whole,words_held,top_words_share,"
    "rare_held,rare_share,log_ratio,unheld_share,top_len,cjk"
)
"""Every reading of :func:`features` but the query's length and the vault's size (the
sets' off-topic questions are shorter than their on-topic ones: fitted on length,
the model hides short on-topic questions, notes-qa's)."""


def kind(name: str) -> str:
    """The kind of a set: KB, CJK, languages, notes-qa."""
    if name == "notes-qa":
        return "notes-qa"
    if name.startswith("kb-"):
        return "KB"
    if name.endswith(("-zh", "-ja", "-ko")):
        return "CJK"
    return "languages"


def matrix(rows: Sequence[Row], names: Sequence[str]) -> np.ndarray:
    return np.array([[features(r).get(f, 0.0) for f in names] for r in rows], dtype=float)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method (IRLS) with an L2 penalty (not on the
    intercept), classes weighted to equal mass. Returns [intercept, coefficients]."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(xb.shape[1])
    pos = y.sum()
    neg = len(y) - pos
    sw = np.where(y > 0, len(y) / (2 * max(pos, 1)), len(y) / (2 * max(neg, 1)))
    pen = np.eye(xb.shape[1]) * l2
    pen[0, 0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xb @ w)))
        grad = xb.T @ (sw * (p - y)) + pen @ w
        hess = (xb * (sw * p * (1 - p))[:, None]).T @ xb + pen
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def score(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.hstack([np.ones((len(x), 1)), x]) @ w


def counts(rows: Sequence[Row], said: Sequence[bool]) -> tuple[int, int, int, int]:
    """(off-topic silenced, off-topic, top-10 answers hidden, top-10 answers)."""
    off = [s for r, s in zip(rows, said, strict=True) if not r["on"]]
    found = [s for r, s in zip(rows, said, strict=True) if r["on"] and r["found"]]
    return sum(not s for s in off), len(off), sum(not s for s in found), len(found)


def labels(rows: Sequence[Row], margin: np.ndarray, t: float, mode: str) -> list[bool]:
    out = []
    for r, m in zip(rows, margin, strict=True):
        if r["named"] > 0:
            out.append(True)
        elif mode == "alone":
            out.append(bool(m > t))
        else:
            out.append(bool(r["relevant"]) and bool(m > t))
    return out


def choose(rows: Sequence[Row], margin: np.ndarray, mode: str) -> float:
    """The threshold silencing most off-topic questions of ``rows`` among those hiding
    no more top-10 answers than the shipped label (ties: the lowest threshold)."""
    shipped_hidden = counts(rows, [bool(r["relevant"]) for r in rows])[2]
    best, best_t = -1, -math.inf
    for t in sorted({-math.inf, *np.round(margin, 9).tolist()}):
        silenced, _, hidden, _ = counts(rows, labels(rows, margin, t, mode))
        if hidden <= shipped_hidden and silenced > best:
            best, best_t = silenced, t
    return best_t


def study(rows: list[Row], names: Sequence[str], l2: float, residual: bool) -> dict[str, Any]:
    """Leave-one-set-out folds; with ``residual`` the model is fitted only on the
    questions the shipped label lets through (the ones left for it to silence)."""
    sets = list(dict.fromkeys(r["set"] for r in rows))
    y = np.array([1.0 if r["on"] else 0.0 for r in rows])
    x_all = matrix(rows, names)
    folds = []
    for held in sets:
        train = [i for i, r in enumerate(rows) if r["set"] != held]
        test = [i for i, r in enumerate(rows) if r["set"] == held]
        fitted = [i for i in train if rows[i]["relevant"] or not residual]
        mu, sd = x_all[fitted].mean(0), x_all[fitted].std(0) + 1e-9
        w = fit((x_all[fitted] - mu) / sd, y[fitted], l2)
        tr_rows = [rows[i] for i in train]
        te_rows = [rows[i] for i in test]
        fold: dict[str, Any] = {"set": held, "kind": kind(held)}
        fold["shipped"] = counts(te_rows, [bool(r["relevant"]) for r in te_rows])
        for mode in ("alone", "and"):
            t = choose(tr_rows, score(w, (x_all[train] - mu) / sd), mode)
            m = score(w, (x_all[test] - mu) / sd)
            fold[mode] = counts(te_rows, labels(te_rows, m, t, mode))
        folds.append(fold)
    fitted = [i for i, r in enumerate(rows) if r["relevant"] or not residual]
    mu, sd = x_all[fitted].mean(0), x_all[fitted].std(0) + 1e-9
    w = fit((x_all[fitted] - mu) / sd, y[fitted], l2)
    return {
        "features": list(names),
        "l2": l2,
        "residual": residual,
        "folds": folds,
        "w": w.tolist(),
        "mu": mu.tolist(),
        "sd": sd.tolist(),
    }


def _sum(folds: Sequence[Row], key: str, pick: Callable[[Row], bool]) -> tuple[int, ...]:
    cells = [f[key] for f in folds if pick(f)]
    return tuple(sum(c[i] for c in cells) for i in range(4))


def report(result: dict[str, Any], per_fold: bool) -> str:
    lines = [
        f"features: {', '.join(result['features'])}; l2 {result['l2']}; "
        f"residual {result['residual']}"
    ]
    head = "| held-out set | shipped: silenced / hidden | model alone | shipped and model |"
    lines += [head, "|---|---|---|---|"]

    def cell(c: Sequence[int]) -> str:
        return f"{c[0]}/{c[1]}, {c[2]}/{c[3]}"

    folds = result["folds"]
    if per_fold:
        for f in folds:
            lines.append(
                f"| {f['set']} | {cell(f['shipped'])} | {cell(f['alone'])} | {cell(f['and'])} |"
            )
    for k in ("KB", "languages", "CJK", "notes-qa", None):
        pick = (lambda f, k=k: f["kind"] == k) if k else (lambda f: True)
        row = [_sum(folds, m, pick) for m in ("shipped", "alone", "and")]
        lines.append(f"| **{k or 'pooled'}** | " + " | ".join(cell(c) for c in row) + " |")
    return "\n".join(lines)


def check(train: list[Row], rows: list[Row], result: dict[str, Any]) -> str:
    """The model fitted on every study row, its threshold chosen there (``and``: the
    shipped label, and the model), labelling a set it was never fitted on."""
    names = result["features"]
    w, mu, sd = (np.array(result[k]) for k in ("w", "mu", "sd"))
    t = choose(train, score(w, (matrix(train, names) - mu) / sd), "and")
    said = labels(rows, score(w, (matrix(rows, names) - mu) / sd), t, "and")
    shipped = counts(rows, [bool(r["relevant"]) for r in rows])
    mine = counts(rows, said)
    name = rows[0]["set"] if rows else "?"
    return (
        f"check {name}: shipped {shipped[0]}/{shipped[1]}, {shipped[2]}/{shipped[3]}; "
        f"and model {mine[0]}/{mine[1]}, {mine[2]}/{mine[3]}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--features", default=DEFAULT)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--folds", action="store_true", help="print every fold")
    parser.add_argument("--residual", action="store_true", help="fit on what the floor passes")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--check", type=Path, nargs="*", default=[], help="dumps never fitted on: labelled once"
    )
    args = parser.parse_args(argv)
    rows = [json.loads(line) for f in args.files for line in f.read_text("utf-8").splitlines()]
    result = study(rows, args.features.split(","), args.l2, args.residual)
    print(report(result, args.folds))
    for f in args.check:
        print(check(rows, [json.loads(line) for line in f.read_text("utf-8").splitlines()], result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
