"""CPU of a process and of each process below it, by name (Linux ``/proc``).

:class:`TreeSampler` reads the ``stat`` of a root process's descendants every
``interval_s`` (10 ms by default) in a thread, keeping each process's last CPU figure
and its command line; :func:`reap` waits for the root without reaping it first
(``waitid`` with ``WNOWAIT``), reads the zombie's own CPU and its reaped children's
total from its ``stat``, then reaps it. So the root's own CPU and its children's total
are exact; a child's figure misses only what it spent after the last sample (at most
``interval_s`` each, in clock ticks of 10 ms), and ``unsampled`` says how much of the
children's total no sample saw (processes that lived less than one interval, and
those tails).

Used by ``bench/session_bench.py --breakdown``: Claude Code's own (node) CPU,
``rubi serve``'s, each hook process's.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Proc", "TreeSampler", "reap"]

TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


@dataclass(slots=True)
class Proc:
    """One descendant as last sampled: ``cpu_s`` user + sys, ``cmd`` its command line
    (the last seen: a shell that ``exec``s rubi shows rubi's)."""

    pid: int
    cmd: str = ""
    cpu_s: float = 0.0
    first_s: float = 0.0
    last_s: float = 0.0


def _stat(pid: int) -> tuple[float, float, float] | None:
    """(own CPU s, reaped children's CPU s, ppid) of ``pid``, or None when gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()
    # fields[0] is state (field 3); utime is field 14, so index 11
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return (utime + stime) * TICK_S, (cutime + cstime) * TICK_S, float(fields[1])


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids
    for tid in tasks:
        try:
            text = Path(f"/proc/{pid}/task/{tid}/children").read_text()
        except OSError:
            continue
        kids.extend(int(x) for x in text.split())
    return kids


def _cmd(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return " ".join(part.decode("utf-8", "replace") for part in raw.split(b"\0") if part)


@dataclass
class TreeSampler:
    """Samples the descendants of ``root`` (not ``root`` itself) until :meth:`stop`."""

    root: int
    interval_s: float = 0.01
    procs: dict[int, Proc] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> TreeSampler:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        t0 = time.perf_counter()
        while not self._stop.is_set():
            now = time.perf_counter() - t0
            stack = _children(self.root)
            while stack:
                pid = stack.pop()
                got = _stat(pid)
                if got is None:
                    continue
                proc = self.procs.get(pid)
                if proc is None:
                    proc = self.procs[pid] = Proc(pid, first_s=now)
                cmd = _cmd(pid)
                if cmd:
                    proc.cmd = cmd
                proc.cpu_s = max(proc.cpu_s, got[0] + got[1])
                proc.last_s = now
                stack.extend(_children(pid))
            self._stop.wait(self.interval_s)


def reap(pid: int) -> tuple[int, float, float, float]:
    """Wait for child ``pid`` to exit: (wait status, its own CPU s, its reaped
    children's CPU s, both from its zombie's ``stat``; total from ``wait4``)."""
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    got = _stat(pid)
    _pid, status, usage = os.wait4(pid, 0)
    total = usage.ru_utime + usage.ru_stime
    own, kids = (got[0], got[1]) if got is not None else (total, 0.0)
    return status, own, kids, total
