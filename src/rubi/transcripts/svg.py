"""Inline SVG charts for the X-ray page: a line chart and a horizontal bar chart.

No JavaScript and no external files: each function returns one ``<svg>`` element as
a string, with every text escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from rubi.transcripts.summary import format_tokens

__all__ = ["MAX_MARK_LABELS", "PALETTE", "Bar", "Series", "bar_chart", "line_chart"]

PALETTE = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563")
"""Distinct colours that stay readable on white and in greyscale print."""

MAX_MARK_LABELS = 4
"""More event labels than this would overlap on a 560-pixel chart."""

_FONT = 'font-family="system-ui, sans-serif" font-size="11"'
_MARGIN_LEFT = 52
_MARGIN_RIGHT = 12
_MARGIN_TOP = 12
_MARGIN_BOTTOM = 28


@dataclass(frozen=True, slots=True)
class Series:
    """One line: a label, its y values (x is the index), a colour, dashed or not."""

    label: str
    values: Sequence[int]
    color: str
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: a label, a value, the text shown after it, a colour."""

    label: str
    value: float
    note: str
    color: str = PALETTE[0]


def _nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span / ticks, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return float(10 * power)


def line_chart(
    series: Sequence[Series],
    *,
    thresholds: Sequence[int] = (),
    marks: Sequence[tuple[int, str, str]] = (),
    width: int = 560,
    height: int = 220,
    title: str = "",
) -> str:
    """A line chart of context size (y, tokens) per API call (x), with threshold lines.

    Args:
        series: the lines; x runs over each series' indices.
        thresholds: y values drawn as dashed horizontal lines, labelled in tokens;
            only those within the plotted range (the data's peak or the smallest
            threshold, whichever is higher, plus 10%) are drawn.
        marks: ``(x index, label, colour)`` events (compactions, cache expiries) drawn
            as dotted vertical lines; labelled only when there are at most
            ``MAX_MARK_LABELS`` of them, so labels never pile up.
        width: width in pixels.
        height: height in pixels.
        title: accessible title of the chart.

    Returns:
        An ``<svg>`` element.
    """
    peak = max((max(s.values, default=0) for s in series), default=0)
    top = max(peak, min(thresholds, default=0)) * 1.1 or 1.0
    calls = max((len(s.values) for s in series), default=1)
    plot_w = width - _MARGIN_LEFT - _MARGIN_RIGHT
    plot_h = height - _MARGIN_TOP - _MARGIN_BOTTOM

    def x_of(index: int) -> float:
        return _MARGIN_LEFT + (index / max(calls - 1, 1)) * plot_w

    def y_of(value: float) -> float:
        return _MARGIN_TOP + plot_h - (value / top) * plot_h

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    step = _nice_step(top)
    tick = 0.0
    while tick <= top:
        y = y_of(tick)
        parts.append(
            f'<line x1="{_MARGIN_LEFT}" y1="{y:.1f}" x2="{width - _MARGIN_RIGHT}" '
            f'y2="{y:.1f}" stroke="#e5e7eb"/>'
            f'<text x="{_MARGIN_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" {_FONT} '
            f'fill="#6b7280">{format_tokens(tick)}</text>'
        )
        tick += step
    for threshold in thresholds:
        if threshold > top:
            continue
        y = y_of(threshold)
        parts.append(
            f'<line x1="{_MARGIN_LEFT}" y1="{y:.1f}" x2="{width - _MARGIN_RIGHT}" '
            f'y2="{y:.1f}" stroke="#9ca3af" stroke-dasharray="6 4"/>'
            f'<text x="{width - _MARGIN_RIGHT - 2}" y="{y - 3:.1f}" text-anchor="end" '
            f'{_FONT} fill="#4b5563">{format_tokens(threshold)}</text>'
        )
    for index, label, color in marks:
        x = x_of(index)
        parts.append(
            f'<line x1="{x:.1f}" y1="{_MARGIN_TOP}" x2="{x:.1f}" y2="{_MARGIN_TOP + plot_h}" '
            f'stroke="{color}" stroke-dasharray="2 3"><title>{escape(label)}</title></line>'
        )
        if len(marks) <= MAX_MARK_LABELS:
            parts.append(
                f'<text x="{x + 3:.1f}" y="{_MARGIN_TOP + 10}" {_FONT} fill="{color}">'
                f"{escape(label)}</text>"
            )
    for line in series:
        if not line.values:
            continue
        points = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(line.values))
        dash = ' stroke-dasharray="4 3"' if line.dashed else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{line.color}" '
            f'stroke-width="1.6"{dash}><title>{escape(line.label)}</title></polyline>'
        )
    parts.append(
        f'<text x="{_MARGIN_LEFT + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle" '
        f'{_FONT} fill="#6b7280">API call (1 to {calls})</text></svg>'
    )
    return "".join(parts)


def bar_chart(bars: Sequence[Bar], *, width: int = 640, title: str = "") -> str:
    """A horizontal bar chart, one labelled bar per row, longest bar = largest value.

    Args:
        bars: the bars, drawn top to bottom in the given order.
        width: width in pixels; the height follows from the number of bars.
        title: accessible title of the chart.

    Returns:
        An ``<svg>`` element.
    """
    row = 22
    label_w = 150
    note_w = 210
    height = row * max(len(bars), 1) + 8
    biggest = max((b.value for b in bars), default=0.0) or 1.0
    span = width - label_w - note_w
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
    ]
    for index, bar in enumerate(bars):
        y = 4 + index * row
        length = max(bar.value, 0.0) / biggest * span
        label = bar.label if len(bar.label) <= 24 else "…" + bar.label[-23:]
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end" {_FONT} '
            f'fill="#111827">{escape(label)}<title>{escape(bar.label)}</title></text>'
            f'<rect x="{label_w}" y="{y + 3}" width="{length:.1f}" height="{row - 8}" '
            f'fill="{bar.color}" rx="2"/>'
            f'<text x="{label_w + length + 6:.1f}" y="{y + 14}" {_FONT} '
            f'fill="#374151">{escape(bar.note)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
