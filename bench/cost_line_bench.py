"""What the per-session cost line costs the SessionStart that shows it: reading the
ended session's transcript (``rubi.app.sessioncost.transcript_cost``), against the floor
of parsing every line of the same file with ``json.loads``.

Usage::

    python bench/cost_line_bench.py TRANSCRIPT [--copies 80] [--runs 5]

TRANSCRIPT (a ``.jsonl`` session, e.g. one of the shared data's real ones) is repeated
``--copies`` times, each copy with its own message ids so every call counts, into a
temporary file. The floor and the line run interleaved, ``--runs`` times each; the
medians of wall and CPU seconds are printed with the file's size and line count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _copies(source: Path, copies: int, dest: Path) -> None:
    lines = source.read_text(encoding="utf-8").splitlines()
    with dest.open("w", encoding="utf-8") as out:
        for k in range(copies):
            for line in lines:
                record = json.loads(line)
                message = record.get("message")
                if isinstance(message, dict) and message.get("id"):
                    message["id"] = f"{message['id']}-{k}"
                out.write(json.dumps(record) + "\n")


def _floor(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for raw in fh if json.loads(raw) is not None)


def _timed(run: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", type=Path)
    parser.add_argument("--copies", type=int, default=80)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    from rubi.app.sessioncost import transcript_cost

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.jsonl"
        _copies(args.transcript, args.copies, path)
        transcript_cost(path)  # imports and first read out of the measure
        floor, line = [], []
        for _ in range(args.runs):
            floor.append(_timed(lambda: _floor(path)))
            line.append(_timed(lambda: transcript_cost(path)))
        size, count = path.stat().st_size, _floor(path)
    for name, runs in (("floor (json.loads per line)", floor), ("cost line", line)):
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{name:28} {wall:.3f} s wall  {cpu:.3f} s CPU")
    print(f"{size / 1e6:.1f} MB, {count} lines, {args.runs} runs (medians)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
