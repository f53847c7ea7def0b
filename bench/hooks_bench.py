"""Wall time of each Claude Code hook, end to end as a process, as Claude Code runs it.

Usage::

    python bench/hooks_bench.py PROJECT [--runs 30] [--transcript FILE]

PROJECT must hold a ``.rubi/`` vault (``rubi init`` + notes) and be indexed once. Each
event is run ``--runs`` times as ``rubi hook <Event>`` with a realistic payload on
stdin; the table gives p50 and p95 wall times and the budget from the issue.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

RUBI = str(Path(sys.executable).with_name("rubi"))
BUDGET_MS = {
    "SessionStart": 400,
    "UserPromptSubmit": 250,
    "PreToolUse": 80,
    "PostToolUse": 80,
    "Stop": None,
    "PreCompact": None,
    "SessionEnd": None,
}


def payloads(project: Path, transcript: Path, big_file: Path) -> dict[str, dict[str, Any]]:
    base = {"session_id": "bench-0000", "cwd": str(project), "transcript_path": str(transcript)}
    return {
        "SessionStart": {**base, "hook_event_name": "SessionStart", "source": "startup"},
        "UserPromptSubmit": {
            **base,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "how do I sync my vault between two devices?",
        },
        "PreToolUse": {
            **base,
            "hook_event_name": "PreToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(big_file)},
        },
        "PostToolUse": {
            **base,
            "hook_event_name": "PostToolUse",
            "tool_name": "Read",
            "tool_input": {"file_path": str(big_file)},
            "tool_response": {},
        },
        "Stop": {
            **base,
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": "Done.",
        },
        "PreCompact": {**base, "hook_event_name": "PreCompact", "trigger": "auto"},
        "SessionEnd": {**base, "hook_event_name": "SessionEnd", "reason": "other"},
    }


def time_hook(event: str, payload: dict[str, Any], runs: int) -> list[float]:
    data = json.dumps(payload)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        proc = subprocess.run([RUBI, "hook", event], input=data, capture_output=True, text=True)
        times.append((time.perf_counter() - started) * 1000)
        if proc.returncode != 0:
            raise RuntimeError(f"{event}: exit {proc.returncode}: {proc.stderr[-300:]}")
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--transcript", type=Path, default=None)
    args = parser.parse_args()
    project = args.project.resolve()
    transcript = args.transcript or project / ".bench-transcript.jsonl"
    if not transcript.exists():
        transcript.write_text("", encoding="utf-8")
    big = project / ".bench-big.log"
    big.write_text("line\n" * 20_000, encoding="utf-8")
    table = Table(title=f"rubi hooks as processes ({args.runs} runs each), {project.name}")
    for col in ("event", "p50", "p95", "budget (p50)"):
        table.add_column(col, justify="left" if col == "event" else "right")
    for event, payload in payloads(project, transcript, big).items():
        time_hook(event, payload, 2)  # warm the OS cache and the index fast path
        times = sorted(time_hook(event, payload, args.runs))
        budget = BUDGET_MS[event]
        table.add_row(
            event,
            f"{statistics.median(times):,.0f} ms",
            f"{times[int(0.95 * (len(times) - 1))]:,.0f} ms",
            f"{budget} ms" if budget else "—",
        )
    big.unlink()
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
