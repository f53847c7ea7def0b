"""Wire rubi into Claude Code without the plugin, and take it out again exactly.

``install`` adds rubi's hooks to ``.claude/settings.local.json`` (or the user's
``~/.claude/settings.json`` with ``user=True``), the MCP server to the project's
``.mcp.json`` (or ``~/.claude.json``), the early-compaction window to
``~/.claude/settings.json`` (backed up first). It only ever adds: hooks and servers
already there are left alone, and running it twice changes nothing. What it added is
recorded, so ``uninstall`` removes exactly that (and the empty folders it made) and
restores the compaction window it replaced. The personal vault is not made here: it
is made the first time something is saved to it.

The hooks go to files of this machine and call the running rubi by its absolute path
(a venv need not be activated). The project's ``.mcp.json`` is meant to be committed,
so its server calls plain ``rubi`` from PATH (:data:`SHARED_COMMAND`): a path of this
machine would break every teammate's clone; install says so when rubi is not on PATH.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubi.claude import settingsfile
from rubi.claude.compactrecord import (
    give_back_left,
    restore_compact_window,
    settle_backups,
    touched,
    window_here,
)
from rubi.claude.hookevents import POST_TOOL_MATCHER
from rubi.claude.hookpaths import (
    SHARED_COMMAND,
    event_groups,
    hook_command,
    own_group,
    place_group,
    stale_server,
)
from rubi.claude.userfiles import user_json, wide_config_problem
from rubi.claude.userfiles import user_settings as user_settings_file
from rubi.core.errors import RubiError

__all__ = [
    "APPROVAL_KEYS",
    "DEFAULT_COMPACT_WINDOW",
    "HOOK_EVENTS",
    "SHARED_COMMAND",
    "InstallReport",
    "hook_command",
    "hook_group",
    "hook_groups",
    "install",
    "own_group",
    "prepare_records",
    "record_path",
    "remove_empty_records",
    "rubi_command",
    "uninstall",
]

DEFAULT_COMPACT_WINDOW = 150_000
"""Tokens at which Claude Code compacts early (``autoCompactWindow``): a long session
past this spends most of its money re-reading context (see ``rubi xray``)."""

HOOK_EVENTS: dict[str, tuple[str | None, int]] = {
    "SessionStart": ("startup|resume|clear|compact", 30),
    "UserPromptSubmit": (None, 10),
    "PreToolUse": ("Read", 5),
    "PostToolUse": (POST_TOOL_MATCHER, 5),
    "Stop": (None, 10),
    "PreCompact": (None, 30),
    "SessionEnd": (None, 5),
}
"""Event → (matcher, timeout in seconds). The plugin's hooks/hooks.json says the same."""


def hook_groups(command: str = "rubi") -> dict[str, dict[str, Any]]:
    """The matcher group rubi adds under each event (``command``: the rubi executable,
    see :func:`hook_command`)."""
    return {
        event: hook_group(command, event, matcher, timeout)
        for event, (matcher, timeout) in HOOK_EVENTS.items()
    }


def hook_group(command: str, handler: str, matcher: str | None, timeout: int) -> dict[str, Any]:
    """One matcher group: run ``command``'s hook ``handler`` (see :func:`hook_command`)
    for events matching ``matcher`` (None: all), within ``timeout`` (the harness's
    unit), as ``{"matcher"?: str, "hooks": [{"type", "command", "timeout"}]}``."""
    hook = {"type": "command", "command": hook_command(command, handler), "timeout": timeout}
    return {"matcher": matcher, "hooks": [hook]} if matcher else {"hooks": [hook]}


@dataclass
class InstallReport:
    """What changed (human-readable lines), the record file, and what the user should
    know although nothing changed for it (``notes``: one line each)."""

    changes: list[str] = field(default_factory=list)
    record: Path | None = None
    notes: list[str] = field(default_factory=list)


def _config_home() -> Path:
    from rubi.core.paths import config_home

    return config_home() / "installs"


CREATED_MARK = ".created-config-folder"
"""In rubi's config folder: present when rubi's first install record created the
user's config folder itself (``~/.config`` on a fresh account), so the last uninstall
removes it again when it is empty, and never a config folder the user had."""


def record_path(settings_file: Path) -> Path:
    """Where rubi keeps what one install added to ``settings_file`` (and, in the folder
    of the same name without ``.json``, the originals of the files it changed).

    Named by the file's folder resolved and the file's own name, not by the file
    resolved: a ``settings.json`` linked into a dotfiles folder is replaced by the
    install's atomic write, and named by its link's target the record was not found
    again (``rubi uninstall``: "not installed here")."""
    named = settings_file.absolute().parent.resolve() / settings_file.name
    digest = hashlib.sha256(str(named).encode()).hexdigest()[:16]
    return _config_home() / f"{digest}.json"


def prepare_records() -> None:
    """Before an install writes its record: on an account without a config folder,
    create it and note so (:data:`CREATED_MARK`), for :func:`remove_empty_records`."""
    folder = _config_home()
    user_config = folder.parent.parent
    if not user_config.exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder.parent / CREATED_MARK).write_text(str(user_config) + "\n", encoding="utf-8")


def _load(path: Path, within: Path | None = None) -> dict[str, Any]:
    """A JSON settings file as a dict (see :func:`rubi.claude.settingsfile.load`)."""
    return settingsfile.load(path, within)


def _save(path: Path, data: dict[str, Any]) -> None:
    settingsfile.save(path, data)


def _store(record_file: Path) -> Path:
    """The record's private folder: originals of the files install changed."""
    return record_file.with_suffix("")


def _write(record: dict[str, Any], record_file: Path, path: Path, data: dict[str, Any]) -> None:
    """Keep ``path`` as it was (once), then write ``data`` to it."""
    settingsfile.remember(record, path, _store(record_file))
    _save(path, data)


def _paths(project: Path, user: bool) -> tuple[Path, Path, str]:
    if user:
        return user_settings_file(), user_json(), "mcpServers"
    return project / ".claude" / "settings.local.json", project / ".mcp.json", "mcpServers"


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def rubi_command() -> str:
    """How Claude Code should call rubi: the absolute path of the ``rubi`` console
    script that is running, so hooks and the server work whatever PATH Claude Code
    was started with (a venv that is not activated).

    Looked for in order: ``sys.argv[0]`` when it is a ``rubi`` script (symlinks kept,
    so a pipx link survives upgrades), this interpreter's scripts folder (the venv's
    ``bin/``), then ``rubi`` on PATH. Falls back to plain ``rubi`` when none exists
    (the hooks then do nothing, see :func:`hook_command`).

    Returns:
        An absolute path, unquoted (exec form; :func:`hook_command` quotes it for the
        shell), or ``"rubi"``.
    """
    names = ("rubi.exe", "rubi") if os.name == "nt" else ("rubi",)
    candidates: list[Path] = []
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and Path(argv0).name.lower() in names:
        located = argv0 if Path(argv0).name != argv0 else shutil.which(argv0)  # bare: PATH
        if located:
            candidates.append(Path(located))
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidates.extend(Path(folder) / name for name in names)
    found = shutil.which("rubi")
    if found:
        candidates.append(Path(found))
    for path in candidates:
        if _executable(path):
            return str(path.absolute())
    return "rubi"


def install(
    project: Path,
    *,
    user: bool = False,
    compact_window: int | None = DEFAULT_COMPACT_WINDOW,
    replace_compact_window: bool = False,
    command: str | None = None,
) -> InstallReport:
    """Add rubi's hooks, MCP server and compaction window (see the module docstring).

    Args:
        project: the project folder.
        user: wire it for every project (user settings) instead of this project only.
        compact_window: tokens for ``autoCompactWindow`` when none is set; None leaves
            the setting alone.
        replace_compact_window: also replace a window the user already set.
        command: the rubi executable hooks call, and the server of the user's
            ``~/.claude.json`` (default :func:`rubi_command`: the absolute path of the
            running rubi, so they work with any PATH; hooks stay silent if it goes
            away). A project's ``.mcp.json`` always gets :data:`SHARED_COMMAND`.

    Raises:
        RubiError: a settings file is not valid JSON, or ``user`` with a relative
            ``CLAUDE_CONFIG_DIR`` (:func:`rubi.claude.userfiles.wide_config_problem`);
            nothing is written then.
    """
    command = command or rubi_command()
    problem = wide_config_problem()
    if problem and user:
        raise RubiError(problem)
    settings_file, mcp_file, mcp_key = _paths(project, user)
    user_settings = user_settings_file()
    prepare_records()
    record_file = record_path(settings_file)
    record = _load(record_file) if record_file.exists() else {}
    report = InstallReport(record=record_file)
    compact_window = window_here(record, user_settings, problem, compact_window, report.notes)

    within = None if user else project  # a project's files must stay in the project
    settings = _load(settings_file, within)
    mcp = _load(mcp_file, within)
    compact_target = _load(user_settings) if compact_window else {}

    added_hooks: dict[str, Any] = record.get("hooks", {})
    hooks = settings.setdefault("hooks", {})
    for event, group in hook_groups(command).items():
        groups = event_groups(settings_file, hooks, event)
        for change in place_group(groups, event, group, added_hooks):
            report.changes.append(f"{settings_file}: {change}")
    if report.changes:
        record.setdefault("settings_existed", settings_file.exists())
        _write(record, record_file, settings_file, settings)

    servers = mcp.setdefault(mcp_key, {})
    server_command = command if user else SHARED_COMMAND
    server = {"type": "stdio", "command": server_command, "args": ["serve"]}
    if "rubi" not in servers:
        record.setdefault("mcp_existed", mcp_file.exists())
        servers["rubi"] = server
        record["mcp"] = server
        _write(record, record_file, mcp_file, mcp)
        report.changes.append(f"{mcp_file}: MCP server rubi")
    elif servers["rubi"] != server and (
        servers["rubi"] == record.get("mcp") or stale_server(servers["rubi"])
    ):  # added by an earlier install (by the record, or its rubi is gone): this rubi
        servers["rubi"] = server
        record["mcp"] = server
        _write(record, record_file, mcp_file, mcp)
        report.changes.append(f"{mcp_file}: MCP server rubi updated")
    elif servers["rubi"] != server and "mcp" not in record:
        report.changes.append(f"{mcp_file}: an MCP server named rubi is already there; kept")

    existing_window = compact_target.get("autoCompactWindow")
    if (
        compact_window
        and existing_window is not None
        and existing_window != compact_window
        and not replace_compact_window
        and "compact" not in record
    ):
        report.changes.append(
            f"{user_settings}: autoCompactWindow {existing_window} kept "
            "(rubi install --compact-window N --replace-compact-window to change it)"
        )
        compact_window = None
    if compact_window and compact_target.get("autoCompactWindow") != compact_window:
        record.setdefault("compact_file_existed", user_settings.exists())
        record.setdefault("compact_file", str(user_settings.absolute()))
        if "compact" not in record:
            record["compact"] = {
                "present": "autoCompactWindow" in compact_target,
                "value": compact_target.get("autoCompactWindow"),
            }
        original = record.get("originals", {}).get(str(user_settings.absolute()))
        if user_settings.exists() and (original is None or original["existed"]):
            backup = user_settings.with_name(
                f"settings.json.rubi-backup-{time.strftime('%Y%m%d-%H%M%S')}"
            )
            shutil.copy2(user_settings, backup)
            record.setdefault("backups", []).append(str(backup))
            report.changes.append(f"{user_settings}: backed up to {backup}")
        compact_target = _load(user_settings)  # after the backup, re-read what is there
        compact_target["autoCompactWindow"] = compact_window
        _write(record, record_file, user_settings, compact_target)
        record["compact_set"] = compact_window
        report.changes.append(f"{user_settings}: autoCompactWindow = {compact_window:,}")

    if not user and settings_file.exists():
        from rubi.claude.gitshared import committed_note

        shared = committed_note(project, settings_file)
        report.notes.extend([shared] if shared else [])
    if not user and servers.get("rubi") == server and shutil.which(SHARED_COMMAND) is None:
        report.notes.append(
            f"{mcp_file}: the server runs `rubi` from PATH, and rubi is not on PATH: "
            "install it with `pipx install` or `uv tool install` (README), or put "
            f"{Path(command).parent if os.path.isabs(command) else 'its folder'} on PATH"
        )

    from rubi.claude.plugincheck import double_wiring

    twice = double_wiring(None if user else project)
    report.notes.extend([f"{twice[0]}: {twice[1]}"] if twice else [])

    record.update(
        {
            "settings_file": str(settings_file),
            "mcp_file": str(mcp_file),
            "mcp_key": mcp_key,
            "hooks": added_hooks,
        }
    )
    _save(record_file, record)
    return report


def _remove_hooks(
    settings_file: Path, record: dict[str, Any], within: Path | None, report: InstallReport
) -> None:
    """Take the hook groups of ``record`` out of ``settings_file``."""
    settings = _load(settings_file, within)
    hooks = settings.get("hooks")
    hooks = hooks if isinstance(hooks, dict) else {}  # a hand edit: nothing of rubi's
    removed = False
    for event, group in record.get("hooks", {}).items():
        groups = hooks.get(event, [])
        if isinstance(groups, list) and group in groups:
            groups.remove(group)
            removed = True
            report.changes.append(f"{settings_file}: removed hook {event}")
        if event in hooks and not hooks[event]:
            del hooks[event]
    if "hooks" in settings and not settings["hooks"]:
        del settings["hooks"]
    if within is not None and "mcp" in record:
        removed = _forget_approval(settings, settings_file, report) or removed
    if removed or touched(record, settings_file):
        give_back_left(record, settings_file, settings, "settings_existed", report.changes)


APPROVAL_KEYS = ("enabledMcpjsonServers", "disabledMcpjsonServers")
"""Where Claude Code keeps the user's answer about a project's ``.mcp.json`` server,
in ``.claude/settings.local.json``: a consequence of the server install added."""


def _forget_approval(settings: dict[str, Any], settings_file: Path, report: InstallReport) -> bool:
    """Take rubi's name out of Claude Code's approval lists in ``settings`` (the lists
    go when nothing else is in them); True when something went."""
    removed = False
    for key in APPROVAL_KEYS:
        names = settings.get(key)
        if not isinstance(names, list) or "rubi" not in names:
            continue
        kept = [name for name in names if name != "rubi"]
        if kept:
            settings[key] = kept
        else:
            del settings[key]
        removed = True
        report.changes.append(f"{settings_file}: removed rubi from {key}")
    return removed


def _remove_server(
    mcp_file: Path, mcp_key: str, record: dict[str, Any], within: Path | None, report: InstallReport
) -> None:
    """Take the rubi MCP server out of ``mcp_file`` if it is still the one installed."""
    mcp = _load(mcp_file, within)
    servers = mcp.get(mcp_key, {})
    if "mcp" not in record or servers.get("rubi") != record["mcp"]:
        return
    del servers["rubi"]
    report.changes.append(f"{mcp_file}: removed MCP server rubi")
    if not servers:
        mcp.pop(mcp_key, None)
    give_back_left(record, mcp_file, mcp, "mcp_existed", report.changes)


def _user_installs() -> list[str]:
    """The folders of the user-wide installs rubi has records of (their
    ``settings.json`` beside or above a ``.claude.json``), each with how to reach it:
    ``CLAUDE_CONFIG_DIR`` may have changed since."""
    found: list[str] = []
    for path in sorted(_config_home().glob("*.json")):
        try:
            record = _load(path)
        except (RubiError, OSError):
            continue
        settings, mcp = record.get("settings_file"), record.get("mcp_file")
        if not isinstance(settings, str) or not isinstance(mcp, str):
            continue
        folder = Path(settings).parent
        if Path(mcp) == folder / ".claude.json":
            found.append(f"{folder} (`CLAUDE_CONFIG_DIR={folder} rubi uninstall --user`)")
        elif Path(mcp) == folder.parent / ".claude.json":
            found.append(f"{folder} (`rubi uninstall --user` with CLAUDE_CONFIG_DIR unset)")
    return found


def uninstall(project: Path, *, user: bool = False) -> InstallReport:
    """Remove what :func:`install` added and restore the compaction window it replaced.

    Raises:
        RubiError: nothing was installed there, or a settings file is not valid JSON.
    """
    settings_file, mcp_file, mcp_key = _paths(project, user)
    record_file = record_path(settings_file)
    if not record_file.exists():
        elsewhere = _user_installs() if user else []
        hint = f"; rubi's user-wide install is in {'; '.join(elsewhere)}" if elsewhere else ""
        raise RubiError(f"{settings_file}: rubi was not installed here (no install record){hint}")
    record = _load(record_file)
    report = InstallReport(record=record_file)
    within = None if user else project  # a project's files must stay in the project
    _remove_hooks(settings_file, record, within, report)
    _remove_server(mcp_file, mcp_key, record, within, report)
    restore_compact_window(record, report.changes)
    settle_backups(record, report.changes)
    record_file.unlink()
    shutil.rmtree(_store(record_file), ignore_errors=True)
    settingsfile.remove_created_dirs(record, report.changes)
    remove_empty_records()
    return report


def remove_empty_records() -> None:
    """Remove rubi's install-record folder (and rubi's config folder above it) when
    the last record went and nothing else is in them."""
    folder = _config_home()
    try:
        folder.rmdir()
    except OSError:
        return  # not empty, or not there
    mark = folder.parent / CREATED_MARK
    created = mark.exists()
    mark.unlink(missing_ok=True)
    for empty in (folder.parent, *((folder.parent.parent,) if created else ())):
        try:
            empty.rmdir()
        except OSError:
            return  # not empty, or not there
