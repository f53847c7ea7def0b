"""Wall time of the PreCompact hook on large transcripts, as Claude Code runs it.

Usage::

    python bench/precompact_bench.py [--sizes 2,4,50] [--append 1]

For each size (MB) a synthetic transcript is generated in a temp project (``rubi
init``): every turn has a distinct request, a file read, a file edited, a Bash
command, and a tool result (``--result-bytes``), so each list of the record holds
thousands of distinct items (the case that made the old de-duplication quadratic:
2 MB took 8 s, 4 MB 34 s, 50 MB passed Claude Code's 60 s hook limit). The hook is
run as ``rubi hook PreCompact`` (a fresh process, as Claude Code runs it); then
``--append`` MB more are written and the hook runs again, reading only the new part.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rubi import app

RUBI = str(Path(sys.executable).with_name("rubi"))


def write_turns(path: Path, megabytes: float, first: int = 0, result_bytes: int = 1500) -> int:
    """Append turns to ``path`` until it grew by ``megabytes``; returns the next turn
    number. Files read and edited are in the transcript's folder (the project)."""
    root = path.parent
    goal = int(megabytes * 1_000_000)
    written = 0
    turn = first
    result = "x" * result_bytes
    with path.open("a", encoding="utf-8") as fh:
        while written < goal:
            lines = [
                {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": f"please fix bug {turn} in module m{turn}: the login token "
                        f"expires too early for tenant t{turn % 97}",
                    },
                },
                {
                    "type": "assistant",
                    "message": {
                        "role": "assistant",
                        "content": [
                            {"type": "text", "text": f"Looking at m{turn}."},
                            {
                                "type": "tool_use",
                                "name": "Read",
                                "input": {"file_path": f"{root}/src/pkg{turn % 50}/m{turn}.py"},
                            },
                            {
                                "type": "tool_use",
                                "name": "Bash",
                                "input": {"command": f"pytest tests/test_m{turn}.py -q -k token"},
                            },
                            {
                                "type": "tool_use",
                                "name": "Edit",
                                "input": {"file_path": f"{root}/src/pkg{turn % 50}/m{turn}.py"},
                            },
                        ],
                    },
                },
            ]
            if result_bytes:
                block = {"type": "tool_result", "content": result}
                lines.append({"type": "user", "message": {"role": "user", "content": [block]}})
            for line in lines:
                text = json.dumps(line) + "\n"
                fh.write(text)
                written += len(text)
            turn += 1
    return turn


def run_hook(project: Path, transcript: Path) -> float:
    payload = {
        "session_id": "bench-precompact",
        "transcript_path": str(transcript),
        "cwd": str(project),
        "hook_event_name": "PreCompact",
        "trigger": "auto",
    }
    started = time.perf_counter()
    proc = subprocess.run(
        [RUBI, "hook", "PreCompact"], input=json.dumps(payload), capture_output=True, text=True
    )
    elapsed = time.perf_counter() - started
    if proc.returncode != 0 or proc.stdout.strip():
        raise RuntimeError(f"PreCompact: exit {proc.returncode}: {proc.stdout[-300:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="2,4,50", help="transcript sizes in MB")
    parser.add_argument("--append", type=float, default=1.0, help="MB appended afterwards")
    parser.add_argument(
        "--result-bytes",
        type=int,
        default=1500,
        help="size of each tool result (0: none, the densest transcript: most items per MB)",
    )
    args = parser.parse_args()
    table = Table(
        title=f"PreCompact as a process, synthetic transcripts ({args.result_bytes} B results)"
    )
    for col in ("transcript", "turns", "first run", "records", f"+{args.append:g} MB run"):
        table.add_column(col, justify="right")
    for size in (float(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "proj"
            project.mkdir()
            app.init_project(project)
            transcript = project / "transcript.jsonl"
            turns = write_turns(transcript, size, result_bytes=args.result_bytes)
            first = run_hook(project, transcript)
            write_turns(transcript, args.append, first=turns, result_bytes=args.result_bytes)
            second = run_hook(project, transcript)
            records = sum(
                p.read_text(encoding="utf-8").count("## Record")
                for p in (project / ".rubi" / "sessions").glob("*.md")
            )
            table.add_row(
                f"{size:g} MB", f"{turns:,}", f"{first:.2f} s", str(records), f"{second:.2f} s"
            )
    Console().print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
