"""What each MCP tool does, without the MCP SDK: the text the model reads and, for
the tools that return data, the same answer as data (MCP 2025-06-18 structured
output: ``structuredContent`` matching the tool's ``outputSchema``).

The data is the whole answer, not a digest of it: a client may show the model the
structured content instead of the text (Claude Code 2.1 sends the model the JSON of
``structuredContent`` and drops the text blocks), so ``search`` carries its rendered
text too, and ``read`` the full text of each id.

:mod:`rubi.mcp.tools` registers these with the SDK; :mod:`rubi.mcp.early` answers a
call with them before the SDK is loaded. Both turn :class:`ToolFailure` into a tool
error (``isError``) whose text is ``Error executing tool <name>: <message>``.

Only the stdlib and :mod:`rubi.app` are imported here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rubi import app
from rubi.core.errors import RubiError, os_error_line
from rubi.core.paths import VaultPaths
from rubi.core.safetext import replace_surrogates
from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS, MORE_HINT_MCP

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "BODIES",
    "MAX_BUDGET_TOKENS",
    "MAX_REGISTER_NOTES",
    "MIN_BUDGET_TOKENS",
    "OUTPUT_SCHEMAS",
    "SEARCH_TOP_K",
    "Answer",
    "ToolFailure",
]

MAX_BUDGET_TOKENS = 20_000
"""A search result may not exceed this, whatever the caller asks."""
MIN_BUDGET_TOKENS = 100
"""A search result may take at least this, so a tiny budget still shows a hit."""
MAX_REGISTER_NOTES = 200
"""Notes one ``register`` call may hold: each costs a look at every note of the vault
(20,000 in one call kept the server busy for minutes); ``rubi note add --from-json``
has no such limit."""
SEARCH_TOP_K = 20
"""Hits the ``search`` tool asks for: the token budget, not a count, decides how many
an agent sees (the tool has no ``top_k`` to spend schema tokens on)."""
MAX_READ_IDS = 20
"""Ids one ``read`` call reads; the rest are ignored."""


class ToolFailure(Exception):
    """A tool could not do what was asked; the message is one line for the model."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A tool's answer.

    Attributes:
        text: what the model reads (always encodable: lone surrogates replaced).
        data: the same as data, for ``structuredContent`` (None for a text-only tool).
    """

    text: str
    data: dict[str, Any] | None = None


def _out(text: str) -> str:
    """Text that always encodes: a file name that was not UTF-8 shows U+FFFD instead of
    failing the reply (on every transport; see :mod:`rubi.mcp.stdio`)."""
    return replace_surrogates(text)


def _clean(value: Any) -> Any:
    """``value`` with every string made encodable (:func:`_out`)."""
    if isinstance(value, str):
        return replace_surrogates(value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _fail(exc: Exception) -> ToolFailure:
    return ToolFailure(_out(str(exc)))


def search(
    paths: VaultPaths,
    query: str,
    terms: Sequence[str] | None = None,
    scope: str = "all",
    budget_tokens: int = DEFAULT_BUDGET_TOKENS,
    include_superseded: bool = False,
    since: str | None = None,
    until: str | None = None,
) -> Answer:
    """The ranked hits within ``budget_tokens`` (clamped to
    [:data:`MIN_BUDGET_TOKENS`, :data:`MAX_BUDGET_TOKENS`]), as text and data
    (:func:`rubi.app.search_answer`)."""
    try:
        result = app.search(
            paths,
            query,
            terms=terms or (),
            top_k=SEARCH_TOP_K,
            scope=scope,
            include_superseded=include_superseded,
            since=since,
            until=until,
        )
    except (RubiError, ValueError) as exc:
        raise _fail(exc) from exc
    budget = max(MIN_BUDGET_TOKENS, min(budget_tokens, MAX_BUDGET_TOKENS))
    text, data = app.search_answer(result, budget, open_hint="read(ids)", more_hint=MORE_HINT_MCP)
    return Answer(_out(text), _clean(data))


def read(paths: VaultPaths, ids: Sequence[str]) -> Answer:
    """The first :data:`MAX_READ_IDS` ids read: ``{"items": [{"id", "text"} or
    {"id", "error"}]}``; a failure when none was found."""
    if not ids:
        raise ToolFailure("ids: give at least one id from search")
    wanted = list(ids[:MAX_READ_IDS])
    found = app.read_many(paths, wanted)
    if all(err for _, err in found):
        raise ToolFailure(_out("; ".join(err or "" for _, err in found)))
    text = "\n\n".join(text if not err else f"({err})" for text, err in found)
    items = [
        {"id": ref, "error": err} if err else {"id": ref, "text": body}
        for ref, (body, err) in zip(wanted, found, strict=True)
    ]
    return Answer(_out(text), _clean({"items": items}))


def map_(paths: VaultPaths, module: str | None = None) -> Answer:
    """The code map, or one module's page (text only), without the lines for whoever
    edits the file, as SessionStart gives the map."""
    from rubi.app.pagetext import without_page_markers

    try:
        return Answer(_out(without_page_markers(app.map_text(paths, module))))
    except RubiError as exc:
        raise _fail(exc) from exc


def timeline(paths: VaultPaths, ref: str, days: int = 3) -> Answer:
    """The days around ``ref``, as text and as :func:`rubi.app.timeline.timeline_json`;
    a title several notes share says which it centred on above the text, as ``read``
    says it (:func:`rubi.app.reading.choice_line`)."""
    from rubi.app.reading import choice_line
    from rubi.app.timeline import render_timeline, timeline_json
    from rubi.app.timeline import timeline as use_case

    try:
        found = use_case(paths, ref, days)
    except RubiError as exc:
        raise _fail(exc) from exc
    text = render_timeline(found)
    line = choice_line(ref, found.id, found.others)
    return Answer(_out(f"({line})\n{text}" if line else text), _clean(timeline_json(found)))


def _registered_line(r: Any) -> str:
    extra = f"; supersedes {', '.join(r.superseded)}" if r.superseded else ""
    if r.dangling:
        extra += f"; unresolved links: {', '.join(r.dangling)}"
    if r.redacted:
        extra += f"; {app.describe_redacted(r.redacted)}"
    return f"{r.action} {r.id}{extra}"


def register(paths: VaultPaths, notes: Sequence[dict[str, Any]]) -> Answer:
    """Save notes (already validated dicts, None fields left out): one line per note,
    and ``{"notes": [{"action", "id", "path", "title", "superseded", "dangling",
    "redacted"}]}``."""
    if len(notes) > MAX_REGISTER_NOTES:
        raise ToolFailure(
            f"notes: {len(notes):,} notes; at most {MAX_REGISTER_NOTES} per call: "
            "register them in several calls"
        )
    try:
        done = app.register(paths, list(notes))
    except (RubiError, OSError) as exc:
        raise _fail(exc) from exc
    data = {
        "notes": [
            {
                "action": r.action,
                "id": r.id,
                "path": r.path,
                "title": r.title,
                "superseded": list(r.superseded),
                "dangling": list(r.dangling),
                "redacted": list(r.redacted),
            }
            for r in done
        ]
    }
    return Answer(_out("\n".join(_registered_line(r) for r in done)), _clean(data))


def handoff(
    paths: VaultPaths,
    action: str,
    goal: str = "",
    state: str = "",
    next_steps: Sequence[str] | None = None,
    files: Sequence[str] | None = None,
    notes: Sequence[str] | None = None,
) -> Answer:
    """Save a handoff, or the last one's text (text only)."""
    try:
        if action == "last":
            last = app.last_handoff(paths)
            if last is not None:
                return Answer(_out(last.text))
            other = app.teammate_handoff(paths)
            if other is not None:  # a teammate's, pulled: named, never resumed as this user's
                name, author = other
                return Answer(f"No handoff of yours yet; {name} is {author}'s (read opens it).")
            return Answer("No handoff yet.")
        written = app.save_handoff(paths, goal, state, next_steps or (), files or (), notes or ())
    except (RubiError, OSError) as exc:
        raise _fail(exc) from exc
    told = f" {app.describe_redacted(written.redacted, sentence=True)}" if written.redacted else ""
    return Answer(_out(f"Saved {written.path}.{told}"))


def write_summary(paths: VaultPaths, target: str, text: str) -> Answer:
    """Store a curated summary (text only)."""
    try:
        page = app.write_summary(paths, target, text)
    except (RubiError, OSError) as exc:
        raise _fail(exc) from exc
    told = f" {app.describe_redacted(page.redacted, sentence=True)}" if page.redacted else ""
    return Answer(_out(f"Stored in {page.path.name}.{told}"))


def xray(paths: VaultPaths, days: int = 30) -> Answer:
    """The token X-ray of this project's sessions (text only)."""
    from rubi.app import xray as use_case

    try:
        return Answer(_out(use_case.summary(days=days, project=paths.project_root)))
    except (RubiError, OSError) as exc:
        raise _fail(exc) from exc


def _telling_os_errors(body: Callable[..., Answer]) -> Callable[..., Answer]:
    """``body`` with an ``OSError`` made a :class:`ToolFailure` of one line,
    ``<file>: <reason>`` as a command says it (a read-only cache folder, a full disk, a
    note folder the user may not write): the client learns why, instead of a bare
    "Error executing tool" and a traceback in the server's log."""

    @functools.wraps(body)
    def told(paths: VaultPaths, **arguments: Any) -> Answer:
        try:
            return body(paths, **arguments)
        except OSError as exc:
            raise ToolFailure(_out(os_error_line(exc))) from exc

    return told


BODIES: dict[str, Callable[..., Answer]] = {
    name: _telling_os_errors(body)
    for name, body in (
        ("search", search),
        ("read", read),
        ("map", map_),
        ("timeline", timeline),
        ("register", register),
        ("handoff", handoff),
        ("write_summary", write_summary),
        ("xray", xray),
    )
}
"""Each tool's body by tool name: ``body(paths, **arguments)``; an ``OSError`` is a
:class:`ToolFailure` naming its file and reason."""

_STR: dict[str, Any] = {"type": "string"}
_STRS: dict[str, Any] = {"type": "array", "items": _STR}
_INT: dict[str, Any] = {"type": "integer"}


def _object(required: Sequence[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required)}


OUTPUT_SCHEMAS: dict[str, dict[str, Any]] = {
    "search": _object(
        ("query", "relevant", "ids", "omitted", "text"),
        query=_STR,
        relevant={"type": "boolean"},
        ids=_STRS,
        omitted=_INT,
        text=_STR,
    ),
    "read": _object(
        ("items",),
        items={"type": "array", "items": _object(("id",), id=_STR, text=_STR, error=_STR)},
    ),
    "timeline": _object(
        ("ref", "centre", "since", "until", "entries", "omitted"),
        ref=_STR,
        centre=_STR,
        since=_STR,
        until=_STR,
        entries={
            "type": "array",
            "items": _object(
                ("day", "kind", "id", "title", "turns"),
                day=_STR,
                kind=_STR,
                id=_STR,
                title=_STR,
                turns=_STRS,
            ),
        },
        omitted=_INT,
        other_matches=_STRS,
    ),
    "register": _object(
        ("notes",),
        notes={
            "type": "array",
            "items": _object(
                ("action", "id", "path", "title", "superseded", "dangling", "redacted"),
                action=_STR,
                id=_STR,
                path=_STR,
                title=_STR,
                superseded=_STRS,
                dangling=_STRS,
                redacted=_STRS,
            ),
        },
    ),
}
"""The ``outputSchema`` of each tool that returns data (its :attr:`Answer.data`)."""
