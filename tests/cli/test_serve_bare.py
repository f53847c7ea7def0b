"""``rubi serve`` with no further argument (how every agent starts the server), or with
the options a server is started with, runs without click, and answers, fails and helps
exactly as the click command does with the same options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import login_project

pytestmark = [pytest.mark.usefixtures("runtime"), pytest.mark.timeout(120)]

_AS_RUBI = "import sys; sys.argv[0] = 'rubi'; from rubi.entry import main; main()"
"""The console script, run by this interpreter (so ``-X importtime`` can watch it)."""

_AS_CLICK = "import sys; sys.argv[0] = 'rubi'; from rubi.cli.main import main; main()"
"""The click command group alone, as the console script ran every ``rubi serve`` with
an option before the fast path read them."""

_REQUESTS = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "rubi-tests", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def _rubi(
    args: list[str], cwd: Path, stdin: str = "", code: str = _AS_RUBI, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **env},
        timeout=100,
    )


def _imported(stderr: str) -> set[str]:
    """The top-level packages ``-X importtime`` saw imported."""
    lines = (line.rsplit("|", 1)[-1].strip() for line in stderr.splitlines())
    return {name.split(".")[0] for name in lines if name and " " not in name}


def _messages(stdout: str) -> list[object]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_a_bare_serve_answers_as_the_click_command_without_importing_click_or_inspect(
    tmp_path: Path,
) -> None:
    project = login_project(tmp_path / "proj")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    stdin = "".join(json.dumps(r) + "\n" for r in _REQUESTS)
    bare = _rubi(["serve"], project, stdin)
    options = ["serve", f"--project={project}"]
    given = _rubi(options, tmp_path, stdin)
    spelled = _rubi(options, tmp_path, stdin, code=_AS_CLICK)
    assert bare.returncode == given.returncode == spelled.returncode == 0
    answers = _messages(bare.stdout)
    assert [m["id"] for m in answers] == [1, 2]  # type: ignore[index]
    assert answers == _messages(given.stdout) == _messages(spelled.stdout)
    for run in (bare, given):  # inspect: no class needs it
        assert not {"click", "inspect"} & _imported(run.stderr)
    assert {"click", "inspect"} <= _imported(spelled.stderr)


def test_a_bare_serve_answers_a_session_s_recall_without_urllib_or_ipaddress(
    tmp_path: Path,
) -> None:
    """``pathlib`` is imported as a cold hook imports it (``urllib.parse`` and
    ``ipaddress`` deferred until a path is made a URI): a session's server, its
    handshake and its recall (the plugin's ``mcp_tool`` hook), never loads them
    (the graph read flat, as a session finds it: networkx would import them)."""
    project = login_project(tmp_path / "proj")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    hour_ago = time.time_ns() - 3600 * 10**9  # no file saved near the next listing
    for path in project.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(hour_ago, hour_ago))
    cold_search = (  # a cold reader leaves the flat graph current, as `rubi index` does
        "from pathlib import Path\n"
        "from rubi import app\n"
        "from rubi.app.searching import one_search\n"
        "one_search()\n"
        f"app.search(app.locate(Path({str(project / '.rubi')!r})), 'login')\n"
    )
    subprocess.run([sys.executable, "-c", cold_search], check=True, timeout=100)
    arguments = {
        "event": "UserPromptSubmit",
        "session_id": "s-urllib",
        "transcript_path": "",
        "cwd": str(project),
        "prompt": "why do login tokens expire at midnight",
    }
    call = {"name": "hook", "arguments": arguments}
    hook = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}
    stdin = "".join(json.dumps(r) + "\n" for r in [*_REQUESTS, hook])
    bare = _rubi(["serve"], project, stdin)
    assert bare.returncode == 0, bare.stderr
    answers = _messages(bare.stdout)
    assert [m["id"] for m in answers] == [1, 2, 3]  # type: ignore[index]
    recalled = answers[2]["result"]  # type: ignore[index]
    assert recalled["isError"] is False
    assert "Login tokens expire at midnight UTC" in recalled["content"][0]["text"]
    assert not {"urllib", "ipaddress"} & _imported(bare.stderr)


def test_a_bare_serve_that_cannot_start_fails_as_the_click_command(tmp_path: Path) -> None:
    """No project here and a personal vault that cannot be made: one line, status 1."""
    (tmp_path / "file").write_text("", encoding="utf-8")
    env = {"RUBI_VAULT": str(tmp_path / "file" / "vault")}
    bare = _rubi(["serve"], tmp_path, **env)
    given = _rubi(["serve", "--project", "."], tmp_path, **env)
    spelled = _rubi(["serve", "--project", "."], tmp_path, code=_AS_CLICK, **env)
    line = "Error: no project vault here, and the personal vault cannot be created"
    assert bare.returncode == given.returncode == spelled.returncode == 1
    errors = [
        [x for x in run.stderr.splitlines() if x.startswith("Error:")]
        for run in (bare, given, spelled)
    ]
    assert errors[0] == errors[1] == errors[2]
    assert line in bare.stderr


def test_a_usage_error_of_the_bare_path_shows_the_commands_usage(tmp_path: Path) -> None:
    """The bare path's error display is click's own, in ``rubi serve``'s context: the
    same lines and status as the click command's usage error."""
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv[0] = 'rubi'\n"
            "from rubi.cli.servebare import _fail\n"
            "_fail(ValueError('give --project or --vault, not both'))",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    clicked = subprocess.run(
        [sys.executable, "-c", _AS_RUBI, "serve", "--vault", ".", "--project", "."],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert clicked.returncode == shown.returncode == 2
    assert shown.stderr == clicked.stderr
    assert "Usage: rubi serve [OPTIONS]" in shown.stderr


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--port", "9001"], "--port"),
        (["--host", "127.0.0.1"], "--host"),
        (["--project", ".", "--host", "::1", "--port=8765"], "--host and --port"),
    ],
)
def test_host_or_port_without_http_is_refused_in_one_line(
    tmp_path: Path, args: list[str], named: str
) -> None:
    """A stdio server would start and ignore them (it listens on no port): refused as
    ``--no-token`` without ``--http`` is, by the fast path and by click alike."""
    line = f"Error: {named} applies to --http only (stdio opens no port); add --http"
    for code in (_AS_RUBI, _AS_CLICK):
        run = _rubi(["serve", *args], tmp_path, code=code)
        shown = [x for x in run.stderr.splitlines() if not x.startswith("import time:")]
        assert (run.returncode, shown) == (1, [line])


@pytest.mark.parametrize("extra", [["--help"], ["-h"], ["--show-token"]])
def test_any_other_argument_goes_to_click(tmp_path: Path, extra: list[str]) -> None:
    run = _rubi(["serve", *extra], tmp_path, RUBI_HTTP_TOKEN="t" * 32)
    assert run.returncode == 0, run.stderr
    assert "click" in _imported(run.stderr)
    if extra != ["--show-token"]:
        assert run.stdout.startswith("Usage: rubi serve [OPTIONS]")


def test_the_bare_path_runs_the_options_click_parses_from_a_bare_serve() -> None:
    """One set of defaults: a ``rubi serve`` click parses without arguments is the
    options object the bare path runs, field for field."""
    from rubi.cli.main import cli
    from rubi.cli.servecmds import serve
    from rubi.cli.serverun import DEFAULTS, ServeOptions

    # Under the group, as rubi parses it: a context made without the group's would
    # leave click's help option cached on the command with the default names only
    # (``--help`` without ``-h``), and docs/cli.md's check would then fail later on.
    with cli.make_context("rubi", ["serve"]) as group:
        parsed = serve.make_context("serve", [], parent=group).params
    assert ServeOptions(**parsed) == DEFAULTS


def test_the_click_command_passes_what_it_parsed_through_as_one_options_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from rubi.cli import servecmds
    from rubi.cli.serverun import ServeOptions

    ran: list[object] = []
    monkeypatch.setattr(servecmds, "run_serve", ran.append)
    done = CliRunner().invoke(
        servecmds.serve, ["--http", "--port", "9001", "--project", str(tmp_path)]
    )
    assert done.exit_code == 0, done.output
    assert ran == [ServeOptions(http=True, port=9001, project=tmp_path)]


def test_a_bare_serve_keeps_the_patterns_it_compiled_for_the_next_server(
    tmp_path: Path,
) -> None:
    """A bare ``rubi serve`` makes its regular expressions from the code kept in the
    cache folder and keeps what it compiled anew at exit, as a hook and a command do
    (:mod:`rubi.core.regexcode`): the first server writes the file, a second one, with
    the same calls, compiles nothing new and leaves it as it was."""
    from rubi.core import regexcode

    project = login_project(tmp_path / "proj")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    stdin = "".join(json.dumps(r) + "\n" for r in _REQUESTS)
    kept = Path(regexcode.cache_file())
    assert not kept.exists()
    first = _rubi(["serve"], project, stdin)
    assert first.returncode == 0, first.stderr
    assert kept.is_file()
    before = (kept.read_bytes(), kept.stat().st_mtime_ns)
    second = _rubi(["serve"], project, stdin)
    assert second.returncode == 0, second.stderr
    assert _messages(second.stdout) == _messages(first.stdout)
    assert (kept.read_bytes(), kept.stat().st_mtime_ns) == before


def _clicked(args: list[str]) -> object:
    """The options click parses from ``rubi serve ARGS``, or the error it raises."""
    import click

    from rubi.cli.main import cli
    from rubi.cli.servecmds import serve
    from rubi.cli.serverun import ServeOptions

    try:
        with cli.make_context("rubi", ["serve", *args]) as group:
            return ServeOptions(**serve.make_context("serve", args, parent=group).params)
    except click.ClickException as exc:
        return type(exc)


def test_the_options_read_without_click_are_the_ones_click_reads(tmp_path: Path) -> None:
    """Every command line the fast path reads gives the options click parses from it;
    every other one (a value click rejects or might read otherwise, an option it does
    not read, a repeat) is left to click."""
    from rubi.cli.servebare import _options, bare_options
    from rubi.cli.serverun import DEFAULTS

    folder, file = tmp_path / "proj", tmp_path / "file"
    folder.mkdir()
    file.write_text("", encoding="utf-8")
    read = [
        [],
        ["--project", str(folder)],
        [f"--project={folder}"],
        ["--http", "--port", "9001", "--project", str(folder)],
        ["--http", "--host", "0.0.0.0", "--allow-remote", "--port=1"],
        ["--http", "--no-token", "--port", "65535"],
        ["--vault", str(folder)],
        ["--vault", str(tmp_path / "missing")],
        ["--project", "."],
    ]
    left = [
        ["--project", str(file)],
        ["--project", str(tmp_path / "missing")],
        ["--project", ""],
        ["--project"],
        ["--project", "--http"],
        ["--port", "0"],
        ["--port", "65536"],
        ["--port", "08765"],
        ["--port", " 8765"],
        ["--port", "8_765"],
        ["--port", "x"],
        ["--http=1"],
        ["--http", "--http"],
        ["--port", "1", "--port", "2"],
        ["--vault", ""],
        ["--vault", str(folder), "--project", str(folder)],
        ["--show-token"],
        ["--help"],
        ["-h"],
        ["--proj", str(folder)],
        ["--", "--http"],
        ["extra"],
    ]
    for args in read:
        given = bare_options(["serve", *args])
        assert given is not None, args
        assert _options(DEFAULTS, given) == _clicked(args), args
    for args in left:
        assert bare_options(["serve", *args]) is None, args
    assert bare_options(["search", "serve"]) is None
    assert bare_options(["-v", "serve"]) is None


@pytest.mark.parametrize("http", [False, True], ids=["stdio", "http"])
def test_only_a_stdio_server_gets_the_hook_answerer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, http: bool
) -> None:
    """The plugin's ``mcp_tool`` hooks are answered over stdio only
    (:func:`rubi.mcp.server.serve`): an HTTP server neither builds the answerer nor
    imports it."""
    import contextlib
    import sys

    from rubi.cli import serverun, servewatch
    from rubi.mcp import server

    given: dict[str, object] = {}
    monkeypatch.delitem(sys.modules, "rubi.engine.hooktool", raising=False)
    monkeypatch.setattr(server, "serve", lambda *args, **kwargs: given.update(kwargs))
    monkeypatch.setattr(serverun, "_engine", lambda *args: contextlib.nullcontext())
    monkeypatch.setattr(
        servewatch, "in_background", lambda *args, **kwargs: contextlib.nullcontext()
    )
    serverun.run_serve(serverun.ServeOptions(http=http, project=tmp_path))
    assert (given["hook"] is None) is http
    assert ("rubi.engine.hooktool" in sys.modules) is not http
