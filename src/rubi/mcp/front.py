"""The first answers of the stdio server, given before the MCP SDK is imported.

Importing the SDK takes about 0.6 s of CPU (its protocol models for every revision),
and Claude Code sends its first request to the model as soon as its MCP servers have
answered ``initialize`` and ``tools/list``, or when they have not answered yet (so the
tools are missing from that request). :func:`greet` answers those from
``handshake.json``, a snapshot of what the SDK answers for these tools (written by
``python -m rubi.mcp.handshake``; a test fails when it no longer matches), while the
SDK is imported in another thread. The first message it cannot answer itself (a tool
call, anything unusual) ends the greeting: the SDK then serves the rest of the
connection, after being shown the ``initialize`` exchange so its state matches
(:class:`Handover`).

Only the stdlib is imported here.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

__all__ = [
    "Handover",
    "Handshake",
    "LineReader",
    "LineWriter",
    "claim_wire",
    "greet",
    "load_handshake",
]

READ_CHUNK = 1 << 16
"""Bytes per ``os.read``."""

LISTS = ("tools/list", "prompts/list", "resources/list", "resources/templates/list")
"""The list requests answered from the snapshot (a client asks them all right after the
handshake, and may wait for every answer before it sends its first request)."""


def claim_wire() -> tuple[int, int]:
    """Private descriptors for the protocol's stdin and stdout; descriptors 0 and 1 then
    point to the null device and to stderr, so a stray ``print`` or a child process's
    output never reaches the wire (as the SDK's ``stdio_server`` does).

    Returns:
        The wire's input and output descriptors (0 and 1 themselves when they cannot
        be duplicated).
    """
    try:
        wire_in, wire_out = os.dup(0), os.dup(1)
    except OSError:
        return 0, 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(2, 1)
    except OSError:
        pass  # the wire still works through the duplicates
    return wire_in, wire_out


class LineReader:
    """The lines of a file descriptor, read with ``os.read``: nothing is buffered
    anywhere but here, so whoever reads on gets every byte not yet returned.

    Args:
        fd: the descriptor (the wire's stdin).
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()
        self._scanned = 0  # bytes of _buf known to hold no newline
        self._eof = False

    def readline(self) -> bytes:
        """The next line with its ``\\n``; the rest without one at end of input;
        ``b""`` once everything was read. Blocks until a line is there."""
        while True:
            at = self._buf.find(b"\n", self._scanned)
            if at >= 0:
                line = bytes(self._buf[: at + 1])
                del self._buf[: at + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buf)
            if self._eof:
                line = bytes(self._buf)
                self._buf.clear()
                self._scanned = 0
                return line
            chunk = os.read(self._fd, READ_CHUNK)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


class LineWriter:
    """Whole lines to a file descriptor, one writer at a time.

    Args:
        fd: the descriptor (the wire's stdout).
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        """Write ``text`` and a newline, in full.

        Raises:
            OSError: the reader went away (``BrokenPipeError``) or another failure.
        """
        data = memoryview((text + "\n").encode("utf-8"))
        with self._lock:
            while data:
                data = data[os.write(self._fd, data) :]


@dataclass(frozen=True, slots=True)
class Handshake:
    """What the SDK answers, by protocol revision (``handshake.json``).

    Attributes:
        mcp: the SDK version the snapshot was taken with.
        latest: the revision chosen when the client asks for one not listed.
        results: per method (``initialize`` and :data:`LISTS`), the result for each
            revision.
    """

    mcp: str
    latest: str
    results: dict[str, dict[str, Any]]

    def answer(self, method: str, version: str) -> Any:
        """The result of ``method`` at ``version`` (None when not in the snapshot)."""
        return self.results.get(method, {}).get(version)

    def with_instructions(self, instructions: str) -> Handshake:
        """This snapshot with ``instructions`` in every ``initialize`` result."""
        results = dict(self.results)
        results["initialize"] = {
            version: {**result, "instructions": instructions}
            for version, result in self.results.get("initialize", {}).items()
        }
        return Handshake(self.mcp, self.latest, results)


def load_handshake() -> Handshake | None:
    """The snapshot next to this module; None when it is missing or unreadable (the SDK
    then answers everything)."""
    try:
        raw = resources.files(__package__ or "rubi.mcp").joinpath("handshake.json").read_bytes()
        data = json.loads(raw)
        return Handshake(str(data["mcp"]), str(data["latest"]), dict(data["results"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass
class Handover:
    """What the SDK needs to serve the rest of a connection :func:`greet` began.

    Attributes:
        replay: raw lines to feed the SDK first, in order: the ``initialize`` request
            already answered (its answer from the SDK must be dropped: see
            ``answered_id``), the ``notifications/initialized`` that followed, then the
            line the greeting could not answer.
        answered_id: the id of the ``initialize`` request answered here, or None when
            the SDK answers it itself.
        answered: the result given to that request (to compare with the SDK's).
    """

    replay: list[bytes] = field(default_factory=list)
    answered_id: int | str | None = None
    answered: Any = None


def _request(line: bytes) -> dict[str, Any] | None:
    """A JSON-RPC 2.0 message of the plain shape the greeting handles, else None."""
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        return None
    if not isinstance(msg.get("method"), str):
        return None
    if "id" in msg and (isinstance(msg["id"], bool) or not isinstance(msg["id"], (int, str))):
        return None
    return msg


def _plain_params(msg: dict[str, Any]) -> bool:
    """No parameters (``_meta``, a cursor and the like are the SDK's to read)."""
    return msg.get("params") in (None, {})


def _initialize_version(msg: dict[str, Any], handshake: Handshake) -> str | None:
    """The revision to answer an ``initialize`` with, or None when its parameters are
    not the plain shape (the SDK then answers, errors included)."""
    params = msg.get("params")
    if not isinstance(params, dict) or "id" not in msg:
        return None
    info = params.get("clientInfo")
    if not (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    ):
        return None
    asked = params["protocolVersion"]
    return asked if handshake.answer("initialize", asked) is not None else handshake.latest


def _not_found(writer: LineWriter, request_id: Any, method: str) -> None:
    """Answer a list request the server has no handler for, as the SDK would."""
    error = {"code": -32601, "message": "Method not found", "data": method}
    writer.write(json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}))


def greet(
    reader: LineReader,
    writer: LineWriter,
    handshake: Handshake | None,
    done: threading.Event | None = None,
) -> Handover | None:
    """Answer the handshake, the list requests and pings until a message needs the SDK.

    Args:
        reader: the wire's input.
        writer: the wire's output.
        handshake: the snapshot to answer from (None: answer nothing, hand over at once).
        done: once set (the SDK is ready), the next message is handed over instead of
            answered here.

    Returns:
        The :class:`Handover` for the SDK, or None when the input ended first.
    """
    handover = Handover()
    version: str | None = None
    while True:
        line = reader.readline()
        if not line:
            return None
        if not line.strip():
            continue
        msg = _request(line) if handshake is not None else None
        if msg is None or handshake is None or (done is not None and done.is_set()):
            handover.replay.append(line)
            return handover
        method = msg["method"]
        result: Any = None
        if version is None:
            if method == "initialize":
                version = _initialize_version(msg, handshake)
                result = handshake.answer("initialize", version) if version else None
        elif method == "notifications/initialized" and "id" not in msg:
            handover.replay.append(line)
            continue
        elif "id" in msg and _plain_params(msg):
            if method == "ping":
                result = {}
            elif method in LISTS:
                result = handshake.answer(method, version)
                if result is None and method not in handshake.results:
                    _not_found(writer, msg["id"], method)  # a capability not advertised
                    continue
        if result is None:
            handover.replay.append(line)
            return handover
        if method == "initialize":
            handover.replay.append(line)
            handover.answered_id = msg["id"]
            handover.answered = result
        reply = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
        writer.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))
