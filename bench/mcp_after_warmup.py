"""A fresh ``rubi serve``'s first client searches after its warm-up.

Usage::

    python bench/mcp_after_warmup.py TARGET --starts 5 --calls 40 [--base CHECKOUT]
        [--questions bench/warm_questions.txt --questions bench/warm_questions2.txt]

TARGET (a vault folder or a project with ``.rubi/``, indexed already) is served in
place: ``rubi serve --vault TARGET`` (``--project`` for a project). Each start speaks
to the server line by line as Claude Code does (``initialize``,
``notifications/initialized``, ``tools/list``), then leaves it idle until its
warm-up search has run (the server does it after 20 s of life and 2 s without a
call: :mod:`rubi.mcp.startup`; here: until it has lived ``--idle`` seconds and used
no CPU for 1 s), then sends ``--calls`` searches of distinct queries, one after the
other (the questions' lines, shuffled per start with ``--seed`` + the start's number:
each start's first calls are other questions, both trees' the same). Figures: the
server's CPU per call (its threads' schedstat), for calls 1-3, 4-10 and 11 on; its
CPU by the end of the handshake and over the warm-up; its resident memory after the
warm-up and after the calls. ``--base CHECKOUT`` alternates the servers of another
source tree (``CHECKOUT/src`` on ``PYTHONPATH``) start by start, the order swapped
every start. ``--answers PREFIX`` writes each start's answers to
``PREFIX-<tree>-<start>.json`` (two trees' files compare byte for byte).

Every start needs the same index: run each with its own ``HOME`` and
``XDG_CACHE_HOME`` as the caller set them (the server refreshes nothing of an
unchanged vault).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchproc import (
    Lines,
    cpu_seconds,
    end_on_eof,
    rss_mb,
    thread_cpu_delta_s,
    thread_cpu_ns,
)
from mcp_bench import INIT, _ask, _send, serve_args

RUBI = str(Path(sys.executable).with_name("rubi"))
IDLE_CPU_S = 0.005
"""The warm-up is over once the server used less CPU than this over a second."""


def _questions(files: list[Path]) -> list[str]:
    found: list[str] = []
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if (q := line.strip()) and not q.startswith("#"):
                found.append(q)
    return list(dict.fromkeys(found))


def one_start(
    target: Path, src: Path | None, queries: list[str], idle_s: float
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One fresh server: handshake, idle through its warm-up, then the searches."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [RUBI, *serve_args(target)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines = Lines(proc.stdout.fileno())
    out: dict[str, Any] = {}
    answers: dict[str, Any] = {}
    try:
        _ask(proc, lines, 0, "initialize", INIT, INIT["protocolVersion"])
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _ask(proc, lines, 1, "tools/list", None, "")
        out["handshake_cpu"] = cpu_seconds(proc.pid)
        time.sleep(max(0.0, idle_s - (time.perf_counter() - started)))
        last = cpu_seconds(proc.pid)
        while True:
            time.sleep(1.0)
            now = cpu_seconds(proc.pid)
            if now - last < IDLE_CPU_S:
                break
            last = now
        out["warm_cpu"] = now - out["handshake_cpu"]
        out["rss_warm"] = rss_mb(proc.pid)
        cpu: list[float] = []
        for i, query in enumerate(queries):
            ticks = thread_cpu_ns(proc.pid)
            call = {"name": "search", "arguments": {"query": query}}
            result = _ask(proc, lines, 10 + i, "tools/call", call, "")
            cpu.append(thread_cpu_delta_s(ticks, thread_cpu_ns(proc.pid)))
            answers[query] = result.get("structuredContent") or result.get("content")
        out["cpu"] = cpu
        out["rss_end"] = rss_mb(proc.pid)
    finally:
        end_on_eof(proc)
    return out, answers


def _ms(values: list[float]) -> str:
    return f"{statistics.fmean(values) * 1000:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--idle", type=float, default=24.0, help="seconds before the calls")
    parser.add_argument("--questions", type=Path, action="append", default=[])
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--new", type=Path, default=None, help="this tree's checkout")
    parser.add_argument("--answers", type=str, default=None)
    args = parser.parse_args()
    pool = _questions(args.questions or [Path(__file__).with_name("warm_questions.txt")])
    trees: list[tuple[str, Path | None]] = [("new", args.new / "src" if args.new else None)]
    if args.base is not None:
        trees.append(("base", args.base / "src"))
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    for start in range(args.starts):
        queries = random.Random(args.seed + start).sample(pool, min(args.calls, len(pool)))
        order = trees if start % 2 == 0 else trees[::-1]
        for name, src in order:
            out, answers = one_start(args.target, src, queries, args.idle)
            rows[name].append(out)
            cpu = out["cpu"]
            head = " ".join(f"{c * 1000:.0f}" for c in cpu[:3])
            print(
                f"start {start + 1} {name}: calls 1-3 {head}"
                f" ms, 4-10 mean {_ms(cpu[3:10])}, 11+ mean {_ms(cpu[10:])}"
                f" p50 {statistics.median(cpu[10:]) * 1000:.1f} ms; handshake"
                f" {out['handshake_cpu'] * 1000:.0f} ms, warm-up {out['warm_cpu'] * 1000:.0f} ms"
                f" CPU; RSS {out['rss_warm']:.1f} -> {out['rss_end']:.1f} MiB",
                flush=True,
            )
            if args.answers:
                Path(f"{args.answers}-{name}-{start + 1}.json").write_text(
                    json.dumps(answers, ensure_ascii=False, sort_keys=True), encoding="utf-8"
                )
    for name, runs in rows.items():
        first = [c for r in runs for c in r["cpu"][:3]]
        early = [c for r in runs for c in r["cpu"][3:10]]
        late = [c for r in runs for c in r["cpu"][10:]]
        last = [c for r in runs for c in r["cpu"][29:]] or late
        warm = [r["warm_cpu"] for r in runs]
        print(
            f"{name}: calls 1-3 mean {_ms(first)} ms, 4-10 {_ms(early)}, 11+ {_ms(late)}"
            f" (p50 {statistics.median(late) * 1000:.1f}), 30+ {_ms(last)};"
            f" warm-up {_ms(warm)} ms CPU;"
            f" RSS after warm-up {statistics.median(r['rss_warm'] for r in runs):.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
