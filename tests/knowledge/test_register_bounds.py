"""One MCP register call or handoff holds a bounded number of entries: more is refused
with one line before any work per entry (20,000 notes in one MCP call kept the server
busy for minutes; 100,000 handoff files took 17 s before their refusal)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from mcp import Client
from rubi import app
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths
from rubi.knowledge.items import MAX_LIST_ITEMS
from rubi.mcp.calls import MAX_REGISTER_NOTES
from rubi.mcp.server import build_server

from helpers import write


@pytest.fixture
def paths(tmp_path: Path) -> VaultPaths:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    return app.locate(root / ".rubi")


def test_mcp_register_refuses_more_notes_than_the_limit_at_once(paths: VaultPaths) -> None:
    notes = [{"type": "note", "title": f"t{i}", "body": "x"} for i in range(20_000)]

    async def main() -> tuple[bool, str]:
        async with Client(build_server(paths)) as client:
            done = await client.call_tool("register", {"notes": notes})
            return done.is_error, done.content[0].text  # type: ignore[union-attr]

    began = time.perf_counter()
    failed, answer = asyncio.run(main())
    assert failed and f"notes: 20,000 notes; at most {MAX_REGISTER_NOTES} per call" in answer
    assert time.perf_counter() - began < 10
    assert not list((paths.root / "notes").glob("*.md"))


def test_handoff_refuses_a_huge_file_list_at_once(paths: VaultPaths) -> None:
    began = time.perf_counter()
    with pytest.raises(RubiError, match=rf"files: 100000 entries; at most {MAX_LIST_ITEMS}"):
        app.save_handoff(paths, "ship", "red", (), ["README.md"] * 100_000)
    with pytest.raises(RubiError, match=rf"notes: 100000 entries; at most {MAX_LIST_ITEMS}"):
        app.save_handoff(paths, "ship", "red", (), (), ["Use JWT"] * 100_000)
    assert time.perf_counter() - began < 3
    assert not list((paths.root / "handoffs").glob("*.md"))
