"""Ctrl-C stops any ``rubi`` command with one line on stderr and no traceback, ended
by ``SIGINT`` (a shell's status 130), whether it came while the command's modules
were still being imported or while the command ran."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

INTERRUPT_IMPORT = """
import sys

WHILE = sys.argv[1]

class Interrupt:
    '''Ctrl-C pressed while the module named on the command line is imported.'''

    def find_spec(self, name, path=None, target=None):
        if name == WHILE:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["rubi", *sys.argv[2:]]
from rubi import entry
entry.main()
"""
"""``rubi ARGS`` as the console script runs it, interrupted while it imports the module
named first."""

INTERRUPT_RUN = """
import sys
from rubi.core import paths

def interrupted(*args, **kwargs):
    raise KeyboardInterrupt

paths.find_vault = interrupted
sys.argv = ["rubi", *sys.argv[1:]]
from rubi import entry
entry.main()
"""
"""``rubi ARGS`` interrupted while the command runs (as it looks for its vault)."""

ENDED_BY_CTRL_C = -signal.SIGINT if os.name == "posix" else 130


def run(script: str, *args: str, cwd: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=60,
        text=True,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("click", ["search", "x"]),
        ("rubi.cli.main", ["status"]),
        ("rubi.cli.searchcmds", ["search", "x"]),
        ("rubi.cli.vaultcmds", ["status"]),
        # before click's loading: the kept dataclass and pattern code set up (a
        # traceback on 8498f9c6)
        ("rubi.core.dataclasscode", ["status"]),
        ("rubi.core.regexcode", ["search", "x"]),
    ],
)
def test_ctrl_c_while_the_command_loads_prints_one_line_and_no_traceback(
    tmp_path: Path, module: str, args: list[str]
) -> None:
    code, out, err = run(INTERRUPT_IMPORT, module, *args, cwd=tmp_path)
    assert "Traceback" not in err and err.strip() == "Aborted!", err
    assert code == ENDED_BY_CTRL_C and out == ""


def test_ctrl_c_while_the_command_runs_ends_the_same_way(tmp_path: Path) -> None:
    code, out, err = run(INTERRUPT_RUN, "status", "--vault", str(tmp_path), cwd=tmp_path)
    assert "Traceback" not in err and err.strip() == "Aborted!", err
    assert code == ENDED_BY_CTRL_C and out == ""


SIGNALLED_AFTER_ENTRY = """
import sys, time
from rubi import entry

def wait_for_the_signal():  # where main() sets up the kept code, before click loads
    print("ready", flush=True)
    while True:
        time.sleep(0.01)

entry._keep_dataclass_code = wait_for_the_signal
sys.argv = ["rubi", "status"]
entry.main()
"""


def test_a_real_ctrl_c_once_rubi_s_code_runs_prints_one_line(tmp_path: Path) -> None:
    """A real SIGINT, sent once the child says rubi's code runs, before click's own
    handling (no timing: the signal follows the marker line). On 8498f9c6 a
    traceback."""
    with subprocess.Popen(
        [sys.executable, "-c", SIGNALLED_AFTER_ENTRY],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        text=True,
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err and err.strip() == "Aborted!", err
    assert proc.returncode == ENDED_BY_CTRL_C and out == ""


def test_ctrl_c_in_a_test_runner_leaves_the_runner_alive() -> None:
    """Invoked inside a longer-lived process (a test's ``CliRunner``), the command
    exits with status 130 and does not end that process."""
    from click.testing import CliRunner

    from rubi.cli import searchcmds
    from rubi.cli.main import cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(searchcmds, "find_vault", interrupted)
        result = CliRunner().invoke(cli, ["search", "x"])
    assert result.exit_code == 130 and result.output.strip() == "Aborted!"


UNRAISABLE_AFTER_ENTRY = """
import sys
from rubi import entry

class Interrupted:
    def __del__(self):  # as the import system's lock callbacks meet a Ctrl-C
        raise KeyboardInterrupt

def go_on():  # where main() sets up the kept code, before click loads
    Interrupted()
    print("went on", flush=True)

entry._keep_dataclass_code = go_on
sys.argv = ["rubi", "status"]
entry.main()
"""


def test_a_ctrl_c_python_cannot_raise_stops_the_command_in_one_line(tmp_path: Path) -> None:
    """Ctrl-C inside a callback (Python prints "Exception ignored in: …" and a
    traceback, then goes on: on 8498f9c6 the command finished, status 0)."""
    code, out, err = run(UNRAISABLE_AFTER_ENTRY, cwd=tmp_path)
    assert "Traceback" not in err and err.strip() == "Aborted!", err
    assert code == ENDED_BY_CTRL_C and out == ""


@pytest.mark.parametrize("command", ["index", "reindex"])
def test_ctrl_c_during_an_index_run_says_nothing_is_lost(tmp_path: Path, command: str) -> None:
    """A new user pressed Ctrl-C during `rubi index` and read a bare ``Aborted!``: was
    the index now half-written? The line says the next run redoes what this one did
    not finish (the rows are written last, in one transaction); other commands keep
    click's ``Aborted!``."""
    from click.testing import CliRunner

    from rubi.cli import vaultcmds
    from rubi.cli.main import cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vaultcmds.app, "index", interrupted)
        result = CliRunner().invoke(cli, [command, "--vault", str(tmp_path)])
    assert result.exit_code == 130
    assert result.output.strip() == (
        "Aborted! Nothing is lost: what this run did not finish is redone by the next "
        "`rubi index` (or search)."
    )
