"""rubi's plugin enabled beside the hooks `rubi install` wrote: Claude Code ran rubi
twice (SessionStart's map twice in the first request; beside a project install the
plugin's server hidden as a duplicate of `.mcp.json`'s, so its mcp_tool hooks were
skipped; beside a user-wide one a prompt's recall twice too). Install, `install
--check` and doctor say so, with the two ways back to one route."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hooks.test_install import fake_rubi
from rubi.claude.install import install
from rubi.claude.installcheck import check_install
from rubi.claude.plugincheck import double_wiring, enabled_plugin
from rubi.cli.main import cli

from helpers import write


def _enable(settings: Path, value: object, key: str = "rubi@rubi") -> None:
    data = json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else {}
    data.setdefault("enabledPlugins", {})[key] = value
    write(settings, json.dumps(data))


def _user_settings() -> Path:
    return Path.home() / ".claude" / "settings.json"


def test_install_check_and_doctor_name_the_plugin_beside_the_hooks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    (project / ".rubi").mkdir(parents=True)
    rubi = fake_rubi(tmp_path / "venv" / "bin")
    report = install(project, command=str(rubi), compact_window=None)
    assert not any("plugin" in note for note in report.notes)  # no plugin: nothing said
    assert check_install(project)[0]

    _enable(_user_settings(), True)  # `claude plugin install rubi@rubi`
    report = install(project, command=str(rubi), compact_window=None)
    (note,) = [n for n in report.notes if "plugin" in n]
    local = project / ".claude" / "settings.local.json"
    assert note.startswith(f"{local}: ")
    assert str(_user_settings()) in note and "rubi@rubi" in note
    assert "`rubi uninstall`" in note and "`claude plugin disable rubi@rubi`" in note
    assert "the map twice" in note and "the plugin's own hooks skipped" in note
    ok, lines = check_install(project)
    assert not ok and note in lines

    monkeypatch.chdir(project)
    runner = CliRunner()
    assert runner.invoke(cli, ["install", "--check"]).exit_code == 1
    doctor = runner.invoke(cli, ["doctor"])
    assert doctor.exit_code == 1 and "rubi@rubi" in doctor.output
    found = json.loads(runner.invoke(cli, ["doctor", "--json"]).output)["hooks"]
    assert [h["path"] for h in found] == [str(local)]

    assert runner.invoke(cli, ["uninstall"]).exit_code == 0  # one route left: the plugin
    assert double_wiring(project) is None
    assert runner.invoke(cli, ["doctor"]).exit_code == 0


def test_a_project_that_disables_the_plugin_is_not_run_twice(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    install(project, command=str(fake_rubi(tmp_path / "bin")), compact_window=None)
    _enable(_user_settings(), True)
    assert double_wiring(project) is not None
    _enable(project / ".claude" / "settings.json", False)  # the project's settings win
    assert enabled_plugin(project) is None
    assert double_wiring(project) is None
    _enable(project / ".claude" / "settings.local.json", True)  # and the local ones win
    assert enabled_plugin(project) == ("rubi@rubi", project / ".claude" / "settings.local.json")


@pytest.mark.parametrize(
    ("key", "value"),
    [("rubi@rubi", False), ("rubi@rubi", "yes"), ("rubidium@x", True), ("other@rubi", True)],
)
def test_only_rubi_s_plugin_switched_on_counts(tmp_path: Path, key: str, value: object) -> None:
    project = tmp_path / "p"
    project.mkdir()
    install(project, command=str(fake_rubi(tmp_path / "bin")), compact_window=None)
    _enable(_user_settings(), value, key)
    assert double_wiring(project) is None


def test_a_user_wide_install_beside_the_plugin_names_the_user_uninstall(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    install(project, user=True, command=str(fake_rubi(tmp_path / "bin")), compact_window=None)
    _enable(_user_settings(), True, "rubi@my-fork")  # a marketplace of another name
    found = double_wiring(project)
    assert found is not None and found[0] == _user_settings()
    assert "`rubi uninstall --user`" in found[1] and "rubi@my-fork" in found[1]
    # a user-wide server hides nothing: the plugin's hooks run beside the installed ones
    assert "a prompt's recall and the turn's capture twice" in found[1]


def test_a_settings_file_that_is_not_json_is_passed_over(tmp_path: Path) -> None:
    project = tmp_path / "p"
    install(project, command=str(fake_rubi(tmp_path / "bin")), compact_window=None)
    write(project / ".claude" / "settings.json", "{not json")
    assert enabled_plugin(project) is None
    _enable(_user_settings(), True)
    assert enabled_plugin(project) == ("rubi@rubi", _user_settings())
