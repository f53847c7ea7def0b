"""``rubi search`` and ``rubi read`` through the resident engine: one execution path.
Click parses the command in its own process, the engine computes the answer with the
function the command would run itself (:mod:`rubi.app.commandanswers`), and the
command prints it: the same bytes on stdout and stderr and the same exit status as
without an engine, and the engine never touches its own standard streams."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from rubi import app
from rubi.core.commandcalls import ReadArgs, SearchArgs, decode_call
from rubi.engine.client import call_via_engine
from rubi.engine.protocol import PROTOCOL, build_id, environment
from rubi.engine.server import Engine, answer

from helpers import login_project
from helpers import run_rubi as rubi

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return login_project(tmp_path / "proj", "def login():\n    '''Log in.'''\n    return 1\n")


ANSWERED = [
    ["search", "login", "tokens"],
    ["search", "--json", "--top-k", "3", "cache"],
    ["search", "--scope", "notes", "midnight", "session"],
    ["search", "--since", "2026-02-01", "--until", "2026-01-01", "tokens"],  # an error the
    # engine's run shows
    ["read", "notes/gotcha-login-tokens-expire-at-midnight-utc"],
    ["read", "--json", "src/auth.py"],
    ["read", "notes/gotcha-login-tokens-expire-at-midnight-utc#L1-3"],
    ["read", "no-such-note"],
    ["read", "--json", "no-such-note"],
]
CLICKS_OWN = [
    ["search", "--top-k", "0", "tokens"],
    ["search", "--since", "not-a-day", "tokens"],
    ["search", "--until", "", "tokens"],
    ["search"],
    ["read", "--help"],
]
"""Usage errors and help: click's, before any answer is asked for."""
HERE = [["-v", "search", "login"]]
"""Debug detail asked for: the command answers itself, where it logs."""


def test_commands_print_the_same_through_the_engine(
    project: Path, engine: Engine, calls: list[str]
) -> None:
    ids = {hit.id for hit in app.search(app.locate(project / ".rubi"), "login tokens").hits}
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in ids
    sub = project / "src"
    for args in ANSWERED + CLICKS_OWN + HERE:
        for cwd in (project, sub):
            before = len(calls)
            via = rubi(args, cwd)
            assert len(calls) == before + (args in ANSWERED), (args, cwd)
            cold = rubi(args, cwd, RUBI_ENGINE="0")
            assert len(calls) == before + (args in ANSWERED)  # answered in its process
            assert via == cold or args in HERE, (args, cwd)
    out, _, code = rubi(ANSWERED[0], project)
    assert code == 0 and b"Login tokens expire" in out
    _, err, code = rubi(ANSWERED[3], project)
    assert code == 1 and err.startswith(b"Error: ") and b"is after until" in err


def test_without_an_engine_commands_answer_themselves(project: Path, calls: list[str]) -> None:
    out, _, code = rubi(["search", "login", "tokens"], project)
    assert code == 0 and b"Login tokens expire" in out and not calls
    root = str(project / ".rubi")
    assert call_via_engine([root, str(project)], "search", SearchArgs("login").wire()) is None


def test_a_named_vault_is_the_engine_s_when_it_is_the_same(
    project: Path, engine: Engine, calls: list[str], tmp_path: Path
) -> None:
    """``--vault`` naming the engine's vault is answered there; another vault, which the
    engine does not serve, answers itself."""
    rubi(["search", "--vault", str(project / ".rubi"), "login"], tmp_path)
    assert calls == ["SearchArgs"]
    other = tmp_path / "other"
    other.mkdir()
    app.init_project(other)
    _, _, code = rubi(["search", "--vault", str(other / ".rubi"), "login"], tmp_path)
    assert calls == ["SearchArgs"] and code == 0


def test_the_engine_refuses_a_call_for_another_vault_or_of_another_shape(
    project: Path, engine: Engine, tmp_path: Path
) -> None:
    vault = os.path.realpath(project / ".rubi")
    paths = app.locate(project / ".rubi")
    base = {
        "rubi": "call",
        "protocol": PROTOCOL,
        "build": build_id(),
        "env": environment(),
        "vault": vault,
        "paths": [str(paths.root), str(paths.project_root)],
        "name": "search",
        "args": SearchArgs("login").wire(),
    }
    lock = threading.Lock()

    def ask(**changes: object) -> dict[str, Any]:
        return answer(json.dumps({**base, **changes}).encode(), vault, lock, None, paths)

    assert ask()["ok"] is True and "login" in ask()["answer"]["text"].lower()
    assert answer(json.dumps(base).encode(), vault, lock)["ok"] is False  # serves no calls
    assert ask(paths=[str(tmp_path), None])["ok"] is False
    assert ask(paths=[str(paths.root), str(tmp_path)])["ok"] is False
    assert ask(name="index")["ok"] is False
    assert ask(args={**SearchArgs("x").wire(), "top_k": 0})["ok"] is False
    assert ask(args={"query": "x"})["ok"] is False
    assert ask(build="another")["ok"] is False
    error = ask(args={**SearchArgs("x").wire(), "since": "soon"})
    assert error["ok"] is True and error["error"]["kind"] == "error"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("index", {}),
        ("search", None),
        ("search", {**SearchArgs("x").wire(), "extra": 1}),
        ("search", {**SearchArgs("x").wire(), "top_k": True}),
        ("search", {**SearchArgs("x").wire(), "budget": 10}),
        ("search", {**SearchArgs("x").wire(), "scope": "everything"}),
        ("search", {**SearchArgs("x").wire(), "terms": "a"}),
        ("search", {**SearchArgs("a\x00b").wire()}),
        ("search", {**SearchArgs("x").wire(), "personal": "no"}),
        ("read", {"ref": 5, "as_json": False}),
        ("read", {"ref": "x"}),
    ],
)
def test_calls_the_engine_does_not_answer(name: str, args: object) -> None:
    with pytest.raises(ValueError):
        decode_call(name, args)


def test_a_call_round_trips(project: Path) -> None:
    for call in (
        SearchArgs("a b", ("c",), 3, 900, "notes", True, False, "2026-01-01", None, True),
        ReadArgs("notes/x#L1-2", True),
    ):
        name = "search" if isinstance(call, SearchArgs) else "read"
        assert decode_call(name, json.loads(json.dumps(call.wire()))) == call


def test_the_engine_leaves_the_standard_streams_alone(
    project: Path,
    engine: Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """While the engine answers calls, the host's threads print where they printed and
    the engine's process keeps its own ``sys.stdout`` and ``sys.stderr``."""
    streams = (sys.stdout, sys.stderr)
    stop = threading.Event()

    def chatter() -> None:
        while not stop.is_set():
            print("host line")
            stop.wait(0.001)

    thread = threading.Thread(target=chatter)
    thread.start()
    root = str(project / ".rubi")
    try:
        for _ in range(5):
            reply = call_via_engine([root, str(project)], "search", SearchArgs("login").wire())
            assert reply is not None and "host line" not in json.dumps(reply)
    finally:
        stop.set()
        thread.join()
    assert (sys.stdout, sys.stderr) == streams
    assert "host line" in capsys.readouterr().out


def test_only_a_console_run_that_answers_itself_reads_vectors_on_demand(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console script runs one command and exits: a ``rubi search`` answering
    itself there sets its process up for one search; the same command invoked in a
    longer-lived process (a test runner, a host) leaves the process as it is."""
    from click.testing import CliRunner

    from rubi.app import searching
    from rubi.cli.main import ONE_COMMAND, cli

    set_up: list[bool] = []
    monkeypatch.setattr(searching, "one_search", lambda: set_up.append(True))
    monkeypatch.chdir(project)
    monkeypatch.setenv("RUBI_ENGINE", "0")
    result = CliRunner().invoke(cli, ["search", "login"])
    assert result.exit_code == 0 and set_up == []
    result = CliRunner().invoke(cli, ["search", "login"], obj=ONE_COMMAND)
    assert result.exit_code == 0 and set_up == [True]


def test_a_note_saved_a_moment_ago_is_read(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rubi read`` brings the notes up to date first, as ``rubi search`` does: a note
    written after the last index is found by its title, its id and a section."""
    from click.testing import CliRunner

    from rubi.cli.main import cli

    note = project / ".rubi" / "notes" / "fresh-note.md"
    note.write_text("---\ntitle: Fresh note\n---\n# Fresh note\n\n## Part\n\nbody\n", "utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("RUBI_ENGINE", "0")
    for ref in ("Fresh note", "notes/fresh-note", "notes/fresh-note#Part"):
        result = CliRunner().invoke(cli, ["read", ref])
        assert result.exit_code == 0, (ref, result.output)
        assert "body" in result.output


def test_a_note_larger_than_a_read_says_so(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A note over 1 MB is read from its start, and the read says so (text and JSON)
    instead of passing the start off as the whole note."""
    from click.testing import CliRunner

    from rubi.cli.main import cli

    note = project / ".rubi" / "notes" / "huge-log.md"
    body = "".join(f"line {i} of a pasted log\n" for i in range(60_000))  # ~1.6 MB
    note.write_text(f"# Huge log\n\n{body}", encoding="utf-8")
    small = project / ".rubi" / "notes" / "small-note.md"
    small.write_text("# Small note\n\nshort\n", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("RUBI_ENGINE", "0")
    text = CliRunner().invoke(cli, ["read", "notes/huge-log"])
    assert text.exit_code == 0 and "only the first 1 MB of this note is shown" in text.output
    assert "line 59999 of" not in text.output
    data = json.loads(CliRunner().invoke(cli, ["read", "--json", "notes/huge-log"]).output)
    assert data["truncated"] is True
    plain = CliRunner().invoke(cli, ["read", "notes/small-note"])
    assert "only the first" not in plain.output
    assert (
        json.loads(CliRunner().invoke(cli, ["read", "--json", "notes/small-note"]).output)[
            "truncated"
        ]
        is False
    )


def test_an_empty_ref_is_a_usage_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from rubi.cli.main import cli

    monkeypatch.chdir(project)
    result = CliRunner().invoke(cli, ["read", "  "])
    assert result.exit_code == 2 and "REF is empty" in result.output
