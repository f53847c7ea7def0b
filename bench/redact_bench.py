"""What redaction costs per 100 kB of transcript-like text (capture runs it in every
Stop hook, on each side of a turn).

Usage::

    python bench/redact_bench.py [--kb 100] [--runs 30]

The text is this checkout's own docs and Python source (prose and code full of the
words ``token``, ``secret``, ``password``, ``key``, as a coding session's turns are),
cut into 20,000-character turns (what capture keeps of one side) until ``--kb`` kB.
Prints, in milliseconds per 100 kB: ``cold`` (a fresh process: the patterns compile
on first use, measured in a subprocess per run) and ``warm`` (patterns compiled), the
median and the best of ``--runs``, and how many marks the text got (real text: a few
example credentials in docs). Run it with ``PYTHONPATH`` pointing at another tree's
``src`` to compare versions on the same text.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TURN = 20_000


def corpus(kb: int) -> list[str]:
    """Turns of up to :data:`TURN` characters, ``kb`` kB in all."""
    files = sorted(ROOT.glob("docs/*.md")) + sorted((ROOT / "src" / "rubi").rglob("*.py"))
    text = ""
    for f in files:
        text += f.read_text(encoding="utf-8") + "\n"
        if len(text) >= kb * 1000:
            break
    text = text[: kb * 1000]
    return [text[i : i + TURN] for i in range(0, len(text), TURN)]


def warm(turns: list[str], runs: int) -> tuple[list[float], int]:
    from rubi.transcripts.privacy import redact, secret_spans

    for t in turns:
        redact(t)  # compile what the text needs
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for t in turns:
            redact(t)
        times.append(time.perf_counter() - start)
    return times, sum(len(secret_spans(t)) for t in turns)


_COLD = """
import sys, time
sys.path[:0] = [{bench!r}]
from redact_bench import corpus
turns = corpus({kb})
start = time.perf_counter()
from rubi.transcripts.privacy import redact
for t in turns:
    redact(t)
print(time.perf_counter() - start)
"""


def cold(kb: int, runs: int) -> list[float]:
    code = _COLD.format(bench=str(Path(__file__).parent), kb=kb)
    return [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=int, default=100)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    turns = corpus(args.kb)
    scale = 100 / args.kb * 1000  # seconds → ms per 100 kB
    warm_times, marks = warm(turns, args.runs)
    cold_times = cold(args.kb, max(3, args.runs // 5))
    import rubi

    print(f"rubi from {Path(rubi.__file__).parent}")
    print(f"text: {sum(map(len, turns)):,} characters in {len(turns)} turns, {marks} marks")
    for name, times in (("cold (import + compile + redact)", cold_times), ("warm", warm_times)):
        print(
            f"{name}: median {statistics.median(times) * scale:.1f} ms, "
            f"best {min(times) * scale:.1f} ms per 100 kB ({len(times)} runs)"
        )


if __name__ == "__main__":
    main()
