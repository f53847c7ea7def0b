"""The first answers of the stdio server, given before the MCP SDK is imported.

Importing the SDK takes about 0.6 s of CPU (its protocol models for every revision),
and Claude Code sends its first request to the model as soon as its MCP servers have
answered ``initialize`` and ``tools/list``, or when they have not answered yet (so the
tools are missing from that request). :func:`greet` answers those from
``handshake.json``, a snapshot of what the SDK answers for these tools (written by
``python -m rubi.mcp.handshake``; a test fails when it no longer matches), while the
SDK is imported in another thread. Both protocol eras are answered: the ``initialize``
handshake (up to 2025-11-25) and the stateless requests of 2026-07-28, which carry
the protocol version, client info and capabilities in each request's ``_meta``
(``server/discover`` instead of a handshake). A tool call with plain arguments is
answered too when an answerer is given (:mod:`rubi.mcp.early`: the tool's own body,
without the SDK), for the whole session. The first message it cannot answer itself
(anything unusual) ends the greeting: the SDK then serves the rest of the connection,
after being shown the first exchange so its state (its era) matches (:class:`Handover`),
except the tool calls the answerer still answers (:class:`FastCalls`): a call costs
the tool's own work, not the SDK's models, validation and task switches.

Only the stdlib is imported here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rubi.core.encodable import first_unencodable
from rubi.mcp.shapes import handshake_meta, plain_capabilities, plain_client_info
from rubi.mcp.wire import LineReader, LineWriter

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "VERSION_KEY",
    "Answerer",
    "Era",
    "FastCalls",
    "Handover",
    "Handshake",
    "greet",
    "initialize_version",
    "load_handshake",
    "plain_request",
    "reply_line",
    "stateless_reply",
]

LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
"""The list requests answered from the snapshot (a client asks them all right after the
handshake, and may wait for every answer before it sends its first request)."""

VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
"""The keys of a 2026-07-28 request's ``_meta`` envelope (the version key marks the
era: no handshake-era request carries it)."""

Answerer = Callable[[str, "dict[str, Any]", bool], "dict[str, Any] | None"]
"""Answers a tool call before the SDK is there: ``(tool name, arguments, modern era)``
→ the JSON-RPC ``{"result": ...}``, or None to leave the call to the SDK."""


@dataclass(frozen=True, slots=True)
class Handshake:
    """What the SDK answers, by protocol revision (``handshake.json``).

    Attributes:
        mcp: the SDK version the snapshot was taken with.
        latest: the revision chosen when the client asks for one not listed.
        results: per method (``initialize``, ``server/discover``, :data:`LISTS`,
            ``ping``), the result for each revision.
        errors: per method, the error for each revision where the SDK answers one
            (a list of what the server does not serve).
        modern: the revisions of the per-request envelope (2026-07-28 on).
    """

    mcp: str
    latest: str
    results: dict[str, dict[str, Any]]
    errors: dict[str, dict[str, Any]] = field(default_factory=dict)
    modern: tuple[str, ...] = ()

    def answer(self, method: str, version: str) -> Any:
        """The result of ``method`` at ``version`` (None when not in the snapshot)."""
        return self.results.get(method, {}).get(version)

    def reply(self, method: str, version: str) -> dict[str, Any] | None:
        """``{"result": ...}`` or ``{"error": ...}`` for ``method`` at ``version``, as
        the SDK answers it; None when the snapshot does not say."""
        result = self.answer(method, version)
        if result is not None:
            return {"result": result}
        error = self.errors.get(method, {}).get(version)
        return {"error": error} if error is not None else None

    def with_instructions(self, instructions: str) -> Handshake:
        """This snapshot with ``instructions`` in every ``initialize`` and
        ``server/discover`` result."""
        results = dict(self.results)
        for method in ("initialize", "server/discover"):
            results[method] = {
                version: {**result, "instructions": instructions}
                for version, result in self.results.get(method, {}).items()
            }
        return Handshake(self.mcp, self.latest, results, self.errors, self.modern)


def _snapshot_bytes() -> bytes:
    """``handshake.json`` beside this module: read as a plain file (the usual install),
    else through :mod:`importlib.resources` (an install in a zip), whose import (with
    ``zipfile``, ``shutil``, ``bz2``, ``lzma``) a starting server otherwise pays.

    Raises:
        OSError: the file cannot be read either way.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, "handshake.json"), "rb") as fh:
            return fh.read()
    except OSError:
        from importlib import resources

        return resources.files(__package__ or "rubi.mcp").joinpath("handshake.json").read_bytes()


def load_handshake() -> Handshake | None:
    """The snapshot next to this module; None when it is missing or unreadable (the SDK
    then answers everything)."""
    try:
        data = json.loads(_snapshot_bytes())
        return Handshake(
            str(data["mcp"]),
            str(data["latest"]),
            dict(data["results"]),
            dict(data.get("errors", {})),
            tuple(str(v) for v in data.get("modern", ())),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass
class FastCalls:
    """Answers the tool calls of a connection the SDK serves, as the greeting did: a
    ``tools/call`` of the plain shape in the era the greeting opened (the same checks
    as in :func:`greet`) goes to the answerer; anything else, and a call the answerer
    leaves, to the SDK.

    Attributes:
        era: the connection's era, as the greeting opened it.
        handshake: the snapshot (the revisions a 2026-07-28 envelope may name).
        answerer: answers a tool call (:data:`Answerer`).
    """

    era: Era
    handshake: Handshake
    answerer: Answerer

    def claim(self, line: bytes) -> dict[str, Any] | None:
        """The request on ``line`` when it is a tool call this may answer (cheap: one
        JSON parse); None for every other line (the SDK's)."""
        if self.era.version is None:
            return None  # the SDK opened the era: it answers everything
        msg = plain_request(line)
        if msg is None or msg["method"] != "tools/call" or "id" not in msg:
            return None
        return msg

    def answer(self, msg: dict[str, Any]) -> str | None:
        """The reply line (no newline) to a request :meth:`claim` returned, or None to
        leave it to the SDK. Runs the tool: call it off the event loop."""
        reply, _ = self.era.reply(msg, self.handshake, self.answerer)
        return None if reply is None else reply_line(msg["id"], reply)


def reply_line(rid: int | str, reply: dict[str, Any]) -> str:
    """The JSON-RPC message of ``reply`` to request ``rid``, as the SDK writes it."""
    message = {"jsonrpc": "2.0", "id": rid, **reply}
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Handover:
    """What the SDK needs to serve the rest of a connection :func:`greet` began.

    Attributes:
        replay: raw lines to feed the SDK first, in order: the request that opened the
            connection's era, already answered (``initialize``, or a 2026-07-28
            ``server/discover`` or list request; the SDK's answer to it must be
            dropped: see ``answered_id``), the ``notifications/initialized`` that
            followed a handshake, then the line the greeting could not answer.
        answered_id: the id of that opening request, or None when there is none (the
            SDK answers the first request itself, or the first was a tool call, which
            is never run twice).
        answered: the reply given to it, ``{"result": ...}`` or ``{"error": ...}``
            (to compare with the SDK's).
        fast: answers the connection's later tool calls before the SDK sees them
            (None: no answerer was given; the SDK answers them).
    """

    replay: list[bytes] = field(default_factory=list)
    answered_id: int | str | None = None
    answered: Any = None
    fast: FastCalls | None = None


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A ``\\ud800``-``\\udfff`` escape on a raw line: the only way a message parsed from
strict UTF-8 can hold a lone surrogate (such bytes themselves are not UTF-8)."""


def plain_request(line: bytes) -> dict[str, Any] | None:
    """A JSON-RPC 2.0 message of the plain shape the greeting handles, else None.

    A message holding a lone surrogate anywhere (its id, a client's name, an argument)
    is not: the SDK's parser refuses the line, and the SDK answers it with an error
    (:func:`rubi.mcp.stdio.unreadable_reply`); a reply that echoed such an id could
    not even be written. The bytes are read as strict UTF-8, as the SDK's parser reads
    them (``json.loads`` of bytes would take UTF-16, UTF-32, a byte order mark and an
    encoded surrogate, all the SDK's parse errors)."""
    try:
        msg = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's limit
        return None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        return None
    if _SURROGATE_ESCAPE.search(line) is not None and first_unencodable(msg) is not None:
        return None
    if not isinstance(msg.get("method"), str):
        return None
    if "id" in msg and (isinstance(msg["id"], bool) or not isinstance(msg["id"], (int, str))):
        return None
    return msg


def _plain_params(msg: dict[str, Any]) -> bool:
    """No parameters (``_meta``, a cursor and the like are the SDK's to read)."""
    return msg.get("params") in (None, {})


def initialize_version(msg: dict[str, Any], handshake: Handshake) -> str | None:
    """The revision to answer an ``initialize`` with, or None when its parameters are
    not the plain shape, capabilities and client info as the 2026-07-28 envelope's
    (:func:`plain_capabilities`, :func:`plain_client_info`): a ``{"roots": "x"}`` or a
    ``title`` of 5 is the SDK's to refuse (then it answers, errors included)."""
    params = msg.get("params")
    if not isinstance(params, dict) or "id" not in msg:
        return None
    if not (
        isinstance(params.get("protocolVersion"), str)
        and plain_capabilities(params.get("capabilities"))
        and plain_client_info(params.get("clientInfo"))
    ):
        return None
    asked = params["protocolVersion"]
    return asked if handshake.answer("initialize", asked) is not None else handshake.latest


def _envelope_version(msg: dict[str, Any], handshake: Handshake) -> str | None:
    """The revision of a 2026-07-28 request whose ``_meta`` is the plain envelope
    (a revision of the snapshot, client capabilities, client info with a name and a
    version when given, nothing else), else None (the SDK then answers, errors
    included)."""
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or "id" not in msg:
        return None
    if not set(meta) <= {VERSION_KEY, CLIENT_INFO_KEY, CLIENT_CAPABILITIES_KEY}:
        return None
    version, info = meta.get(VERSION_KEY), meta.get(CLIENT_INFO_KEY, {"name": "", "version": ""})
    if not (
        isinstance(version, str)
        and version in handshake.modern
        and plain_capabilities(meta.get(CLIENT_CAPABILITIES_KEY))
        and plain_client_info(info)
    ):
        return None
    return version


def _tool_call(msg: dict[str, Any], allowed: set[str]) -> tuple[str, dict[str, Any]] | None:
    """The tool name and arguments of a ``tools/call`` whose parameters hold only
    ``allowed`` keys, ``name`` a string and ``arguments`` an object when given."""
    params = msg.get("params")
    if not isinstance(params, dict) or not set(params) <= allowed:
        return None
    name, arguments = params.get("name"), params.get("arguments", {})
    if not isinstance(name, str) or not isinstance(arguments, dict):
        return None
    return name, arguments


def greet(
    reader: LineReader,
    writer: LineWriter,
    handshake: Handshake | None,
    answerer: Answerer | None = None,
) -> Handover | None:
    """Answer the handshake (either era), the list requests, pings and, with an
    ``answerer``, tool calls, until a message needs the SDK (the SDK's readiness does
    not matter: what is answered here is answered as the SDK would).

    Args:
        reader: the wire's input.
        writer: the wire's output.
        handshake: the snapshot to answer from (None: answer nothing, hand over at once).
        answerer: answers a tool call (None: tool calls go to the SDK).

    Returns:
        The :class:`Handover` for the SDK (with the :class:`FastCalls` that keep
        answering tool calls when there is an ``answerer``), or None when the input
        ended first.
    """
    handover = Handover()
    era = Era()
    if handshake is not None and answerer is not None:
        handover.fast = FastCalls(era, handshake, answerer)
    while True:
        line = reader.readline()
        if not line:
            return None
        if not line.strip():
            continue
        msg = plain_request(line) if handshake is not None else None
        if msg is None or handshake is None:
            handover.replay.append(line)
            return handover
        if era.initialized(msg):
            handover.replay.append(line)
            continue
        unopened = era.version is None
        reply, opening = era.reply(msg, handshake, answerer)
        if reply is None:
            handover.replay.append(line)
            return handover
        if opening:
            handover.replay.append(line)
            handover.answered_id = msg["id"]
            handover.answered = reply
        elif unopened and era.version is not None:
            _show_era(handover, msg, era.version, handshake)
        writer.write(reply_line(msg["id"], reply))


def stateless_reply(
    body: bytes,
    handshake: Handshake,
    answerer: Answerer | None,
    agrees: Callable[[dict[str, Any]], bool],
) -> tuple[int | str, dict[str, Any]] | None:
    """The reply to one 2026-07-28 request that came alone (an HTTP POST: no session,
    no handshake), answered as :func:`greet` answers the first request of a
    connection of that era: ``(its id, {"result": ...})``, or None when it is not of
    the plain shape, ``agrees`` (the transport's own checks of the message, its
    headers against its body) says no, or the answer would be an error (whose form
    the transport decides): the SDK's then. Runs the tool of a call: call it off the
    event loop."""
    msg = plain_request(body)
    if msg is None or "id" not in msg or not set(msg) <= {"jsonrpc", "id", "method", "params"}:
        return None
    if msg["method"] == "initialize" or _envelope_version(msg, handshake) is None:
        return None
    if not agrees(msg):
        return None
    reply, _ = Era()._modern(msg, handshake, answerer)
    if reply is None or "result" not in reply:
        return None
    return msg["id"], reply


def _show_era(handover: Handover, call: dict[str, Any], version: str, handshake: Handshake) -> None:
    """Have the SDK learn the era a 2026-07-28 tool call opened: the call itself is
    never replayed (it would run twice), so a ``server/discover`` with the call's own
    envelope is, under an id no client uses, its answer dropped. Without it the SDK
    would take the connection for unopened and answer a later ``initialize`` with a
    handshake the SDK alone refuses on a 2026-07-28 connection."""
    rid = f"rubi-era-{os.urandom(8).hex()}"
    params = {"_meta": call["params"]["_meta"]}
    discover = {"jsonrpc": "2.0", "id": rid, "method": "server/discover", "params": params}
    handover.replay.append(json.dumps(discover, ensure_ascii=False).encode("utf-8") + b"\n")
    handover.answered_id = rid
    handover.answered = handshake.reply("server/discover", version)


@dataclass
class Era:
    """The connection's protocol revision once its first request opened it, and
    whether it is of the per-request envelope (2026-07-28 on)."""

    version: str | None = None
    modern: bool = False

    def initialized(self, msg: dict[str, Any]) -> bool:
        """``msg`` is the ``notifications/initialized`` that follows a handshake."""
        handshaken = self.version is not None and not self.modern
        return handshaken and msg["method"] == "notifications/initialized" and "id" not in msg

    def reply(
        self, msg: dict[str, Any], handshake: Handshake, answerer: Answerer | None
    ) -> tuple[dict[str, Any] | None, bool]:
        """The reply to request ``msg`` (None: the SDK's to answer), and whether it
        opened the era."""
        method = msg["method"]
        if self.version is None and method == "initialize":
            self.version = initialize_version(msg, handshake)
            return (handshake.reply(method, self.version) if self.version else None), True
        if self.version is None or self.modern:
            return self._modern(msg, handshake, answerer)
        if "id" in msg and method == "tools/call":
            call = _tool_call(msg, {"name", "arguments", "_meta"})
            if call is None or not handshake_meta(msg["params"].get("_meta", {})):
                return None, False
            return (answerer(*call, False) if answerer else None), False
        if "id" in msg and _plain_params(msg) and method != "initialize":
            return handshake.reply(method, self.version), False
        return None, False

    def _modern(
        self, msg: dict[str, Any], handshake: Handshake, answerer: Answerer | None
    ) -> tuple[dict[str, Any] | None, bool]:
        asked = _envelope_version(msg, handshake)
        if asked is None or asked != (self.version or asked):
            return None, False
        reply, opening = None, False
        if msg["method"] == "tools/call":
            call = _tool_call(msg, {"name", "arguments", "_meta"})
            reply = answerer(*call, True) if answerer and call else None
        elif set(msg["params"]) == {"_meta"}:
            reply, opening = handshake.reply(msg["method"], asked), self.version is None
        if reply is not None:
            self.version, self.modern = asked, True
        return reply, opening
