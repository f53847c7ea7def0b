"""``rubi.core.quickexit.leave`` ends a process without the interpreter's teardown
when its other threads have ended or end soon: a thread that is not a daemon and is
still ending (an AnyIO worker thread told to stop when a server's event loop closed)
is waited for, as the usual exit would, instead of making ``leave`` fall back to the
usual exit and its teardown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import TEARDOWN_MARKS

_SCRIPT = (
    TEARDOWN_MARKS
    + """
import threading, time
kept = TornDown()
threading.Thread(target=time.sleep, args=(float(sys.argv[2]),)).start()  # not a daemon
from rubi.core.quickexit import leave
leave(0)
open(marks, "a", encoding="utf-8").write("returned\\n")
"""
)


def _marks(tmp_path: Path, seconds: float) -> list[str]:
    marks = tmp_path / "marks.txt"
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(marks), str(seconds)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return marks.read_text(encoding="utf-8").split()


def test_a_thread_still_ending_is_waited_for_and_nothing_is_torn_down(tmp_path: Path) -> None:
    assert _marks(tmp_path, 0.2) == ["atexit"]


def test_a_thread_that_outlives_the_wait_leaves_the_usual_exit(tmp_path: Path) -> None:
    assert _marks(tmp_path, 2.5) == ["returned", "atexit", "teardown"]
