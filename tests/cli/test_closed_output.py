"""A command whose output's reader went away (``rubi search … | head -1``) stops
quietly, as ``git log | head`` does: nothing on stderr, ended by ``SIGPIPE`` (a
shell's status 141), whether the resident engine answers or the command does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import login_project, serving

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.usefixtures("runtime"),
    pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE on this platform"),
]

RUN = """
import sys
sys.argv = ["rubi", *sys.argv[1:]]
from rubi import entry
entry.main()
"""
"""``rubi ARGS`` as the console script runs it."""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return login_project(tmp_path_factory.mktemp("closed") / "proj")


def rubi_into_closed_pipe(args: list[str], cwd: Path, **env: str) -> tuple[int, bytes]:
    """Run ``rubi ARGS`` with its standard output a pipe nobody reads any more: its
    exit status (negative: the signal that ended it) and its stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUN, *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
            timeout=120,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr


COMMANDS = [
    ["search", "login", "tokens"],
    ["search", "--json", "login"],
    ["read", "notes/gotcha-login-tokens-expire-at-midnight-utc"],
    ["status"],
    ["--help"],
]


@pytest.fixture
def engine(project: Path) -> Iterator[None]:
    with serving(project):
        yield


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_a_command_whose_reader_left_ends_quietly_by_sigpipe(
    project: Path, args: list[str]
) -> None:
    code, err = rubi_into_closed_pipe(args, project, RUBI_ENGINE="0")
    assert err == b"" and code == -signal.SIGPIPE, (code, err)


def test_an_answer_from_the_engine_ends_the_same_way(project: Path, engine: None) -> None:
    for args in COMMANDS[:3]:
        code, err = rubi_into_closed_pipe(args, project)
        assert err == b"" and code == -signal.SIGPIPE, (args, code, err)


def test_an_error_line_still_shows_when_only_stdout_is_closed(project: Path) -> None:
    """A failure is still a failure: its line goes to stderr, which is open."""
    code, err = rubi_into_closed_pipe(["read", "no-such-note"], project, RUBI_ENGINE="0")
    assert code == 1 and err.startswith(b"Error: no-such-note: no such note")
