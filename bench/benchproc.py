"""Measuring processes, shared by the benchmark scripts in this folder.

- :func:`run_child`: run a command as a fresh child process and return its wall time
  (process start to exit, seen from the parent), its CPU time (user + sys from
  ``os.wait4``: that child and the children it waited for, nothing else) and its peak
  resident memory.
- :func:`peak_rss_mb`: called by a child at its end to report its own peak RSS
  (``VmHWM`` from ``/proc/self/status``). Not ``ru_maxrss``: on Linux a child
  started with ``vfork``/``fork`` inherits the parent's high-water mark at ``exec``,
  so ``ru_maxrss`` of a small child of a big parent reports the parent's peak.
- :func:`cpu_seconds` / :func:`rss_mb`: CPU and resident memory of another running
  process (an MCP server, a watcher), through psutil when installed, else ``/proc``.

Linux first; elsewhere the figures fall back to ``resource`` (peak RSS then may
include the parent's, as said above).
"""

from __future__ import annotations

import json
import os
import resource
import select
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "RESULT_PREFIX",
    "ChildRun",
    "Lines",
    "children_of",
    "cpu_seconds",
    "fmt",
    "fmt_ms",
    "fmt_s",
    "pct",
    "peak_rss_mb",
    "report_result",
    "rss_mb",
    "run_child",
    "spread",
    "thread_cpu_delta_s",
    "thread_cpu_ns",
]

RESULT_PREFIX = "BENCH-RESULT "
"""A child prints one line ``BENCH-RESULT {json}`` on stdout to report figures."""


class Lines:
    """The lines a child writes to a pipe, each waited for at most a given time.

    ``select`` tells whether the descriptor has unread bytes, not whether a buffered
    reader (a ``Popen``'s ``stdout``) already holds the next line: asking it before each
    ``readline`` waits in vain for a line that came in one read with the one before
    (issue 29). This asks only when no whole line is buffered; read the descriptor
    through nothing else. The MCP tests read through it too
    (``tests/mcp_wire.py``).

    Args:
        fd: the descriptor.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()
        self._eof = False

    def line(self, timeout: float) -> bytes | None:
        """The next line with its newline (the rest at end of input, ``b""`` once all
        was read), or None when no whole line came within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            at = self._buf.find(b"\n")
            if at >= 0 or self._eof:
                end = at + 1 if at >= 0 else len(self._buf)
                line = bytes(self._buf[:end])
                del self._buf[:end]
                return line
            left = max(0.0, deadline - time.monotonic())
            if not select.select([self._fd], [], [], left)[0]:
                return None
            chunk = os.read(self._fd, 1 << 16)
            if chunk:
                self._buf += chunk
            else:
                self._eof = True


@dataclass(frozen=True, slots=True)
class ChildRun:
    """One finished child process.

    Attributes:
        wall_s: seconds from just before the process was started to its exit.
        cpu_s: user + sys CPU seconds of the child (from ``wait4``).
        maxrss_mb: ``ru_maxrss`` of the child in MiB (may include the parent's peak,
            see the module docstring); prefer ``result["peak_rss_mb"]`` when present.
        returncode: exit status (negative: killed by that signal).
        stdout: its standard output (text, UTF-8 with replacement).
        stderr: its standard error.
        result: the JSON the child reported with :func:`report_result`, else {}.
    """

    wall_s: float
    cpu_s: float
    maxrss_mb: float
    returncode: int
    stdout: str
    stderr: str
    result: dict[str, Any]

    @property
    def peak_mb(self) -> float:
        """The child's own peak RSS in MiB when it reported one, else ``maxrss_mb``."""
        value = self.result.get("peak_rss_mb")
        return float(value) if isinstance(value, int | float) else self.maxrss_mb


def _maxrss_mb(value: float) -> float:
    return value / (1024 * 1024) if sys.platform == "darwin" else value / 1024


def run_child(
    argv: Sequence[str],
    *,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float | None = None,
    check: bool = True,
) -> ChildRun:
    """Run ``argv`` as a child process and measure it.

    Args:
        argv: the command (no shell; pass ``["sh", "-c", line]`` for one).
        stdin: bytes written to its standard input (then closed); None: no input.
        cwd: its working folder.
        env: its environment (default: this process's).
        timeout_s: kill it (SIGKILL) after this many seconds.
        check: raise when it exits non-zero.

    Returns:
        A :class:`ChildRun`.

    Raises:
        RuntimeError: ``check`` and a non-zero exit (the message holds the end of
            its standard error), or the timeout was hit.
    """
    out: list[bytes] = []
    err: list[bytes] = []
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
    )
    so, se = proc.stdout, proc.stderr
    assert so is not None and se is not None
    readers = [
        threading.Thread(target=lambda: out.append(so.read()), daemon=True),
        threading.Thread(target=lambda: err.append(se.read()), daemon=True),
    ]
    if stdin is not None:

        def feed() -> None:
            assert proc.stdin is not None
            try:
                proc.stdin.write(stdin)
                proc.stdin.close()
            except BrokenPipeError:
                pass

        readers.append(threading.Thread(target=feed, daemon=True))
    for t in readers:
        t.start()
    timed_out = threading.Event()
    timer: threading.Timer | None = None
    if timeout_s is not None:

        def kill() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout_s, kill)
        timer.start()
    # wait4, not Popen.wait: the rusage of this one child, not of all children so far.
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if timer is not None:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join()
    so.close()
    se.close()
    stdout = b"".join(out).decode("utf-8", "replace")
    stderr = b"".join(err).decode("utf-8", "replace")
    if timed_out.is_set():
        raise RuntimeError(f"{argv[0]}: killed after {timeout_s:.0f} s; stderr: {stderr[-500:]}")
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {proc.returncode}; stderr: {stderr[-1500:]}")
    result: dict[str, Any] = {}
    for line in stdout.splitlines():
        if line.startswith(RESULT_PREFIX):
            result = json.loads(line[len(RESULT_PREFIX) :])
    return ChildRun(
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        maxrss_mb=_maxrss_mb(usage.ru_maxrss),
        returncode=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        result=result,
    )


def pass_floor() -> tuple[float, float]:
    """(wall, CPU) seconds of ``python -c pass`` with this interpreter: the floor of
    any cold Python process, measured in the same run as what it is compared with."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (kids.ru_utime + kids.ru_stime)


def peak_rss_mb() -> float:
    """This process's own peak RSS in MiB (``VmHWM``; else ``ru_maxrss``)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return _maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def report_result(result: dict[str, Any]) -> None:
    """Print ``result`` (plus this process's peak RSS) for :func:`run_child`."""
    payload = {**result, "peak_rss_mb": peak_rss_mb()}
    sys.stdout.write(RESULT_PREFIX + json.dumps(payload) + "\n")
    sys.stdout.flush()


def cpu_seconds(pid: int) -> float:
    """User + sys CPU seconds used so far by the running process ``pid`` (its own
    threads, not its children).

    Raises:
        OSError: no such process (or no ``/proc`` and no psutil).
    """
    try:
        import psutil
    except ImportError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15)
    times = psutil.Process(pid).cpu_times()
    return float(times.user + times.system)


def thread_cpu_ns(pid: int) -> dict[int, int]:
    """Nanoseconds on CPU so far of each live thread of ``pid`` (the first field of
    ``/proc/<pid>/task/<tid>/schedstat``), by thread id: nanosecond resolution, where
    :func:`cpu_seconds` counts clock ticks (10 ms), too coarse for one 20 ms call.
    Empty when ``/proc`` has no schedstat (then use :func:`cpu_seconds`)."""
    out: dict[int, int] = {}
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return out
    for task in tasks:
        try:
            out[int(task.name)] = int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return out


def thread_cpu_delta_s(before: dict[int, int], after: dict[int, int]) -> float:
    """CPU seconds between two :func:`thread_cpu_ns` readings: the growth of each thread
    alive at ``after`` (a thread started in between counts whole; one that ended in
    between is lost, so keep the interval short)."""
    return sum(ns - before.get(tid, 0) for tid, ns in after.items()) / 1e9


def rss_mb(pid: int) -> float:
    """Resident memory of the running process ``pid`` in MiB.

    Raises:
        OSError: no such process (or no ``/proc`` and no psutil).
    """
    try:
        import psutil
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise OSError(f"/proc/{pid}/status: no VmRSS line") from None
    return float(psutil.Process(pid).memory_info().rss) / (1024 * 1024)


def children_of(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (psutil when installed, else ``/proc``)."""
    try:
        import psutil
    except ImportError:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
        return found
    return [c.pid for c in psutil.Process(pid).children()]


def pct(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank on the sorted values); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def spread(values: Sequence[float]) -> dict[str, float]:
    """``{"median", "min", "max", "n"}`` of ``values`` (NaN figures when empty)."""
    if not values:
        nan = float("nan")
        return {"median": nan, "min": nan, "max": nan, "n": 0}
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "n": len(values),
    }


def fmt(values: Sequence[float], unit: str, digits: int = 2, scale: float = 1.0) -> str:
    """``median unit (min–max)`` of ``values`` × ``scale``, the value alone when there is
    one, ``—`` when there is none."""
    if not values:
        return "—"
    s = spread([v * scale for v in values])
    if len(values) == 1:
        return f"{s['median']:,.{digits}f} {unit}"
    return f"{s['median']:,.{digits}f} {unit} ({s['min']:,.{digits}f}–{s['max']:,.{digits}f})"


def fmt_s(values: Sequence[float], digits: int = 2) -> str:
    """:func:`fmt` in seconds."""
    return fmt(values, "s", digits)


def fmt_ms(values: Sequence[float], digits: int = 0) -> str:
    """:func:`fmt` of values in seconds, shown in milliseconds."""
    return fmt(values, "ms", digits, 1000.0)


def end_on_eof(proc: subprocess.Popen[Any], timeout_s: float = 30.0) -> None:
    """End a server that stops on stdin EOF (``rubi serve``): close its stdin, wait up
    to ``timeout_s`` seconds, kill it if it is still running, then close its stdout."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.stdout.close()
