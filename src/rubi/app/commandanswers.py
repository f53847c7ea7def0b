"""What ``rubi search`` and ``rubi read`` print, as values: one function per command
computes it, whether the command runs in its own process or the resident engine
answers it (:mod:`rubi.engine.server` runs the same function and sends the value back;
the command prints it either way, ``rubi.cli.searchcmds``).

A call travels as ``{"name": "search"|"read", "args": {...}}`` (:meth:`SearchArgs.wire`,
:meth:`ReadArgs.wire`); :func:`decode_call` checks one as untrusted input. An answer
travels as ``{"json": VALUE}`` or ``{"text": STR}`` (:meth:`Answer.wire`), an error the
command would show as ``{"kind": "error"|"usage", "message": STR}`` (:func:`error_wire`),
which :func:`wire_error` turns back into the exception where the command runs, so that
its error handler prints the same line with the same exit status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rubi.core.errors import RubiError, os_error_line
from rubi.core.paths import VaultPaths
from rubi.core.searchdefaults import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_TOP_K,
    MAX_TOP_K,
    SEARCH_SCOPES,
)

__all__ = [
    "CALL_NAMES",
    "MAX_BUDGET_TOKENS",
    "MIN_BUDGET_TOKENS",
    "Answer",
    "ReadArgs",
    "SearchArgs",
    "answer_call",
    "answer_read",
    "answer_search",
    "decode_answer",
    "decode_call",
    "error_wire",
    "link_json",
    "wire_error",
]

MIN_BUDGET_TOKENS = 50
MAX_BUDGET_TOKENS = 100_000
"""The range of ``rubi search --budget`` (tokens: characters / 4)."""
MAX_STRING = 1 << 20
"""The longest string a call may carry (the search refuses far shorter queries itself)."""
MAX_TERMS = 256


@dataclass(frozen=True, slots=True)
class Answer:
    """What a command prints on stdout: ``data`` as one JSON document when ``is_json``,
    else ``data`` is the text."""

    is_json: bool
    data: Any

    def wire(self) -> dict[str, Any]:
        """``{"json": data}`` or ``{"text": data}``."""
        return {"json": self.data} if self.is_json else {"text": self.data}


def decode_answer(value: object) -> Answer | None:
    """The :class:`Answer` of a wire value (:meth:`Answer.wire`), or None when it is not
    one."""
    if not isinstance(value, dict) or len(value) != 1:
        return None
    if "json" in value:
        return Answer(True, value["json"])
    text = value.get("text")
    return Answer(False, text) if isinstance(text, str) else None


@dataclass(frozen=True, slots=True)
class SearchArgs:
    """``rubi search``'s arguments (its options, as click parsed them)."""

    query: str
    terms: tuple[str, ...] = ()
    top_k: int = DEFAULT_TOP_K
    budget: int = DEFAULT_BUDGET_TOKENS
    scope: str = "all"
    include_superseded: bool = False
    personal: bool | None = None
    since: str | None = None
    until: str | None = None
    as_json: bool = False

    def wire(self) -> dict[str, Any]:
        """The arguments as a call's ``args``."""
        return {
            "query": self.query,
            "terms": list(self.terms),
            "top_k": self.top_k,
            "budget": self.budget,
            "scope": self.scope,
            "include_superseded": self.include_superseded,
            "personal": self.personal,
            "since": self.since,
            "until": self.until,
            "as_json": self.as_json,
        }


@dataclass(frozen=True, slots=True)
class ReadArgs:
    """``rubi read``'s arguments."""

    ref: str
    as_json: bool = False

    def wire(self) -> dict[str, Any]:
        """The arguments as a call's ``args``."""
        return {"ref": self.ref, "as_json": self.as_json}


def answer_search(
    paths: VaultPaths,
    args: SearchArgs,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    on_wait: Callable[[], None] | None = None,
) -> Answer:
    """The hits of ``args`` in ``paths``' vault as ``rubi search`` prints them: the
    ``--json`` shape (:func:`rubi.app.results.search_json`) or the compact ranked text
    (:func:`rubi.app.results.render_search`), within ``args.budget`` tokens.
    ``progress`` and ``on_wait``: as for :func:`rubi.app.searching.search` (a command
    in its own process shows them; the engine passes none).

    Raises:
        RubiError: an empty or too long query, a bad day (:func:`rubi.app.search`).
    """
    from rubi.app.results import render_search, search_json
    from rubi.app.searching import search

    result = search(
        paths,
        args.query,
        terms=args.terms,
        top_k=args.top_k,
        scope=args.scope,
        include_superseded=args.include_superseded,
        progress=progress,
        on_wait=on_wait,
        personal=args.personal,
        since=args.since,
        until=args.until,
    )
    if args.as_json:
        return Answer(True, search_json(result, args.budget))
    return Answer(False, render_search(result, args.budget))


def answer_read(paths: VaultPaths, args: ReadArgs) -> Answer:
    """``args.ref`` as ``rubi read`` prints it: the part a passage id names, a code
    file's outline, or a note in full with its links and flags; with ``as_json``, as
    one object (``{"id", "path", "kind", "text", ...}``).

    Raises:
        NoteNotFoundError: ``ref`` names nothing; NoteParseError: its file is unreadable.
    """
    from rubi import app

    part = app.read_part(paths, args.ref)
    if part is not None:
        return _part_answer(part, args.as_json)
    code = app.read_code(paths, args.ref)
    if code is not None:
        if not args.as_json:
            return Answer(False, code.outline)
        return Answer(
            True,
            {
                "id": code.id,
                "path": code.id,
                "kind": "file",
                "text": code.outline,
                "links": [link_json(lv) for lv in code.links],
                "backlinks": [link_json(lv) for lv in code.backlinks],
            },
        )
    view = app.read_note(paths, args.ref)
    if not args.as_json:
        from rubi.app.reading import render_note_view

        return Answer(False, render_note_view(view))
    note = view.note
    return Answer(
        True,
        {
            "id": view.id or note.id,
            "path": note.path,
            "title": note.title,
            "type": note.type,
            "status": note.status,
            "stale": list(view.stale),
            "superseded_by": view.superseded_by,
            "text": view.text,
            "links": [link_json(lv) for lv in view.links],
            "backlinks": [link_json(lv) for lv in view.backlinks],
        },
    )


def _part_answer(part: Any, as_json: bool) -> Answer:
    if not as_json:
        from rubi.app.passageread import render_part

        return Answer(False, render_part(part))
    return Answer(
        True,
        {
            "id": part.id,
            "parent": part.parent,
            "title": part.title,
            "kind": part.kind,
            "heading": part.heading,
            "lines": [part.start, part.end],
            "text": part.text,
        },
    )


def link_json(lv: Any) -> dict[str, str]:
    """A :class:`rubi.app.reading.LinkView` in ``--json`` output."""
    return {"id": lv.id, "title": lv.title, "kind": lv.kind, "relation": lv.relation}


CALL_NAMES = ("search", "read")
"""The commands the resident engine answers: read-only, the ones an agent calls all the
time."""


def answer_call(paths: VaultPaths, call: SearchArgs | ReadArgs) -> Answer:
    """The answer of a decoded call (:func:`decode_call`), as the command computes it
    (no progress shown)."""
    if isinstance(call, SearchArgs):
        return answer_search(paths, call)
    return answer_read(paths, call)


def decode_call(name: object, args: object) -> SearchArgs | ReadArgs:
    """The call ``name`` with ``args`` (both from a peer), checked.

    Raises:
        ValueError: not a command of :data:`CALL_NAMES`, an argument missing, of the
            wrong type or out of the command's range.
    """
    if not isinstance(args, dict):
        raise ValueError("args is not an object")
    if name == "read":
        _keys(args, ("ref", "as_json"))
        return ReadArgs(_text(args["ref"]), _flag(args["as_json"]))
    if name != "search":
        raise ValueError("not a command the engine answers")
    _keys(args, tuple(SearchArgs("").wire()))
    terms = args["terms"]
    if not isinstance(terms, list) or len(terms) > MAX_TERMS:
        raise ValueError("terms is not a list")
    scope = args["scope"]
    if scope not in SEARCH_SCOPES:
        raise ValueError("no such scope")
    personal = args["personal"]
    return SearchArgs(
        query=_text(args["query"]),
        terms=tuple(_text(t) for t in terms),
        top_k=_number(args["top_k"], 1, MAX_TOP_K),
        budget=_number(args["budget"], MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS),
        scope=scope,
        include_superseded=_flag(args["include_superseded"]),
        personal=None if personal is None else _flag(personal),
        since=None if args["since"] is None else _text(args["since"]),
        until=None if args["until"] is None else _text(args["until"]),
        as_json=_flag(args["as_json"]),
    )


def _keys(args: dict[str, Any], keys: tuple[str, ...]) -> None:
    if set(args) != set(keys):
        raise ValueError(f"args must have exactly {', '.join(keys)}")


def _text(value: object) -> str:
    if not isinstance(value, str) or len(value) > MAX_STRING or "\x00" in value:
        raise ValueError("not a string without NUL")
    return value


def _flag(value: object) -> bool:
    if type(value) is not bool:
        raise ValueError("not true or false")
    return value


def _number(value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"not a whole number from {low} to {high}")
    return value


def error_wire(exc: Exception) -> dict[str, str] | None:
    """An error the command shows as one line (a :class:`RubiError`, an ``OSError``:
    ``kind`` ``error``, exit status 1; a ``ValueError``: ``usage``, status 2), as data;
    None for any other exception (a failure, not an answer)."""
    if isinstance(exc, RubiError):
        return {"kind": "error", "message": str(exc)}
    if isinstance(exc, OSError):
        return {"kind": "error", "message": os_error_line(exc)}
    if isinstance(exc, ValueError):
        return {"kind": "usage", "message": str(exc)}
    return None


def wire_error(value: object) -> Exception | None:
    """The exception :func:`error_wire` described, to raise where the command runs: a
    :class:`RubiError` or a ``ValueError`` with the same message; None when ``value``
    is not of that shape."""
    if not isinstance(value, dict):
        return None
    kind, message = value.get("kind"), value.get("message")
    if not isinstance(message, str):
        return None
    if kind == "error":
        return RubiError(message)
    if kind == "usage":
        return ValueError(message)
    return None
