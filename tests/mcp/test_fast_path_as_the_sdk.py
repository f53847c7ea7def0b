"""Odd and hostile requests get from the stdio fast path (the greeting, then the tool
calls answered before the SDK sees them) the replies the MCP SDK alone sends for the
same lines, byte for byte, in both protocol eras; none of them stops the server."""

from __future__ import annotations

import json
import os
import queue
import threading
from typing import Any

import anyio
import pytest

from mcp_project import small_project
from mcp_stdio import envelope
from mcp_wire import INIT, Wire, request
from rubi import app
from rubi.core.paths import VaultPaths
from rubi.mcp.early import EarlyCalls
from rubi.mcp.front import greet, load_handshake
from rubi.mcp.server import build_server
from rubi.mcp.stdio import serve_wire
from rubi.mcp.wire import LineReader

INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
HANDSHAKE = [json.dumps(request(0, "initialize", INIT)), INITIALIZED]


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> VaultPaths:
    return app.locate(small_project(tmp_path_factory.mktemp("fast") / "proj") / ".rubi")


def _serve(wire: Wire, paths: VaultPaths, fast: bool, failures: list[BaseException]) -> None:
    try:
        handshake = load_handshake()
        assert handshake is not None
        if not fast:
            anyio.run(serve_wire, build_server(paths), wire.reader, wire.writer, None)
            return
        early = EarlyCalls(paths, handshake, _no_wait)
        handover = greet(wire.reader, wire.writer, handshake, early)
        if handover is not None:
            anyio.run(serve_wire, build_server(paths), wire.reader, wire.writer, handover)
    except BaseException as exc:  # the test fails on it
        failures.append(exc)


def _no_wait() -> None:
    return None


def _read_into(reader: LineReader, lines: queue.Queue[bytes]) -> None:
    while line := reader.readline():
        lines.put(line)
    lines.put(b"")


def replies(paths: VaultPaths, lines: list[str], count: int, *, fast: bool) -> list[bytes]:
    """The reply lines to ``lines`` (sorted: the SDK answers requests concurrently),
    read until ``count`` came, from the fast path or from the SDK alone."""
    wire = Wire()
    failures: list[BaseException] = []
    server = threading.Thread(target=_serve, args=(wire, paths, fast, failures), daemon=True)
    server.start()
    for line in lines:
        os.write(wire._in_w, line.encode("utf-8", "surrogatepass") + b"\n")
    lines_out: queue.Queue[bytes] = queue.Queue()
    reader = LineReader(wire.client_end)  # lines may come several to one read
    threading.Thread(target=_read_into, args=(reader, lines_out), daemon=True).start()
    got: list[bytes] = []
    while len(got) < count:
        try:
            got.append(lines_out.get(timeout=60).rstrip(b"\n"))
        except queue.Empty:
            raise AssertionError((failures, got)) from None
        assert got[-1] and not failures, (failures, got)
    wire.end()
    server.join(30)
    assert not server.is_alive() and not failures, failures
    wire.close()
    os.close(wire._out_w)  # the reading thread ends at this end of the output
    return sorted(got)


def _call(rid: Any, name: str, arguments: dict[str, Any], modern: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if modern:
        params["_meta"] = envelope()
    return request(rid, "tools/call", params)


def _with_raw(message: dict[str, Any], plain: str, raw: str) -> str:
    """``message`` as a line, ``plain`` (a JSON string literal) written as ``raw``."""
    line = json.dumps(message)
    assert plain in line
    return line.replace(plain, raw)


def _same(paths: VaultPaths, lines: list[str], count: int) -> list[bytes]:
    fast = replies(paths, lines, count, fast=True)
    assert fast == replies(paths, lines, count, fast=False)
    return fast


@pytest.mark.slow
@pytest.mark.parametrize("modern", [False, True], ids=["2025-11-25", "2026-07-28"])
def test_a_request_id_that_is_a_lone_surrogate_is_refused_as_the_sdk_refuses_it(
    vault: VaultPaths, modern: bool
) -> None:
    opening = [] if modern else HANDSHAKE
    call = _with_raw(_call("x", "search", {"query": "trie"}, modern), '"x"', '"\\ud800"')
    after = json.dumps(_call(2, "map", {}, modern))
    got = _same(vault, [*opening, call, after], len(opening) // 2 + 2)
    assert b'"id":null,"error":{"code":-32700' in b"".join(got)


@pytest.mark.slow
@pytest.mark.parametrize(
    "line",
    [
        _with_raw(
            request(0, "initialize", {**INIT, "clientInfo": {"name": "x", "version": "1"}}),
            '"x"',
            '"\\udc00"',
        ),
        _with_raw(
            request(0, "server/discover", {"_meta": envelope()}), '"rubi-tests"', '"\\ud800"'
        ),
        _with_raw(_call(0, "search", {"query": "trie"}, True), '"rubi-tests"', '"\\ud800"'),
    ],
    ids=["initialize", "server/discover", "tools/call"],
)
def test_a_lone_surrogate_in_the_client_s_info_is_refused_as_the_sdk_refuses_it(
    vault: VaultPaths, line: str
) -> None:
    got = _same(vault, [line], 1)
    assert b'"error":{"code":-32602' in got[0]


@pytest.mark.slow
@pytest.mark.parametrize("modern", [False, True], ids=["2025-11-25", "2026-07-28"])
def test_the_lists_and_their_errors_are_the_sdk_s_bytes(vault: VaultPaths, modern: bool) -> None:
    params = {"_meta": envelope()} if modern else None
    lists = ["tools/list", "prompts/list", "resources/list", "ping"]
    opening = [json.dumps(request(0, "server/discover", params))] if modern else HANDSHAKE
    asked = [json.dumps(request(i, m, params)) for i, m in enumerate(lists, 1)]
    got = _same(vault, [*opening, *asked], 1 + len(lists))
    assert any(b'"error":{"code":-32601,"message":"Method not found"' in g for g in got)


@pytest.mark.slow
def test_an_initialize_after_a_2026_07_28_tool_call_is_refused_as_the_sdk_refuses_it(
    vault: VaultPaths,
) -> None:
    call = json.dumps(_call(1, "search", {"query": "trie"}, True))
    later = [json.dumps(request(2, "initialize", INIT)), json.dumps(_call(3, "map", {}, True))]
    got = _same(vault, [call, *later], 3)
    assert b'"id":2,"error":{"code":-32022' in b"".join(got)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [
        {**INIT, "protocolVersion": "2025-11-25", "capabilities": {"roots": "x"}},
        {**INIT, "protocolVersion": "2025-11-25", "clientInfo": {**INIT["clientInfo"], "title": 5}},
    ],
    ids=["roots", "title"],
)
def test_an_initialize_the_sdk_refuses_is_refused_as_the_sdk_refuses_it(
    vault: VaultPaths, params: dict[str, Any]
) -> None:
    got = _same(vault, [json.dumps(request(0, "initialize", params))], 1)
    assert b'"error":{"code":-32602' in got[0]
