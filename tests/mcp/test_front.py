"""The handshake answered before the MCP SDK is loaded (rubi.mcp.front): the same
answers as the SDK, the hand-over to it, and no SDK import on the way there."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_wire import INIT, Wire, request
from rubi.mcp.front import Handover, greet, load_handshake
from rubi.mcp.handshake import render, snapshot
from rubi.mcp.wire import LineReader


def test_the_snapshot_is_what_the_sdk_answers() -> None:
    shipped = Path(__file__).parents[2] / "src" / "rubi" / "mcp" / "handshake.json"
    fresh = render(snapshot())
    assert shipped.read_text(encoding="utf-8") == fresh, (
        "rubi/mcp/handshake.json is stale: run `python -m rubi.mcp.handshake`"
    )


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def test_the_handshake_is_answered_then_a_tool_call_is_handed_over(wire: Wire) -> None:
    call = request(3, "tools/call", {"name": "search", "arguments": {"query": "x"}})
    wire.send(request(0, "initialize", INIT), INITIALIZED, request(1, "tools/list"))
    wire.send(request(2, "ping"), call)
    handover = greet(wire.reader, wire.writer, load_handshake())
    replies = wire.replies()
    assert [r["id"] for r in replies] == [0, 1, 2]
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18"
    assert replies[0]["result"]["serverInfo"]["name"] == "rubi"
    names = {t["name"] for t in replies[1]["result"]["tools"]}
    assert {"search", "read", "register"} <= names
    assert replies[2]["result"] == {}
    assert handover is not None and handover.answered_id == 0
    assert handover.answered == {"result": replies[0]["result"]}
    assert [json.loads(line) for line in handover.replay] == [
        request(0, "initialize", INIT),
        INITIALIZED,
        call,
    ]


def test_an_unknown_revision_gets_the_latest_with_a_handshake(wire: Wire) -> None:
    handshake = load_handshake()
    assert handshake is not None
    wire.send(request(0, "initialize", {**INIT, "protocolVersion": "1999-01-01"}))
    wire.end()
    assert greet(wire.reader, wire.writer, handshake) is None  # input ended
    (reply,) = wire.replies()
    assert reply["result"]["protocolVersion"] == handshake.latest


@pytest.mark.parametrize(
    "first",
    [
        "this is not json",
        json.dumps(request(0, "tools/list")),  # before initialize
        json.dumps(request(0, "initialize", {"capabilities": {}})),  # not the plain shape
        json.dumps({"jsonrpc": "2.0", "id": True, "method": "initialize", "params": INIT}),
        json.dumps(request(0, "server/discover")),
    ],
)
def test_anything_unusual_goes_to_the_sdk_unanswered(wire: Wire, first: str) -> None:
    wire.send(first)
    handover = greet(wire.reader, wire.writer, load_handshake())
    assert handover == Handover(replay=[first.encode("utf-8") + b"\n"])
    assert wire.replies() == []


def test_list_requests_with_parameters_go_to_the_sdk(wire: Wire) -> None:
    wire.send(request(0, "initialize", INIT), request(1, "tools/list", {"cursor": "x"}))
    handover = greet(wire.reader, wire.writer, load_handshake())
    assert handover is not None and handover.answered_id == 0
    assert [r["id"] for r in wire.replies()] == [0]
    assert json.loads(handover.replay[-1])["params"] == {"cursor": "x"}


def test_lines_are_read_whole_across_chunks() -> None:
    r, w = os.pipe()
    try:
        reader = LineReader(r)
        os.write(w, b'{"a":1}\n{"b":')
        assert reader.readline() == b'{"a":1}\n'
        os.write(w, b"2}\nlast")
        os.close(w)
        assert reader.readline() == b'{"b":2}\n'
        assert reader.readline() == b"last"
        assert reader.readline() == b""
    finally:
        os.close(r)


def test_a_bare_serve_reads_its_snapshot_without_the_resources_machinery() -> None:
    """The snapshot is a plain file beside the module: reading it loads neither
    ``importlib.resources`` nor what that brings (``zipfile``, ``shutil``, ``bz2``,
    ``lzma``), and it is the same snapshot that machinery reads."""
    code = (
        "import json, sys\n"
        "import rubi.cli.servebare, rubi.cli.serverun, rubi.mcp.startup, rubi.mcp.early\n"
        "from rubi.mcp.front import load_handshake\n"
        "got = load_handshake()\n"
        "extra = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "    ('zipfile', 'shutil', 'bz2', 'lzma') or m.startswith('importlib.resources'))\n"
        "from importlib import resources\n"
        "raw = resources.files('rubi.mcp').joinpath('handshake.json').read_bytes()\n"
        "same = got is not None and got.results == json.loads(raw)['results']\n"
        "print(json.dumps([extra, same]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(done.stdout) == [[], True]


def test_the_way_to_the_first_answer_imports_no_sdk() -> None:
    code = (
        "import sys\n"
        "import rubi.cli.main, rubi.cli.servecmds, rubi.mcp.server, rubi.mcp.startup\n"
        "from rubi.mcp.front import load_handshake\n"
        "assert load_handshake() is not None\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "    ('mcp', 'mcp_types', 'pydantic', 'starlette', 'uvicorn', 'whoosh', 'networkx'))\n"
        "print(heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_a_line_over_the_limit_is_dropped_and_the_next_one_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    r, w = os.pipe()
    try:
        reader = LineReader(r, max_line=1 << 20)
        os.write(w, b'{"a":1}\n')
        assert reader.readline() == b'{"a":1}\n'
        done = threading.Event()

        def flood() -> None:  # 3 MiB without a line end, then its end and a line
            for _ in range(48):
                os.write(w, b"x" * (1 << 16))
            os.write(w, b'\n{"b":2}\n' + b"y" * (2 << 20))
            os.close(w)
            done.set()

        threading.Thread(target=flood, daemon=True).start()
        with caplog.at_level(logging.WARNING, logger="rubi"):
            assert reader.readline() == b'{"b":2}\n'
            assert reader.readline() == b""  # the overlong tail at the end: dropped too
        assert done.wait(10)
        assert len(reader._buf) == 0
        said = [rec.getMessage() for rec in caplog.records]
        assert len(said) == 2 and all("dropped" in m for m in said)
    finally:
        os.close(r)


def test_input_that_never_ends_a_line_is_not_held_in_memory() -> None:
    r, w = os.pipe()
    reader = LineReader(r, max_line=1 << 20)
    seen: list[int] = []

    def flood() -> None:
        for _ in range(256):  # 16 MiB, no line end
            os.write(w, b"z" * (1 << 16))
            seen.append(len(reader._buf))
        os.close(w)

    threading.Thread(target=flood, daemon=True).start()
    try:
        assert reader.readline() == b""
        assert max(seen) <= (1 << 20) + (1 << 17)
    finally:
        os.close(r)
