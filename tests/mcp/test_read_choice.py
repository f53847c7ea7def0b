"""The MCP ``read`` of a title several notes share shows the first by id under a line
naming the others, as ``rubi read`` says it on stderr
(``tests/cli/test_read_choice.py``); an id names one note and reads without it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from mcp import Client
from rubi import app
from rubi.mcp.server import build_server

from helpers import rubi_project, write

pytestmark = pytest.mark.timeout(120)


def test_read_of_a_shared_title_names_the_notes_it_did_not_show(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "x = 1\n"})
    notes = root / ".rubi" / "notes"
    write(notes / "tools" / "tar.md", "---\ntitle: tar\n---\nTar the tape archiver.\n")
    write(notes / "archive" / "tar.md", "---\ntitle: tar\n---\nTar the file format.\n")
    app.index(app.locate(root / ".rubi"))

    async def main() -> list[Any]:
        async with Client(build_server(app.locate(root / ".rubi"))) as client:
            return [
                await client.call_tool("read", {"ids": ["tar"]}),
                await client.call_tool("read", {"ids": ["notes/tools/tar"]}),
                await client.call_tool("read", {"ids": ["tar#L4"]}),
            ]

    shared, one, part = asyncio.run(main())
    items = shared.structured_content["items"]
    assert items[0]["id"] == "tar"
    first, *rest = items[0]["text"].splitlines()
    assert first == (
        "('tar' names 2 notes: showing notes/archive/tar; also notes/tools/tar "
        "(read one by its id))"
    )
    assert rest[0] == "# notes/archive/tar.md" and "file format" in items[0]["text"]
    text = one.structured_content["items"][0]["text"]
    assert text.startswith("# notes/tools/tar.md") and "names 2 notes" not in text
    first, *rest = part.structured_content["items"][0]["text"].splitlines()
    assert first.startswith("('tar#L4' names 2 notes: showing notes/archive/tar#L4; also ")
    assert "Tar the file format." in rest
