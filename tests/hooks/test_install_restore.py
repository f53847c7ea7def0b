"""``rubi uninstall`` gives every file back as it was: the same bytes, no ``{}`` left
where there was no file, no empty folder install made, no stray backup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.claude.install import install, uninstall
from rubi.claude.settingsfile import dump
from rubi.cli.main import cli

from helpers import write

ODD = (
    '{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls:*)"]},\n'
    '    "env": {"A": "é"}, "autoCompactWindow": 500000\n}'
)
"""A user's settings in a style rubi would never write: four spaces, an inline object,
two keys on a line, a non-ASCII character, no final newline."""


def snapshot(*roots: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``roots``: bytes for files, None for folders."""
    found: dict[str, bytes | None] = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            found[str(path)] = path.read_bytes() if path.is_file() else None
    return found


def test_user_settings_come_back_byte_identical(tmp_path: Path, isolated_home: Path) -> None:
    settings = write(isolated_home / ".claude" / "settings.json", ODD)
    project = tmp_path / "p"
    project.mkdir()
    before = snapshot(isolated_home / ".claude", project)
    report = install(project, command="rubi", replace_compact_window=True)
    assert json.loads(settings.read_text())["autoCompactWindow"] == 150_000
    (backup,) = settings.parent.glob("settings.json.rubi-backup-*")
    assert any(str(backup) in line for line in report.changes)  # named in full

    out = uninstall(project)
    assert snapshot(isolated_home / ".claude", project) == before
    assert any(f"{backup}: removed" in line for line in out.changes)


def test_user_install_on_settings_in_its_own_style(tmp_path: Path, isolated_home: Path) -> None:
    """--user: hooks and the window go into the user's own settings file, then out."""
    settings = write(isolated_home / ".claude" / "settings.json", ODD.replace("500000", "1"))
    before = settings.read_bytes()
    install(tmp_path, user=True, command="rubi", replace_compact_window=True)
    assert "Stop" in json.loads(settings.read_text())["hooks"]
    uninstall(tmp_path, user=True)
    assert settings.read_bytes() == before
    assert not list(settings.parent.glob("settings.json.rubi-backup-*"))


def test_files_and_folders_install_created_are_removed(tmp_path: Path, isolated_home: Path) -> None:
    """No ~/.claude at all before: install creates ~/.claude/settings.json for the
    window, the project's .claude/ and .mcp.json; uninstall leaves no ``{}`` and no
    empty folder behind (the personal vault stays: it holds the user's notes)."""
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi")
    assert (isolated_home / ".claude" / "settings.json").is_file()
    assert (project / ".claude" / "settings.local.json").is_file()
    out = uninstall(project)
    assert not (isolated_home / ".claude").exists()
    assert not (project / ".claude").exists()
    assert not (project / ".mcp.json").exists()
    assert any("install created it" in line for line in out.changes)


def test_a_folder_that_gained_files_stays(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi", compact_window=None)
    write(project / ".claude" / "commands" / "mine.md", "# mine\n")
    uninstall(project)
    assert not (project / ".claude" / "settings.local.json").exists()
    assert (project / ".claude" / "commands" / "mine.md").is_file()


def test_changed_since_install_keeps_the_users_style_and_names_the_backup(
    tmp_path: Path, isolated_home: Path
) -> None:
    settings = write(isolated_home / ".claude" / "settings.json", ODD)
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi", replace_compact_window=True)
    data = json.loads(settings.read_text())
    data["theme"] = "dark"  # the user changes something else meanwhile
    settings.write_text(dump(data, ODD), encoding="utf-8")
    out = uninstall(project)
    text = settings.read_text(encoding="utf-8")
    assert json.loads(text) == {**json.loads(ODD), "theme": "dark"}
    assert '\n    "model": "opus"' in text and not text.endswith("\n")  # its own style
    (backup,) = settings.parent.glob("settings.json.rubi-backup-*")
    assert any(f"{backup}: backup kept" in line for line in out.changes)


def test_dump_follows_the_files_style() -> None:
    assert dump({"a": 1}, '{\n\t"b": 2\n}\n') == '{\n\t"a": 1\n}\n'
    assert dump({"a": 1}, '{"b": 2}') == '{"a": 1}'
    assert dump({"a": 1}, None) == '{\n  "a": 1\n}\n'
    assert dump({"a": 1}, '{\r\n   "b": 2\r\n}\r\n') == '{\r\n   "a": 1\r\n}\r\n'


def test_cli_names_every_removal(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    CliRunner().invoke(cli, ["install", "--project", str(project)])
    r = CliRunner().invoke(cli, ["uninstall", "--project", str(project)])
    assert r.exit_code == 0, r.output
    assert f"{isolated_home / '.claude' / 'settings.json'}: removed" in r.output


def test_install_makes_no_personal_vault_and_uninstall_leaves_no_empty_folder(
    tmp_path: Path, isolated_home: Path
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (isolated_home / ".config").mkdir(exist_ok=True)  # as in every home
    before = snapshot(isolated_home, project)
    install(project, command="/opt/venv/bin/rubi", compact_window=None)
    assert not (isolated_home / "rubi-vault").exists()
    mcp = json.loads((project / ".mcp.json").read_text())
    assert mcp["mcpServers"]["rubi"]["command"] == "rubi"  # no path of this machine
    uninstall(project)
    assert snapshot(isolated_home, project) == before  # no empty installs/ folder


def test_codex_uninstall_leaves_no_empty_codex_folder(tmp_path: Path, isolated_home: Path) -> None:
    from rubi.claude.harness import install_harness, uninstall_harness

    project = tmp_path / "p"
    project.mkdir()
    (isolated_home / ".config").mkdir(exist_ok=True)  # as in every home
    before = snapshot(isolated_home, project)
    install_harness(project, "codex", command="rubi")
    assert (project / ".codex").is_dir()
    out = uninstall_harness(project, "codex")
    assert snapshot(isolated_home, project) == before
    assert any(line.endswith(".codex: removed (install created it)") for line in out.changes)


@pytest.mark.parametrize("had_config", [False, True], ids=["fresh-account", "config-folder-kept"])
def test_uninstall_removes_the_config_folder_only_if_install_made_it(
    tmp_path: Path, isolated_home: Path, had_config: bool
) -> None:
    from rubi.claude.harness import install_harness, uninstall_harness

    project = tmp_path / "p"
    project.mkdir()
    if had_config:
        (isolated_home / ".config").mkdir(exist_ok=True)
    before = snapshot(isolated_home, project)
    install(project, command="/opt/venv/bin/rubi", compact_window=None)
    install_harness(project, "gemini", command="/opt/venv/bin/rubi")
    assert (isolated_home / ".config" / "rubi" / "installs").is_dir()
    uninstall_harness(project, "gemini")
    uninstall(project)
    assert snapshot(isolated_home, project) == before
    assert (isolated_home / ".config").exists() == had_config


def test_the_window_is_restored_before_the_file_it_was_in_is_removed(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Uninstall said "settings.json: removed (install created it)" and then
    "settings.json: autoCompactWindow restored", in a file already gone."""
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi", replace_compact_window=True)
    settings = str(isolated_home / ".claude" / "settings.json")
    changes = [c for c in uninstall(project).changes if c.startswith(f"{settings}: ")]
    assert changes == [
        f"{settings}: autoCompactWindow restored",
        f"{settings}: removed (install created it)",
    ]
    assert not (isolated_home / ".claude" / "settings.json").exists()
