"""``rubi install --harness gemini|codex``: what lands in each CLI's files (in the
shapes their documentation gives), idempotent, and reversible byte for byte."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.claude.harness import HARNESS_HOOKS, install_harness, uninstall_harness
from rubi.cli.main import cli
from rubi.core.errors import RubiError

from helpers import write

CODEX_CONFIG = '# my codex\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'


def hook_shape_ok(hooks: dict, events: set[str], unit_ms: bool) -> None:  # type: ignore[type-arg]
    """Claude-style hooks: event → [{matcher?, hooks: [{type, command, timeout}]}]."""
    assert set(hooks) == events
    for groups in hooks.values():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for handler in group["hooks"]:
                assert handler["type"] == "command" and " hook " in handler["command"]
                assert (handler["timeout"] >= 1000) == unit_ms


def test_gemini_project_install(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    report = install_harness(project, "gemini", command="/opt/rubi/bin/rubi")
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    assert settings["mcpServers"]["rubi"] == {"command": "/opt/rubi/bin/rubi", "args": ["serve"]}
    hook_shape_ok(settings["hooks"], {"SessionStart", "BeforeAgent"}, unit_ms=True)
    assert "hook UserPromptSubmit" in settings["hooks"]["BeforeAgent"][0]["hooks"][0]["command"]
    assert any("MCP server rubi" in line for line in report.changes)
    assert install_harness(project, "gemini", command="/opt/rubi/bin/rubi").changes == []
    uninstall_harness(project, "gemini")
    assert not (project / ".gemini").exists()  # created by install, gone with it


def test_gemini_user_settings_come_back_byte_identical(tmp_path: Path, isolated_home: Path) -> None:
    own = (
        '{\n    "theme": "GitHub",\n    "security": {"auth": {"selectedType": "gemini-api-key"}}\n}'
    )
    settings = write(isolated_home / ".gemini" / "settings.json", own)
    install_harness(tmp_path, "gemini", user=True, command="rubi")
    data = json.loads(settings.read_text())
    assert data["theme"] == "GitHub" and "rubi" in data["mcpServers"]
    uninstall_harness(tmp_path, "gemini", user=True)
    assert settings.read_text() == own


def test_codex_user_install_appends_a_block_and_takes_it_out(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = isolated_home / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(home))
    config = write(home / "config.toml", CODEX_CONFIG)
    report = install_harness(tmp_path, "codex", user=True, command='/opt/my "rubi"/rubi')
    text = config.read_text()
    assert text.startswith(CODEX_CONFIG)  # the user's part keeps its bytes
    parsed = tomllib.loads(text)
    assert parsed["model"] == "o3" and parsed["mcp_servers"]["docs"]["command"] == "docs-mcp"
    assert parsed["mcp_servers"]["rubi"] == {"command": '/opt/my "rubi"/rubi', "args": ["serve"]}
    hooks = json.loads((home / "hooks.json").read_text())["hooks"]
    hook_shape_ok(hooks, set(HARNESS_HOOKS["codex"]), unit_ms=False)
    assert hooks["SessionStart"][0]["matcher"] == "startup|resume|clear"
    assert any("trust" in line for line in report.changes)
    assert (
        install_harness(tmp_path, "codex", user=True, command='/opt/my "rubi"/rubi').changes == []
    )

    uninstall_harness(tmp_path, "codex", user=True)
    assert config.read_text() == CODEX_CONFIG
    assert not (home / "hooks.json").exists()


def test_codex_keeps_a_users_rubi_server_and_refuses_bad_toml(tmp_path: Path) -> None:
    project = tmp_path / "p"
    own = '[mcp_servers.rubi]\ncommand = "mine"\n'
    config = write(project / ".codex" / "config.toml", own)
    report = install_harness(project, "codex", command="rubi")
    assert config.read_text() == own
    assert any("already there; kept" in line for line in report.changes)
    uninstall_harness(project, "codex")
    assert config.read_text() == own
    write(project / ".codex" / "config.toml", "[mcp_servers\n")
    with pytest.raises(RubiError, match="not valid TOML"):
        install_harness(project, "codex", command="rubi")


def test_cli_harness_option(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["install", "--harness", "gemini", "--project", str(tmp_path)])
    assert r.exit_code == 0 and "hook BeforeAgent" in r.output, r.output
    r = CliRunner().invoke(cli, ["uninstall", "--harness", "gemini", "--project", str(tmp_path)])
    assert r.exit_code == 0 and "removed MCP server rubi" in r.output
    r = CliRunner().invoke(cli, ["uninstall", "--harness", "codex", "--project", str(tmp_path)])
    assert r.exit_code == 1 and "not installed" in r.output


def test_gemini_settings_with_comments_are_left_alone_and_said_so(tmp_path: Path) -> None:
    # Gemini CLI reads its settings.json with comments; rubi's rewrite would drop them,
    # so it refuses, saying what is there (not "not valid JSON")
    project = tmp_path / "p"
    own = '{\n  // the team theme\n  "theme": "GitHub"\n}\n'
    settings = write(project / ".gemini" / "settings.json", own)
    with pytest.raises(RubiError, match="a comment at line 2; rubi edits plain JSON") as caught:
        install_harness(project, "gemini", command="rubi")
    assert "not valid JSON" not in str(caught.value)
    assert settings.read_text() == own
    write(project / ".gemini" / "settings.json", '{"theme": "GitHub",}')
    with pytest.raises(RubiError, match="not valid JSON"):  # a broken file is still called so
        install_harness(project, "gemini", command="rubi")


def test_the_help_and_the_codex_note_say_what_happens(tmp_path: Path) -> None:
    # uninstall's --harness unwires; a Codex hook not trusted yet is skipped by
    # `codex exec` without a word (seen with Codex CLI 0.171.0), so install says so
    runner = CliRunner()
    assert "The agent CLI to unwire" in runner.invoke(cli, ["uninstall", "--help"]).output
    assert "Gemini CLI" in runner.invoke(cli, ["hook", "--help"]).output
    report = install_harness(tmp_path, "codex", command="rubi")
    assert any("`codex exec` skips it without a word" in line for line in report.changes)


def test_a_project_install_says_its_files_hold_this_machines_path(
    tmp_path: Path, isolated_home: Path
) -> None:
    # .gemini/settings.json and .codex/ are project files a team may commit; the
    # absolute path of this machine's rubi would not run on a teammate's
    for harness in ("gemini", "codex"):
        report = install_harness(tmp_path, harness, command="/opt/rubi/bin/rubi")
        assert any(
            "path to rubi (/opt/rubi/bin/rubi): keep it out of git" in n for n in report.notes
        )
        again = install_harness(tmp_path, harness, command="/opt/rubi/bin/rubi")
        assert again.notes == []  # nothing added: nothing to say
    mine = install_harness(tmp_path, "gemini", user=True, command="/opt/rubi/bin/rubi")
    assert mine.notes == []  # the user's own settings stay on this machine


def test_a_codex_project_install_says_codex_ignores_it_until_the_project_is_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex CLI 0.171.0 ignored the project's .codex/config.toml without a word in a
    project it was never asked to trust (`codex mcp list`: "No MCP servers configured
    yet"), and `rubi install --harness codex` said nothing of it; trusting the
    project (an entry in the user's config.toml) made the server appear."""
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    project = tmp_path / "p"
    project.mkdir()
    report = install_harness(project, "codex", command="rubi")
    (note,) = [n for n in report.notes if "trust" in n]
    assert note.startswith(f"{project / '.codex'}: Codex reads a project's .codex/ only once")
    uninstall_harness(project, "codex")

    config = codex_home / "config.toml"
    config.write_text(f'[projects."{tmp_path}"]\ntrust_level = "trusted"\n', encoding="utf-8")
    report = install_harness(project, "codex", command="rubi")  # a folder above is trusted
    assert not [n for n in report.notes if "trust" in n]
    uninstall_harness(project, "codex")

    config.write_text(f'[projects."{project}"]\ntrust_level = "untrusted"\n', encoding="utf-8")
    assert [n for n in install_harness(project, "codex", command="rubi").notes if "trust" in n]
    uninstall_harness(project, "codex")
    user_wide = install_harness(project, "codex", user=True, command="rubi")
    assert not [n for n in user_wide.notes if "trust" in n]  # every project: no trust needed
    uninstall_harness(project, "codex", user=True)
    config.write_text("not toml [", encoding="utf-8")  # unreadable: nothing is known, nothing said
    assert not [n for n in install_harness(project, "codex", command="rubi").notes if "trust" in n]


def test_a_gemini_project_install_says_gemini_ignores_it_until_the_folder_is_trusted(
    tmp_path: Path, isolated_home: Path
) -> None:
    """Gemini CLI 0.61.0 listed the project's server "Disabled" in a folder not in
    ~/.gemini/trustedFolders.json (`gemini mcp list`), "Connected" once it was."""
    project = tmp_path / "p"
    project.mkdir()
    (note,) = [n for n in install_harness(project, "gemini", command="rubi").notes if "trust" in n]
    assert note.startswith(f"{project / '.gemini'}: Gemini reads a project's .gemini/ only once")
    assert "`gemini mcp list` shows rubi Disabled" in note
    uninstall_harness(project, "gemini")
    rules = isolated_home / ".gemini" / "trustedFolders.json"
    for trust, said in [
        ({str(project): "TRUST_FOLDER"}, False),
        ({str(project / "sibling"): "TRUST_PARENT"}, False),  # the folder above the one named
        ({str(tmp_path): "TRUST_FOLDER", str(project): "DO_NOT_TRUST"}, True),  # nearest wins
        ({str(project / "below"): "TRUST_FOLDER"}, True),
    ]:
        write(rules, json.dumps(trust))
        notes = install_harness(project, "gemini", command="rubi").notes
        assert bool([n for n in notes if "trust" in n]) is said, trust
        uninstall_harness(project, "gemini")
    rules.unlink()
    write(
        isolated_home / ".gemini" / "settings.json",
        '{"security": {"folderTrust": {"enabled": false}}}',
    )
    assert not [n for n in install_harness(project, "gemini", command="rubi").notes if "trust" in n]
