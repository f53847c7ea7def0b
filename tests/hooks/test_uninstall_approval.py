"""``rubi uninstall`` takes out what the install caused in Claude Code's project
settings, approvals of the ``.mcp.json`` server included, and leaves every other byte
of ``.claude/settings.local.json`` as it was."""

from __future__ import annotations

import json
from pathlib import Path

from rubi.claude.install import install, uninstall
from rubi.claude.jsonedit import edit_members

from helpers import write

MINE = (
    '{\n    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},\n'
    '    "env": {"A": "é"},   "outputStyle": "terse"\n}'
)
"""A user's local settings in their own style: four spaces, inline objects, two keys on
a line, odd spacing, a non-ASCII character, no final newline."""


def _approve(settings: Path, names: list[str]) -> None:
    """What Claude Code does when the user approves the project's servers: it adds
    the list and writes the whole file with two-space indentation."""
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["enabledMcpjsonServers"] = names
    settings.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def test_uninstall_forgets_the_approval_and_restores_the_bytes(tmp_path: Path) -> None:
    project = tmp_path / "p"
    settings = write(project / ".claude" / "settings.local.json", MINE)
    before = settings.read_bytes()
    install(project, command="rubi")
    _approve(settings, ["rubi"])
    out = uninstall(project)
    assert settings.read_bytes() == before
    assert any("removed rubi from enabledMcpjsonServers" in line for line in out.changes)


def test_only_rubis_approval_goes_and_the_users_edits_keep_their_bytes(tmp_path: Path) -> None:
    project = tmp_path / "p"
    settings = write(project / ".claude" / "settings.local.json", MINE)
    install(project, command="rubi")
    _approve(settings, ["github", "rubi"])
    text = settings.read_text(encoding="utf-8")
    edited = text.replace('"outputStyle": "terse"', '"outputStyle":   "verbose"')
    settings.write_text(edited, encoding="utf-8")  # the user's own edit since
    uninstall(project)
    after = settings.read_text(encoding="utf-8")
    assert json.loads(after)["enabledMcpjsonServers"] == ["github"]
    assert "hooks" not in json.loads(after)
    expected = json.loads(edited)
    del expected["hooks"]
    expected["enabledMcpjsonServers"] = ["github"]
    assert json.loads(after) == expected
    # every member rubi did not touch keeps its exact text
    for line in ('"permissions": {', '"outputStyle":   "verbose"', '"A": "é"'):
        assert line in after
    assert after.endswith("}") and after.index('"permissions"') < after.index('"outputStyle"')


def test_an_approval_without_rubi_is_left_alone(tmp_path: Path) -> None:
    project = tmp_path / "p"
    settings = write(project / ".claude" / "settings.local.json", MINE)
    install(project, command="rubi")
    _approve(settings, ["github"])
    approved = json.loads(settings.read_text(encoding="utf-8"))
    uninstall(project)
    left = json.loads(settings.read_text(encoding="utf-8"))
    assert left["enabledMcpjsonServers"] == approved["enabledMcpjsonServers"] == ["github"]


def test_a_member_edit_keeps_the_other_bytes() -> None:
    text = '{\n\t"a": {"x": 1},\n\t"b" :[\n\t\t"rubi",\n\t\t"x"\n\t],  "c": "}\\"{"\n}\n'
    assert edit_members(text, {"a": {"x": 1}, "b": ["x"], "c": '}"{'}) == (
        '{\n\t"a": {"x": 1},\n\t"b" :[\n\t\t"x"\n\t],  "c": "}\\"{"\n}\n'
    )
    assert edit_members(text, {"a": {"x": 1}, "c": '}"{'}) == (
        '{\n\t"a": {"x": 1},\n\t"c": "}\\"{"\n}\n'
    )
    assert edit_members(text, {"a": {"x": 1}, "b": ["rubi", "x"]}) == (
        '{\n\t"a": {"x": 1},\n\t"b" :[\n\t\t"rubi",\n\t\t"x"\n\t]\n}\n'
    )
    assert edit_members(text, {}) == "{}\n"
    assert edit_members('{"a": 1}', {"a": 1, "b": [2]}) == '{"a": 1, "b": [2]}'
    assert edit_members("[1]", {}) is None
    assert edit_members('{"a": 1, "a": 2}', {"a": 1}) is None
