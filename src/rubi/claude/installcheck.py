"""``rubi install --check``: whether rubi's Claude Code hooks are installed and call a
rubi that exists, read from the settings file an install writes; nothing is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rubi.claude import settingsfile
from rubi.claude.hookpaths import (
    FIX_COMMAND,
    own_group,
    parse_hook_command,
    shown,
    stale_commands,
)
from rubi.claude.install import HOOK_EVENTS
from rubi.claude.userfiles import user_json, user_settings, wide_config_problem
from rubi.core.errors import RubiError

__all__ = ["check_install"]


def _own_hooks(data: dict[str, Any]) -> tuple[list[str], dict[str, int]]:
    """The events with no hook of rubi's in ``data``, and how many of rubi's hooks
    call each executable."""
    hooks = data.get("hooks") if isinstance(data.get("hooks"), dict) else {}
    missing: list[str] = []
    callers: dict[str, int] = {}
    for event in HOOK_EVENTS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        group = own_group(groups if isinstance(groups, list) else [], event)
        if group is None:
            missing.append(event)
            continue
        parsed = parse_hook_command(group["hooks"][0]["command"])
        if parsed is not None:
            callers[parsed[0]] = callers.get(parsed[0], 0) + 1
    return missing, callers


def _missing_line(settings_file: Path, missing: list[str], fix: str) -> str:
    many = len(missing) > 1
    return (
        f"{settings_file}: rubi's hook{'s' if many else ''} "
        f"{', '.join(missing)} {'are' if many else 'is'} not there: "
        f"`{fix}` adds {'them' if many else 'it'}"
    )


def _user_wide(missing: list[str], user_file: Path) -> tuple[list[str], list[str]]:
    """Of the events ``missing`` in a project's settings, those still missing when
    the user-wide hooks in ``user_file`` count (an install with ``--user`` serves
    every project: a project install beside it would only add copies), and the line
    saying which are there (none when none)."""
    try:
        data = settingsfile.load(user_file)
    except RubiError:
        return missing, []
    user_missing, _ = _own_hooks(data)
    there = [event for event in missing if event not in user_missing]
    if not there:
        return missing, []
    return [e for e in missing if e in user_missing], [
        f"{user_file}: rubi's hooks {', '.join(there)} are installed user-wide (every project)"
    ]


def check_install(project: Path, *, user: bool = False) -> tuple[bool, list[str]]:
    """What ``rubi install --check`` says: whether rubi's Claude Code hooks are in the
    settings file an install (with the same ``user``) writes, or for a project in the
    user's (an install with ``--user`` serves every project), and whether the rubi
    they call exists. Reads only; writes nothing.

    Args:
        project: the project folder (unused with ``user``).
        user: check the user-wide install (``~/.claude/settings.json`` and the server
            in ``~/.claude.json``).

    Returns:
        ``(ok, lines)``: ok is False when a hook is missing or calls a rubi that is
        gone; each line names a file and, for a problem, the command that fixes it.
    """
    problem = wide_config_problem() if user else None
    if problem:  # no one folder to check (and `rubi install --user` refuses it)
        return False, [problem]
    settings_file = user_settings() if user else (project / ".claude" / "settings.local.json")
    fix = FIX_COMMAND + (" --user" if user else "")
    try:
        data = settingsfile.load(settings_file, None if user else project)
    except RubiError as exc:
        return False, [str(exc)]
    missing, callers = _own_hooks(data)
    files = [(settings_file, user), *([(user_json(), True)] if user else [])]
    lines: list[str] = []
    if missing and not user:  # Claude Code runs the user's hooks in every project too
        missing, wide = _user_wide(missing, user_settings())
        files += [(user_settings(), True)] if wide else []
        lines += wide
    stale = stale_commands(files)
    lines = [s.line() for s in stale] + lines
    gone = {s.executable for s in stale}
    for executable, count in callers.items():
        if executable not in gone:
            lines.append(f"{settings_file}: {count} of rubi's hooks call {shown(executable)}")
    if missing:
        lines.append(_missing_line(settings_file, missing, fix))
    from rubi.claude.plugincheck import double_wiring

    twice = double_wiring(None if user else project)
    lines += [f"{twice[0]}: {twice[1]}"] if twice else []
    return not stale and not missing and not twice, lines
