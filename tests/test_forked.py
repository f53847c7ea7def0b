"""rubi.core.forked: two halves of a job at once, the first in a forked child."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rubi.core import forked

pytestmark = pytest.mark.skipif(not forked.available(), reason="fork: Linux, 2 cores")


def test_both_halves_come_back_in_order() -> None:
    parent = os.getpid()
    theirs, mine = forked.in_two(lambda: (os.getpid(), list(range(5))), lambda: os.getpid())
    assert mine == parent
    assert not isinstance(theirs, forked.ChildFailed)
    pid, values = theirs
    assert pid != parent and values == [0, 1, 2, 3, 4]


def test_a_failing_child_is_reported_not_raised() -> None:
    def child() -> int:
        raise OSError("disk full")

    theirs, mine = forked.in_two(child, lambda: "here")
    assert mine == "here"
    assert isinstance(theirs, forked.ChildFailed) and "OSError: disk full" in theirs.reason


def test_a_child_that_dies_is_reported() -> None:
    theirs, _ = forked.in_two(lambda: os._exit(3), lambda: None)
    assert isinstance(theirs, forked.ChildFailed) and "status 3" in theirs.reason


def test_an_error_here_kills_the_child() -> None:
    seen: list[int] = []

    def child() -> None:
        time.sleep(60)

    def here() -> None:
        raise KeyboardInterrupt

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        forked.in_two(child, here)
    assert time.monotonic() - start < 10
    assert not seen


def test_the_switch_and_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forked.PROCS_ENV, "1")
    assert not forked.available()
    monkeypatch.delenv(forked.PROCS_ENV)
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not forked.available()


def _gone(pid: int) -> bool:
    """True once ``pid`` has ended (a zombie nobody reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in {"Z", "X"}
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_child_does_not_outlive_its_parent(tmp_path: Path, how: signal.Signals) -> None:
    """A parent killed mid-job (``kill -9``, a service stopped) takes its child along:
    an orphan would go on holding the vault's locks and the engine's socket."""
    pidfile = tmp_path / "child.pid"
    script = textwrap.dedent(
        f"""
        import os, time
        from rubi.core import forked

        def child():
            with open({str(pidfile)!r}, "w") as f:
                f.write(str(os.getpid()))
            time.sleep(120)

        forked.in_two(child, lambda: time.sleep(120))
        """
    )
    src = str(Path(forked.__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": src}
    parent = subprocess.Popen([sys.executable, "-c", script], env=env)
    child = 0
    try:
        for _ in range(1000):
            if pidfile.exists() and pidfile.read_text():
                child = int(pidfile.read_text())
                break
            time.sleep(0.02)
        assert child, "the child never started"
        parent.send_signal(how)
        parent.wait()
        for _ in range(500):
            if _gone(child):
                break
            time.sleep(0.02)
        assert _gone(child), "the child lives on without its parent"
    finally:
        parent.kill()
        parent.wait()
        if child and not _gone(child):
            os.kill(child, signal.SIGKILL)


def test_cores_are_those_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not forked.available()  # ``taskset -c 0``: one core, one process


def test_a_child_keeps_ignoring_ctrl_c_when_its_parent_does() -> None:
    """``nohup``, a job a shell started with ``&``: Ctrl-C ignored by the parent leaves
    the child's half alone too, instead of killing it and doing its half again."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:

        def child() -> str:
            os.kill(os.getpid(), signal.SIGINT)
            return "still here"

        theirs, _ = forked.in_two(child, lambda: None)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert theirs == "still here"


def test_a_child_the_kernel_reaped_answers() -> None:
    """SIGCHLD ignored (a disposition inherited from whatever started rubi): the kernel
    reaps the child, and waitpid finds no child; the answer in the pipe still counts."""
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        theirs, mine = forked.in_two(lambda: "child", lambda: "here")
        failed, _ = forked.in_two(lambda: os._exit(3), lambda: None)
    finally:
        signal.signal(signal.SIGCHLD, previous)
    assert (theirs, mine) == ("child", "here")
    assert isinstance(failed, forked.ChildFailed)
