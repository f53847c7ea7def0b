"""rubi install / uninstall, the CLAUDE.md pointer, and the plugin's files."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import frontmatter
import pytest
from click.testing import CliRunner

from hooks.hookhelpers import base
from rubi import app
from rubi.app.agentdocs import POINTER_START, add_pointer
from rubi.claude.install import (
    DEFAULT_COMPACT_WINDOW,
    HOOK_EVENTS,
    hook_groups,
    install,
    rubi_command,
    uninstall,
)
from rubi.claude.installcheck import check_install
from rubi.claude.pluginhooks import plugin_hook_groups
from rubi.cli.main import cli
from rubi.core.errors import RubiError

from helpers import REPO, write

OTHER_HOOK = {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]}


def read(path: Path) -> dict:  # type: ignore[type-arg]
    return json.loads(path.read_text(encoding="utf-8"))


def test_install_is_additive_idempotent_and_reversible(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "p"
    settings = write(
        project / ".claude" / "settings.local.json",
        json.dumps({"hooks": {"PreToolUse": [OTHER_HOOK]}, "model": "opus"}),
    )
    user_settings = write(
        isolated_home / ".claude" / "settings.json", json.dumps({"autoCompactWindow": 500000})
    )
    before = {p: p.read_text() for p in (settings, user_settings)}

    report = install(project, command="rubi")
    data = read(settings)
    assert data["model"] == "opus"
    assert OTHER_HOOK in data["hooks"]["PreToolUse"]
    for event, group in hook_groups().items():
        assert group in data["hooks"][event]
        assert group["hooks"][0]["timeout"] == HOOK_EVENTS[event][1]
    assert read(project / ".mcp.json")["mcpServers"]["rubi"]["args"] == ["serve"]
    assert read(user_settings)["autoCompactWindow"] == 500_000  # the user's own value is kept
    assert any("autoCompactWindow 500000 kept" in c for c in report.changes)
    assert not (isolated_home / "rubi-vault").exists()  # made when first used, not here
    assert any("hook SessionStart" in c for c in report.changes)

    assert [c for c in install(project, command="rubi").changes if "kept" not in c] == []
    assert sum(g == hook_groups()["Stop"] for g in read(settings)["hooks"]["Stop"]) == 1

    uninstall(project)
    assert {p: p.read_text() for p in (settings, user_settings)} == before  # byte for byte
    assert not (project / ".mcp.json").exists()  # it was created by install
    with pytest.raises(RubiError, match="not installed"):
        uninstall(project)


def test_replacing_the_window_is_explicit_and_reversible(
    tmp_path: Path, isolated_home: Path
) -> None:
    user_settings = write(
        isolated_home / ".claude" / "settings.json", json.dumps({"autoCompactWindow": 500000})
    )
    install(tmp_path, replace_compact_window=True)
    assert read(user_settings)["autoCompactWindow"] == 150_000
    assert list(user_settings.parent.glob("settings.json.rubi-backup-*"))
    uninstall(tmp_path)
    assert read(user_settings)["autoCompactWindow"] == 500_000


def test_the_command_is_this_rubi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    venv_rubi = str(Path(sys.executable).with_name("rubi"))
    assert rubi_command() == venv_rubi
    install(tmp_path, compact_window=None)
    hooks = read(tmp_path / ".claude" / "settings.local.json")["hooks"]
    assert hooks["Stop"][0]["hooks"][0]["command"] == (
        f"if command -v {venv_rubi} >/dev/null 2>&1; then exec {venv_rubi} hook Stop; "
        "elif command -v rubi >/dev/null 2>&1; then exec rubi hook Stop; fi"
    )
    assert read(tmp_path / ".mcp.json")["mcpServers"]["rubi"]["command"] == "rubi"


# -- hooks without rubi on PATH --------------------------------------------------------

SHELLS = [str(found) for name in ("sh", "bash", "dash") if (found := shutil.which(name))]
"""Claude Code runs hook commands through a POSIX shell (bash; sh in the issue report);
absolute paths, found before a test empties PATH."""
CAT = shutil.which("cat") or "/bin/cat"


def fake_rubi(folder: Path, status: int = 0) -> Path:
    """An executable ``rubi`` that records its arguments and stdin, answers with a JSON
    line and exits with ``status``."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "rubi"
    log = folder / "calls.txt"
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s|" "$*" >> {shlex.quote(str(log))}\n'
        f"{CAT} >> {shlex.quote(str(log))}\n"
        "printf '{\"fake\": true}'\n"
        f"exit {status}\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def run_hook(
    shell: str, command: str, path: str, payload: str = "{}"
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(
        [shell, "-c", command],
        input=payload.encode(),
        capture_output=True,
        env=env,
        timeout=30,
        check=False,
    )


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shell", SHELLS, ids=lambda path: Path(path).name)
def test_plugin_hooks_are_silent_without_rubi_on_path(shell: str, tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    assert shutil.which("rubi", path=str(empty)) is None
    # the unguarded command is what printed "rubi: not found" into the user's screen
    bare = run_hook(shell, "rubi hook Stop", str(empty))
    assert bare.returncode == 127 and b"not found" in bare.stderr
    hooks = read(REPO / "hooks" / "hooks.json")["hooks"]
    assert set(hooks) == set(HOOK_EVENTS)
    commands = {e: g[0]["hooks"][0] for e, g in hooks.items() if "command" in g[0]["hooks"][0]}
    assert set(commands) == {"SessionStart", "PreCompact", "SessionEnd"}  # the rest: mcp_tool
    for event, hook in commands.items():
        result = run_hook(shell, hook["command"], str(empty))
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b""), event


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shell", SHELLS, ids=lambda path: Path(path).name)
def test_plugin_hooks_run_rubi_and_keep_its_answer_and_status(shell: str, tmp_path: Path) -> None:
    fake = fake_rubi(tmp_path / "bin", status=2)  # exit 2: a hook that blocks
    command = read(REPO / "hooks" / "hooks.json")["hooks"]["PreCompact"][0]["hooks"][0]["command"]
    result = run_hook(shell, command, str(fake.parent), payload='{"trigger": "auto"}')
    assert (result.returncode, result.stdout, result.stderr) == (2, b'{"fake": true}', b"")
    assert (fake.parent / "calls.txt").read_text() == 'hook PreCompact|{"trigger": "auto"}'


@pytest.mark.timeout(60)
def test_install_writes_the_path_of_the_running_rubi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_rubi(tmp_path / "my tools" / "bin")  # a space: quoted for the shell
    monkeypatch.setattr(sys, "argv", [str(fake), "install"])
    monkeypatch.setenv("PATH", "/nonexistent")
    assert rubi_command() == str(fake)
    project = tmp_path / "p"
    report = install(project, compact_window=None)
    # the committed .mcp.json names no path of this machine, and install says rubi is
    # not on PATH (where its server looks for it) and how to put it there
    assert read(project / ".mcp.json")["mcpServers"]["rubi"]["command"] == "rubi"
    (warning,) = [line for line in report.notes if "not on PATH" in line]
    assert str(fake.parent) in warning and "pipx install" in warning
    hooks = read(project / ".claude" / "settings.local.json")["hooks"]
    command = hooks["Stop"][0]["hooks"][0]["command"]
    assert shlex.quote(str(fake)) in command and shlex.quote(str(fake)) != str(fake)
    for shell in SHELLS:
        result = run_hook(shell, command, "/nonexistent", payload="{}")
        assert (result.returncode, result.stdout, result.stderr) == (0, b'{"fake": true}', b"")
    assert (fake.parent / "calls.txt").read_text() == "hook Stop|{}" * len(SHELLS)
    fake.unlink()  # the venv went away: the installed hooks fall silent too
    result = run_hook(SHELLS[0], command, "/nonexistent")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_an_installed_hook_runs_the_real_rubi_with_an_empty_path(
    project: Path, tmp_path: Path
) -> None:
    install(project, compact_window=None)
    hooks = read(project / ".claude" / "settings.local.json")["hooks"]
    command = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    empty = tmp_path / "bin"
    empty.mkdir()
    result = run_hook(SHELLS[0], command, str(empty), payload=json.dumps(payload))
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Login tokens expire at midnight UTC" in context


def test_reinstall_points_what_it_added_at_this_rubi(tmp_path: Path) -> None:
    project = tmp_path / "p"
    install(project, command="/old/venv/bin/rubi", compact_window=None)
    report = install(project, command="/new place/bin/rubi", compact_window=None)
    assert any("hook Stop updated" in c for c in report.changes)
    hooks = read(project / ".claude" / "settings.local.json")["hooks"]
    for event, group in hook_groups("/new place/bin/rubi").items():
        assert hooks[event] == [group]  # replaced in place, not added twice
    assert read(project / ".mcp.json")["mcpServers"]["rubi"]["command"] == "rubi"
    uninstall(project)
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.local.json").exists()  # install created it


def test_install_keeps_an_existing_rubi_server_and_refuses_bad_json(
    tmp_path: Path, isolated_home: Path
) -> None:
    project = tmp_path / "p"
    mcp = write(project / ".mcp.json", json.dumps({"mcpServers": {"rubi": {"command": "x"}}}))
    install(project, compact_window=None)
    assert read(mcp)["mcpServers"]["rubi"] == {"command": "x"}
    assert not (isolated_home / ".claude" / "settings.json").exists()
    uninstall(project)
    assert read(mcp)["mcpServers"]["rubi"] == {"command": "x"}
    write(project / ".claude" / "settings.local.json", "{broken")
    with pytest.raises(RubiError, match="not valid JSON"):
        install(project)


def test_user_install(tmp_path: Path, isolated_home: Path) -> None:
    install(tmp_path, user=True)
    assert "Stop" in read(isolated_home / ".claude" / "settings.json")["hooks"]
    assert "rubi" in read(isolated_home / ".claude.json")["mcpServers"]
    uninstall(tmp_path, user=True)
    assert not (isolated_home / ".claude" / "settings.json").exists()  # install created it
    assert not (isolated_home / ".claude").exists()


def test_user_install_follows_claude_config_dir(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With CLAUDE_CONFIG_DIR set, Claude Code reads the user's settings.json and
    .claude.json from that folder (``claude mcp add --scope user`` writes there), so
    ``install --user``, its check and its undo use them, never ~/.claude."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    project = tmp_path / "p"
    project.mkdir()
    install(project, user=True)
    assert "Stop" in read(config / "settings.json")["hooks"]
    assert read(config / "settings.json")["autoCompactWindow"] == DEFAULT_COMPACT_WINDOW
    assert "rubi" in read(config / ".claude.json")["mcpServers"]
    assert not (isolated_home / ".claude").exists()
    assert not (isolated_home / ".claude.json").exists()
    ok, lines = check_install(project, user=True)
    assert ok, lines
    assert any(str(config / "settings.json") in line for line in lines)
    ok, _ = check_install(project)  # a project sees the user-wide hooks in that folder
    assert ok
    uninstall(project, user=True)
    assert not (config / "settings.json").exists()
    assert not (config / ".claude.json").exists()  # install created it


def test_uninstall_gives_back_the_window_where_install_put_it(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project install writes the compaction window into the user's settings of
    CLAUDE_CONFIG_DIR; uninstalled after the variable changed, it is taken out of that
    file, and the user's other settings.json (with the same value) is left alone."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi")
    assert read(config / "settings.json")["autoCompactWindow"] == DEFAULT_COMPACT_WINDOW
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    own = write(
        isolated_home / ".claude" / "settings.json",
        json.dumps({"autoCompactWindow": DEFAULT_COMPACT_WINDOW}),
    )
    before = own.read_bytes()
    uninstall(project)
    assert own.read_bytes() == before  # never written, never deleted
    assert not (config / "settings.json").exists()  # install created it there


def test_a_second_install_leaves_the_window_in_the_first_folder(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installed again after CLAUDE_CONFIG_DIR changed, the window the record holds is
    not set in a second file (one record, one window): install says where it is."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    project = tmp_path / "p"
    project.mkdir()
    install(project, command="rubi")
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    report = install(project, command="rubi")
    assert any(str(config / "settings.json") in note for note in report.notes)
    assert not (isolated_home / ".claude").exists()
    uninstall(project)
    assert not (config / "settings.json").exists()


@pytest.mark.parametrize("value", ["~/claude-config", "claude-config"])
def test_a_relative_claude_config_dir_is_refused_for_every_project(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """Claude Code 2.1.197 expands no ~ in CLAUDE_CONFIG_DIR and reads a relative one
    from the folder a session starts in: ``install --user`` refuses it with one line,
    writes nothing, and a project install leaves the user-wide window out, saying why."""
    from rubi.app import claude_config_dir
    from rubi.claude.userfiles import user_settings

    monkeypatch.setenv("CLAUDE_CONFIG_DIR", value)
    monkeypatch.chdir(tmp_path)
    assert user_settings() == Path(value) / "settings.json" == claude_config_dir() / "settings.json"
    r = CliRunner().invoke(cli, ["install", "--user"])
    assert r.exit_code != 0
    assert "CLAUDE_CONFIG_DIR" in r.output and "absolute" in r.output
    assert not (tmp_path / value).exists() and not (isolated_home / "claude-config").exists()
    ok, lines = check_install(tmp_path, user=True)  # says the same, not "run install"
    assert not ok and len(lines) == 1 and "absolute" in lines[0]
    project = tmp_path / "p"
    project.mkdir()
    report = install(project, command="rubi")
    assert any("autoCompactWindow not set" in note for note in report.notes)
    assert not (tmp_path / value).exists() and not (isolated_home / "claude-config").exists()
    uninstall(project)


def test_a_linked_user_settings_file_is_uninstalled_too(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A settings.json linked into a dotfiles folder (in CLAUDE_CONFIG_DIR or ~/.claude):
    the install's atomic write replaces the link, and uninstall still finds the record
    and gives the user's settings back."""
    dotfiles = write(tmp_path / "dotfiles" / "settings.json", '{"model": "opus"}\n')
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").symlink_to(dotfiles)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    install(tmp_path, user=True)
    assert "Stop" in read(config / "settings.json")["hooks"]
    uninstall(tmp_path, user=True)
    assert read(config / "settings.json") == {"model": "opus"}
    assert dotfiles.read_text() == '{"model": "opus"}\n'


def test_a_claude_config_dir_that_is_a_file_is_named_as_such(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    afile = write(tmp_path / "config", "not a folder\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(afile))
    r = CliRunner().invoke(cli, ["install", "--user"])
    assert r.exit_code != 0
    assert "CLAUDE_CONFIG_DIR" in r.output and "is not a folder" in r.output
    assert afile.read_text() == "not a folder\n"


def test_uninstall_after_claude_config_dir_changed_names_the_install(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``install --user`` with CLAUDE_CONFIG_DIR set, ``uninstall --user`` without it:
    nothing there to take out, and the line names the folder that holds the install."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    install(tmp_path, user=True)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    with pytest.raises(RubiError, match="not installed here") as caught:
        uninstall(tmp_path, user=True)
    assert str(config) in str(caught.value)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    uninstall(tmp_path, user=True)
    assert not (config / "settings.json").exists()


def test_cli_install(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["install", "--project", str(tmp_path), "--compact-window", "0"])
    assert r.exit_code == 0 and "hook SessionStart" in r.output
    r = CliRunner().invoke(cli, ["install", "--project", str(tmp_path)])
    assert r.exit_code == 0
    r = CliRunner().invoke(cli, ["uninstall", "--project", str(tmp_path)])
    assert r.exit_code == 0 and "removed hook Stop" in r.output


def test_pointer_added_once(tmp_path: Path) -> None:
    write(tmp_path / "AGENTS.md", "# Agents\n\nBe nice.\n")
    assert add_pointer(tmp_path) == ["CLAUDE.md", "AGENTS.md"]
    assert add_pointer(tmp_path) == []
    assert (tmp_path / "AGENTS.md").read_text().startswith("# Agents\n\nBe nice.\n")
    assert (tmp_path / "CLAUDE.md").read_text().count(POINTER_START) == 1
    project = tmp_path / "q"
    project.mkdir()
    app.init_project(project)
    assert POINTER_START in (project / "CLAUDE.md").read_text()
    assert not (project / "AGENTS.md").exists()


@pytest.mark.parametrize(
    ("tool", "pre", "post"),
    [
        ("Read", True, False),  # the read's PreToolUse meters it: one process, not two
        ("Grep", False, True),
        ("Bash", False, True),
        ("Edit", False, True),
        ("ReadX", False, True),
        ("mcp__plugin_rubi_rubi__register", False, True),
        ("mcp__other__Read", False, True),
    ],
)
def test_tool_hook_matchers_as_claude_code_compares_them(tool: str, pre: bool, post: bool) -> None:
    """Claude Code compares a matcher of letters, digits, ``_``, ``|``, ``,``, ``-`` and
    spaces as a list of exact names, anything else as an unanchored JavaScript regular
    expression (``new RegExp(m).test(tool)``, the same as ``re.search`` for these)."""
    hooks = read(REPO / "hooks" / "hooks.json")["hooks"]

    def fires(matcher: str) -> bool:
        if matcher in ("", "*"):
            return True
        if re.fullmatch(r"[A-Za-z0-9_|, -]+", matcher):
            return tool in [name.strip() for name in re.split(r"[|,]", matcher)]
        return re.search(matcher, tool) is not None

    assert fires(hooks["PreToolUse"][0]["matcher"]) is pre
    assert fires(hooks["PostToolUse"][0]["matcher"]) is post


def test_plugin_files_match_the_installer() -> None:
    plugin = read(REPO / ".claude-plugin" / "plugin.json")
    assert plugin["name"] == "rubi"
    market = read(REPO / ".claude-plugin" / "marketplace.json")
    assert market["plugins"][0]["name"] == "rubi" and market["plugins"][0]["source"] == "./"
    hooks = read(REPO / "hooks" / "hooks.json")["hooks"]
    assert hooks == {event: [group] for event, group in plugin_hook_groups().items()}
    assert read(REPO / ".mcp.json")["mcpServers"]["rubi"]["args"] == ["serve"]
    for name in ("memory", "register", "handoff", "organize", "xray"):
        post = frontmatter.load(REPO / "skills" / name / "SKILL.md")
        assert post.metadata["name"] == name
        assert post.metadata["description"] and post.content.strip()
    agent = frontmatter.load(REPO / "agents" / "researcher.md")
    assert agent.metadata["name"] == "researcher" and "mcp__rubi__search" in agent.metadata["tools"]


def test_install_says_when_git_would_commit_the_machine_settings(
    tmp_path: Path, isolated_home: Path
) -> None:
    # settings.local.json holds this machine's path to rubi; rubi creates it before
    # Claude Code does, so nothing has asked git to ignore it yet
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    report = install(project, compact_window=None, command="/opt/rubi/bin/rubi")
    (note,) = [line for line in report.notes if "git does not ignore it" in line]
    assert "add `.claude/settings.local.json` to .gitignore" in note
    (project / ".gitignore").write_text(".claude/settings.local.json\n", encoding="utf-8")
    again = install(project, compact_window=None, command="/opt/rubi/bin/rubi")
    assert not [line for line in again.notes if "git does not ignore it" in line]
    outside = tmp_path / "no-repo"  # no git work tree: nothing to say
    elsewhere = install(outside, compact_window=None, command="/opt/rubi/bin/rubi")
    assert not [line for line in elsewhere.notes if "git does not ignore it" in line]


def test_a_fifo_gitignore_does_not_make_install_wait(tmp_path: Path, isolated_home: Path) -> None:
    # git would open the FIFO and wait for its timeout: the check is left out instead
    if shutil.which("git") is None or not hasattr(os, "mkfifo"):
        pytest.skip("needs git and FIFOs")
    project = tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    os.mkfifo(project / ".gitignore")
    calls: list[tuple[str, ...]] = []
    import rubi.claude.gitshared as gitshared

    real = gitshared.git_bytes

    def counting(root: Path, *args: str, **kwargs: float) -> bytes | None:
        calls.append(args)
        return real(root, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gitshared, "git_bytes", counting)
        report = install(project, compact_window=None, command="/opt/rubi/bin/rubi")
    assert not calls
    assert not [line for line in report.notes if "git does not ignore it" in line]
