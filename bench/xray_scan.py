"""Benchmark the Token X-ray: time and memory to scan about 1 GB of transcripts.

A script, not a test. It writes synthetic Claude Code transcripts shaped like real ones
(split API responses, tool results from 200 B to 40 kB, inline sidechains, subagent
files, compactions, API-error lines, a few broken lines, file-history snapshots) into
a temporary ``projects/`` folder, then runs the scan in a fresh child process and
reports wall time, throughput and peak RSS (``ru_maxrss`` read with ``os.wait4``).
With ``--chromium`` it also writes the HTML report and renders it with headless
Chromium (screenshot path printed, to look at).

Usage::

    .venv/bin/python bench/xray_scan.py                  # 1 GB, kept in /tmp/xray-bench
    .venv/bin/python bench/xray_scan.py --size-mb 200 --chromium
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SEED = 20261129
LINES_PER_SESSION = (600, 6000)
"""Sessions between 600 and 6000 lines: short fixes to day-long sessions."""

RESULT_CHARS = (120, 200, 400, 800, 800, 1_500, 2_000, 4_000, 6_000, 16_000, 40_000)
"""Tool-result sizes drawn uniformly: mostly small (Glob, Edit, short Bash), sometimes a
long Read or a big log, as in real sessions."""

SNIPPET = 'def handler(event: dict) -> str:\n    """Return the "name" field."""\n    é = 1\n'
"""Code-like text with quotes, newlines and non-ASCII, so JSON has escapes to decode."""


def _usage(inp: int, write: int, read: int, out: int) -> dict[str, int | dict[str, int]]:
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
        "cache_creation": {"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
        "output_tokens": out,
    }


def _line(kind: str, sid: str, at: float, **fields: Any) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(at)) + ".000Z"
    record: dict[str, Any] = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/user/proj",
        "sessionId": sid,
        "version": "2.1.100",
        "gitBranch": "main",
        "type": kind,
        "timestamp": stamp,
    }
    record.update(fields)
    return json.dumps(record)


def write_session(path: Path, sid: str, lines: int, rng: random.Random) -> int:
    """Write one session of about ``lines`` lines; returns bytes written."""
    texts = {n: (SNIPPET * (n // len(SNIPPET) + 1))[:n] for n in RESULT_CHARS}
    at = 1_780_000_000.0 + rng.random() * 1e6
    context = 18_000
    written = 0
    count = 0
    with path.open("w", encoding="utf-8") as out:

        def emit(text: str) -> None:
            nonlocal written, count
            out.write(text + "\n")
            written += len(text) + 1
            count += 1

        emit(
            json.dumps(
                {
                    "type": "file-history-snapshot",
                    "messageId": "m",
                    "snapshot": {"trackedFileBackups": {"a.py": "y" * 3000}},
                }
            )
        )
        emit(_line("user", sid, at, message={"role": "user", "content": "Fix the bug."}))
        call = 0
        while count < lines:
            call += 1
            pause = rng.random() < 0.01
            at += 700 if pause else rng.uniform(2, 20)
            grow = rng.choice(RESULT_CHARS) // 4
            side = rng.random() < 0.08
            usage = _usage(
                3, context if pause else grow + 300, 0 if pause else context, rng.randint(20, 900)
            )
            mid = f"msg_{sid[:8]}_{call}"
            for part in range(rng.choice((1, 1, 2, 3))):  # split responses
                tool = f"toolu_{sid[:8]}_{call}_{part}"
                content = [
                    {
                        "type": "tool_use",
                        "id": tool,
                        "name": rng.choice(("Read", "Read", "Bash", "Grep", "Edit")),
                        "input": {"file_path": f"/home/user/proj/src/m{rng.randint(0, 60)}.py"},
                    }
                ]
                emit(
                    _line(
                        "assistant",
                        sid,
                        at,
                        isSidechain=side,
                        requestId=f"req_{mid}",
                        message={
                            "id": mid,
                            "model": "claude-sonnet-4-5",
                            "role": "assistant",
                            "content": content,
                            "usage": usage,
                        },
                    )
                )
                emit(
                    _line(
                        "user",
                        sid,
                        at + 1,
                        isSidechain=side,
                        message={
                            "role": "user",
                            "content": [
                                {
                                    "type": "tool_result",
                                    "tool_use_id": tool,
                                    "content": texts[rng.choice(RESULT_CHARS)],
                                }
                            ],
                        },
                    )
                )
            if not side:
                context += grow + 300
            if context > 160_000 and rng.random() < 0.5:
                emit(
                    _line(
                        "system",
                        sid,
                        at,
                        subtype="compact_boundary",
                        compactMetadata={"trigger": "auto", "preTokens": context},
                    )
                )
                context = 30_000
            if rng.random() < 0.002:
                emit('{"type":"assistant","message":{"id":"trunc')  # a broken line
            if rng.random() < 0.003:
                emit(
                    _line(
                        "assistant",
                        sid,
                        at,
                        isApiErrorMessage=True,
                        message={
                            "id": f"err{call}",
                            "model": "<synthetic>",
                            "usage": _usage(0, 0, 0, 0),
                        },
                    )
                )
    return written


def generate(root: Path, size_mb: int) -> tuple[int, int]:
    """Fill ``root`` (a projects folder) with about ``size_mb`` MB; returns (files, bytes)."""
    rng = random.Random(SEED)
    total = 0
    files = 0
    index = 0
    while total < size_mb * 1_000_000:
        folder = root / f"-home-user-proj{index % 12}"
        folder.mkdir(parents=True, exist_ok=True)
        sid = f"{index:08x}-0000-4000-8000-000000000000"
        total += write_session(folder / f"{sid}.jsonl", sid, rng.randint(*LINES_PER_SESSION), rng)
        files += 1
        if index % 5 == 0:  # a subagent file
            agent = folder / sid / "subagents" / "agent-a1.jsonl"
            agent.parent.mkdir(parents=True, exist_ok=True)
            total += write_session(agent, sid + "-agent", 300, rng)
            files += 1
        index += 1
    return files, total


CHILD = """
import json, sys, time
from pathlib import Path
from rubi.transcripts.xray import scan
from rubi.transcripts.report_html import write_html
start = time.perf_counter()
report = scan(days=None, root=Path(sys.argv[1]))
elapsed = time.perf_counter() - start
if len(sys.argv) > 2:
    write_html(report, Path(sys.argv[2]))
s = report.read_stats
print(json.dumps({"seconds": elapsed, "sessions": len(report.sessions), "lines": s.lines,
                  "bytes": s.bytes, "bad": s.bad_lines, "calls": sum(len(x.main_calls)
                  for x in report.sessions), "best": report.best.threshold if report.best
                  else None, "saving": report.best.share if report.best else 0}))
"""


def measure(root: Path, html: Path | None) -> dict[str, Any]:
    """Scan ``root`` in a fresh child process; returns its figures and peak RSS (MB)."""
    argv = [sys.executable, "-c", CHILD, str(root)] + ([str(html)] if html else [])
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        raise SystemExit(f"scan failed with status {status}")
    figures: dict[str, Any] = json.loads(output)
    figures["peak_rss_mb"] = usage.ru_maxrss / 1024
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "xray-bench")
    parser.add_argument("--chromium", action="store_true", help="render the HTML report")
    args = parser.parse_args()
    root: Path = args.dir / f"{args.size_mb}mb" / "projects"
    if not root.is_dir():
        start = time.perf_counter()
        files, size = generate(root, args.size_mb)
        print(
            f"generated {files} files, {size / 1e6:.0f} MB in {time.perf_counter() - start:.0f} s"
        )
    html = args.dir / "report.html" if args.chromium else None
    figures = measure(root, html)
    mb = figures["bytes"] / 1e6
    print(
        f"scanned {mb:.0f} MB, {figures['lines']} lines, {figures['sessions']} sessions, "
        f"{figures['calls']} main-chain calls, {figures['bad']} broken lines"
    )
    print(
        f"time {figures['seconds']:.1f} s ({mb / figures['seconds']:.0f} MB/s), "
        f"peak RSS {figures['peak_rss_mb']:.0f} MB; best threshold {figures['best']} "
        f"saves {figures['saving'] * 100:.1f}%"
    )
    if html is not None:
        shot = args.dir / "report.png"
        subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={tempfile.mkdtemp()}",
                "--window-size=1280,2400",
                f"--screenshot={shot}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        print(f"report {html} ({html.stat().st_size / 1e3:.0f} kB), screenshot {shot}")


if __name__ == "__main__":
    main()
