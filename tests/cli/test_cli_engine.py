"""``rubi search`` and ``rubi read`` through the resident engine: the same bytes on
stdout and stderr and the same exit status as the cold path, click never imported by
the client, and the cold path whenever the engine must not answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.cli.main import run_for_engine
from rubi.engine.address import address_for
from rubi.engine.client import cli_via_engine
from rubi.engine.protocol import PROTOCOL, build_id, cli_argv_ok, environment
from rubi.engine.server import Engine, answer

from helpers import login_project

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]

RUN = """
import os, sys
sys.argv = ["rubi", *sys.argv[1:]]
from rubi import entry
code = 0
try:
    entry.main()
except SystemExit as done:
    code = done.code
sys.stdout.flush()
sys.stderr.flush()
with open(os.environ["RUBI_TEST_MARK"], "w") as fh:
    fh.write("click" if "click" in sys.modules else "no click")
os._exit(code if isinstance(code, int) else 1)
"""
"""``rubi ARGS`` as the console script runs it; writes whether click was imported."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return login_project(tmp_path / "proj", "def login():\n    '''Log in.'''\n    return 1\n")


@pytest.fixture
def engine(project: Path) -> Iterator[Engine]:
    running = Engine(app.locate(project / ".rubi"), commands=run_for_engine).start()
    assert running.serving.wait(10) and running.ready.wait(30)
    yield running
    running.stop()


def rubi(args: list[str], cwd: Path, tmp_path: Path, **env: str) -> tuple[bytes, bytes, int, str]:
    mark = tmp_path / "mark.txt"
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "RUBI_TEST_MARK": str(mark), "PYTHONIOENCODING": "utf-8", **env},
        timeout=120,
    )
    return done.stdout, done.stderr, done.returncode, mark.read_text()


CASES = [
    ["search", "login", "tokens"],
    ["search", "--json", "--top-k", "3", "cache"],
    ["search", "--scope", "notes", "midnight", "session"],
    ["search", "--since", "not-a-day", "tokens"],
    ["search", "--top-k", "0", "tokens"],
    ["search"],
    ["read", "notes/gotcha-login-tokens-expire-at-midnight-utc"],
    ["read", "--json", "src/auth.py"],
    ["read", "no-such-note"],
    ["read", "--json", "no-such-note"],
]


def test_commands_print_the_same_through_the_engine(
    project: Path, engine: Engine, tmp_path: Path
) -> None:
    ids = {hit.id for hit in app.search(app.locate(project / ".rubi"), "login tokens").hits}
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in ids
    sub = project / "src"
    for args in CASES:
        for cwd in (project, sub):
            *via, mark = rubi(args, cwd, tmp_path)
            assert mark == "no click", args  # answered by the engine
            *cold, cold_mark = rubi(args, cwd, tmp_path, RUBI_ENGINE="0")
            assert cold_mark == "click"
            assert via == cold, (args, cwd)
    out, _, code, _ = rubi(CASES[0], project, tmp_path)
    assert code == 0 and b"Login tokens expire" in out


def test_without_an_engine_commands_run_cold(project: Path, tmp_path: Path) -> None:
    out, _, code, mark = rubi(["search", "login", "tokens"], project, tmp_path)
    assert mark == "click" and code == 0 and b"Login tokens expire" in out
    assert cli_via_engine(["search", "login"]) is None
    address = address_for(str(project / ".rubi"))
    assert address is None or not os.path.exists(address.socket)  # nothing started one


@pytest.mark.parametrize(
    "args",
    [
        ["search", "--vault", ".", "tokens"],
        ["search", "--vault=.", "tokens"],
        ["search", "-h"],
        ["read", "--help"],
        ["status"],
        ["index"],
        ["search", "a\x00b"],
        [],
    ],
)
def test_commands_the_engine_does_not_run(args: list[str]) -> None:
    assert not cli_argv_ok(args)


def test_options_before_the_command_run_cold(
    project: Path, engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    assert cli_via_engine(["search", "login"]) is not None
    *_, mark = rubi(["-v", "search", "login"], project, tmp_path)
    assert mark == "click"
    *_, mark = rubi(["search", "--vault", str(project / ".rubi"), "login"], project, tmp_path)
    assert mark == "click"
    *_, mark = rubi(["search", "login"], project, tmp_path, _RUBI_COMPLETE="bash_complete")
    assert mark == "click"


def test_the_engine_refuses_a_command_from_another_folder(
    project: Path, engine: Engine, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    app.init_project(other)
    vault = os.path.realpath(project / ".rubi")
    base = {
        "rubi": "cli",
        "protocol": PROTOCOL,
        "build": build_id(),
        "env": environment(),
        "vault": vault,
        "cwd": str(project),
        "argv": ["search", "login"],
        "tty": [False, False],
        "errors": ["strict", "backslashreplace"],
    }
    lock = threading.Lock()

    def ask(**changes: object) -> dict[str, object]:
        return answer(json.dumps({**base, **changes}).encode(), vault, lock, None, run_for_engine)

    assert ask()["ok"] is True
    assert answer(json.dumps(base).encode(), vault, lock)["ok"] is False  # no commands
    assert ask(cwd=str(other))["ok"] is False
    assert ask(cwd="relative")["ok"] is False
    assert ask(argv=["search", "--vault", str(other), "x"])["ok"] is False
    assert ask(argv=["index"])["ok"] is False
    assert ask(tty=[1, 0])["ok"] is False
    assert ask(errors=["ignore", "strict"])["ok"] is False
    assert ask(build="another")["ok"] is False


def test_a_host_thread_writes_where_it_wrote(
    project: Path,
    engine: Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """While the engine runs a command, the host's other threads print to the host's
    streams, not into the command's output."""
    from rubi.engine import clirun

    monkeypatch.chdir(project)
    stop = threading.Event()

    def chatter() -> None:
        while not stop.is_set():
            print("host line")
            stop.wait(0.001)

    thread = threading.Thread(target=chatter)
    thread.start()
    try:
        for _ in range(5):
            result = cli_via_engine(["search", "login", "tokens"])
            assert result is not None and "host line" not in result[0]
    finally:
        stop.set()
        thread.join()
    assert "host line" in capsys.readouterr().out
    assert clirun.install()
