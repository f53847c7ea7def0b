"""Recall as a classifier: a small family of principled rules for when recall speaks,
each read offline from ``bench/recall_routes.py dump`` lines, drawn as a curve of
off-topic questions left silent against on-topic answers still named and wrong notes
injected, fitted on one half of the sets and checked on the other.

Every rule here gates the whole recall of a prompt: it speaks with the long route's
notes (what recall shows for a prompt the floor labels relevant, or a long one) or says
nothing, so each outcome is one the dump recorded, read exactly. The rules:

``shipped``
    recall as it is: a prompt of more than ``LONG_PROMPT_TERMS`` content terms takes
    the long route (no floor), a shorter one is held to the floor.
``floor c,s``
    the floor's two thresholds raised (coverage ``c``, default 0.5; significance of a
    hit holding 3+ words ``s`` nats, default log 20), on the shipped routes.
``floor-all c,s``
    the same floor, the long route no longer skipping it.
``long-sig s``
    the shipped floor on a short prompt, a long one held to the floor's significance
    reading alone (above ``s`` nats).
``long-floor c,s``
    the shipped floor on a short prompt, a long one held to a lower floor of its own
    (coverage ``c`` 0.2–0.4, three-word significance ``s`` 0 or log 20).
``window w``
    the shipped outcome, and the best note holds at least ``w`` of the question's IDF
    mass in one window (``note_window_share``; a question outside the window's bounds
    is read by its best coverage).
``words r``
    the shipped outcome, and some hit holds at least ``ceil(r * n)`` of the query's
    words, ``n`` the prompt's written words (``written_words_count``); a CJK query (its
    share above ``CJK_UNMEASURED``) is measured in units, not words, and is left to the
    floor.

Sets are split by name, sorted, even places fitting and odd ones checking (``--unseen``
names sets read only as checks).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

Row = dict[str, Any]
Gate = Callable[[Row], bool]
LOG20 = math.log(20)
CJK_UNMEASURED = 0.5
WHOLE = 1.0 - 1e-9


def floor_label(row: Row, cover: float = 0.5, sig: float = LOG20) -> bool:
    """The relevance floor (:func:`rubi.search.reweighting.relevant`) read from the
    dumped readings with coverage floor ``cover`` and significance floor ``sig``."""
    hits = row["hits"]
    if row["named"] > 0:
        return True
    several = max((h["sig"] for h in hits if h["words"] >= 3), default=0.0)
    if several > sig:
        return True
    coverage = max((h["cov"] for h in hits), default=0.0)
    significance = max((h["sig"] for h in hits), default=0.0)
    if coverage < cover or row["cjk"] > CJK_UNMEASURED:
        return False
    return significance > 0.0 or coverage >= WHOLE or row["most"] <= 0.0


def long_prompt(row: Row) -> bool:
    """Whether the shipped count sends the prompt down the long route."""
    from rubi.app.recall import LONG_PROMPT_TERMS

    return bool(row["shipped"] > LONG_PROMPT_TERMS)


def shipped(row: Row) -> bool:
    return long_prompt(row) or floor_label(row)


def raised(cover: float, sig: float, everywhere: bool = False) -> Gate:
    def gate(row: Row) -> bool:
        return (long_prompt(row) and not everywhere) or floor_label(row, cover, sig)

    return gate


def long_significance(sig: float) -> Gate:
    """The shipped floor on a short prompt; a long one held to the floor's significance
    reading alone (a hit holding 3+ of its words above ``sig`` nats, or a name): its
    many words no note holds keep its coverage low whatever the vault has on it."""

    def gate(row: Row) -> bool:
        if not long_prompt(row):
            return floor_label(row)
        return floor_label(row, cover=math.inf, sig=sig)

    return gate


def long_floor(cover: float, sig: float) -> Gate:
    """The shipped floor on a short prompt; a long one held to a lower floor of its
    own (coverage ``cover``, three-word significance ``sig``): its many words no note
    holds lower its coverage, not the evidence of the words it shares."""

    def gate(row: Row) -> bool:
        if not long_prompt(row):
            return floor_label(row)
        return floor_label(row, cover, sig)

    return gate


def window(share: float) -> Gate:
    def gate(row: Row) -> bool:
        best = row["window"]
        if best is None:
            best = max((h["cov"] for h in row["hits"]), default=0.0)
        return shipped(row) and best >= share

    return gate


def words(ratio: float) -> Gate:
    def gate(row: Row) -> bool:
        if not shipped(row):
            return False
        if row["cjk"] > CJK_UNMEASURED:
            return True
        held = max((h["words"] for h in row["hits"]), default=0)
        return held >= math.ceil(ratio * row["written"])

    return gate


COVERS = (0.5, 0.6, 0.7, 0.8, 0.9)
SIGS = (LOG20, 4.0, 5.0, 6.0, 8.0)
FAMILIES: dict[str, list[tuple[str, Gate]]] = {
    "shipped": [("-", shipped)],
    "floor": [(f"c {c:.1f} s {s:.1f}", raised(c, s)) for c in COVERS for s in SIGS],
    "floor-all": [(f"c {c:.1f} s {s:.1f}", raised(c, s, True)) for c in COVERS for s in SIGS],
    "long-sig": [(f"s {s:.1f}", long_significance(s)) for s in SIGS],
    "long-floor": [
        (f"c {c:.1f} s {s:.1f}", long_floor(c, s)) for c in (0.2, 0.3, 0.4) for s in (0.0, LOG20)
    ],
    "window": [(f"w {w:.1f}", window(w)) for w in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)],
    "words": [(f"r {r:.1f}", words(r)) for r in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)],
}
"""The rules drawn: the floor's two thresholds on a grid (on the shipped routes, and
held on the long route too), the window share and the words held swept (the grids set
before reading the fresh dumps; the floor's own values first)."""


@dataclass(frozen=True)
class Point:
    """One rule's reading on some rows: off-topic silent of off-topic, on-topic answers
    named of on-topic, on-topic prompts given notes without the answer (wrong), and
    prompts of either kind given notes (said)."""

    silent: int
    off: int
    named: int
    on: int
    wrong: int
    said: int

    def cell(self) -> str:
        precision = self.named / self.said if self.said else 1.0
        return (
            f"{self.silent}/{self.off} silent, {self.named}/{self.on} named, "
            f"{self.wrong} wrong, precision {precision:.2f}"
        )


def point(rows: Iterable[Row], gate: Gate) -> Point:
    silent = off = named = on = wrong = said = 0
    for r in rows:
        speaks = gate(r) and bool(r["long_said"])
        said += speaks
        if r["on"]:
            on += 1
            hit = speaks and bool(r["long_answer"])
            named += hit
            wrong += speaks and not hit
        else:
            off += 1
            silent += not speaks
    return Point(silent, off, named, on, wrong, said)


def halves(rows: Sequence[Row], unseen: Sequence[str]) -> dict[str, list[Row]]:
    """The rows split: ``fit`` (sets sorted by name, even places), ``check`` (odd
    places), ``unseen`` (the sets named there, never in either)."""
    names = sorted({r["set"] for r in rows} - set(unseen))
    fit = set(names[0::2])
    return {
        "fit": [r for r in rows if r["set"] in fit],
        "check": [r for r in rows if r["set"] in names and r["set"] not in fit],
        "unseen": [r for r in rows if r["set"] in unseen],
    }


def choose(rows: Sequence[Row], base: Point, goal: float = 0.9) -> tuple[str, str] | None:
    """The operating point: among every rule of :data:`FAMILIES` reaching ``goal`` of
    the off-topic questions silent on ``rows``, the one losing the fewest answers
    (then the fewest wrong notes); None when none reaches it."""
    best: tuple[int, int, str, str] | None = None
    for family, rules in FAMILIES.items():
        for label, gate in rules:
            p = point(rows, gate)
            if p.off and p.silent / p.off >= goal:
                key = (base.named - p.named, p.wrong, family, label)
                best = key if best is None or key[:2] < best[:2] else best
    return None if best is None else (best[2], best[3])


def within(rows: Sequence[Row], base: Point, lost: float = 0.05) -> tuple[str, str]:
    """The rule of :data:`FAMILIES` silencing the most off-topic questions on ``rows``
    while losing at most ``lost`` of ``base``'s answers (then the fewest lost)."""
    best: tuple[int, int, str, str] = (-1, 0, "shipped", "-")
    for family, rules in FAMILIES.items():
        for label, gate in rules:
            p = point(rows, gate)
            if base.named - p.named <= lost * base.named:
                key = (p.silent, p.named, family, label)
                best = key if key[:2] > best[:2] else best
    return best[2], best[3]


def _costs(rows: Sequence[Row], parts: dict[str, list[Row]], family: str, label: str) -> list[str]:
    """Per half and per kind of set, what the rule ``family`` ``label`` costs against
    the shipped recall."""
    from recall_routes import kind

    gate = dict(FAMILIES[family])[label]
    groups = dict(parts)
    for r in rows:
        groups.setdefault(f"{kind(r['set'])} (all halves)", []).append(r)
    lines = []
    for k, v in groups.items():
        if v:
            b, p = point(v, shipped), point(v, gate)
            lost = b.named - p.named
            share = lost / b.named if b.named else 0.0
            lines.append(
                f"  {k}: silent {b.silent} -> {p.silent} of {p.off} "
                f"({p.silent / max(1, p.off):.0%}); named {b.named} -> {p.named} "
                f"(lost {share:.1%}); wrong {b.wrong} -> {p.wrong}"
            )
    return lines


def curves(rows: Sequence[Row], unseen: Sequence[str]) -> str:
    """The printed curves: per rule, its point on the fit, check and unseen halves,
    then the operating point chosen on the fit half and what it costs elsewhere."""
    parts = halves(rows, unseen)
    lines = []
    for family, rules in FAMILIES.items():
        for label, gate in rules:
            cells = "  |  ".join(f"{k} {point(v, gate).cell()}" for k, v in parts.items() if v)
            lines.append(f"{family:10} {label:14} {cells}")
    base = point(parts["fit"], shipped)
    chosen = choose(parts["fit"], base)
    if chosen is None:
        lines.append("no rule reaches 90% silence on the fit half")
        return "\n".join(lines)
    family, label = chosen
    lines.append(f"chosen on the fit half: {family} {label}")
    lines.extend(_costs(rows, parts, family, label))
    family, label = within(parts["fit"], base)
    lines.append(f"most silent within 5% of the answers lost on the fit half: {family} {label}")
    lines.extend(_costs(rows, parts, family, label))
    return "\n".join(lines)
