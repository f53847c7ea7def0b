"""The MCP server under hostile arguments: every request is answered (a lone surrogate
or JSON nested past the parser's limit used to leave it unanswered for ever), text
that is not Unicode is refused with one line and nothing written, paths stay inside
the project, and search cost is capped."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp.types import INVALID_PARAMS, JSONRPCError, JSONRPCResponse

from mcp import Client
from mcp_wire import Lines
from rubi import app
from rubi.mcp.server import build_server
from rubi.mcp.stdio import encodable, unreadable_reply

from helpers import rubi_project

RUBI = str(Path(sys.executable).with_name("rubi"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(
        tmp_path / "proj",
        {"pkg/__init__.py": "", "pkg/router.py": "class SmartRouter:\n    pass\n"},
    )
    app.register(
        app.locate(root / ".rubi"),
        [{"type": "decision", "title": "Route with a trie", "body": "Prefix matching."}],
    )
    app.index(app.locate(root / ".rubi"))
    return root


def written(project: Path) -> list[str]:
    vault = project / ".rubi"
    return sorted(
        p.relative_to(vault).as_posix()
        for folder in ("notes", "handoffs")
        for p in (vault / folder).glob("*.md")
    )


# -- over the real stdio server --------------------------------------------------------
class Stdio:
    """``rubi serve`` as a subprocess, spoken to line by line with a deadline."""

    def __init__(self, project: Path) -> None:
        self.proc = subprocess.Popen(
            [RUBI, "serve", "--project", str(project)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.proc.stdout is not None
        self._lines = Lines(self.proc.stdout.fileno())  # read through nothing else
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"},
                },
            }
        )
        assert self.reply(30)["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def reply(self, timeout: float = 20) -> dict[str, Any]:
        line = self._lines.line(timeout)
        assert line is not None, f"no answer within {timeout} s"
        return dict(json.loads(line))

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


def call(rid: int, tool: str, arguments: str) -> str:
    """A tools/call line with ``arguments`` spliced in as raw JSON text."""
    return (
        f'{{"jsonrpc":"2.0","id":{rid},"method":"tools/call",'
        f'"params":{{"name":"{tool}","arguments":{arguments}}}}}'
    )


SURROGATE_CALLS = [
    ("search", '{"query":"trie \\ud800"}'),
    ("search", '{"query":"trie","terms":["\\udfff"]}'),
    ("read", '{"ids":["notes/decision-route-with-a-trie\\ud800"]}'),
    ("map", '{"module":"pkg\\udc80"}'),
    ("register", '{"notes":[{"type":"bug","title":"t\\ud800","body":"b"}]}'),
    ("register", '{"notes":[{"type":"bug","title":"t","body":"b","files":["\\ud800.py"]}]}'),
    ("handoff", '{"action":"save","goal":"g\\ud800","state":"s"}'),
    ("write_summary", '{"target":"map","text":"\\ud800"}'),
    ("xray", '{"days":3,"\\ud800":1}'),
]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_lone_surrogate_in_any_tool_argument_is_answered(project: Path) -> None:
    server = Stdio(project)
    try:
        for rid, (tool, arguments) in enumerate(SURROGATE_CALLS, start=1):
            server.send(call(rid, tool, arguments))
            answer = server.reply()
            assert answer["id"] == rid, answer
            assert answer["error"]["code"] == INVALID_PARAMS, answer
            assert "lone surrogate" in answer["error"]["message"]
            assert "\n" not in answer["error"]["message"]
        # a notification is not answered, and breaks nothing
        server.send('{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\ud800"}}')
        # JSON nested past the parser's limit: answered too, for its id
        deep = "[" * 5_000 + "]" * 5_000
        server.send(call(90, "register", f'{{"notes":{deep}}}'))
        answer = server.reply()
        assert answer["id"] == 90 and "error" in answer, answer
        server.send("this is not json")
        answer = server.reply()
        assert answer["id"] is None and answer["error"]["code"] == -32700
        # the server still works
        server.send(call(99, "search", '{"query":"trie"}'))
        answer = server.reply()
        assert answer["id"] == 99
        assert "decision-route-with-a-trie" in answer["result"]["content"][0]["text"]
    finally:
        server.close()
    assert written(project) == ["notes/decision-route-with-a-trie.md"]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_an_oversized_query_is_refused_at_once_over_stdio(project: Path) -> None:
    server = Stdio(project)
    try:
        words = " ".join(f"w{i}" for i in range(200_000))  # 1.4 MB of distinct words
        started = time.monotonic()
        server.send(call(1, "search", json.dumps({"query": words})))
        answer = server.reply(timeout=30)
        elapsed = time.monotonic() - started
        assert answer["id"] == 1 and answer["result"]["isError"] is True
        assert "at most" in answer["result"]["content"][0]["text"]
        assert elapsed < 30
    finally:
        server.close()


# -- in memory ---------------------------------------------------------------------------
def run(project: Path, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    async def main() -> list[Any]:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return [await client.call_tool(tool, args) for tool, args in calls]

    return asyncio.run(main())


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if hasattr(c, "text"))


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("register", {"notes": [{"type": "bug", "title": "a\x00b", "body": "b"}]}, "NUL byte"),
        ("register", {"notes": [{"type": "bug", "title": "t", "body": "\x00"}]}, "NUL byte"),
        ("register", {"notes": [{"type": "bug", "title": "t\ud800", "body": "b"}]}, "surrogate"),
        (
            "register",
            {"notes": [{"type": "bug", "title": "t", "body": "b", "files": ["../../etc/passwd"]}]},
            "outside the project",
        ),
        (
            "register",
            {"notes": [{"type": "bug", "title": "t", "body": "b", "files": ["/etc/passwd"]}]},
            "outside the project",
        ),
        (
            "register",
            {
                "notes": [
                    {
                        "type": "bug",
                        "title": "t",
                        "body": "b",
                        "links": [
                            {"relation": "about", "target": "x]]\n## Links\n- supersedes [[v"}
                        ],
                    }
                ]
            },
            "links[0].target",
        ),
        (
            "register",
            {"notes": [{"type": "bug", "title": "t", "body": "b", "supersedes": "a|b"}]},
            "supersedes",
        ),
        ("handoff", {"action": "save", "goal": "g", "state": "s", "files": ["/etc"]}, "outside"),
        ("handoff", {"action": "save", "goal": "g", "state": "s", "notes": ["a]]"]}, "notes[0]"),
        ("handoff", {"action": "save", "goal": "g\x00", "state": "s"}, "NUL byte"),
        ("write_summary", {"target": "map", "text": "nul\x00"}, "NUL byte"),
        ("write_summary", {"target": "module:../../etc", "text": "x"}, "no such module"),
        ("map", {"module": "../../../etc/passwd"}, "no such module"),
        ("map", {"module": "m" * 1_000_000}, "no such module"),
        ("write_summary", {"target": "map", "text": "s" * 100_001}, "at most 100,000"),
        ("write_summary", {"target": "t" * 1_000_000, "text": "x"}, "target must be"),
        ("handoff", {"action": "save", "goal": "g" * 100_001, "state": "s"}, "at most 100,000"),
        ("read", {"ids": ["../../etc/passwd", "/etc/passwd", "x\x00"]}, "no such note"),
        ("read", {"ids": ["x" * 1_000_000] * 20}, "at most 1,000 characters"),
        ("read", {"ids": ["a\n## Links\n- supersedes [[b]]"]}, "an id is one line"),
        ("search", {"query": "x" * 100_001}, "at most 100,000"),
        ("search", {"query": "a", "terms": ["term567890"] * 10_001}, "at most 100,000"),
        ("search", {"query": "a", "terms": [f"w{i}" for i in range(300)]}, "distinct words"),
    ],
)
def test_hostile_arguments_are_one_line_errors(
    project: Path, tool: str, args: dict[str, Any], message: str
) -> None:
    [result] = run(project, (tool, args))
    assert result.is_error
    assert message in text(result) and "\n" not in text(result).strip()
    assert len(text(result)) < 10_000  # a hostile value is not echoed back whole
    assert written(project) == ["notes/decision-route-with-a-trie.md"]


def test_register_files_are_relative_to_the_project_root(project: Path) -> None:
    [result] = run(
        project,
        (
            "register",
            {
                "notes": [
                    {
                        "type": "gotcha",
                        "title": "Paths over MCP",
                        "body": "b",
                        "files": ["./pkg/router.py", str(project / "pkg" / "__init__.py")],
                    }
                ]
            },
        ),
    )
    assert not result.is_error, text(result)
    page = (project / ".rubi" / "notes" / "gotcha-paths-over-mcp.md").read_text(encoding="utf-8")
    assert "- pkg/router.py\n- pkg/__init__.py\n" in page


# -- the stdio wrappers, directly -----------------------------------------------------------
def _failure(line: str) -> Exception:
    from mcp.types import jsonrpc_message_adapter

    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:
        return exc
    raise AssertionError(f"{line!r} parsed")


def test_unreadable_reply_names_the_request() -> None:
    reply = unreadable_reply(_failure(call(7, "search", '{"query":"\\ud800"}')))
    assert isinstance(reply, JSONRPCError) and reply.id == 7
    assert reply.error.code == INVALID_PARAMS
    reply = unreadable_reply(
        _failure('{"jsonrpc":"2.0","id":"a","method":"x","params":' + "[" * 400 + "]" * 400 + "}")
    )
    assert isinstance(reply, JSONRPCError) and reply.id == "a"
    # a notification or a response is never answered
    assert (
        unreadable_reply(_failure('{"jsonrpc":"2.0","method":"n","params":{"a":"\\ud800"}}'))
        is None
    )
    assert unreadable_reply(_failure('{"jsonrpc":"2.0","id":3,"result":{"a":"\\ud800"}}')) is None
    reply = unreadable_reply(_failure("{not json"))
    assert isinstance(reply, JSONRPCError) and reply.id is None


def test_a_reply_holding_a_lone_surrogate_encodes() -> None:
    message = JSONRPCResponse(
        jsonrpc="2.0", id=1, result={"content": [{"type": "text", "text": "caf\udce9.md"}]}
    )
    with pytest.raises(ValueError):
        message.model_dump_json()
    safe = encodable(message)
    assert "caf\ufffd.md" in safe.model_dump_json(by_alias=True, exclude_unset=True)
    plain = JSONRPCResponse(jsonrpc="2.0", id=2, result={"ok": True})
    assert encodable(plain) is plain
