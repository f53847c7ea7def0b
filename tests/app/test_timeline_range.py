"""A timeline window that would leave the calendar (before 0001-01-01 or after
9999-12-31) is refused on one line saying which days are allowed, on the CLI and over
MCP; the calendar's own edges work with a window that fits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcp import Client
from rubi import app
from rubi.cli.main import cli
from rubi.mcp.server import build_server

from helpers import rubi_project


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(tmp_path / "proj", {"pkg/router.py": "X = 1\n"})
    app.index(app.locate(root / ".rubi"))
    return root


OUT_OF_RANGE = [
    (["0001-01-01", "--days", "366"], "give a day from 0002-01-02 to 9998-12-30"),
    (["9999-12-31"], "give a day from 0001-01-04 to 9999-12-28"),
    (["0001-01-03", "--days", "3"], "leave the calendar (0001-01-01 to 9999-12-31)"),
]


@pytest.mark.parametrize(("args", "message"), OUT_OF_RANGE)
def test_the_cli_refuses_a_window_off_the_calendar_on_one_line(
    project: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(cli, ["timeline", *args, "--vault", str(project / ".rubi")])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]


def test_a_window_at_the_calendars_edge_is_listed(project: Path) -> None:
    result = CliRunner().invoke(
        cli, ["timeline", "0001-01-02", "--days", "1", "--vault", str(project / ".rubi")]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("0001-01-01 … 0001-01-03")


def _timeline(project: Path, args: dict[str, Any]) -> Any:
    async def main() -> Any:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return await client.call_tool("timeline", args)

    return asyncio.run(main())


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "args", [{"ref": "9999-12-31"}, {"ref": "0001-01-01", "days": 366}, {"ref": "0001-01-01"}]
)
def test_the_mcp_timeline_refuses_a_window_off_the_calendar(
    project: Path, args: dict[str, Any]
) -> None:
    result = _timeline(project, args)
    text = "\n".join(c.text for c in result.content if hasattr(c, "text"))
    assert result.is_error
    assert "leave the calendar (0001-01-01 to 9999-12-31)" in text and "\n" not in text


def test_a_day_is_not_named_twice_in_the_header() -> None:
    """``rubi timeline 2026-12-06`` printed "around 2026-12-06 (2026-12-06)"; a note's
    day still follows its name."""
    from rubi.app.timeline import Timeline, render_timeline

    day = Timeline(ref="2026-12-06", centre="2026-12-06", since="2026-12-03", until="2026-12-09")
    assert render_timeline(day).splitlines()[0] == (
        "2026-12-03 … 2026-12-09 around 2026-12-06, newest first:"
    )
    note = Timeline(ref="Use JWT", centre="2026-12-06", since="2026-12-03", until="2026-12-09")
    assert "around Use JWT (2026-12-06)," in render_timeline(note)
