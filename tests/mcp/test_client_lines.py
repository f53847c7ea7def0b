"""The tests' client reads a server's lines each within a deadline, and never waits on
the descriptor for a line its buffer already holds (:class:`mcp_wire.Lines`; issue 29:
a reply that came in one read with the one before was reported missing)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from mcp_wire import Lines


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    r, w = os.pipe()
    yield r, w
    for fd in (r, w):
        with contextlib.suppress(OSError):  # a test closed it
            os.close(fd)


def test_a_line_that_came_with_the_one_before_is_not_waited_for(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.write(w, b'{"id":1}\n{"id":2}\n')
    lines = Lines(r)
    assert lines.line(5) == b'{"id":1}\n'
    assert lines.line(0) == b'{"id":2}\n'  # buffered: no wait at all
    assert lines.line(0) is None  # nothing more, nothing lost


def test_a_line_split_across_reads_is_kept_whole(pipe: tuple[int, int]) -> None:
    r, w = pipe
    lines = Lines(r)
    os.write(w, b'{"id":')
    assert lines.line(0.05) is None  # half a line: not given out, kept
    os.write(w, b'3}\n{"id"')
    assert lines.line(5) == b'{"id":3}\n'
    os.write(w, b":4}\n")
    assert lines.line(5) == b'{"id":4}\n'


def test_the_end_of_input_gives_the_rest_then_nothing(pipe: tuple[int, int]) -> None:
    r, w = pipe
    os.write(w, b'{"id":5}\n{"id":6}')
    os.close(w)
    lines = Lines(r)
    assert [lines.line(5), lines.line(5), lines.line(5)] == [b'{"id":5}\n', b'{"id":6}', b""]
