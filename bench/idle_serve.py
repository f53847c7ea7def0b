"""What an idle ``rubi serve`` costs: CPU and wake-ups while it waits, and how fast it
ends when asked.

Usage::

    python bench/idle_serve.py PROJECT [--tree NAME=SRC ...] [--rounds 2] [--idle 60]
        [--marks 0,30,60] [--modes hand,silent,search] [--stop sigint] [--json OUT]

PROJECT is a folder of code (a checkout). Each run copies it into a fresh folder with
its own ``HOME`` and ``XDG_CACHE_HOME``, runs ``rubi init`` and ``rubi index`` there
(not measured), then starts ``rubi serve --project COPY`` (``--bare``: ``rubi serve`` in
the copy, as the plugin starts it) with ``PYTHONPATH`` set to the tree's ``src`` and, by
mode:

- ``hand``: ``initialize``, ``notifications/initialized`` and ``tools/list``, answers read;
- ``silent``: nothing sent (a client that never asks; the window starts 1 s after spawn);
- ``search``: the handshake, then one ``search`` tool call, its answer read.

Then the server idles ``--idle`` seconds. At each mark (seconds after the last answer)
it reads ``/proc/PID/stat`` (user + system CPU of every thread, the exited ones too)
and, every 0.5 s, each thread's ``voluntary_ctxt_switches`` and
``nonvoluntary_ctxt_switches`` (a thread that exits keeps its last count): the
wake-ups between two marks are the sum of those counts' growth. Last it stops the
server (``--stop sigint``: SIGINT, as Claude Code does; ``eof``: stdin closed, as a
client that dies) and times the exit from the signal to ``wait``.

Every tree's run of a round starts at the same time (each in its own copy), so a load
change touches them alike; ``--rounds`` repeats. The floor, ``python -c pass``, is
measured in the same run. Figures: CPU ms per minute and wake-ups per second for each
window between marks, exit latency; per tree and mode, median over rounds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CLK = os.sysconf("SC_CLK_TCK")
SKIP = {".git", ".rubi", ".venv", "node_modules", "__pycache__"}
SEARCH_QUERY = "how are command options parsed"


def cpu_s(pid: int) -> float:
    """User + system seconds of process ``pid`` (its threads, exited ones included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def switches(pid: int) -> dict[int, tuple[int, int]]:
    """Voluntary and involuntary context switches of each thread of ``pid``."""
    out: dict[int, tuple[int, int]] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        vol = invol = 0
        try:
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches"):
                    vol = int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"):
                    invol = int(line.split()[1])
        except OSError:
            continue
        out[int(task.name)] = (vol, invol)
    return out


class Switches:
    """Each thread's last seen switch counts, sampled every 0.5 s in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: dict[int, tuple[int, int]] = {}
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Switches:
        self.sample()
        self._thread.start()
        return self

    def sample(self) -> tuple[int, int]:
        """Sample now; the totals (voluntary, involuntary) over every thread seen."""
        try:
            now = switches(self.pid)
        except OSError:
            now = {}
        with self._lock:
            self.seen.update(now)
            return (
                sum(v for v, _ in self.seen.values()),
                sum(i for _, i in self.seen.values()),
            )

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.sample()


def send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def answer(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        message = json.loads(line)
        if "id" in message:
            return message


def handshake(proc: subprocess.Popen[bytes]) -> None:
    send(
        proc,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "idle-bench", "version": "0"},
            },
        },
    )
    answer(proc)
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    answer(proc)


def prepare(project: Path, src: Path, rubi: str) -> tuple[Path, dict[str, str], Path]:
    """A copy of ``project`` with rubi initialised and indexed, and its environment."""
    top = Path(tempfile.mkdtemp(prefix="idle-serve-"))
    copy = top / "project"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(*SKIP), symlinks=True)
    env = dict(os.environ)
    env.update(
        HOME=str(top / "home"),
        XDG_CACHE_HOME=str(top / "cache"),
        PYTHONHASHSEED="0",
        PYTHONPATH=str(src),
    )
    (top / "home").mkdir()
    (top / "cache").mkdir()
    for args in (["init"], ["index"]):
        subprocess.run(
            [rubi, *args], cwd=copy, env=env, check=True, capture_output=True, timeout=600
        )
    return copy, env, top


def one_run(
    project: Path, src: Path, rubi: str, mode: str, marks: list[float], stop: str, bare: bool
) -> dict[str, Any]:
    copy, env, top = prepare(project, src, rubi)
    errors = (top / "stderr").open("wb")
    proc = subprocess.Popen(
        [rubi, "serve"] if bare else [rubi, "serve", "--project", str(copy)],
        cwd=copy,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=errors,
    )
    try:
        if mode == "silent":
            time.sleep(1.0)
        else:
            handshake(proc)
            if mode == "search":
                send(
                    proc,
                    {
                        "jsonrpc": "2.0",
                        "id": 3,
                        "method": "tools/call",
                        "params": {"name": "search", "arguments": {"query": SEARCH_QUERY}},
                    },
                )
                answer(proc)
        start = time.monotonic()
        counts = Switches(proc.pid).start()
        points: list[tuple[float, float, int, int]] = []
        for mark in marks:
            time.sleep(max(0.0, start + mark - time.monotonic()))
            vol, invol = counts.sample()
            points.append((time.monotonic() - start, cpu_s(proc.pid), vol, invol))
        counts.stop()
        threads = len(switches(proc.pid))
        began = time.monotonic()
        if stop == "eof":
            assert proc.stdin is not None
            proc.stdin.close()
        else:
            proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        exit_s = time.monotonic() - began
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errors.close()
    windows = []
    for (t0, c0, v0, i0), (t1, c1, v1, i1) in itertools.pairwise(points):
        span = t1 - t0
        windows.append(
            {
                "from": round(t0),
                "to": round(t1),
                "cpu_ms_per_min": (c1 - c0) * 1000 * 60 / span,
                "wakeups_per_s": (v1 - v0) / span,
                "involuntary_per_s": (i1 - i0) / span,
            }
        )
    stderr = (top / "stderr").read_text(errors="replace").strip()
    shutil.rmtree(top, ignore_errors=True)
    return {
        "mode": mode,
        "windows": windows,
        "exit_s": exit_s,
        "returncode": proc.returncode,
        "threads": threads,
        "stderr": stderr[-400:],
    }


def floor_s() -> float:
    """CPU seconds of ``python -c pass`` (``wait4``)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument(
        "--tree", action="append", default=[], help="NAME=SRC (default: new=this src)"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--marks", default="0,30,60", help="seconds after the last answer")
    parser.add_argument("--modes", default="hand,silent,search")
    parser.add_argument("--stop", choices=("sigint", "eof"), default="sigint")
    parser.add_argument(
        "--bare", action="store_true", help="a bare `rubi serve` in the copy (the plugin's)"
    )
    parser.add_argument("--rubi", default=str(Path(sys.executable).with_name("rubi")))
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # A shell's background job ignores SIGINT, and its children inherit that: the
    # servers would not see --stop sigint. Python's own handler is reset at exec.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    trees = dict(t.split("=", 1) for t in args.tree) or {
        "new": str(Path(__file__).resolve().parent.parent / "src")
    }
    marks = [float(m) for m in args.marks.split(",")]
    modes = args.modes.split(",")
    results: list[dict[str, Any]] = []
    floors = []
    for round_no in range(args.rounds):
        floors.append(floor_s())
        jobs: list[tuple[str, str, threading.Thread]] = []
        out: dict[tuple[str, str], dict[str, Any]] = {}

        def run(
            name: str, src: str, mode: str, out: dict[tuple[str, str], dict[str, Any]] = out
        ) -> None:
            out[(name, mode)] = one_run(
                args.project, Path(src), args.rubi, mode, marks, args.stop, args.bare
            )

        for mode in modes:
            for name, src in trees.items():
                thread = threading.Thread(target=run, args=(name, src, mode))
                thread.start()
                jobs.append((name, mode, thread))
        for _, _, thread in jobs:
            thread.join()
        load = os.getloadavg()[0]
        for (name, mode), result in sorted(out.items()):
            result.update(tree=name, round=round_no, load=load)
            results.append(result)
            windows = "  ".join(
                f"[{w['from']}-{w['to']} s] {w['cpu_ms_per_min']:.0f} ms/min "
                f"{w['wakeups_per_s']:.1f}/s"
                for w in result["windows"]
            )
            print(
                f"round {round_no} load {load:.1f} {name:6} {mode:7} {windows}  "
                f"exit {result['exit_s'] * 1000:.0f} ms (rc {result['returncode']}, "
                f"{result['threads']} threads)",
                flush=True,
            )
            if result["stderr"]:
                print("   stderr:", result["stderr"].replace("\n", " | ")[-200:])
    print(f"floor python -c pass: {statistics.median(floors) * 1000:.0f} ms CPU")
    for name in trees:
        for mode in modes:
            rows = [r for r in results if r["tree"] == name and r["mode"] == mode]
            parts = []
            for k in range(len(marks) - 1):
                cpu = statistics.median(r["windows"][k]["cpu_ms_per_min"] for r in rows)
                wake = statistics.median(r["windows"][k]["wakeups_per_s"] for r in rows)
                parts.append(f"[{marks[k]:.0f}-{marks[k + 1]:.0f} s] {cpu:.0f} ms/min {wake:.1f}/s")
            exit_ms = statistics.median(r["exit_s"] for r in rows) * 1000
            print(f"median {name:6} {mode:7} " + "  ".join(parts) + f"  exit {exit_ms:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps({"floor_s": floors, "results": results}, indent=1))


if __name__ == "__main__":
    main()
