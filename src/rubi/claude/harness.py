"""``rubi install --harness gemini|codex``: rubi's MCP server and the two hooks that
give an agent its memory (the map at session start, recall on each prompt) in the
Gemini CLI and the Codex CLI, and ``uninstall`` to take exactly that out again.

Both CLIs send hook JSON shaped like Claude Code's (``session_id``, ``cwd``,
``source``, ``prompt``) and read ``hookSpecificOutput.additionalContext`` back, so the
hooks run the same ``rubi hook SessionStart`` / ``rubi hook UserPromptSubmit`` as
Claude Code does (checked against the real CLIs: ``tests/e2e/test_other_harnesses.py``).

- **Gemini CLI** (``settings.json``: ``.gemini/`` in the project, ``~/.gemini/`` with
  ``user``): ``mcpServers.rubi``; hooks ``SessionStart`` and ``BeforeAgent`` (its
  prompt event), timeouts in milliseconds. A project's ``.gemini/`` (its server and
  hooks) is read in trusted folders only.
- **Codex CLI** (``.codex/`` in the project, ``$CODEX_HOME`` or ``~/.codex/`` with
  ``user``): ``[mcp_servers.rubi]`` in ``config.toml`` (a block rubi appends and
  removes whole, so the rest of the file keeps its bytes) and ``SessionStart`` /
  ``UserPromptSubmit`` in ``hooks.json``, timeouts in seconds. Codex runs a new hook
  only after the user trusts it once (``/hooks`` in ``codex``); a project's
  ``.codex/`` is read in trusted projects only.

A project install says when the CLI does not trust the project yet (:func:`codex_trusts`,
:func:`gemini_trusts`): the CLI ignores what was written without a word until then.

Files are given back as :mod:`rubi.claude.settingsfile` describes.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubi.claude import settingsfile
from rubi.claude.hookpaths import event_groups, place_group
from rubi.claude.install import (
    InstallReport,
    hook_group,
    prepare_records,
    record_path,
    remove_empty_records,
    rubi_command,
)
from rubi.core.errors import RubiError

__all__ = [
    "HARNESSES",
    "HARNESS_HOOKS",
    "HarnessFiles",
    "codex_block",
    "harness_files",
    "harness_hook_groups",
    "install_harness",
    "uninstall_harness",
]

HARNESSES = ("claude", "gemini", "codex")
"""What ``rubi install --harness`` takes; ``claude`` is :mod:`rubi.claude.install`."""

HARNESS_HOOKS: dict[str, dict[str, tuple[str, str | None, int]]] = {
    "gemini": {
        "SessionStart": ("SessionStart", None, 30_000),
        "BeforeAgent": ("UserPromptSubmit", None, 10_000),
    },
    "codex": {
        "SessionStart": ("SessionStart", "startup|resume|clear", 30),
        "UserPromptSubmit": ("UserPromptSubmit", None, 10),
    },
}
"""Harness event → (rubi's hook handler, matcher, timeout in the harness's unit:
milliseconds for Gemini, seconds for Codex)."""

_BLOCK_START = "# rubi: MCP server (`rubi uninstall --harness codex` removes this block)"


@dataclass(frozen=True, slots=True)
class HarnessFiles:
    """Where a harness keeps what rubi adds: the file with the MCP server, the file
    with the hooks (the same file for Gemini)."""

    mcp: Path
    hooks: Path


def _codex_home() -> Path:
    home = os.environ.get("CODEX_HOME")
    return Path(home).expanduser() if home else Path.home() / ".codex"


def harness_files(harness: str, project: Path, user: bool) -> HarnessFiles:
    """The configuration files of ``harness`` for ``project`` (or the user's).

    Raises:
        RubiError: an unknown harness.
    """
    if harness == "gemini":
        folder = Path.home() / ".gemini" if user else project / ".gemini"
        return HarnessFiles(folder / "settings.json", folder / "settings.json")
    if harness == "codex":
        folder = _codex_home() if user else project / ".codex"
        return HarnessFiles(folder / "config.toml", folder / "hooks.json")
    raise RubiError(f"--harness {harness}: one of {', '.join(HARNESSES)}")


def harness_hook_groups(harness: str, command: str) -> dict[str, dict[str, Any]]:
    """The matcher group rubi adds under each of ``harness``'s events."""
    return {
        event: hook_group(command, handler, matcher, timeout)
        for event, (handler, matcher, timeout) in HARNESS_HOOKS[harness].items()
    }


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string


def codex_block(command: str) -> str:
    """The ``[mcp_servers.rubi]`` block rubi appends to Codex's ``config.toml``."""
    return (
        f"\n{_BLOCK_START}\n[mcp_servers.rubi]\n"
        f'command = {_toml_string(command)}\nargs = ["serve"]\n'
    )


def codex_trusts(project: Path) -> bool | None:
    """Whether Codex trusts ``project``: its user ``config.toml`` (``$CODEX_HOME`` or
    ``~/.codex``) gives ``trust_level = "trusted"`` under ``[projects."<path>"]`` for
    the project's folder or one above it (Codex keys trust by the project's root,
    found from the working folder upwards). None when that file cannot be read as
    TOML (nothing is known then).

    Codex loads a project's ``.codex/`` layers only in a trusted project (Codex's
    "Config basics" page); a project that never got the trust question has no entry,
    and its ``.codex/config.toml`` is ignored without a word (openai/codex issue
    10389): ``codex mcp list`` then says no server is configured."""
    config = _codex_home() / "config.toml"
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8")) if config.is_file() else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    projects = data.get("projects")
    if not isinstance(projects, dict):
        return False
    folder = project.resolve()
    for place in (folder, *folder.parents):
        entry = projects.get(str(place))
        if isinstance(entry, dict) and entry.get("trust_level") == "trusted":
            return True
    return False


def gemini_trusts(project: Path) -> bool | None:
    """Whether Gemini CLI trusts ``project`` by its user files: folder trust switched
    off (``security.folderTrust.enabled: false`` in ``~/.gemini/settings.json``; it is
    on unless so, as Gemini CLI 0.58's ``isFolderTrustEnabled`` reads it), or the
    nearest rule of ``~/.gemini/trustedFolders.json`` that covers the project
    (``TRUST_FOLDER`` a folder and what is below it, ``TRUST_PARENT`` the folder
    above the one named, ``DO_NOT_TRUST`` a folder) is a trust. None when a file
    cannot be read as JSON (nothing is known then). Other sources Gemini CLI takes
    (an IDE's workspace trust, headless runs) are not seen here.

    Gemini CLI 0.61.0 in an untrusted folder lists the project's server "Disabled"
    and runs none of its hooks."""
    folder = project.resolve()
    base = Path.home() / ".gemini"
    try:
        settings = _json_object(base / "settings.json")
        rules = _json_object(base / "trustedFolders.json")
    except (OSError, ValueError):
        return None
    security = settings.get("security")
    trust = security.get("folderTrust") if isinstance(security, dict) else None
    if isinstance(trust, dict) and trust.get("enabled") is False:
        return True
    best: tuple[int, bool] | None = None
    for named, level in rules.items():
        if level not in ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"):
            continue
        covered = Path(named).parent if level == "TRUST_PARENT" else Path(named)
        if covered == folder or covered in folder.parents:
            depth = len(covered.parts)
            if best is None or depth >= best[0]:
                best = (depth, level != "DO_NOT_TRUST")
    return best is not None and best[1]


def _json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path`` ({} when there is none, or it holds another type).

    Raises:
        OSError: the file cannot be read.
        ValueError: it is not JSON.
    """
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def _trust_note(
    harness: str, project: Path, folder: Path, user: bool, changes: list[str]
) -> list[str]:
    """What a project install must say while the CLI does not trust the project
    (:func:`codex_trusts`, :func:`gemini_trusts`): until then none of what it wrote
    is read. Nothing for the user's own files (read everywhere) or when nothing
    changed."""
    if user or not changes:
        return []
    trusted = codex_trusts(project) if harness == "codex" else gemini_trusts(project)
    if trusted is not False:
        return []
    if harness == "codex":
        how = "say yes when `codex` first opens this folder"
        seen = "`codex mcp list` shows no rubi"
    else:
        how = "`gemini` asks when it first opens this folder; `--skip-trust` for one run"
        seen = "`gemini mcp list` shows rubi Disabled"
    return [
        f"{folder}: {harness.capitalize()} reads a project's {folder.name}/ only once you "
        f"trust the project ({how}); until then {seen} and no hook runs"
    ]


def _within(project: Path, user: bool) -> Path | None:
    return None if user else project  # a project's files must stay in the project


def _add_hooks(
    path: Path, groups: dict[str, dict[str, Any]], data: dict[str, Any], record: dict[str, Any]
) -> list[str]:
    """Add ``groups`` to ``data["hooks"]`` (an earlier install's updated in place)."""
    changes: list[str] = []
    added: dict[str, Any] = record.setdefault("hooks", {})
    hooks = data.setdefault("hooks", {})
    for event, group in groups.items():
        present = event_groups(path, hooks, event)
        changes += [f"{path}: {change}" for change in place_group(present, event, group, added)]
    return changes


def _machine_path_note(folder: Path, command: str, changes: list[str], user: bool) -> list[str]:
    """What a project install must say when it wrote an absolute ``command`` (nothing
    when it changed nothing, or for the user's own files): Claude Code has
    ``settings.local.json`` for this; Gemini and Codex read one project file, which a
    team may commit, and a teammate's rubi is elsewhere."""
    if user or not changes or not Path(command).is_absolute():
        return []
    return [
        f"{folder} now holds this machine's path to rubi ({command}): keep it out of git, "
        "or install with --user"
    ]


def install_harness(
    project: Path, harness: str, *, user: bool = False, command: str | None = None
) -> InstallReport:
    """Add rubi's MCP server and hooks to ``harness`` (``gemini`` or ``codex``); only
    ever adds, and running it twice changes nothing.

    Args:
        project: the project folder.
        harness: ``gemini`` or ``codex``.
        user: the user's configuration (every project) instead of the project's.
        command: the rubi executable (default :func:`rubi.claude.install.rubi_command`).

    Raises:
        RubiError: an unknown harness; a configuration file that is not valid JSON or
            TOML (nothing is written then).
    """
    command = command or rubi_command()
    files = harness_files(harness, project, user)
    within = _within(project, user)
    prepare_records()
    record_file = record_path(files.mcp)
    record = settingsfile.load(record_file) if record_file.exists() else {}
    report = InstallReport(record=record_file)
    store = record_file.with_suffix("")
    groups = harness_hook_groups(harness, command)
    if harness == "gemini":
        data = settingsfile.load(files.mcp, within)
        servers = data.setdefault("mcpServers", {})
        server = {"command": command, "args": ["serve"]}
        if "rubi" not in servers or servers["rubi"] == record.get("mcp"):
            if servers.get("rubi") != server:
                report.changes.append(f"{files.mcp}: MCP server rubi")
            servers["rubi"] = server
            record["mcp"] = server
        else:
            report.changes.append(f"{files.mcp}: an MCP server named rubi is already there; kept")
        report.changes += _add_hooks(files.hooks, groups, data, record)
        if any(not line.endswith("kept") for line in report.changes):
            settingsfile.remember(record, files.mcp, store)
            settingsfile.save(files.mcp, data)
    else:
        text = settingsfile.load_text(files.mcp, within) or ""
        try:
            servers = tomllib.loads(text).get("mcp_servers", {})
        except tomllib.TOMLDecodeError as exc:
            raise RubiError(
                f"{files.mcp}: not valid TOML ({exc}); fix it, rubi will not overwrite it"
            ) from exc
        block = codex_block(command)
        old = record.get("toml_block")
        if old and old != block and old in text:
            settingsfile.remember(record, files.mcp, store)
            settingsfile.save_text(files.mcp, text.replace(old, block))
            record["toml_block"] = block
            report.changes.append(f"{files.mcp}: MCP server rubi updated")
        elif "rubi" not in servers:
            if text and not text.endswith("\n"):
                block = "\n" + block  # what is appended is what uninstall takes out
            settingsfile.remember(record, files.mcp, store)
            settingsfile.save_text(files.mcp, text + block)
            record["toml_block"] = block
            report.changes.append(f"{files.mcp}: MCP server rubi")
        elif not old:
            report.changes.append(f"{files.mcp}: an MCP server named rubi is already there; kept")
        hooks = settingsfile.load(files.hooks, within)
        added = _add_hooks(files.hooks, groups, hooks, record)
        if added:
            settingsfile.remember(record, files.hooks, store)
            settingsfile.save(files.hooks, hooks)
            report.changes += added
            report.changes.append(
                f"{files.hooks}: Codex runs a new hook once you trust it (`/hooks` in codex); "
                "until then `codex exec` skips it without a word"
            )
    report.notes += _machine_path_note(files.mcp.parent, command, report.changes, user)
    report.notes += _trust_note(harness, project, files.mcp.parent, user, report.changes)
    record.update({"harness": harness, "mcp_file": str(files.mcp), "hooks_file": str(files.hooks)})
    settingsfile.save(record_file, record)
    return report


def _remove_hooks(data: dict[str, Any], record: dict[str, Any], path: Path) -> list[str]:
    changes: list[str] = []
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return changes
    for event, group in record.get("hooks", {}).items():
        present = hooks.get(event, [])
        if group in present:
            present.remove(group)
            changes.append(f"{path}: removed hook {event}")
        if event in hooks and not hooks[event]:
            del hooks[event]
    if not hooks:
        del data["hooks"]
    return changes


def uninstall_harness(project: Path, harness: str, *, user: bool = False) -> InstallReport:
    """Remove what :func:`install_harness` added; each file comes back as it was
    (:func:`rubi.claude.settingsfile.give_back`).

    Raises:
        RubiError: nothing was installed there, or a file is not valid JSON.
    """
    files = harness_files(harness, project, user)
    within = _within(project, user)
    record_file = record_path(files.mcp)
    if not record_file.exists():
        raise RubiError(f"{files.mcp}: rubi was not installed here (no install record)")
    record = settingsfile.load(record_file)
    report = InstallReport(record=record_file)
    if harness == "gemini":
        data = settingsfile.load(files.mcp, within)
        servers = data.get("mcpServers")
        if isinstance(servers, dict) and "mcp" in record and servers.get("rubi") == record["mcp"]:
            del servers["rubi"]
            report.changes.append(f"{files.mcp}: removed MCP server rubi")
            if not servers:
                del data["mcpServers"]
        report.changes += _remove_hooks(data, record, files.hooks)
        settingsfile.give_back(record, files.mcp, data, report.changes)
    else:
        text = settingsfile.load_text(files.mcp, within)
        block = record.get("toml_block")
        if text is not None and block and block in text:
            report.changes.append(f"{files.mcp}: removed MCP server rubi")
            settingsfile.give_back(record, files.mcp, text.replace(block, "", 1), report.changes)
        hooks = settingsfile.load(files.hooks, within)
        removed = _remove_hooks(hooks, record, files.hooks)
        if removed:
            report.changes += removed
            settingsfile.give_back(record, files.hooks, hooks, report.changes)
    record_file.unlink()
    shutil.rmtree(record_file.with_suffix(""), ignore_errors=True)
    settingsfile.remove_created_dirs(record, report.changes)
    remove_empty_records()
    return report
