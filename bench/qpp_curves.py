"""The predictors of ``bench/qpp.py`` computed from its dumps, and each drawn as a rule
chosen leave-one-set-out.

A rule is "silent when the predictor is below ``t``" (or above, for a predictor whose
direction the training folds reverse). Two uses: **after** the shipped floor (recall as
shipped, and the rule may only silence more) and **alone** (recall's long route, the
floor skipped, gated by the rule alone). For each held-out set the threshold is chosen
on all the other sets: the most off-topic questions silenced among thresholds that lose
at most ``budget`` of the training sets' on-topic answers recall names (0, 1, 2, 5 %),
fewest lost on a tie; it is then applied to the held-out set, and the folds are pooled.
The floor's own curve is drawn the same way from its readings (coverage, the best
significance) so a predictor is compared with the floor moved, not only with the floor.
"""

from __future__ import annotations

import math
import statistics
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

Row = dict[str, Any]
BUDGETS = (0.0, 0.01, 0.02, 0.05)
"""Shares of the training folds' named answers a threshold may lose."""


def _idf(n: int, df: int) -> float:
    """Whoosh's IDF as the search weighs words: ``log(N / (df + 1)) + 1``."""
    return math.log(n / (df + 1)) + 1 if n > 0 else 0.0


def corpus_score(row: Row) -> float:
    """BM25 of the vault read as one document of the body's length (the corpus score
    NQC, WIG and SMV divide by): ``sum_w idf_w (k1 + 1) cf_w / (cf_w + k1 (1 - b + b N))``
    (the one document is ``N`` average documents long)."""
    n, k1, b = row["N"], row["k1"], row["b"]
    return sum(
        _idf(n, w["df"]) * (k1 + 1) * w["cf"] / (w["cf"] + k1 * (1 - b + b * n))
        for w in row["words"]
        if w["cf"] > 0
    )


def predictors(row: Row) -> dict[str, float]:
    """Every predictor of one dumped question (see ``bench/qpp.py``); 0 for a list
    with no hits (a score-based predictor has nothing to read)."""
    s = [x for x in row["scores"] if x > 0]
    n, k1 = row["N"], row["k1"]
    words = row["words"]
    q = max(len(words), 1)
    idfs = [_idf(n, w["df"]) for w in words] or [0.0]
    top_possible = sum(idfs) * (k1 + 1) or 1.0
    d = corpus_score(row) or 1e-9
    out: dict[str, float] = {}
    for k in (5, 10, 20):
        top = s[:k]
        if not top:
            for name in ("nqc", "nqc_mean", "nqc_max", "wig", "wig_max", "smv", "smv_mean"):
                out[f"{name}{k}"] = 0.0
            continue
        mu = statistics.fmean(top)
        sd = statistics.pstdev(top) if len(top) > 1 else 0.0
        smv = statistics.fmean(x * abs(math.log(x / mu)) for x in top)
        out[f"nqc{k}"] = sd / d
        out[f"nqc_mean{k}"] = sd / mu
        out[f"nqc_max{k}"] = sd / top_possible
        out[f"wig{k}"] = (mu - d) / math.sqrt(q)
        out[f"wig_max{k}"] = mu / top_possible
        out[f"smv{k}"] = smv / d
        out[f"smv_mean{k}"] = smv / mu
    out["top_share"] = (s[0] if s else 0.0) / top_possible
    out["gap12"] = (s[0] - s[1]) / s[0] if len(s) > 1 else (1.0 if s else 0.0)
    for k in ("5", "10"):
        c = row["clarity"].get(k)
        out[f"clarity{k}"] = c if c is not None else 0.0
    body = row["body"] or 1.0
    out["max_idf"] = max(idfs)
    out["avg_idf"] = statistics.fmean(idfs)
    scq = [
        (1 + math.log(w["cf"])) * math.log(1 + n / max(w["df"], 1)) for w in words if w["cf"] > 0
    ]
    out["max_scq"] = max(scq, default=0.0)
    out["avg_scq"] = statistics.fmean(scq) if scq else 0.0
    out["avg_ictf"] = (
        statistics.fmean(math.log(body / (w["cf"] + 1)) for w in words) if words else 0.0
    )
    out["scope"] = -math.log(max(row["scope"], 1) / max(n, 1))
    out["scs"] = sum((1 / q) * math.log2((1 / q) / ((w["cf"] + 1) / body)) for w in words)
    # the same, scale-free: each word's IDF or ICTF over the most the vault allows
    # (a word no note holds), so one threshold can hold in vaults of any size
    top_idf = math.log(n + 1) or 1.0
    nidf = [math.log((n + 1) / (w["df"] + 1)) / top_idf for w in words] or [0.0]
    out["avg_nidf"] = statistics.fmean(nidf)
    out["max_nidf"] = max(nidf)
    out["min_nidf"] = min(nidf)
    nictf = [math.log(body / (w["cf"] + 1)) / math.log(body + 1) for w in words] or [0.0]
    out["avg_nictf"] = statistics.fmean(nictf)
    out["unheld"] = sum(w["df"] == 0 for w in words) / q
    # simplified clarity with document frequencies (a note holding the word, not its
    # occurrences: what the floor already reads), and both over the most they can be
    scs_df = sum((1 / q) * math.log2((1 / q) / ((w["df"] + 1) / (n + 1))) for w in words)
    out["scs_df"] = scs_df
    out["scs_n"] = out["scs"] / math.log2(body + 1)
    out["scs_df_n"] = scs_df / math.log2(n + 1) if n > 0 else 0.0
    out["qlen"] = float(len(words))  # a control: the sets' off-topic questions are shorter
    out["coverage"] = row["coverage"] or 0.0
    out["significance"] = row["significance"] or 0.0
    return out


def outcome(row: Row, keep: bool, use: str) -> tuple[bool, bool]:
    """(recall said something, it named the answer) under a rule that keeps the
    question (``keep``) in ``use`` ``after`` or ``alone``."""
    if use == "after":
        return bool(row["said"]) and keep, bool(row["answer"]) and keep
    return bool(row["long_said"]) and keep, bool(row["long_answer"]) and keep


def tally(rows: Sequence[Row], keeps: Sequence[bool], use: str) -> tuple[int, int]:
    """(off-topic silent, on-topic answers named) over ``rows``."""
    silent = named = 0
    for r, k in zip(rows, keeps, strict=True):
        said, answer = outcome(r, k, use)
        if r["on"]:
            named += answer
        else:
            silent += not said
    return silent, named


def choose(
    rows: Sequence[Row], values: Sequence[float], use: str, budget: float
) -> tuple[float, int]:
    """The threshold and direction (+1: keep ``value >= t``; -1: keep ``value <= t``)
    silencing the most off-topic questions of ``rows`` while losing at most ``budget``
    of the answers all-kept names; fewest lost on a tie (keep all: ``(-inf, 1)``)."""
    neg: list[float] = []
    pos: list[float] = []
    for r, v in zip(rows, values, strict=True):
        said, answer = outcome(r, True, use)
        if r["on"] and answer:
            pos.append(v)
        elif not r["on"] and said:
            neg.append(v)
    allowed = math.floor(budget * len(pos) + 1e-9)
    best: tuple[int, int, float, int] = (0, 0, -math.inf, 1)
    for sign in (1, -1):
        n = sorted(x * sign for x in neg)
        p = sorted(x * sign for x in pos)
        for c in sorted(set(n) | set(p)):
            lost = bisect_left(p, c)
            if lost > allowed:
                break
            silenced = bisect_left(n, c)
            if (silenced, -lost) > (best[0], -best[1]):
                best = (silenced, lost, c * sign, sign)
    return best[2], best[3]


def loso(
    rows: Sequence[Row], name: str, use: str, budget: float, table: Callable[[Row], float]
) -> tuple[int, int, int, int]:
    """Pooled held-out folds: (silenced, off-topic, answers named, answers named with
    every question kept) for predictor ``name`` read by ``table``."""
    sets = sorted({r["set"] for r in rows})
    silent = off = named = base = 0
    for held in sets:
        train = [r for r in rows if r["set"] != held]
        test = [r for r in rows if r["set"] == held]
        t, sign = choose(train, [table(r) for r in train], use, budget)
        keeps = [(table(r) >= t) if sign == 1 else (table(r) <= t) for r in test]
        s, a = tally(test, keeps, use)
        _, a0 = tally(test, [True] * len(test), use)
        silent += s
        named += a
        base += a0
        off += sum(not r["on"] for r in test)
    return silent, off, named, base


def auc(rows: Sequence[Row], table: Callable[[Row], float]) -> float:
    """The probability that an on-topic question whose answer recall names reads
    higher than an off-topic question recall speaks on (ties half): how well the
    predictor separates what a rule after the floor would have to separate."""
    pos = [table(r) for r in rows if r["on"] and r["answer"]]
    neg = [table(r) for r in rows if not r["on"] and r["said"]]
    if not pos or not neg:
        return math.nan
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def report(rows: Sequence[Row]) -> str:
    """The printed table: per predictor, its AUC after the floor, and per use and
    budget the pooled held-out (silenced / off-topic, answers lost / named)."""
    cache = [predictors(r) for r in rows]
    index = {id(r): i for i, r in enumerate(rows)}
    names = list(cache[0]) if cache else []
    sets = len({r["set"] for r in rows})
    off = sum(not r["on"] for r in rows)
    s0, a0 = tally(rows, [True] * len(rows), "after")
    s1, a1 = tally(rows, [True] * len(rows), "alone")
    lines = [
        f"{sets} halves, {off} off-topic, {sum(r['on'] for r in rows)} on-topic",
        f"shipped recall: silent {s0}/{off}, answers named {a0}",
        f"long route, no floor: silent {s1}/{off}, answers named {a1}",
        "predictor        AUC   "
        + "  ".join(f"{u} {b:.0%}".rjust(16) for u in ("after", "alone") for b in BUDGETS),
    ]
    for name in names:

        def table(r: Row, name: str = name) -> float:
            return cache[index[id(r)]][name]

        cells = []
        for use in ("after", "alone"):
            for b in BUDGETS:
                silent, _, named, base = loso(rows, name, use, b, table)
                cells.append(
                    f"{silent:4} -{base - named:<3}".rjust(16)
                    if use == "after"
                    else f"{silent:4} {named:4}".rjust(16)
                )
        lines.append(f"{name:14} {auc(rows, table):5.3f}  " + "  ".join(cells))
    return "\n".join(lines)


def kind(name: str) -> str:
    """A set's kind: ``notes-qa``, ``KB``, ``CJK`` or ``alphabetic``."""
    if name == "notes-qa":
        return "notes-qa"
    if name.startswith("kb-"):
        return "KB"
    return "CJK" if name.endswith(("-ja", "-ko", "-zh")) else "alphabetic"


def detail(rows: Sequence[Row], name: str, use: str, budget: float) -> str:
    """One predictor's rule read fold by fold: each held-out set's threshold and
    direction, off-topic silenced and answers named (the rule, and every question
    kept), pooled by kind; then the threshold chosen on every set."""
    values = {id(r): predictors(r)[name] for r in rows}
    sets = sorted({r["set"] for r in rows})
    lines = [f"{name} {use} {budget:.0%}: set, threshold, silent/off, named (kept all)"]
    pooled: dict[str, list[int]] = {}
    for held in sets:
        train = [r for r in rows if r["set"] != held]
        test = [r for r in rows if r["set"] == held]
        t, sign = choose(train, [values[id(r)] for r in train], use, budget)
        keeps = [(values[id(r)] >= t) if sign == 1 else (values[id(r)] <= t) for r in test]
        s, a = tally(test, keeps, use)
        s0, a0 = tally(test, [True] * len(test), use)
        off = sum(not r["on"] for r in test)
        lines.append(
            f"  {held:28} {'>=' if sign == 1 else '<='} {t:8.4f}  {s:3}/{off:<3} {a:3} ({a0})"
        )
        acc = pooled.setdefault(kind(held), [0, 0, 0, 0, 0])
        for i, v in enumerate((s, off, a, a0, s0)):
            acc[i] += v
    for k, (s, off, a, a0, s0) in sorted(pooled.items()):
        lines.append(f"  {k:12} silent {s0} -> {s} of {off}, named {a0} -> {a}")
    t, sign = choose(list(rows), [values[id(r)] for r in rows], use, budget)
    lines.append(f"  chosen on all: {'>=' if sign == 1 else '<='} {t:.4f}")
    return "\n".join(lines)
