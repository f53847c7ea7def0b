"""A tool call that comes before the MCP SDK is loaded is answered by the tool's own
body in the greeting (rubi.mcp.early), with the reply the SDK gives; arguments of
any shape the SDK would coerce or refuse are left to the SDK."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_project import small_project
from mcp_stdio import HANDSHAKE_ERA, MODERN_ERA, Served, envelope
from mcp_wire import INIT, Wire, request
from rubi import app
from rubi.mcp.early import EarlyCalls, plain_arguments
from rubi.mcp.front import greet, load_handshake

SEARCH_SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "terms": {"items": {"type": "string"}, "type": "array"},
        "scope": {"default": "all", "enum": ["all", "notes"], "type": "string"},
        "budget_tokens": {"default": 1500, "type": "integer"},
        "include_superseded": {"default": False, "type": "boolean"},
    },
    "required": ["query"],
}


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "x"},
        {"query": "x", "terms": ["a", "b"], "scope": "notes", "budget_tokens": 10**30},
        {"query": "x", "include_superseded": True},
    ],
)
def test_plain_arguments_are_answered_early(arguments: dict[str, Any]) -> None:
    assert plain_arguments(arguments, SEARCH_SCHEMA)


@pytest.mark.parametrize(
    "arguments",
    [
        {},  # the required query missing
        {"query": 3},
        {"query": "x", "budget_tokens": "800"},  # the SDK coerces it
        {"query": "x", "budget_tokens": 800.0},
        {"query": "x", "budget_tokens": True},
        {"query": "x", "include_superseded": 1},
        {"query": "x", "terms": "a"},
        {"query": "x", "terms": ["a", 1]},
        {"query": "x", "scope": "everything"},
        {"query": "x", "unknown": 1},
        {"query": "\ud800"},  # a lone surrogate: the SDK refuses the line
    ],
)
def test_other_arguments_go_to_the_sdk(arguments: dict[str, Any]) -> None:
    assert not plain_arguments(arguments, SEARCH_SCHEMA)


def test_a_schema_with_references_goes_to_the_sdk() -> None:
    handshake = load_handshake()
    assert handshake is not None
    tools = handshake.results["tools/list"][handshake.latest]["tools"]
    (register,) = [t for t in tools if t["name"] == "register"]
    note = {"type": "note", "title": "t", "body": "b"}
    assert not plain_arguments({"notes": [note]}, register["inputSchema"])


@pytest.fixture
def wire() -> Iterator[Wire]:
    w = Wire()
    yield w
    w.close()


def test_a_tool_call_is_answered_in_the_greeting(tmp_path: Path, wire: Wire) -> None:
    project = small_project(tmp_path / "proj")
    handshake = load_handshake()
    assert handshake is not None
    waited: list[bool] = []
    early = EarlyCalls(app.locate(project / ".rubi"), handshake, lambda: waited.append(True))
    call = {"name": "search", "arguments": {"query": "trie"}}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    wire.send(request(0, "initialize", INIT), initialized)
    wire.send(request(1, "tools/call", call))
    wire.send(request(2, "tools/call", {"name": "read", "arguments": {"ids": ["nope"]}}))
    wire.end()
    assert greet(wire.reader, wire.writer, handshake, early) is None  # all answered
    _, found, missing = wire.replies()
    assert waited == [True, True]  # each call waited for the warm vault first
    assert found["result"]["isError"] is False
    assert "decision-route-with-a-trie" in found["result"]["content"][0]["text"]
    ids = found["result"]["structuredContent"]["ids"]
    assert ids[0] == "notes/decision-route-with-a-trie"
    assert missing["result"]["isError"] is True
    assert missing["result"]["content"][0]["text"].startswith("Error executing tool read: ")


CALLS = [
    ("search", {"query": "trie"}),
    ("read", {"ids": ["notes/decision-route-with-a-trie", "nope"]}),
    ("read", {"ids": ["nope"]}),
    ("map", {"module": "pkg"}),
    ("timeline", {"ref": "not-a-day-or-id"}),
]


def sdk_call(served: Served, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The same call in a shape only the SDK answers: in the 2026-07-28 era a progress
    token beside the envelope, in the handshake era (where a progress token is plain:
    Claude Code sends one with every call) a parameter the front does not know and the
    SDK ignores."""
    meta: dict[str, Any] = {"progressToken": "p"}
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if served.era == MODERN_ERA:
        meta = {**envelope(), **meta}
    else:
        params["probe"] = 1
    served.send(request(99, "tools/call", {**params, "_meta": meta}))
    reply = served.reply(99)
    return reply["result"]  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, MODERN_ERA])
def test_an_early_answer_is_the_sdks_answer(tmp_path: Path, era: str) -> None:
    project = small_project(tmp_path / "proj")
    with Served(project, era) as served:
        served.open()
        early = [served.call(name, arguments) for name, arguments in CALLS]
        late = [sdk_call(served, name, arguments) for name, arguments in CALLS]
    assert early == late
    assert [r["isError"] for r in early] == [False, False, True, False, True]


def test_an_early_search_imports_no_sdk(tmp_path: Path) -> None:
    project = small_project(tmp_path / "proj")
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rubi import app\n"
        "from rubi.mcp.early import EarlyCalls\n"
        "from rubi.mcp.front import load_handshake\n"
        f"paths = app.locate(Path({str(project / '.rubi')!r}))\n"
        "early = EarlyCalls(paths, load_handshake(), lambda: None)\n"
        "reply = early('search', {'query': 'trie'}, False)\n"
        "assert reply['result']['isError'] is False, reply\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "    ('mcp', 'mcp_types', 'pydantic', 'starlette', 'uvicorn'))\n"
        "print(heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_a_tool_that_meets_an_os_error_names_its_file_and_reason(
    tmp_path: Path, wire: Wire
) -> None:
    project = small_project(tmp_path / "proj")
    paths = app.locate(project / ".rubi")
    fresh = project / ".rubi" / "notes" / "fresh.md"
    fresh.write_text("# Fresh\n\nnew words\n", encoding="utf-8")
    paths.lock_file.unlink(missing_ok=True)
    paths.lock_file.mkdir()  # the index cannot be brought up to date: no lock to take
    handshake = load_handshake()
    assert handshake is not None
    early = EarlyCalls(paths, handshake, lambda: None)
    call = {"name": "search", "arguments": {"query": "trie"}}
    wire.send(request(0, "initialize", INIT))
    wire.send(request(1, "tools/call", call))
    wire.end()
    assert greet(wire.reader, wire.writer, handshake, early) is None
    _, failed = wire.replies()
    assert failed["result"]["isError"] is True
    text = failed["result"]["content"][0]["text"]
    assert text.startswith("Error executing tool search: ") and "\n" not in text
    assert text.endswith(f"{paths.lock_file}: Is a directory")


def test_the_first_early_call_reads_as_a_cold_process_and_the_next_loads_to_stay_warm(
    tmp_path: Path,
) -> None:
    """The first tool call answered in the greeting opens the current flat graph
    without networkx and reads the index without Whoosh's reading stack, as a cold
    hook does; the next call loads the vault sync's graph (networkx) and Whoosh's
    reader that keep later searches warm. Both answers are the same."""
    project = small_project(tmp_path / "proj")
    hour_ago = time.time_ns() - 3600 * 10**9  # no file saved near the next run's listing
    for path in project.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(hour_ago, hour_ago))
    vault = str(project / ".rubi")
    cold_search = (  # a cold reader leaves the flat graph current, as a session finds it
        "from pathlib import Path\n"
        "from rubi import app\n"
        "from rubi.app.searching import one_search\n"
        "one_search()\n"
        f"app.search(app.locate(Path({vault!r})), 'trie')\n"
    )
    subprocess.run([sys.executable, "-c", cold_search], check=True, timeout=120)
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rubi import app\n"
        "from rubi.mcp.early import EarlyCalls\n"
        "from rubi.mcp.front import load_handshake\n"
        f"paths = app.locate(Path({vault!r}))\n"
        "early = EarlyCalls(paths, load_handshake(), lambda: None)\n"
        "first = early('search', {'query': 'trie'}, False)\n"
        "print('networkx' in sys.modules, 'whoosh.reading' in sys.modules)\n"
        "second = early('search', {'query': 'trie'}, False)\n"
        "print('networkx' in sys.modules, 'whoosh.reading' in sys.modules)\n"
        "print(first == second, first['result']['isError'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split("\n")[:3] == ["False False", "True True", "True False"], done.stdout
