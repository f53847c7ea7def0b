"""The relevance floor's significance read with a chance model that knows a page's length.

The floor (:func:`rubi.index.querymatch.significance`) reads the chance that a hit holds
a query word at the average document's, ``df / N`` (below it for a page shorter than
the average). Here each model gives that chance for a page of ``L`` times the average
length, from what a ``bench/relevance_floor.py dump`` line records of the vault (each
word's document frequency ``df``, collection frequency ``cf`` in the prose fields and
the length shares of the documents holding it; every live document's length share):

- ``shipped``: the floor's own reading (``df / N``; ``1 - (1 - df/N)^L`` below ``L = 1``).
- :func:`poisson_length`: the last pass's ``1 - (1 - df/N)^(L^a)`` for every length.
- :func:`poisson_tokens`: divergence from randomness's basic model (Amati & van
  Rijsbergen 2002, "Probabilistic models of information retrieval based on measuring
  the divergence from randomness", the Poisson approximation of the binomial): the
  word's ``cf`` tokens fall at random over the vault's tokens, so a page of ``L``
  average lengths holds one with ``1 - exp(-L cf / N)``.
- :func:`negative_binomial`: a Poisson mixture (Church & Gale 1995, "Poisson
  mixtures"): the word's mean count per average document ``cf / N`` and a burstiness
  ``r`` fitted so an average document holds it with ``df / N``; a page of ``L`` average
  lengths holds it with ``1 - (1 + L cf / (N r))^-r`` (bursty words grow slowly with
  length).
- :func:`length_bucket`: the document frequency among the documents within a factor
  ``f`` of the page's length, the page itself left out (leave-one-out), shrunk toward
  the vault-wide ``df / N`` by ``alpha`` pseudo-documents (a beta prior):
  ``(k - 1 + alpha df/N) / (n - 1 + alpha)``.

:func:`frontier` sweeps the floor's bar on such a significance and counts, per model,
the off-topic questions silenced and the top-10 answers hidden, pooled: a model moves
the curve only if it silences more at no more hidden than the shipped reading at some
bar. The floor never reorders hits, so MRR@10 is the same under every model.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Row = dict[str, Any]
Chance = Callable[[int, int, float, Mapping[str, Any], Sequence[float]], float]
"""``(df, N, L, word, vault)`` → the chance a page of ``L`` average lengths holds the
word (``word``: the dump's entry for it; ``vault``: every document's length share,
ascending)."""

LOG20 = math.log(20)
TINY = 1e-12


def _clip(p: float) -> float:
    return min(max(p, TINY), 1.0)


def shipped(
    df: int, n: int, length: float, word: Mapping[str, Any], vault: Sequence[float]
) -> float:
    """The floor's reading (:func:`rubi.index.querymatch._log_chance`, not logged)."""
    rate = min(df / n, 1.0)
    if length >= 1.0 or rate >= 1.0:
        return rate
    return -math.expm1(length * math.log1p(-rate))


def poisson_length(a: float) -> Chance:
    """``1 - (1 - df/N)^(L^a)`` above the average length, the floor's reading below."""

    def chance(
        df: int, n: int, length: float, word: Mapping[str, Any], vault: Sequence[float]
    ) -> float:
        rate = min(df / n, 1.0)
        if length < 1.0 or rate >= 1.0:
            return shipped(df, n, length, word, vault)
        return -math.expm1(length**a * math.log1p(-rate))

    return chance


def poisson_tokens(longer_only: bool = True) -> Chance:
    """``1 - exp(-L cf / N)`` (``cf`` at least ``df``); with ``longer_only`` the floor's
    reading below the average length."""

    def chance(
        df: int, n: int, length: float, word: Mapping[str, Any], vault: Sequence[float]
    ) -> float:
        if longer_only and length < 1.0:
            return shipped(df, n, length, word, vault)
        mean = max(float(word.get("cf", df)), df) / n
        return _clip(-math.expm1(-mean * length))

    return chance


def burstiness(mean: float, rate: float) -> float | None:
    """The negative binomial's shape ``r`` with ``(1 + mean / r)^-r = 1 - rate`` (an
    average document holds the word with ``rate``), by bisection on ``log r``; None
    when ``mean`` is no more than a Poisson's (the word is not bursty: Poisson)."""
    target = -math.log1p(-min(rate, 1.0 - TINY))
    if mean <= target * (1.0 + 1e-9):
        return None
    lo, hi = 1e-6, 1e6
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if mid * math.log1p(mean / mid) < target:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


def negative_binomial(longer_only: bool = True) -> Chance:
    """``1 - (1 + L mean / r)^-r``, ``mean = cf / N`` and ``r`` :func:`burstiness`."""

    def chance(
        df: int, n: int, length: float, word: Mapping[str, Any], vault: Sequence[float]
    ) -> float:
        rate = min(df / n, 1.0)
        if (longer_only and length < 1.0) or rate >= 1.0:
            return shipped(df, n, length, word, vault)
        mean = max(float(word.get("cf", df)), df) / n
        r = burstiness(mean, rate)
        if r is None:
            return _clip(-math.expm1(-mean * length))
        return _clip(-math.expm1(-r * math.log1p(mean * length / r)))

    return chance


def _within(shares: Sequence[float], lo: float, hi: float) -> int:
    return bisect.bisect_right(shares, hi) - bisect.bisect_left(shares, lo)


def length_bucket(alpha: float, factor: float = 2.0, longer_only: bool = False) -> Chance:
    """The leave-one-out document frequency among documents of about the page's
    length, shrunk toward ``df / N`` (the module's docstring); with ``longer_only`` the
    floor's reading below the average length."""

    def chance(
        df: int, n: int, length: float, word: Mapping[str, Any], vault: Sequence[float]
    ) -> float:
        if longer_only and length < 1.0:
            return shipped(df, n, length, word, vault)
        lo, hi = length / factor, length * factor
        others = max(_within(vault, lo, hi) - 1, 0)
        holding = max(_within(word["shares"], lo, hi) - 1, 0)
        return _clip((holding + alpha * min(df / n, 1.0)) / (others + alpha))

    return chance


def models() -> dict[str, Chance]:
    """The models :func:`frontier` compares, by name."""
    out: dict[str, Chance] = {"shipped (df / N)": shipped}
    out["1 - (1 - df/N)^(L^0.5)"] = poisson_length(0.5)
    out["1 - (1 - df/N)^L"] = poisson_length(1.0)
    out["DFR Poisson, cf over the vault's tokens, longer pages"] = poisson_tokens()
    out["DFR Poisson, every length"] = poisson_tokens(False)
    out["negative binomial, longer pages"] = negative_binomial()
    out["negative binomial, every length"] = negative_binomial(False)
    for alpha in (3.0, 10.0, 30.0, 100.0):
        out[f"length bucket ×2, leave-one-out, prior {alpha:g}"] = length_bucket(alpha)
        out[f"the same, longer pages, prior {alpha:g}"] = length_bucket(alpha, longer_only=True)
    out["length bucket ×4, leave-one-out, prior 10"] = length_bucket(10.0, 4.0)
    return out


def hit_significance(row: Row, hit: Row, chance: Chance) -> float:
    """The floor's significance of ``hit`` (a dump's hit: ``held`` words, ``share``)
    with each held word's chance from ``chance``: ``-log(C(m, k) N prod p)``; one word
    held is read at ``df / N`` whatever the length, as the floor reads it."""
    words, n = row["words"], row["N"]
    held = [w for w in hit["held"] if words.get(str(w), {}).get("df", 0) > 0]
    length = float(hit.get("share", 1.0))
    if len(held) < 2:
        chances = [min(words[str(w)]["df"] / n, 1.0) for w in held]
    else:
        chances = [
            chance(words[str(w)]["df"], n, length, words[str(w)], row["shares"]) for w in held
        ]
    expected = math.log(math.comb(len(words), len(held))) + math.log(n)
    return -(expected + sum(math.log(p) for p in chances))


def _measured_by_units(row: Row) -> bool:
    """A CJK question: the floor measures its units, not the dump's words; kept at
    the shipped readings under every model."""
    return any(w.get("cjk") for w in row["words"].values())


def significances(row: Row, chance: Chance | None) -> list[float]:
    """Each hit's significance under ``chance`` (None, or a CJK question: as shipped)."""
    if chance is None or _measured_by_units(row):
        return [h["significance"] for h in row["hits"]]
    return [hit_significance(row, h, chance) for h in row["hits"]]


def label(row: Row, sigs: Sequence[float], bar: float = LOG20) -> bool:
    """The floor's label (:func:`rubi.search.reweighting.relevant`) of a dump row with
    its hits' significances ``sigs`` and the three-word clause's bar ``bar``; the
    vault-could-show-no-more clause read at the average length."""
    hits = row["hits"]
    if row["named"] > 0:
        return True
    if not hits:
        return bool(row["relevant"])
    several = max((s for s, h in zip(sigs, hits, strict=True) if h["words"] >= 3), default=0.0)
    if several > bar:
        return True
    if row["coverage"] < 0.5 or row["cjk"] > 0.5:
        return False
    if max(sigs) > 0.0 or row["coverage"] >= 1.0 - 1e-9:
        return True
    n = row["N"]
    chances = [min(w["df"] / n, 1.0) for w in row["words"].values() if w["df"] > 0]
    most = -(math.log(math.comb(len(row["words"]), len(chances))) + math.log(n))
    most -= sum(math.log(p) for p in chances)
    return most <= 0.0


def counts(rows: Sequence[Row], sigs: Sequence[Sequence[float]], bar: float) -> tuple[int, int]:
    """Off-topic questions silenced and top-10 answers hidden at ``bar``."""
    silenced = hidden = 0
    for row, s in zip(rows, sigs, strict=True):
        said = label(row, s, bar)
        silenced += not row["on"] and not said
        hidden += bool(row["on"] and row["found"] and not said)
    return silenced, hidden


BARS = tuple(LOG20 + x / 4 for x in range(-12, 41))
"""The three-word clause's bars swept: log 20 − 3 to log 20 + 10 nats. The first is just
below 0, where :func:`label` reads a question with no hit of three words (its best
such significance 0.0) as beyond chance; :func:`frontier` leaves it out."""


def frontier(rows: Sequence[Row], limits: Sequence[int]) -> str:
    """A markdown table: per model, at ``log 20`` (silenced / hidden), then the most
    off-topic questions silenced at each limit of top-10 answers hidden, over
    :data:`BARS`."""
    head = "| model | at log 20 (silenced / hidden) | "
    head += " | ".join(f"hidden ≤ {h}" for h in limits) + " |"
    lines = [head, "|---|---|" + "---|" * len(limits)]
    for name, chance in models().items():
        sigs = [significances(r, chance) for r in rows]
        points = [counts(rows, sigs, bar) for bar in BARS if bar > BARS[0]]
        own = counts(rows, sigs, LOG20)
        best = [max((s for s, h in points if h <= limit), default=None) for limit in limits]
        cells = ["–" if b is None else str(b) for b in best]
        lines.append(f"| {name} | {own[0]} / {own[1]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_half(rows: Sequence[Row], name: str, bar: float = LOG20) -> str:
    """A markdown table, per half, shipped → the model ``name`` at ``bar``: off-topic
    silenced, top-10 answers hidden."""
    chance = models()[name]
    lines = ["| development half (on, off) | off-topic silenced | top-10 answers hidden |"]
    lines.append("|---|---|---|")
    sets = list(dict.fromkeys(r["set"] for r in rows))
    for s in [*sets, "pooled"]:
        mine = [r for r in rows if s in ("pooled", r["set"])]
        base = counts(mine, [significances(r, shipped) for r in mine], LOG20)
        new = counts(mine, [significances(r, chance) for r in mine], bar)
        on = sum(1 for r in mine if r["on"])
        short = s.removeprefix("kb-").removeprefix("lang-")
        lines.append(
            f"| {short} ({on}, {len(mine) - on}) | {base[0]} → {new[0]} | {base[1]} → {new[1]} |"
        )
    return "\n".join(lines)
