"""What counts as a re-read, and what ``days`` means, on every X-ray surface.

A read that a hook or the user denied (or that failed) comes back ``is_error`` and
read nothing; a ranged read of another part of a big file is not a re-read. Only the
same part read again in the same conversation is. ``days=0`` is all time for the CLI,
the facade and the MCP tool alike.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcp import Client
from rubi import app
from rubi.app import xray as use_case
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.mcp.server import build_server
from rubi.transcripts.locate import project_slug
from rubi.transcripts.summary import first_change
from rubi.transcripts.xray import scan
from transcripts.xray_builder import SESSION, assistant, tool_result, usage, user, write_jsonl

from helpers import rubi_project

BIG = "/home/dev/demo/big.py"
DENIED = "Read of big.py blocked by hook: 5,000 lines; read a range (offset/limit)."


def read_call(
    msg: str, at: float, tool_id: str, path: str, *, agent: str | None = None, **part: int
) -> dict[str, Any]:
    """An assistant line with one Read of ``path`` (``offset``/``limit`` in ``part``)."""
    record = assistant(
        msg,
        usage(5, w5=100, read=1000, out=10),
        at,
        tools=[(tool_id, "Read", path)],
        sidechain=agent is not None,
        agent=agent,
    )
    record["message"]["content"][-1]["input"].update(part)
    return record


def result(tool_id: str, chars: int, at: float, *, error: bool = False) -> Any:
    """A tool_result of ``chars`` characters (``chars / 4`` tokens), ``is_error`` if asked."""
    record = tool_result(tool_id, ("x" if not error else DENIED) * chars, at)
    if error:
        record["message"]["content"][0]["is_error"] = True
    return record


def big_file_session(folder: Path) -> Path:
    """Reads of one big file: whole (400 tok), denied twice, two ranges (100 tok each),
    the first range again, the whole file again; a subagent reads it whole once."""
    return write_jsonl(
        folder / f"{SESSION}.jsonl",
        [
            user("look at big.py", 0),
            read_call("m1", 1, "t1", BIG),
            result("t1", 1600, 2),  # 400 tokens
            read_call("m2", 3, "t2", BIG),
            result("t2", 1, 4, error=True),  # denied: no read
            read_call("m3", 5, "t3", BIG),
            result("t3", 1, 6, error=True),
            read_call("m4", 7, "t4", BIG, offset=1, limit=50),
            result("t4", 400, 8),  # 100 tokens
            read_call("m5", 9, "t5", BIG, offset=51, limit=50),
            result("t5", 400, 10),  # another part: not a re-read
            read_call("m6", 11, "t6", BIG, offset=1, limit=50),
            result("t6", 400, 12),  # the same part again: a re-read of 100 tokens
            read_call("m7", 13, "t7", BIG),
            result("t7", 1600, 14),  # the whole file again: a re-read of 400 tokens
            read_call("m8", 15, "t8", BIG, agent="sub"),
            result("t8", 1600, 16),  # another conversation: its first read
        ],
    )


def test_denied_and_other_parts_are_not_rereads(tmp_path: Path) -> None:
    projects = tmp_path / "projects"
    big_file_session(projects / "-work-demo")
    report = scan(days=None, root=projects)
    (session,) = report.sessions
    reads = session.reads[BIG]
    assert (reads.reads, reads.repeats, reads.repeat_tokens) == (6, 2, 500)
    assert reads.tokens == 400 + 100 + 100 + 100 + 400 + 400
    (again,) = report.rereads
    assert (again.extra_reads, again.extra_tokens, again.sessions) == (2, 500, 1)
    assert session.tools["Read"].calls == 8  # denied calls still weigh as tool results


def test_denied_reads_give_no_reread_advice(tmp_path: Path) -> None:
    """The read guard denies a whole read of a huge file three times, then the agent
    reads ranges: before, this was "keep notes on files read again and again"."""
    projects = tmp_path / "projects"
    records: list[Any] = [user("read big.py", 0)]
    for i in range(3):
        records += [
            read_call(f"d{i}", 1 + i, f"d{i}", BIG),
            result(f"d{i}", 1, 1.5 + i, error=True),
        ]
    for i in range(4):
        start = 1 + 500 * i
        records += [
            read_call(f"r{i}", 10 + i, f"r{i}", BIG, offset=start, limit=500),
            result(f"r{i}", 40_000, 10.5 + i),
        ]
    write_jsonl(projects / "-work-demo" / f"{SESSION}.jsonl", records)
    report = scan(days=None, root=projects)
    assert report.rereads == ()
    assert "re-read" not in first_change(report)


def test_days_zero_is_all_time_everywhere(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    project = rubi_project(tmp_path / "proj", {"a.py": "x = 1\n"})
    folder = isolated_home / ".claude" / "projects" / project_slug(project)
    old = big_file_session(folder)
    os.utime(old, (1_000_000, 1_000_000))  # 1970: outside every window but "all time"

    facade = use_case.summary(days=0, project=project)
    assert facade.startswith("Token X-ray (all time): 1 session")
    assert use_case.summary(days=30, project=project).startswith(
        "Token X-ray (last 30 days): no Claude Code sessions"
    )
    with pytest.raises(RubiError, match="days"):
        use_case.summary(days=-1, project=project)

    cli_out = CliRunner().invoke(cli, ["xray", "--days", "0", "--project", str(project), "--json"])
    assert cli_out.exit_code == 0, cli_out.output
    assert '"days": null' in cli_out.output and SESSION in cli_out.output

    async def call(days: int) -> Any:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return await client.call_tool("xray", {"days": days})

    mcp_zero = asyncio.run(call(0))
    assert not mcp_zero.is_error
    assert mcp_zero.content[0].text == facade
    negative = asyncio.run(call(-1))
    assert negative.is_error and "days" in negative.content[0].text
