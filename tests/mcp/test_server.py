"""The MCP server through the SDK's client: in memory, over stdio and over HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from mcp import Client, StdioServerParameters
from rubi import app
from rubi.core.tokens import tokens_for_chars
from rubi.mcp.server import OUTPUT_SCHEMAS_TOKEN_BUDGET, TOOLS_TOKEN_BUDGET, build_server

from helpers import SHARED_DATA, require_data, rubi_project, write

RUBI = str(Path(sys.executable).with_name("rubi"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(
        tmp_path / "proj",
        {
            "pkg/__init__.py": "",
            "pkg/router.py": "class SmartRouter:\n    def match(self, path):\n        pass\n",
            "pkg/app.py": "from pkg.router import SmartRouter\n\nrouter = SmartRouter()\n",
        },
    )
    app.register(
        app.locate(root / ".rubi"),
        [
            {
                "type": "decision",
                "title": "Route with a trie",
                "body": "Prefix matching keeps routing O(path length).",
                "files": ["pkg/router.py"],
            }
        ],
    )
    app.index(app.locate(root / ".rubi"))
    return root


def run(project: Path, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return await body(client)

    return asyncio.run(main())


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if hasattr(c, "text"))


def test_tools_are_few_cheap_and_annotated(project: Path) -> None:
    async def body(c: Client) -> Any:
        return (await c.list_tools()).tools

    tools = run(project, body)
    names = {t.name for t in tools}
    assert names == {
        "search",
        "read",
        "timeline",
        "map",
        "register",
        "handoff",
        "write_summary",
        "xray",
    }
    read_only = {t.name for t in tools if t.annotations and t.annotations.read_only_hint}
    assert read_only == {"search", "read", "timeline", "map", "xray"}
    dumps = [t.model_dump(by_alias=True, exclude_none=True) for t in tools]
    to_model = [{k: v for k, v in d.items() if k != "outputSchema"} for d in dumps]
    tokens = tokens_for_chars(sum(len(json.dumps(d)) for d in to_model))
    assert tokens <= TOOLS_TOKEN_BUDGET, f"{tokens} tokens of tool schemas"
    outputs = tokens_for_chars(sum(len(json.dumps(d.get("outputSchema", ""))) for d in dumps))
    assert outputs <= OUTPUT_SCHEMAS_TOKEN_BUDGET, f"{outputs} tokens of output schemas"


def test_search_read_map(project: Path) -> None:
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool(
                "search", {"query": "how are paths matched", "terms": ["SmartRouter"]}
            ),
            await c.call_tool(
                "read", {"ids": ["notes/decision-route-with-a-trie", "pkg/router.py"]}
            ),
            await c.call_tool("map", {}),
            await c.call_tool("map", {"module": "pkg"}),
            await c.call_tool("search", {"query": "trie", "budget_tokens": 10_000_000}),
        ]

    search, read, full_map, module, huge = run(project, body)
    assert not search.is_error
    assert text(search).startswith("1. [python file] pkg/router.py")
    assert 'named: "SmartRouter"' in text(search)
    assert "read(ids)" in text(search) or "more not shown" not in text(search)
    assert "Prefix matching keeps routing" in text(read)
    assert "- class SmartRouter (line 1)" in text(read)
    assert text(full_map).startswith("# Code map")
    assert "## Files" in text(module)
    assert not huge.is_error


def test_search_says_when_nothing_is_relevant(project: Path) -> None:
    from rubi.search.render import NOTHING_RELEVANT

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("search", {"query": "fix the dripping kitchen faucet of the router"}),
            await c.call_tool("search", {"query": "route with a trie"}),
        ]

    off, on = run(project, body)
    assert text(off).splitlines()[0] == NOTHING_RELEVANT and "1. " in text(off)
    assert NOTHING_RELEVANT not in text(on)


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("read", {"ids": ["../../etc/passwd"]}, "no such note"),
        ("read", {"ids": ["/etc/passwd"]}, "no such note"),
        ("read", {"ids": []}, "at least one id"),
        ("search", {"query": "  "}, "empty query"),
        ("search", {"query": 42}, "query"),
        ("search", {"query": "x", "scope": "everything"}, "scope"),
        ("map", {"module": "nope"}, "no such module"),
        ("register", {"notes": [{"type": "idea", "title": "x", "body": "y"}]}, "type"),
        (
            "register",
            {"notes": [{"type": "bug", "title": "x", "body": "y", "supersedes": "zz"}]},
            "no note named",
        ),
        ("handoff", {"action": "save", "goal": "", "state": "x"}, "goal"),
        ("write_summary", {"target": "elsewhere", "text": "x"}, "target must be"),
    ],
)
def test_errors_are_tool_errors(
    project: Path, tool: str, args: dict[str, Any], message: str
) -> None:
    async def body(c: Client) -> Any:
        return await c.call_tool(tool, args)

    result = run(project, body)
    assert result.is_error
    assert message in text(result)


def test_register_handoff_summary_write_to_the_vault(project: Path) -> None:
    async def body(c: Client) -> list[Any]:
        note = {
            "type": "gotcha",
            "title": "Trailing slashes",
            "body": "Strip them.",
            "files": ["pkg/router.py"],
        }
        return [
            await c.call_tool("register", {"notes": [note]}),
            await c.call_tool("register", {"notes": [{**note, "title": "trailing  SLASHES"}]}),
            await c.call_tool(
                "handoff", {"action": "save", "goal": "G", "state": "S", "next_steps": ["n1"]}
            ),
            await c.call_tool("handoff", {"action": "last"}),
            await c.call_tool("write_summary", {"target": "map", "text": "Start at pkg/app.py."}),
            await c.call_tool("search", {"query": "trailing slashes"}),
        ]

    created, merged, saved, last, summary, found = run(project, body)
    assert text(created) == "created notes/gotcha-trailing-slashes"
    assert text(merged) == "merged notes/gotcha-trailing-slashes"
    assert text(saved).startswith("Saved handoffs/")
    assert "1. n1" in text(last)
    assert not summary.is_error
    assert "Start at pkg/app.py." in (project / ".rubi" / "map.md").read_text(encoding="utf-8")
    assert "gotcha-trailing-slashes" in text(found).splitlines()[0]


def test_server_sees_changes_made_on_disk(project: Path) -> None:
    async def body(c: Client) -> Any:
        first = await c.call_tool("search", {"query": "quokka"})
        write(project / ".rubi" / "notes" / "by-hand.md", "# Written in Obsidian\n\nquokka\n")
        second = await c.call_tool("search", {"query": "quokka"})
        return first, second

    first, second = run(project, body)
    assert "No match" in text(first)
    assert "notes/by-hand" in text(second)


def test_xray_tool(project: Path, isolated_home: Path) -> None:
    async def body(c: Client) -> Any:
        return await c.call_tool("xray", {"days": 3650})

    missing = run(project, body)
    assert missing.is_error
    sample = SHARED_DATA / "transcripts" / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
    require_data(sample)
    from rubi.transcripts.locate import project_slug

    folder = isolated_home / ".claude" / "projects" / project_slug(project)
    folder.mkdir(parents=True)
    shutil.copy(sample, folder)
    result = run(project, body)
    assert not result.is_error, text(result)
    assert "session" in text(result).lower()


@pytest.mark.slow
def test_stdio_subprocess_speaks_only_protocol(project: Path) -> None:
    async def main() -> Any:
        params = StdioServerParameters(command=RUBI, args=["serve", "--project", str(project)])
        async with Client(params, mode="legacy") as c:
            return await c.call_tool("search", {"query": "trie"})

    result = asyncio.run(main())
    assert "decision-route-with-a-trie" in text(result)
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "read", "arguments": {"ids": ["../../etc/passwd"]}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "trie"}},
        },
    ]
    replies = []
    with subprocess.Popen(
        [RUBI, "serve", "--project", str(project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        for message in lines:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:  # every stdout line must be one JSON-RPC message
                replies.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.stdout.read().strip() == ""
        proc.wait(timeout=30)
    assert [r.get("id") for r in replies] == [1, 2, 3]
    assert replies[1]["result"]["isError"] is True
    assert "decision-route-with-a-trie" in replies[2]["result"]["content"][0]["text"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_http_on_loopback_with_the_kept_token(project: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from rubi.mcp.http_token import resolve_token

    port = _free_port()
    token = resolve_token()[0]  # what the server requires: RUBI_HTTP_TOKEN or the kept one
    proc = subprocess.Popen(
        [RUBI, "serve", "--http", "--port", str(port), "--project", str(project)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ},
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        else:
            pytest.fail("server did not listen within 30 s")

        async def main() -> Any:
            url = f"http://127.0.0.1:{port}/mcp"
            headers = {"Authorization": f"Bearer {token}"}
            async with (
                create_mcp_http_client(headers=headers) as http,
                Client(streamable_http_client(url, http_client=http)) as c,
            ):
                return await c.call_tool("search", {"query": "trie"})

        result = asyncio.run(main())
        assert "decision-route-with-a-trie" in text(result)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
