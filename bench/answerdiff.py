"""Compare two sets of search answers query by query and say what differs.

Used by ``bench/mcp_bench.py`` to compare a fresh server's first-minute answers with a
warm server's answers to the same queries. An answer is the ``search`` tool's
``structuredContent`` (``{"query", "relevant", "ids", "omitted", "text"}``) or, for a
text-only answer, its text. Only queries both sides asked are compared; the queries
one side asked alone are counted, never taken for a difference (the first minute asks
every query once, the warm run ``--calls`` of them: with ``--questions`` the first
minute asks 120 and the warm run 60, and comparing the two dicts whole reported a
difference on every run).

What a difference names, per query: the hit ids (added, dropped, or the same ids in
another order, with the first rank that moved), every other field of the JSON that
changed (``relevant``, ``omitted``, ...), and the lines of the text that changed (a
hit's header, its why line with the channels that found it, its passage ids and
passages), a few of them. The MCP answer holds no scores: a change of score shows
only when it moves an order, a why line or the budget's cut (``omitted``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_IDS", "MAX_TEXT_LINES", "Comparison", "compare_answers", "describe"]

MAX_TEXT_LINES = 6
"""Changed text lines shown per query at most (the rest are counted)."""


@dataclass
class Comparison:
    """The outcome of :func:`compare_answers`.

    Attributes:
        compared: queries both sides answered.
        only_first: queries only the first side asked (not compared).
        only_second: queries only the second side asked (not compared).
        differ: each compared query whose answers differ → what differs, one line each.
    """

    compared: int = 0
    only_first: list[str] = field(default_factory=list)
    only_second: list[str] = field(default_factory=list)
    differ: dict[str, list[str]] = field(default_factory=dict)

    def summary(self, first: str = "first minute", second: str = "warm") -> str:
        """One line: how many compared, how many differ, how many not compared."""
        left = ""
        if self.only_first or self.only_second:
            left = (
                f"; not compared: {len(self.only_first)} asked by the {first} only,"
                f" {len(self.only_second)} by the {second} only"
            )
        return f"{len(self.differ)} of {self.compared} answers differ ({first} vs {second}){left}"


def compare_answers(first: dict[str, Any], second: dict[str, Any]) -> Comparison:
    """The queries both dicts hold compared (:func:`describe`); the rest counted."""
    out = Comparison(
        only_first=[q for q in first if q not in second],
        only_second=[q for q in second if q not in first],
    )
    for query, answer in first.items():
        if query not in second:
            continue
        out.compared += 1
        if answer != second[query]:
            out.differ[query] = describe(answer, second[query])
    return out


MAX_IDS = 5
"""Ids named per kind of change at most (the rest are counted)."""


def _some(items: list[str]) -> str:
    more = f" (+{len(items) - MAX_IDS} more)" if len(items) > MAX_IDS else ""
    return ", ".join(items[:MAX_IDS]) + more


def _ids_line(a: list[Any], b: list[Any]) -> str | None:
    """The ids' change: those dropped and added with their ranks, or, the same ids in
    another order, those that moved (rank before → after)."""
    if a == b:
        return None
    added = [f"{i} (rank {r + 1})" for r, i in enumerate(b) if i not in a]
    dropped = [f"{i} (rank {r + 1})" for r, i in enumerate(a) if i not in b]
    if not added and not dropped:
        moved = [f"{i} ({r + 1} → {b.index(i) + 1})" for r, i in enumerate(a) if b[r] != i]
        return f"ids: the same {len(a)} in another order; moved: {_some(moved)}"
    line = f"ids: {len(a)} → {len(b)}"
    if dropped:
        line += f"; only first: {_some(dropped)}"
    if added:
        line += f"; only second: {_some(added)}"
    return line


def _text_lines(a: str, b: str) -> list[str]:
    """The changed lines of two answer texts (``-`` first side, ``+`` second side)."""
    changed = [
        line
        for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("---", "+++"))
    ]
    shown = [f"text {line[:1]} {line[1:][:160]}" for line in changed[:MAX_TEXT_LINES]]
    if len(changed) > MAX_TEXT_LINES:
        shown.append(f"text: {len(changed) - MAX_TEXT_LINES} more changed lines")
    return shown


def describe(first: Any, second: Any) -> list[str]:
    """What differs between two answers to one query, one line per item (empty when
    they are equal)."""
    if first == second:
        return []
    if not isinstance(first, dict) or not isinstance(second, dict):
        kinds = f"{type(first).__name__} vs {type(second).__name__}"
        if isinstance(first, str) and isinstance(second, str):
            return _text_lines(first, second) or [f"text differs ({kinds})"]
        return [f"answer kinds differ: {kinds}"]
    lines: list[str] = []
    ids = _ids_line(list(first.get("ids") or []), list(second.get("ids") or []))
    if ids:
        lines.append(ids)
    for key in sorted(set(first) | set(second)):
        if key in ("ids", "text"):
            continue
        a, b = first.get(key, "<absent>"), second.get(key, "<absent>")
        if a != b:
            lines.append(f"{key}: {a!r} → {b!r}")
    a_text, b_text = first.get("text"), second.get("text")
    if a_text != b_text:
        if isinstance(a_text, str) and isinstance(b_text, str):
            lines.extend(_text_lines(a_text, b_text) or ["text: whitespace differs"])
        else:
            lines.append(f"text: {type(a_text).__name__} → {type(b_text).__name__}")
    return lines
