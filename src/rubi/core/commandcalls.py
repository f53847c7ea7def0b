"""The calls of ``rubi search`` and ``rubi read`` and their answers, as data: what a
command sends the resident engine and what comes back (stdlib and ``rubi.core`` only:
a command pays these imports before it knows whether an engine answers).

A call travels as ``{"name": "search"|"read", "args": {...}}`` (:meth:`SearchArgs.wire`,
:meth:`ReadArgs.wire`); :func:`decode_call` checks one as untrusted input. An answer
travels as ``{"json": VALUE}`` or ``{"text": STR}``, with ``"notice": STR`` beside it
when it has one (:meth:`Answer.wire`), an error the
command would show as ``{"kind": "error"|"usage", "message": STR}`` (:func:`error_wire`),
which :func:`wire_error` turns back into the exception where the command runs, so that
its error handler prints the same line with the same exit status. The answers
themselves are computed by :mod:`rubi.app.commandanswers`.
"""

from __future__ import annotations

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
    "decode_answer",
    "decode_call",
    "error_wire",
    "vault_fields",
    "wire_error",
]

MIN_BUDGET_TOKENS = 50
MAX_BUDGET_TOKENS = 100_000
"""The range of ``rubi search --budget`` (tokens: characters / 4)."""
MAX_STRING = 1 << 20
"""The longest string a call may carry (the search refuses far shorter queries itself)."""
MAX_TERMS = 256

CALL_NAMES = ("search", "read")
"""The commands the resident engine answers: read-only, the ones an agent calls all the
time."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a command prints: ``data`` on stdout, as one JSON document when
    ``is_json``, else ``data`` is the text; ``notice``, when not empty, one line on
    stderr before it (which of several notes a read showed)."""

    is_json: bool
    data: Any
    notice: str = ""

    def wire(self) -> dict[str, Any]:
        """``{"json": data}`` or ``{"text": data}``, with ``"notice"`` when there is one."""
        value = {"json": self.data} if self.is_json else {"text": self.data}
        if self.notice:
            value["notice"] = self.notice
        return value


def decode_answer(value: object) -> Answer | None:
    """The :class:`Answer` of a wire value (:meth:`Answer.wire`), or None when it is not
    one."""
    if not isinstance(value, dict) or not 1 <= len(value) <= 2:
        return None
    notice = value.get("notice", "")
    if not isinstance(notice, str) or len(value) != 1 + ("notice" in value):
        return None
    if "json" in value:
        return Answer(True, value["json"], notice)
    text = value.get("text")
    return Answer(False, text, notice) if isinstance(text, str) else None


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


def vault_fields(paths: VaultPaths) -> list[str | None]:
    """The vault a call is for, as the call names it: ``[vault folder, project folder
    or None]`` as the command found them (an engine answers only for its own)."""
    return [str(paths.root), str(paths.project_root) if paths.project_root else None]
