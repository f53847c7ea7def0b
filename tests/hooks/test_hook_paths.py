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
from rubi.claude.install import (
    HOOK_EVENTS,
    hook_command,
    hook_groups,
    install,
    record_path,
    uninstall,
)
from rubi.claude.installcheck import check_install
from rubi.cli.main import cli
from rubi.core.errors import RubiError

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


@pytest.mark.parametrize(
    "command",
    [
        "mytool hook Stop",  # another tool's command of the same shape
        "/opt/lint/bin/lint hook Stop",
        "if command -v /opt/x/lint >/dev/null 2>&1; then exec /opt/x/lint hook Stop; fi",
        "'/x/rubi-not' hook Stop",
    ],
)
def test_another_tool_s_hook_of_rubi_s_shape_is_left_alone(tmp_path: Path, command: str) -> None:
    assert parse_hook_command(command) is None
    project = tmp_path / "p"
    theirs = {"hooks": [{"type": "command", "command": command}]}
    write(_settings(project), json.dumps({"hooks": {"Stop": [theirs]}}))
    assert stale_commands([(_settings(project), False)]) == []  # not named "rubi's"
    install(project, command="/new place/bin/rubi", compact_window=None)
    stop = read(_settings(project))["hooks"]["Stop"]
    assert stop == [theirs, hook_groups("/new place/bin/rubi")["Stop"]]


@pytest.mark.parametrize("hooks", [{"Stop": "not a list"}, ["not", "an object"]])
def test_install_refuses_hooks_of_the_wrong_shape_without_writing(
    tmp_path: Path, hooks: object
) -> None:
    project = tmp_path / "p"
    text = json.dumps({"hooks": hooks})
    write(_settings(project), text)
    with pytest.raises(RubiError, match="rubi will not overwrite it"):
        install(project, command="/new place/bin/rubi", compact_window=None)
    assert _settings(project).read_text(encoding="utf-8") == text


def test_a_project_settings_file_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.json"
    gone = hook_groups("/gone/venv/bin/rubi")
    write(elsewhere, json.dumps({"hooks": {"Stop": [gone["Stop"]]}}))
    project = tmp_path / "p"
    _settings(project).parent.mkdir(parents=True)
    _settings(project).symlink_to(elsewhere)
    assert stale_commands([(_settings(project), False)]) == []
    assert [s.executable for s in stale_commands([(elsewhere, True)])] == ["/gone/venv/bin/rubi"]


def test_a_command_not_of_rubi_s_form_is_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """A settings file may hold 20 MB of 4 kB commands (a cloned project's): each is
    matched once, not split word by word (shlex took 9 s of CPU for such a file)."""
    import rubi.claude.hookpaths as hookpaths

    calls: list[str] = []
    real = hookpaths.shlex.split
    monkeypatch.setattr(hookpaths.shlex, "split", lambda s: calls.append(s) or real(s))
    long = "if command -v '" + "a b " * 1000 + "' >/dev/null 2>&1; then exec x hook Stop; fi"
    for command in (long[:4096], "rubi hook Stop " + "x " * 2000, "echo 'a' " * 400):
        assert parse_hook_command(command) is None
    assert calls == []
    assert parse_hook_command(hook_command("/a b/rubi", "Stop")) == ("/a b/rubi", "Stop")


def test_a_user_install_points_its_gone_server_at_this_rubi_without_the_record(
    tmp_path: Path,
) -> None:
    """doctor says `rubi install --user` fixes a server whose rubi is gone; it must,
    also when the install record went (a config folder reset)."""
    claude_json = Path.home() / ".claude.json"
    install(tmp_path, user=True, command="/gone/venv/bin/rubi", compact_window=None)
    record_path(Path.home() / ".claude" / "settings.json").unlink()
    new = fake_rubi(tmp_path / "new" / "bin")
    install(tmp_path, user=True, command=str(new), compact_window=None)
    assert read(claude_json)["mcpServers"]["rubi"]["command"] == str(new)
    assert stale_commands([(claude_json, True)]) == []


@pytest.mark.parametrize(
    "server",
    [
        {"type": "stdio", "command": "/gone/venv/bin/rubi", "args": ["serve", "--vault", "x"]},
        {"type": "stdio", "command": "/gone/venv/bin/rubi", "args": ["serve"], "env": {}},
        {"type": "stdio", "command": "/gone/venv/bin/mytool", "args": ["serve"]},
    ],
)
def test_a_server_named_rubi_of_another_shape_is_kept(tmp_path: Path, server: object) -> None:
    claude_json = Path.home() / ".claude.json"
    write(claude_json, json.dumps({"mcpServers": {"rubi": server}}))
    report = install(tmp_path, user=True, command="/new/bin/rubi", compact_window=None)
    assert read(claude_json)["mcpServers"]["rubi"] == server
    assert any("already there; kept" in change for change in report.changes)


def test_an_older_install_s_copy_whose_rubi_is_gone_is_taken_out(tmp_path: Path) -> None:
    """rubi before the in-place update appended its groups beside an earlier install's
    when the record was lost: the copy calling a rubi that is gone runs `rubi` from
    PATH a second time, and doctor named it while `rubi install` changed nothing."""
    project = tmp_path / "p"
    new = fake_rubi(tmp_path / "new" / "bin")
    install(project, command=str(new), compact_window=None)
    data = read(_settings(project))
    for event, group in hook_groups("/gone/venv/bin/rubi").items():
        data["hooks"][event].insert(0, group)
    write(_settings(project), json.dumps(data))
    assert [s.executable for s in stale_commands([(_settings(project), False)])] == [
        "/gone/venv/bin/rubi"
    ]
    changes = install(project, command=str(new), compact_window=None).changes
    assert len(changes) == len(HOOK_EVENTS) and all("/gone/venv/bin/rubi" in c for c in changes)
    assert read(_settings(project))["hooks"] == {
        event: [group] for event, group in hook_groups(str(new)).items()
    }
    assert check_install(project)[0]


def test_a_path_with_a_line_break_stays_on_its_line(tmp_path: Path) -> None:
    """A cloned settings file's path cannot forge a line of doctor or `--check`."""
    project = tmp_path / "p"
    odd = "/gone/x\nNo problems found.\x1b[2J\u202e/rubi"
    write(_settings(project), json.dumps({"hooks": {"Stop": [hook_groups(odd)["Stop"]]}}))
    (stale,) = stale_commands([(_settings(project), False)])
    assert stale.executable == odd
    ok, lines = check_install(project)
    assert not ok and lines[0] == stale.line()
    for line in lines:
        assert line.isprintable(), line
    assert "/gone/x\\nNo problems found.\\x1b[2J\\u202e/rubi" in stale.line()


def test_a_project_check_counts_the_user_wide_hooks(tmp_path: Path) -> None:
    """After `rubi install --user`, `rubi install --check` in a project said the hooks
    were not there and that `rubi install` adds them: copies of hooks that already
    run in every project."""
    project = tmp_path / "p"
    project.mkdir()
    new = fake_rubi(tmp_path / "new" / "bin")
    install(project, user=True, command=str(new), compact_window=None)
    ok, lines = check_install(project)
    assert ok and len(lines) == 1 and "user-wide" in lines[0]
    shutil.rmtree(tmp_path / "new")
    ok, lines = check_install(project)
    assert not ok and any("`rubi install --user`" in line for line in lines)


@pytest.mark.parametrize("hooks", ["Stop", {"Stop": "Stop"}, ["Stop"]])
def test_uninstall_after_a_hand_edit_of_the_wrong_shape_does_not_crash(
    tmp_path: Path, hooks: object
) -> None:
    project = tmp_path / "p"
    install(project, command="/new place/bin/rubi", compact_window=None)
    write(_settings(project), json.dumps({"hooks": hooks}))
    uninstall(project)
    assert read(_settings(project))["hooks"] == hooks


def test_a_gone_rubi_hook_beside_a_user_s_own_in_one_group_goes_alone(tmp_path: Path) -> None:
    """Claude Code's `/hooks` may add a user's hook to the group rubi's install made:
    the group is no longer rubi's by form, so a new install appends its own; the gone
    rubi's hook in it is taken out, the user's stays."""
    project = tmp_path / "p"
    old = hook_groups("/gone/venv/bin/rubi")["Stop"]
    mine = {"type": "command", "command": "say done"}
    shared = {"hooks": [*old["hooks"], mine]}
    write(_settings(project), json.dumps({"hooks": {"Stop": [shared, {"hooks": []}]}}))
    new = fake_rubi(tmp_path / "new" / "bin")
    install(project, command=str(new), compact_window=None)
    stop = read(_settings(project))["hooks"]["Stop"]
    assert stop == [{"hooks": [mine]}, {"hooks": []}, hook_groups(str(new))["Stop"]]
    assert check_install(project)[0]


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


def test_doctor_names_a_settings_file_that_is_not_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code runs no hook of a settings file it cannot parse; install said so and
    exited 1, doctor said nothing."""
    project = tmp_path / "p"
    (project / ".rubi").mkdir(parents=True)
    write(_settings(project), '{"hooks": {"Stop": [}\n')
    user = Path.home() / ".claude" / "settings.json"
    write(user, "[]\n")
    monkeypatch.chdir(project)
    doctor = CliRunner().invoke(cli, ["doctor"])
    assert doctor.exit_code == 1
    said = [ln for ln in doctor.output.splitlines() if "runs none of its hooks" in ln]
    assert said == [
        f"hooks      {_settings(project)}: not valid JSON (line 1): Claude Code runs none of "
        "its hooks; fix it, then `rubi install` checks it and adds rubi's",
        f"hooks      {user}: not a JSON object: Claude Code runs none of its hooks; fix it, "
        "then `rubi install` checks it and adds rubi's",
    ]
    assert "2 Claude Code settings problems" in doctor.output
    assert "2 problems" in doctor.output.splitlines()[-1]
    found = json.loads(CliRunner().invoke(cli, ["doctor", "--json"]).output)["hooks"]
    assert [h["path"] for h in found] == [str(_settings(project)), str(user)]
    write(_settings(project), "{}\n")
    write(user, "{}\n")
    assert "Claude Code settings" not in CliRunner().invoke(cli, ["doctor"]).output
