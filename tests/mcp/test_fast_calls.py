"""rubi's own tool calls are answered by the tool's body for the whole connection,
also after a message handed the connection to the MCP SDK (rubi.mcp.front.FastCalls),
with the bytes the SDK writes for the same call, in both protocol eras."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcp_project import small_project
from mcp_stdio import HANDSHAKE_ERA, MODERN_ERA, envelope
from mcp_wire import INIT, Lines, Wire, request
from rubi import app
from rubi.mcp.early import EarlyCalls
from rubi.mcp.front import Handshake, greet, load_handshake
from rubi.mcp.server import build_server
from rubi.mcp.stdio import serve_wire

CALLS = [
    ("search", {"query": "trie"}),
    ("search", {"query": 'trie \u2028 «é» </b> \\ "q"', "terms": ["router"]}),  # escapes
    ("search", {"query": "trie \x1f\x7f"}),  # control characters: refused
    ("search", {"query": "zzqqxx nothing like it"}),
    ("read", {"ids": ["notes/decision-route-with-a-trie", "nope"]}),
    ("read", {"ids": ["nope"]}),
    ("map", {"module": "pkg"}),
    ("map", {}),
    ("timeline", {"ref": "not-a-day-or-id"}),
    ("xray", {"days": 1}),
]
"""A call of every read-only tool, answers and failures (the writing tools take
arguments of a shape only the SDK validates: ``register``'s references)."""


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


class Counting:
    """An answerer that counts the calls it answered."""

    def __init__(self, inner: EarlyCalls) -> None:
        self.inner = inner
        self.answered: list[str] = []

    def __call__(self, name: str, arguments: dict[str, Any], modern: bool) -> Any:
        reply = self.inner(name, arguments, modern)
        if reply is not None:
            self.answered.append(name)
        return reply


def _params(era: str, name: str, arguments: dict[str, Any], meta: dict[str, Any]) -> Any:
    if era == MODERN_ERA:
        meta = {**envelope(), **meta}
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    return {**params, "_meta": meta} if meta else params


def sdk_only(era: str, name: str, arguments: dict[str, Any]) -> Any:
    """The parameters of the same call in a shape only the SDK answers: in the
    2026-07-28 era a progress token beside the envelope, in the handshake era (where a
    progress token is plain: Claude Code sends one with every call) a parameter the
    front does not know and the SDK ignores."""
    if era == MODERN_ERA:
        return _params(era, name, arguments, {"progressToken": "p"})
    return {**_params(era, name, arguments, {"progressToken": "p"}), "probe": 1}


def _opening(era: str) -> list[dict[str, Any]]:
    """The requests that open the connection, then one the greeting leaves to the SDK
    (a list request with a cursor)."""
    if era == MODERN_ERA:
        meta = {"_meta": envelope()}
        return [
            request(0, "server/discover", meta),
            request(1, "tools/list", {**meta, "cursor": "x"}),
        ]
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    return [request(0, "initialize", INIT), initialized, request(1, "tools/list", {"cursor": "x"})]


def _serve(wire: Wire, project: Path, handshake: Handshake, answerer: Counting) -> None:
    handover = greet(wire.reader, wire.writer, handshake, answerer)
    assert handover is not None and handover.fast is not None
    paths = app.locate(project / ".rubi")
    anyio.run(serve_wire, build_server(paths), wire.reader, wire.writer, handover)


@pytest.mark.slow
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, MODERN_ERA])
def test_tool_calls_after_the_handover_are_answered_with_the_sdks_bytes(
    tmp_path: Path, wire: Wire, era: str
) -> None:
    project = small_project(tmp_path / "proj")
    handshake = load_handshake()
    assert handshake is not None
    answerer = Counting(EarlyCalls(app.locate(project / ".rubi"), handshake, lambda: None))
    wire.send(*_opening(era))
    for i, (name, arguments) in enumerate(CALLS):
        wire.send(request(100 + i, "tools/call", _params(era, name, arguments, {})))
        wire.send(request(200 + i, "tools/call", sdk_only(era, name, arguments)))
    server = threading.Thread(target=_serve, args=(wire, project, handshake, answerer))
    server.start()
    wanted = {100 + i for i in range(len(CALLS))} | {200 + i for i in range(len(CALLS))}
    lines = _reply_lines(wire, wanted)
    wire.end()
    server.join(60)
    assert not server.is_alive()
    assert answerer.answered == [name for name, _ in CALLS]  # the SDK ran the others
    for i in range(len(CALLS)):
        fast, sdk = lines[100 + i], lines[200 + i]
        assert fast.replace(b'"id":%d,' % (100 + i), b'"id":%d,' % (200 + i)) == sdk, CALLS[i]
    errors = [json.loads(lines[100 + i])["result"]["isError"] for i in range(len(CALLS))]
    assert errors == [False, False, True, False, False, True, False, False, True, True]


def _reply_lines(wire: Wire, wanted: set[int], timeout: float = 120) -> dict[int, bytes]:
    """The raw line (without its newline) of the reply to each id of ``wanted``, read
    as they come (a request still being answered when the input ends is cancelled),
    each within ``timeout`` seconds (:class:`Lines`: a reply that came in one read with
    the one before is not waited for)."""
    reader = Lines(wire.client_end)
    found: dict[int, bytes] = {}
    while not wanted <= set(found):
        line = reader.line(timeout)
        assert line is not None, f"no answer to {sorted(wanted - set(found))}"
        assert line, "the server ended first"
        rid = re.match(rb'\{"jsonrpc":"2\.0","id":(\d+),', line)
        if rid is not None:
            found[int(rid.group(1))] = line.rstrip(b"\n")
    return found


def test_replies_that_came_in_one_read_are_all_found(wire: Wire) -> None:
    """The replies the server wrote in a burst reach the client's buffer in one read:
    each is found at once, none waited for on the descriptor (the rare hang of issue 29:
    ``select`` before each line found the last replies missing, though they had come)."""
    for rid in (208, 109, 209):
        wire.writer.write(f'{{"jsonrpc":"2.0","id":{rid},"result":{{}}}}')
    assert set(_reply_lines(wire, {208, 109, 209}, timeout=0.5)) == {208, 109, 209}


def test_a_call_after_the_handover_in_an_era_the_sdk_opened_goes_to_the_sdk(wire: Wire) -> None:
    handshake = load_handshake()
    assert handshake is not None
    called: list[str] = []

    def answerer(name: str, arguments: dict[str, Any], modern: bool) -> Any:
        called.append(name)
        return {"result": {}}

    wire.send(request(0, "initialize", {"capabilities": {}}))  # not the plain shape
    handover = greet(wire.reader, wire.writer, handshake, answerer)
    assert handover is not None and handover.fast is not None
    call = request(1, "tools/call", {"name": "search", "arguments": {"query": "x"}})
    assert handover.fast.claim(json.dumps(call).encode()) is None
    assert called == []


def test_only_tool_calls_are_claimed_after_the_handover(wire: Wire) -> None:
    handshake = load_handshake()
    assert handshake is not None

    def answerer(name: str, arguments: dict[str, Any], modern: bool) -> Any:
        return {"result": {"content": [], "isError": False}}

    wire.send(request(0, "initialize", INIT), request(1, "tools/list", {"cursor": "x"}))
    handover = greet(wire.reader, wire.writer, handshake, answerer)
    assert handover is not None and handover.fast is not None
    fast = handover.fast
    call = request(2, "tools/call", {"name": "search", "arguments": {"query": "x"}})
    for other in (
        request(3, "tools/list"),
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}},
        {k: v for k, v in call.items() if k != "id"},  # a call without an id
    ):
        assert fast.claim(json.dumps(other).encode()) is None
    assert fast.claim(b"not json\n") is None
    deep = '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":' + "[" * 5_000 + "]" * 5_000
    assert fast.claim((deep + "}").encode()) is None  # past the parser's limit: the SDK's
    claimed = fast.claim(json.dumps(call).encode())
    assert claimed is not None
    reply = '{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":false}}'
    assert fast.answer(claimed) == reply
    cc_meta = {"claudecode/toolUseId": "toolu_01", "progressToken": 2}  # Claude Code's
    with_meta = request(4, "tools/call", {"name": "s", "arguments": {}, "_meta": cc_meta})
    claimed = fast.claim(json.dumps(with_meta).encode())
    assert claimed is not None and fast.answer(claimed) == reply.replace('"id":2', '"id":4')
    with_meta = request(5, "tools/call", {"name": "s", "arguments": {}, "_meta": {"x": []}})
    with_meta["params"]["_meta"]["progressToken"] = True  # not the SDK's ProgressToken
    claimed = fast.claim(json.dumps(with_meta).encode())
    assert claimed is not None and fast.answer(claimed) is None  # the SDK's to answer


def test_a_first_line_nested_past_the_parser_s_limit_is_handed_over(wire: Wire) -> None:
    deep = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + "[" * 5_000
    line = deep + "]" * 5_000 + "}"
    wire.send(line)
    handover = greet(wire.reader, wire.writer, load_handshake())
    assert handover is not None and handover.replay == [line.encode() + b"\n"]
