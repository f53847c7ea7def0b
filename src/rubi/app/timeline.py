"""What happened around a hit: the notes, handoffs and captured sessions of the days
around its day, newest first (by day, then a day's entries by when their file last
changed), the step between a search's compact index and a full ``read``.

A day is what search shows (:class:`rubi.dates.hitdays.Days`): a note's ``updated`` or
``created`` frontmatter, a code file's last commit, else the file's modification time.
A captured session also lists its turns (its ``### HH:MM`` headings) with the start of
each prompt. rubi's own help (``status: help``, the README ``rubi init`` writes) is left
out, as recall leaves it out: its day is the day of ``init``, not of anything that
happened (it is still listed when it is the ``ref`` itself).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

__all__ = [
    "DEFAULT_DAYS",
    "MAX_DAYS",
    "MAX_ENTRIES",
    "Timeline",
    "TimelineEntry",
    "render_timeline",
    "timeline",
    "timeline_json",
]

DEFAULT_DAYS = 3
"""Days on each side of the centre day shown by default."""
MAX_DAYS = 366
"""The widest window asked for (on each side)."""
MAX_ENTRIES = 40
"""Entries listed at most (the newest); the rest are counted."""
MAX_TURNS = 12
"""Turns listed per captured session (the last ones)."""
TURN_PREVIEW_CHARS = 100
"""Characters of a turn's prompt shown."""

_DAY_REF = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One note, handoff or captured session of the window.

    Attributes:
        day: its day, ``YYYY-MM-DD``.
        kind: ``session``, ``handoff`` or the note's type.
        id: its id (open it with ``rubi read``).
        title: its title.
        turns: a session's turns, ``HH:MM prompt…`` (the last :data:`MAX_TURNS`).
    """

    day: str
    kind: str
    id: str
    title: str
    turns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Timeline:
    """The window around ``centre`` (``ref``'s day) and its entries, newest first.

    Attributes:
        id: the note or code file ``ref`` named (``""`` for a day).
        others: the ids of the other notes ``ref`` named as well (a title two notes
            share: the window is the first's, :func:`rubi.app.reading.resolve_ref_choices`).
    """

    ref: str
    centre: str
    since: str
    until: str
    entries: list[TimelineEntry] = field(default_factory=list)
    omitted: int = 0
    id: str = ""
    others: tuple[str, ...] = ()


def _kind(node: str, attrs: Any) -> str:
    if attrs.get("session"):
        return "session"
    if node.startswith("handoffs/"):
        return "handoff"
    return str(attrs.get("type", "note"))


def _turns(paths: VaultPaths, rel: str) -> tuple[str, ...]:
    """A session record's turns: ``HH:MM`` and the start of the prompt."""
    from rubi.app.pagetext import page_text
    from rubi.search.sections import TURN_HEADING, USER_MARK, file_lines, note_sections

    try:
        text = page_text(paths, paths.root / rel, 400_000)
    except (OSError, RubiError):
        return ()
    lines = file_lines(text)
    turns: list[str] = []
    for part in note_sections(text, session=True):
        if not TURN_HEADING.match(part.heading):
            continue
        after = lines[part.start : min(part.start + 5, part.end)]
        prompt = next((x.strip() for x in after if x.strip()), "")
        prompt = prompt.removeprefix(USER_MARK).strip()
        if len(prompt) > TURN_PREVIEW_CHARS:
            prompt = prompt[:TURN_PREVIEW_CHARS].rstrip() + "…"
        turns.append(f"{part.heading} {prompt}".rstrip())
    return tuple(turns[-MAX_TURNS:])


def _changed_ns(paths: VaultPaths, attrs: Any) -> int:
    """When a note's file last changed (nanoseconds; 0 when it cannot be told): the
    order of one day's entries, newest first. Why: sorted by id alone, a day's captured
    sessions (ids of random UUIDs) were listed 14:10, 14:11, 14:11, 14:10 under
    "newest first". ``lstat``: a link is not followed, nothing is read."""
    import os

    rel = attrs.get("path")
    if not isinstance(rel, str) or not rel:
        return 0
    try:
        return os.lstat(paths.root / rel).st_mtime_ns
    except (OSError, ValueError):
        return 0


def timeline(paths: VaultPaths, ref: str, days: int = DEFAULT_DAYS) -> Timeline:
    """The notes, handoffs and captured sessions of the ``days`` days before and after
    ``ref``'s day, newest first (at most :data:`MAX_ENTRIES`).

    Args:
        paths: the vault.
        ref: an id search printed (a note, a handoff, a session record, a code file),
            a note's title or alias, or a day ``YYYY-MM-DD``.
        days: days on each side (0 to :data:`MAX_DAYS`).

    Raises:
        RubiError: ``days`` out of range, or ``ref`` is neither a day nor something
            the vault holds, or has no day.
    """
    from rubi.app.recall import SKIPPED_STATUSES
    from rubi.dates.hitdays import Days
    from rubi.sync import reading_graph

    if not 0 <= days <= MAX_DAYS:
        raise RubiError(f"days must be between 0 and {MAX_DAYS}, got {days}")
    ref = ref.strip()
    node: str | None = None
    others: tuple[str, ...] = ()
    with reading_graph(paths) as build:  # the graph's part; days are found after it
        g = build.graph
        if not _DAY_REF.match(ref):
            node, others = _named(build, ref)
        notes = {
            n: a
            for n, a in g.nodes(data=True)
            if a.get("kind") == "note" and not a.get("generated")
        }
        held = notes if node is None or node in notes else {**notes, node: g.nodes[node]}
    book = Days(held, paths.root, paths.project_root)
    centred = node
    if node is None:
        centre = ref
    else:
        centre = book.of(node)
        if not centre:
            raise RubiError(f"{ref!r} has no day (no date in its frontmatter, no file)")
    since, until = _window(ref, centre, days)
    found: list[tuple[str, str, Any]] = []
    for node, attrs in notes.items():
        if attrs.get("status") in SKIPPED_STATUSES and node != centred:
            continue  # rubi's own help (the vault README), dated by `rubi init`: no event
        when = book.of(node)
        if since <= when <= until:
            found.append((when, node, attrs))
    found.sort(key=lambda f: (f[0], _changed_ns(paths, f[2]), f[1]), reverse=True)
    entries = []
    for when, node, attrs in found[:MAX_ENTRIES]:
        kind = _kind(node, attrs)
        turns = _turns(paths, str(attrs.get("path", node))) if kind == "session" else ()
        entries.append(TimelineEntry(when, kind, node, str(attrs.get("title", node)), turns))
    omitted = max(len(found) - MAX_ENTRIES, 0)
    return Timeline(ref, centre, since, until, entries, omitted, centred or "", others)


def _named(build: Any, ref: str) -> tuple[str, tuple[str, ...]]:
    """The note or code file ``ref`` names and the other notes it names as well, as
    ``rubi read`` looks it up (:func:`rubi.app.reading.resolve_ref_choices`).

    Raises:
        RubiError: it names nothing.
    """
    from rubi.app.codeview import code_node
    from rubi.app.reading import resolve_ref_choices
    from rubi.core.errors import NoteNotFoundError

    node = code_node(build, ref)
    if node is not None:
        return node, ()
    try:
        return resolve_ref_choices(build, ref)
    except NoteNotFoundError:
        raise RubiError(f"{ref!r}: no note or file by that id, title or alias (or a day)") from None


def _window(ref: str, centre: str, days: int) -> tuple[str, str]:
    """The first and last day (``YYYY-MM-DD``) of the ``days`` days on each side of
    ``centre``.

    Raises:
        RubiError: ``centre`` is not a day, or the window leaves the calendar
            (0001-01-01 to 9999-12-31): one line naming the days allowed.
    """
    try:
        day = dt.date.fromisoformat(centre)
    except ValueError as exc:
        raise RubiError(f"{ref!r}: not a day as YYYY-MM-DD") from exc
    step = dt.timedelta(days=days)
    try:
        return (day - step).isoformat(), (day + step).isoformat()
    except OverflowError:
        first = (dt.date.min + step).isoformat()
        last = (dt.date.max - step).isoformat()
        raise RubiError(
            f"{ref!r}: {days} days around {centre} leave the calendar "
            f"({dt.date.min.isoformat()} to {dt.date.max.isoformat()}); with {days} days "
            f"give a day from {first} to {last}, or fewer days"
        ) from None


def render_timeline(t: Timeline) -> str:
    """The timeline as text: a header line, then one line per entry (a session's
    turns indented under it)."""
    day = "" if t.ref.strip() == t.centre else f" ({t.centre})"  # a day is its own day
    lines = [f"{t.since} … {t.until} around {t.ref}{day}, newest first:"]
    if not t.entries:
        lines.append("(nothing dated in these days)")
    for e in t.entries:
        lines.append(f"{e.day}  [{e.kind}] {e.title} — {e.id}")
        lines.extend(f"    {turn}" for turn in e.turns)
    if t.omitted:
        lines.append(f"({t.omitted} older not shown; narrow the days)")
    return "\n".join(lines)


def timeline_json(t: Timeline) -> dict[str, Any]:
    """The ``--json`` shape: ``{"ref", "centre", "since", "until", "entries": [{"day",
    "kind", "id", "title", "turns"}], "omitted", "other_matches"}`` (``other_matches``:
    the other notes a shared title names, :attr:`Timeline.others`)."""
    return {
        "ref": t.ref,
        "centre": t.centre,
        "since": t.since,
        "until": t.until,
        "entries": [
            {"day": e.day, "kind": e.kind, "id": e.id, "title": e.title, "turns": list(e.turns)}
            for e in t.entries
        ],
        "omitted": t.omitted,
        "other_matches": list(t.others),
    }
