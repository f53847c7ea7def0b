"""``rubi -v`` logs rubi's own debug lines on stderr (the vault and its index, that
the engine was not asked and whether one listens, each hit with the lists that voted
for it, the timings) and leaves stdout as it is; the libraries' debug lines only with
``-vv``. A command run with ``-v`` answers itself whether or not an engine serves the
vault, so the lines are the same both ways."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pytest

from helpers import login_project, run_rubi, serving

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return login_project(tmp_path / "proj", "def login():\n    '''Log in.'''\n    return 1\n")


def rubi(args: list[str], cwd: Path, **env: str) -> tuple[str, str, int]:
    """:func:`helpers.run_rubi` with its streams decoded (UTF-8)."""
    out, err, code = run_rubi(args, cwd, **env)
    return out.decode(), err.decode(), code


def check_debug_lines(project: Path, engine_line: str, **env: str) -> None:
    out, err, code = rubi(["-v", "search", "login", "tokens"], project, **env)
    assert code == 0 and out == rubi(["search", "login", "tokens"], project, **env)[0]
    lines = err.splitlines()
    assert all(line.startswith("DEBUG rubi.") for line in lines if line.startswith("DEBUG ")), err
    assert f"vault {project / '.rubi'} (project {project}), index " in err
    assert f"engine not asked: rubi -v answers here, {engine_line}" in err
    assert "search 'login tokens': " in err and " hits of " in err
    voted = re.compile(
        r"hit 1 notes/gotcha-login-tokens-expire-at-midnight-utc: score [\d.]+, voted: \S"
    )
    assert any(voted.search(line) for line in lines), err
    assert re.search(r"search answered here in \d+ ms \(\d+ ms CPU\)", err)
    _, err, code = rubi(["-v", "read", "src/auth.py"], project, **env)
    assert code == 0 and re.search(r"read answered here in \d+ ms", err)


def test_v_logs_rubi_s_debug_lines_when_the_command_answers(
    project: Path, calls: list[str]
) -> None:
    check_debug_lines(project, "no engine listens", RUBI_ENGINE="0")


def test_v_logs_the_same_while_an_engine_serves_the_vault(project: Path, calls: list[str]) -> None:
    with serving(project):
        check_debug_lines(project, "though an engine listens at ")
        assert calls.count("SearchArgs") == 1  # the plain search only; -v answered itself


def test_v_says_no_engine_listens_at_a_socket_a_crashed_engine_left(project: Path) -> None:
    from rubi.engine.address import address_for

    address = address_for(str(project / ".rubi"), create=True)
    assert address is not None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(address.socket)  # bound, never listening: what a killed engine leaves
    assert os.path.exists(address.socket)
    check_debug_lines(project, f"no engine listens at {address.socket}")


def test_vv_adds_the_libraries_debug_lines(project: Path) -> None:
    (project / ".rubi" / "notes" / "new-note.md").write_text("# New note\n\nlogin\n", "utf-8")
    _, err, code = rubi(["-vv", "search", "login"], project, RUBI_ENGINE="0")
    assert code == 0 and "DEBUG rubi.cli.engineroute: vault " in err
    assert any(line.startswith("DEBUG filelock") for line in err.splitlines()), err
