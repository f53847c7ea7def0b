"""rubi.core.filestamp: a file's stat vouches for it only once it is old enough."""

from __future__ import annotations

import os
import time
from pathlib import Path

from rubi.core.filestamp import quiet_stamp

from helpers import write

OLD = 1_000_000_000  # 2001: long before any clock tick of this test


def test_a_fresh_file_has_no_stamp_an_old_one_does(tmp_path: Path) -> None:
    f = write(tmp_path / "a.db", "x")
    assert quiet_stamp([f]) is None  # just written: its stat may not change again
    os.utime(f, ns=(OLD, OLD))
    first = quiet_stamp([f, tmp_path / "absent"])
    assert first is not None and first[1] is None
    assert quiet_stamp([f, tmp_path / "absent"]) == first


def test_a_rewrite_with_its_time_set_back_changes_the_stamp(tmp_path: Path) -> None:
    f = write(tmp_path / "a.db", "x")
    os.utime(f, ns=(OLD, OLD))
    before = quiet_stamp([f])
    time.sleep(0.05)  # past the file system's clock tick (up to 10 ms)
    f.write_text("y")  # same size
    os.utime(f, ns=(OLD, OLD))  # and the same modification time
    after = quiet_stamp([f])
    assert after is not None and after != before  # the kernel's change time moved
