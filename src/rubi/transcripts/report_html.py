"""The X-ray as one self-contained HTML page: inline CSS and SVG, no scripts, no links out."""

from __future__ import annotations

import time
from collections.abc import Sequence
from html import escape
from pathlib import Path

from rubi.transcripts.aggregate import XrayReport
from rubi.transcripts.analyze import SessionStats
from rubi.transcripts.errors import ReportWriteError
from rubi.transcripts.settings import BIG_SESSION_TOKENS, CLASS_LABELS
from rubi.transcripts.summary import count_of, first_change, format_tokens, summary_lines
from rubi.transcripts.svg import PALETTE, Bar, Series, bar_chart, line_chart

__all__ = ["render_html", "write_html"]

CURVE_CHARTS = 6
"""Sessions drawn as context curves: the costliest ones, where a change pays most."""

TABLE_ROWS = 20
"""Rows per table: enough to act on, short enough to read."""

_COMPACTED = "#6b7280"
_EXPIRED = "#d97706"

_CSS = """
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1180px;color:#111827;
padding:0 16px}
h1{margin:0 0 4px}h2{margin:28px 0 8px;font-size:18px}.muted{color:#6b7280}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.card{border:1px solid #e5e7eb;border-radius:8px;padding:10px 14px;min-width:150px}
.card b{display:block;font-size:22px}.callout{background:#eff6ff;border-left:4px solid #2563eb;
padding:10px 14px;margin:12px 0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:12px}
figure{margin:0;border:1px solid #e5e7eb;border-radius:8px;padding:8px}
figcaption{font-size:13px;margin-bottom:4px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}
td,th{border-bottom:1px solid #e5e7eb;padding:4px 10px;text-align:right}
td:first-child,th:first-child{text-align:left}.legend span{margin-right:14px}
code{font-size:12px}ul{margin:6px 0}
"""


def _pct(part: float, whole: float) -> str:
    text = f"{(part / whole if whole else 0.0) * 100:.1f}%"
    return "0.0%" if text == "-0.0%" else text


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    if not rows:
        return '<p class="muted">None.</p>'
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _session_name(session: SessionStats) -> str:
    where = session.folder
    return f"{session.session_id[:8]} · {Path(where).name or where}"


def _cards(report: XrayReport) -> str:
    items = [
        ("sessions", str(len(report.sessions))),
        ("cost (input-token equiv.)", format_tokens(report.cost)),
        ("cache reads, share of cost", _pct(report.cache_read_share, 1)),
        (
            f"cost in sessions past {format_tokens(BIG_SESSION_TOKENS)}",
            f"{_pct(report.big_cost_share, 1)} ({len(report.big_sessions)})",
        ),
        (
            "startup context, median",
            format_tokens(report.startup_median) if report.startup_median is not None else "-",
        ),
        ("cache expiries", f"{report.expiries} (+{format_tokens(report.expiry_cost)})"),
    ]
    return (
        '<div class="cards">'
        + "".join(
            f'<div class="card"><span class="muted">{escape(k)}</span><b>{escape(v)}</b></div>'
            for k, v in items
        )
        + "</div>"
    )


def _curve_figure(session: SessionStats, report: XrayReport) -> str:
    """One session's context curve, its best replay, thresholds, compactions, expiries."""
    best = report.best.threshold if report.best else None
    lines = [Series("real context", session.curve, PALETTE[0])]
    compacting = [o for o in report.replays.get(session.session_id, ()) if o.compactions]
    chosen = next((o for o in compacting if o.threshold == best), None) or (
        compacting[0] if compacting else None
    )
    note = "never reaches a threshold"
    if chosen is not None:
        lines.append(
            Series(f"replay at {format_tokens(chosen.threshold)}", chosen.curve, PALETTE[1], True)
        )
        note = (
            f"replay at {format_tokens(chosen.threshold)}: {chosen.compactions} compactions, "
            f"saves {format_tokens(chosen.saving)}"
        )
    compactions = [c.call_index for c in session.compactions if c.chain == "main"]
    expiries = [r.call_index for r in session.rewrites if r.expired]
    marks = [(i, "compacted", _COMPACTED) for i in compactions]
    marks += [(i, "cache expired", _EXPIRED) for i in expiries]
    events = f" · {len(compactions)} compactions" if compactions else ""
    events += f" · {len(expiries)} cache expiries" if expiries else ""
    caption = (
        f"<b>{escape(_session_name(session))}</b> · {len(session.main_calls)} calls · "
        f"peak {format_tokens(session.peak_context)} · cost {format_tokens(session.cost)}"
        f'{escape(events)} · <span class="muted">{escape(note)}</span>'
    )
    chart = line_chart(
        lines, thresholds=report.policy.thresholds, marks=marks, title=_session_name(session)
    )
    return f"<figure><figcaption>{caption}</figcaption>{chart}</figure>"


def _curves(report: XrayReport) -> str:
    figures = [_curve_figure(s, report) for s in report.sessions[:CURVE_CHARTS]]
    legend = (
        '<p class="legend muted"><span style="color:#2563eb">━ real context</span>'
        '<span style="color:#dc2626">╌ replayed with early compaction</span>'
        "<span>┄ thresholds</span>"
        f'<span style="color:{_COMPACTED}">┊ compaction</span>'
        f'<span style="color:{_EXPIRED}">┊ cache expiry</span></p>'
    )
    return legend + '<div class="grid">' + "".join(figures) + "</div>"


def _cost_classes(report: XrayReport) -> str:
    bars = [
        Bar(
            CLASS_LABELS[name],
            value,
            f"{format_tokens(value)} · {_pct(value, report.cost)}",
            PALETTE[index],
        )
        for index, (name, value) in enumerate(report.cost_by_class.items())
    ]
    tokens = _table(
        ["class", "tokens", "price ratio", "cost", "share"],
        [
            [
                CLASS_LABELS[name],
                format_tokens(getattr(report.usage, name)),
                f"{getattr(report.prices, name):g}x",
                format_tokens(value),
                _pct(value, report.cost),
            ]
            for name, value in report.cost_by_class.items()
        ],
    )
    return bar_chart(bars, title="cost by token class") + tokens


def _tools(report: XrayReport) -> str:
    top = report.tools[:12]
    bars = [
        Bar(
            name,
            w.carried_cost,
            f"{format_tokens(w.tokens)} tok · carried {format_tokens(w.carried_cost)}",
            PALETTE[2],
        )
        for name, w in top
    ]
    rows = [
        [
            name,
            str(w.calls),
            format_tokens(w.tokens),
            format_tokens(w.carried_cost),
            _pct(w.carried_cost, report.cost),
        ]
        for name, w in report.tools[:TABLE_ROWS]
    ]
    chart = bar_chart(bars, title="tool results by carried cost") if bars else ""
    return chart + _table(["tool", "results", "tokens", "carried cost", "share of cost"], rows)


def _replay(report: XrayReport) -> str:
    rows = [
        [
            format_tokens(s.threshold) + (" (best)" if report.best is s else ""),
            str(s.sessions),
            str(s.compactions),
            format_tokens(s.saving),
            _pct(s.saving, report.cost),
        ]
        for s in report.savings
    ]
    policy = report.policy
    base = (
        "each session's startup context"
        if policy.base_tokens is None
        else (format_tokens(policy.base_tokens))
    )
    return (
        f'<p class="muted">Resume from {escape(base)} plus a '
        f"{format_tokens(policy.handoff_tokens)} handoff; each compaction pays a summarizing "
        "read, the handoff as output and a full cache rewrite.</p>"
        + _table(["threshold", "sessions compacted", "compactions", "saving", "share"], rows)
    )


def render_html(report: XrayReport) -> str:
    """Render the report as a complete HTML page.

    Args:
        report: the X-ray.

    Returns:
        The page: one string with inline CSS and SVG charts, no scripts, no external
        resources, so it opens offline and can be attached to an issue.
    """
    window = f"last {report.days} days" if report.days is not None else "all time"
    if report.project:
        window += f", project {report.project}"
    stats = report.read_stats
    sessions = [
        [
            _session_name(s),
            str(len(s.main_calls)),
            format_tokens(s.peak_context),
            format_tokens(s.startup_tokens) if s.startup_tokens is not None else "-",
            format_tokens(s.cost),
            _pct(s.cost, report.cost),
            str(sum(1 for r in s.rewrites if r.expired)),
            str(len(s.compactions)),
        ]
        for s in report.sessions[:TABLE_ROWS]
    ]
    rereads = [
        [r.path, str(r.extra_reads), format_tokens(r.extra_tokens), str(r.sessions)]
        for r in report.rereads[:TABLE_ROWS]
    ]
    reading = (
        f"{count_of(stats.files, 'file')}, {format_tokens(stats.bytes)}B, "
        f"{count_of(stats.lines, 'line')}; {count_of(stats.bad_lines, 'broken line')} skipped, "
        f"{count_of(stats.split_lines, 'split-response line')} merged, "
        f"{count_of(stats.repeated_calls, 'repeated call')} ignored, "
        f"{count_of(stats.synthetic_lines, 'API-error line')} skipped, "
        f"{count_of(stats.unreadable_files, 'unreadable file')}."
    )
    summary = "".join(f"<li>{escape(line)}</li>" for line in summary_lines(report)[1:-1])
    generated = time.strftime("%Y-%m-%d %H:%M", time.localtime())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Token X-ray</title><style>{_CSS}</style></head><body>
<h1>Token X-ray</h1>
<p class="muted">{escape(window)} · {escape(report.projects_root)} · generated {generated}</p>
{_cards(report)}
<div class="callout"><b>First change:</b> {escape(first_change(report))}</div>
<ul>{summary}</ul>
<h2>Context curves</h2>{_curves(report)}
<h2>Cost by token class</h2>{_cost_classes(report)}
<h2>Early compaction replay</h2>{_replay(report)}
<h2>Tools by weight</h2>
<p class="muted">Carried cost: a result's tokens written to the cache once and read again by
every later call until the next compaction.</p>{_tools(report)}
<h2>Re-read files</h2>{_table(["file", "extra reads", "extra tokens", "sessions"], rereads)}
<h2>Sessions</h2>{
        _table(
            ["session", "calls", "peak", "startup", "cost", "share", "expiries", "compactions"],
            sessions,
        )
    }
<h2>Reading</h2><p>{escape(reading)}</p>
<p class="muted">Costs are in input-token equivalents: input 1, cache read
{report.prices.cache_read:g}, cache write {report.prices.cache_write_5m:g} (5 min) /
{report.prices.cache_write_1h:g} (1 h), output {report.prices.output:g}.</p>
</body></html>
"""


def write_html(report: XrayReport, path: Path) -> None:
    """Write :func:`render_html` to ``path`` (UTF-8, replacing the file).

    Args:
        report: the X-ray.
        path: the file to write.

    Raises:
        ReportWriteError: the file cannot be written.
    """
    try:
        path.write_text(render_html(report), encoding="utf-8")
    except OSError as err:
        raise ReportWriteError(
            f"{path}: cannot write the report ({err.strerror or err}); choose a writable path"
        ) from err
