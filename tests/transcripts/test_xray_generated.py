"""A generated session whose every total is computed by hand (see the comments).

Main chain: msg_1 (split over two lines), msg_2 (line written twice), a broken line, a
10-minute pause then msg_3 (cache expired: prefix rewritten), an API-error line, a
compaction, msg_4; an inline sidechain call msg_5; a subagent file with msg_6 (1-hour
cache); a late copy of msg_1 (as a resume writes it). A second, resumed session copies
msg_1 again and adds msg_7.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rubi.transcripts.events import ApiCall, Compaction, Usage
from rubi.transcripts.settings import PriceRatios
from rubi.transcripts.transcript import TranscriptReader
from rubi.transcripts.xray import scan
from transcripts.xray_builder import (
    SESSION,
    T0,
    assistant,
    compact_boundary,
    tool_result,
    usage,
    user,
    write_jsonl,
)

MSG1_A = assistant(
    "msg_1",
    usage(10, w5=1000, read=4000, out=5),
    2,
    tools=[("toolu_1", "Read", "/home/dev/demo/a.py")],
)
MSG1_B = assistant(
    "msg_1", usage(10, w5=1000, read=4000, out=50), 3, tools=[("toolu_b", "Bash", None)]
)


def _write_session(folder: Path) -> Path:
    main = write_jsonl(
        folder / f"{SESSION}.jsonl",
        [
            {"type": "file-history-snapshot", "messageId": "x", "snapshot": {}},
            user("hello", 0),  # 5 chars -> 2 tokens of user text before the first call
            MSG1_A,
            MSG1_B,  # split line: output grows to 50, usage otherwise repeated
            tool_result("toolu_1", "x" * 400, 4),  # 100 tokens, after 1 call started
            tool_result("toolu_b", "", 4),
            assistant(
                "msg_2",
                usage(5, w5=600, read=5010, out=20),
                10,
                tools=[("toolu_2", "Read", "/home/dev/demo/a.py")],
            ),
            assistant("msg_2", usage(5, w5=600, read=5010, out=20), 10),  # written twice
            '{"type":"assistant","message":{"id":"msg_trunc',  # truncated line
            tool_result("toolu_2", "y" * 200, 11),  # 50 tokens, after 2 calls started
            # 600 s pause (> 5 min TTL); nothing read from the cache: expiry
            assistant("msg_3", usage(5, w5=5700, read=0, out=10), 611),
            assistant("err_1", usage(), 612, model="<synthetic>", error=True),
            compact_boundary(700, 5705),
            user(
                "This session is being continued from a previous conversation.", 701, summary=True
            ),
            assistant("msg_4", usage(3, w5=2000, read=0, out=7), 710),
            user("Find it", 711, sidechain=True),
            assistant("msg_5", usage(2, w5=300, read=100, out=4), 712, sidechain=True, agent="abc"),
            MSG1_A,  # a copy of an earlier call: counted once
            "",  # blank line: ignored
        ],
    )
    write_jsonl(
        folder / SESSION / "subagents" / "agent-def.jsonl",
        [assistant("msg_6", usage(1, w1=200, out=2), 720, sidechain=True, agent="def")],
    )
    return main


# Hand totals: main msg_1..4 plus msg_5 (inline sidechain) and msg_6 (subagent).
INPUT = 10 + 5 + 5 + 3 + 2 + 1  # 26
WRITE_5M = 1000 + 600 + 5700 + 2000 + 300  # 9600
WRITE_1H = 200
READ = 4000 + 5010 + 100  # 9110
OUTPUT = 50 + 20 + 10 + 7 + 4 + 2  # 93
COST = INPUT + WRITE_5M * 1.25 + WRITE_1H * 2 + READ * 0.1 + OUTPUT * 5  # 13802


def test_reader_merges_dedupes_and_counts(tmp_path: Path) -> None:
    main = _write_session(tmp_path)
    reader = TranscriptReader()
    events = list(reader.read_file(main))
    calls = [e for e in events if isinstance(e, ApiCall)]
    assert [c.key for c in calls] == ["msg_1", "msg_2", "msg_3", "msg_4", "msg_5"]
    assert calls[0].usage == Usage(10, 1000, 0, 4000, 50)
    assert calls[4].chain == "agent:abc"
    assert [e for e in events if isinstance(e, Compaction)] == [
        Compaction("main", "auto", 5705, T0.timestamp() + 700, 3)
    ]
    stats = reader.stats
    assert stats.bad_lines == 1
    assert stats.bad_examples == [f"{main}:9"]
    assert stats.synthetic_lines == 1
    assert stats.split_lines == 2
    assert stats.repeated_calls == 1
    assert stats.lines == 18  # the blank line is not a line


def test_session_totals_by_hand(projects: Path) -> None:
    _write_session(projects / "-work-demo")
    report = scan(days=None, root=projects)
    assert len(report.sessions) == 1
    session = report.sessions[0]
    assert session.usage == Usage(INPUT, WRITE_5M, WRITE_1H, READ, OUTPUT)
    assert report.cost == pytest.approx(COST) == pytest.approx(13802)
    assert session.cost == pytest.approx(COST)
    assert session.side_calls == 2
    assert session.curve == (5010, 5615, 5705, 2003)
    assert session.current_context == 2003
    assert session.peak_context == 5705
    assert session.startup_tokens == 5010 - 2
    assert session.resumed_after == frozenset({3})
    # The pause before msg_3 expired the cache: 5615 tokens rewritten instead of read.
    (rewrite,) = session.rewrites
    assert rewrite.expired and rewrite.call_index == 2
    assert rewrite.gap_seconds == pytest.approx(601)
    assert rewrite.tokens == 5615
    assert rewrite.extra_cost == pytest.approx(5615 * (1.25 - 0.1))
    assert report.expiries == 1
    assert report.compactions == 1
    # toolu_1 (100 tok) is carried by calls 1-2 (the compaction ends it): write + 1 read;
    # toolu_2 (50 tok) only by call 2: one write.
    read = session.tools["Read"]
    assert (read.calls, read.tokens) == (2, 150)
    assert read.carried_cost == pytest.approx(100 * (1.25 + 0.1) + 50 * 1.25)
    assert session.reads["/home/dev/demo/a.py"].reads == 2
    (again,) = report.rereads
    # the second whole read of a.py repeats the first: its own 50 tokens
    assert (again.path, again.extra_reads, again.extra_tokens) == ("/home/dev/demo/a.py", 1, 50)
    stats = report.read_stats
    assert (stats.files, stats.bad_lines, stats.synthetic_lines) == (2, 1, 1)
    shares = report.cost_by_class
    assert shares["cache_read"] == pytest.approx(READ * 0.1)
    assert report.cache_read_share == pytest.approx(911 / 13802)


def test_resumed_copy_counts_once(projects: Path) -> None:
    folder = projects / "-work-demo"
    main = _write_session(folder)
    resumed = write_jsonl(
        folder / "bbbbbbbb-1111-4222-8333-444444444444.jsonl",
        [MSG1_A, MSG1_B, assistant("msg_7", usage(1, w5=10, read=6000, out=1), 900)],
    )
    for path in (main, folder / SESSION / "subagents" / "agent-def.jsonl"):
        os.utime(path, (1_000_000, 1_000_000))  # the original is older: it owns msg_1
    report = scan(days=None, root=projects)
    by_id = {s.session_id: s for s in report.sessions}
    assert by_id[resumed.stem].curve == (6011,)
    assert by_id[resumed.stem].startup_tokens is None  # it began from copied context
    assert report.usage.input == INPUT + 1
    assert report.read_stats.repeated_calls == 1 + 2


def test_prices_are_settings(projects: Path) -> None:
    _write_session(projects / "-work-demo")
    flat = PriceRatios(1, 1, 1, 1, 1)
    report = scan(days=None, root=projects, prices=flat)
    assert report.cost == INPUT + WRITE_5M + WRITE_1H + READ + OUTPUT
