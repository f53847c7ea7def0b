"""The MCP ``read`` and ``timeline`` of a title several notes share answer for the
first by id under a line naming the others, as ``rubi read`` says it on stderr
(``tests/cli/test_read_choice.py``), ``timeline`` with their ids as ``other_matches``
too; an id names one note and answers without it."""

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


def test_timeline_of_a_shared_title_names_the_notes_it_did_not_centre_on(
    tmp_path: Path,
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/app.py": "x = 1\n"})
    notes = root / ".rubi" / "notes"
    write(notes / "tools" / "tar.md", "---\ntitle: tar\nupdated: 2025-01-10\n---\nTape.\n")
    write(notes / "archive" / "tar.md", "---\ntitle: tar\nupdated: 2025-03-10\n---\nFormat.\n")
    app.index(app.locate(root / ".rubi"))

    async def main() -> list[Any]:
        async with Client(build_server(app.locate(root / ".rubi"))) as client:
            return [
                await client.call_tool("timeline", {"ref": "tar", "days": 1}),
                await client.call_tool("timeline", {"ref": "notes/tools/tar", "days": 1}),
            ]

    shared, one = asyncio.run(main())
    first, second, *_ = shared.content[0].text.splitlines()
    assert first == (
        "('tar' names 2 notes: showing notes/archive/tar; also notes/tools/tar "
        "(read one by its id))"
    )
    assert second.startswith("2025-03-09 … 2025-03-11 around tar (2025-03-10)")
    assert shared.structured_content["other_matches"] == ["notes/tools/tar"]
    assert one.content[0].text.startswith("2025-01-09 … 2025-01-11 around notes/tools/tar")
    assert one.structured_content["other_matches"] == []
