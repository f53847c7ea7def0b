"""The lock file of a session's state: one holder at a time across processes, also
against a process holding it with ``filelock`` (older rubi hooks); a wait that runs out
says so and the block still runs; the lock is free again after the block."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from filelock import FileLock

from rubi.claude.filelocks import held

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock(2) is POSIX")


def _holder(lock: Path, library: str) -> subprocess.Popen[str]:
    """A process that holds ``lock`` (with rubi's lock or ``filelock``) until its stdin
    closes; it prints a line once it holds it."""
    take = (
        "from rubi.claude.filelocks import held\ncm = held(Path(sys.argv[1]), 5)\n"
        "assert cm.__enter__()\n"
        if library == "rubi"
        else "from filelock import FileLock\nlock = FileLock(sys.argv[1])\nlock.acquire()\n"
    )
    script = (
        "import sys\nfrom pathlib import Path\n"
        + take
        + textwrap.dedent(
            """
        print("held", flush=True)
        sys.stdin.read()
        """
        )
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(lock)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


@pytest.mark.parametrize("library", ["rubi", "filelock"])
def test_a_lock_another_process_holds_is_not_taken_and_the_wait_says_so(
    tmp_path: Path, library: str
) -> None:
    lock = tmp_path / "s.lock"
    other = _holder(lock, library)
    try:
        ran = []
        with held(lock, 0.05) as locked:
            ran.append(locked)
        assert ran == [False]
    finally:
        other.communicate("", timeout=10)
    with held(lock, 0.05) as locked:  # the holder left: free
        assert locked


def test_one_holder_at_a_time_and_free_after_the_block(tmp_path: Path) -> None:
    lock = tmp_path / "s.lock"
    with held(lock, 1.0) as locked:
        assert locked
        with held(lock, 0.05) as again:  # another open of the file: another holder
            assert not again
    other = FileLock(str(lock), timeout=1.0)
    other.acquire()
    assert other.is_locked
    other.release()


def test_a_lock_file_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("", encoding="utf-8")
    (tmp_path / "s.lock").symlink_to(target)
    with pytest.raises(OSError), held(tmp_path / "s.lock", 0.05):
        pass
