"""rubi.core.forked: two halves of a job at once, the first in a forked child."""

from __future__ import annotations

import os
import sys
import time

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
