"""Hooks `rubi install` wrote after their rubi went away (a venv moved, rubi
reinstalled): they fall back to PATH, doctor and `install --check` name the path,
and a second install replaces them in place, whatever the path holds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hooks.test_install import SHELLS, fake_rubi, read, run_hook
from rubi.claude.hookpaths import parse_hook_command, stale_commands
from rubi.claude.install import HOOK_EVENTS, hook_command, hook_groups, install, record_path
from rubi.claude.installcheck import check_install
from rubi.cli.main import cli

from helpers import write

ODD = "ven v'1 $(touch pwned)"
"""A venv folder whose name holds a space, a quote and a command substitution."""


def _settings(project: Path) -> Path:
    return project / ".claude" / "settings.local.json"


@pytest.mark.timeout(60)
def test_a_hook_whose_rubi_went_away_runs_rubi_from_path(tmp_path: Path) -> None:
    old = fake_rubi(tmp_path / ODD / "bin")
    project = tmp_path / "p"
    install(project, command=str(old), compact_window=None)
    command = read(_settings(project))["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert parse_hook_command(command) == (str(old), "Stop")
    shutil.rmtree(tmp_path / ODD)
    reinstalled = fake_rubi(tmp_path / "pipx" / "bin")  # rubi reinstalled, on PATH
    for shell in SHELLS:
        result = run_hook(shell, command, str(reinstalled.parent), payload="{}")
        assert (result.returncode, result.stdout, result.stderr) == (0, b'{"fake": true}', b"")
        nothing = run_hook(shell, command, str(tmp_path / "empty"))
        assert (nothing.returncode, nothing.stdout, nothing.stderr) == (0, b"", b"")
    assert (reinstalled.parent / "calls.txt").read_text() == "hook Stop|{}" * len(SHELLS)
    assert not list(tmp_path.rglob("pwned"))  # the path reached the shell as text


def test_doctor_and_install_check_name_the_path_that_is_gone_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = fake_rubi(tmp_path / ODD / "bin")
    project = tmp_path / "p"
    (project / ".rubi").mkdir(parents=True)
    install(project, command=str(old), compact_window=None)
    monkeypatch.chdir(project)
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "--check"]).exit_code == 0
    shutil.rmtree(tmp_path / ODD)

    ok, lines = check_install(project)
    assert not ok
    (line,) = lines
    assert str(old) in line and "`rubi install`" in line and "7 hooks" in line
    checked = runner.invoke(cli, ["install", "--check"])
    assert checked.exit_code == 1 and str(old) in checked.output
    doctor = runner.invoke(cli, ["doctor"])
    assert doctor.exit_code == 1
    assert str(old) in doctor.output and "`rubi install`" in doctor.output
    assert "1 problem" in doctor.output.splitlines()[-1]
    found = json.loads(runner.invoke(cli, ["doctor", "--json"]).output)["hooks"]
    assert [h["path"] for h in found] == [str(_settings(project))]

    new = fake_rubi(tmp_path / "new" / "bin")
    install(project, command=str(new), compact_window=None)
    assert stale_commands([(_settings(project), False)]) == []
    assert check_install(project)[0]


def test_a_second_install_replaces_rubi_s_hooks_without_the_record(tmp_path: Path) -> None:
    project = tmp_path / "p"
    mine = {"hooks": [{"type": "command", "command": "rubi hook Stop && echo mine"}]}
    write(_settings(project), json.dumps({"hooks": {"Stop": [mine]}}))
    install(project, command="/gone/venv/bin/rubi", compact_window=None)
    record_path(_settings(project)).unlink()  # the config folder was reset, say
    install(project, command="/new place/bin/rubi", compact_window=None)
    hooks = read(_settings(project))["hooks"]
    for event, group in hook_groups("/new place/bin/rubi").items():
        assert [g for g in hooks[event] if g != mine] == [group], event
    assert mine in hooks["Stop"]  # a user's own hook naming rubi is not rubi's
    assert install(project, command="/new place/bin/rubi", compact_window=None).changes == []


@pytest.mark.parametrize(
    "command",
    [
        "rubi hook Stop && rm -rf ~",
        "if command -v rubi >/dev/null 2>&1; then exec rubi hook Stop; fi; rm -rf ~",
        "/x/rubi hook Stop # note",
        "if command -v 'unclosed",
        "",
    ],
)
def test_only_rubi_s_own_command_forms_are_read_back(command: str) -> None:
    assert parse_hook_command(command) is None


def test_every_form_rubi_wrote_is_read_back() -> None:
    for event in HOOK_EVENTS:
        for exe in ("rubi", "/a b/it's/rubi", "/usr/bin/rubi"):
            assert parse_hook_command(hook_command(exe, event)) == (exe, event)
    old = "if command -v /v/bin/rubi >/dev/null 2>&1; then exec /v/bin/rubi hook Stop; fi"
    assert parse_hook_command(old) == ("/v/bin/rubi", "Stop")


@pytest.mark.parametrize("pip_form", [False, True])
def test_a_rubi_whose_python_is_gone_is_named_not_taken_as_working(
    tmp_path: Path, pip_form: bool
) -> None:
    # pip writes its /bin/sh form for a path with a space (a #! line ends at one)
    python = tmp_path / ("py 3" if pip_form else "py3") / "python3"
    write(python, "#!/bin/sh\nexit 0\n")
    python.chmod(0o755)
    script = tmp_path / "venv" / "bin" / "rubi"
    head = f"#!/bin/sh\n'''exec' '{python}' \"$0\" \"$@\"\n' '''\n" if pip_form else f"#!{python}\n"
    write(script, head + "import sys\n")
    script.chmod(0o755)
    project = tmp_path / "p"
    install(project, command=str(script), compact_window=None)
    assert stale_commands([(_settings(project), False)]) == []
    assert check_install(project)[0]

    python.unlink()  # the venv's Python removed or upgraded: the script stays
    (stale,) = stale_commands([(_settings(project), False)])
    assert stale.executable == str(script) and len(stale.events) == len(HOOK_EVENTS)
    ok, (line,) = check_install(project)
    assert not ok
    assert f"its Python {python} is gone" in line and "`rubi install`" in line
    assert "not found" in line and "\n" not in line


def test_doctor_says_when_the_project_s_server_command_is_not_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    (project / ".rubi").mkdir(parents=True)
    server = {"type": "stdio", "command": "rubi", "args": ["serve"]}
    write(project / ".mcp.json", json.dumps({"mcpServers": {"rubi": server}}))
    monkeypatch.chdir(project)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    said = [
        ln for ln in CliRunner().invoke(cli, ["doctor"]).output.splitlines() if ".mcp.json" in ln
    ]
    assert len(said) == 1 and "`rubi` from PATH" in said[0] and "on PATH" in said[0]
    monkeypatch.setenv("PATH", str(fake_rubi(tmp_path / "bin").parent))
    assert ".mcp.json" not in CliRunner().invoke(cli, ["doctor"]).output
