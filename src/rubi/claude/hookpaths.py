"""Which rubi a hook written by ``rubi install`` calls, and whether it still runs.

``rubi install`` writes hooks that call the running rubi by its absolute path
(:func:`hook_command`). When that venv is moved, recreated
elsewhere or rubi reinstalled with pipx or uv, the path is gone: the hook falls back
to ``rubi`` on Claude Code's PATH, and without one does nothing at all (it must never
break a prompt). Nothing in the session says so, so ``rubi doctor`` and ``rubi install
--check`` read the settings files here and name each hook whose rubi is gone, with the
one command that points it at the rubi the user runs now.

A command is recognised as rubi's only when it is, byte for byte, a command some rubi
wrote (this one's form or an older one, :func:`parse_hook_command`) and calls a program
named ``rubi``: the executable is read back as :func:`shlex.quote` wrote it and the
command rebuilt from it, so a user's own hook that merely mentions rubi, or another tool's of
the same shape (``mytool hook Stop``), is never taken for one.
"""

from __future__ import annotations

import copy
import os
import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "FIX_COMMAND",
    "SCRIPT_NAMES",
    "SHARED_COMMAND",
    "StaleCommand",
    "drop_stale",
    "event_groups",
    "guarded_command",
    "hook_command",
    "own_group",
    "parse_hook_command",
    "place_group",
    "runnable",
    "settings_files",
    "shared_server_unreachable",
    "shown",
    "stale_commands",
    "stale_server",
]

FIX_COMMAND = "rubi install"
"""What points rubi's hooks at the rubi that runs it (the same flags as the first
install: ``--user`` for user-wide hooks); it replaces rubi's own hooks in place."""


SHARED_COMMAND = "rubi"
"""The command a project's ``.mcp.json`` runs: found on PATH on every machine."""


def hook_command(executable: str, event: str) -> str:
    """The shell command of one hook: ``executable hook EVENT`` when ``executable``
    can be run, else ``rubi hook EVENT`` from PATH, and nothing at all (exit 0, no
    output) when neither can.

    Claude Code runs a hook's ``command`` through a POSIX shell on every prompt and
    tool call; a bare ``rubi`` that is not on PATH (a venv not activated, a removed
    install) would print ``rubi: not found`` to the user each time. ``command -v`` is
    a shell built-in, so the guard costs no process; ``exec`` hands the exit status
    and any timeout kill straight to rubi. The fallback to PATH keeps the hooks
    working after the venv holding ``executable`` is moved or rubi is reinstalled
    with pipx or uv; ``rubi doctor`` and ``rubi install --check`` name a path that is
    gone (:mod:`rubi.claude.hookpaths`).

    Args:
        executable: ``rubi`` (looked up on PATH) or an absolute path (quoted here with
            :func:`shlex.quote`: spaces, quotes and ``$`` reach the shell as text).
        event: the Claude Code event name.
    """
    exe = shlex.quote(executable)
    command = f"if command -v {exe} >/dev/null 2>&1; then exec {exe} hook {event}"
    if executable != SHARED_COMMAND:
        command += f"; elif command -v rubi >/dev/null 2>&1; then exec rubi hook {event}"
    return command + "; fi"


def guarded_command(executable: str, event: str) -> str:
    """The older hook form (rubi 0.x before the PATH fallback): run ``executable`` when
    it exists, nothing otherwise (``executable`` quoted for a POSIX shell)."""
    exe = shlex.quote(executable)
    return f"if command -v {exe} >/dev/null 2>&1; then exec {exe} hook {event}; fi"


def _forms(executable: str, event: str) -> Iterator[str]:
    """Every command some rubi wrote for ``executable``'s hook ``event``."""
    yield hook_command(executable, event)
    yield guarded_command(executable, event)
    yield shlex.join([executable, "hook", event])  # before the guard


SCRIPT_NAMES = frozenset({"rubi", "rubi.exe"})
"""The names of the console script :func:`rubi.claude.install.rubi_command` finds
(compared lower-case: ``RUBI.EXE`` on Windows)."""


def _names_rubi(executable: str) -> bool:
    """Whether ``executable``'s last path part (after ``/`` or ``\\``) is rubi's."""
    return re.split(r"[\\/]", executable)[-1].lower() in SCRIPT_NAMES


_QUOTED = r"""(?:[\w@%+=:,./-]+|'[^']*'(?:"'"'[^']*')*)"""
"""A word as :func:`shlex.quote` writes it: bare when every character is safe, else
single-quoted with each ``'`` written ``'"'"'``."""

_GUARDED = re.compile(rf"if command -v ({_QUOTED}) >/dev/null 2>&1; then exec \1 hook (\w+);")
"""The start of :func:`hook_command`'s form and :func:`guarded_command`'s."""

_PLAIN = re.compile(rf"({_QUOTED}) hook (\w+)")
"""The form before the guard: ``EXECUTABLE hook EVENT``."""


def parse_hook_command(command: str) -> tuple[str, str] | None:
    """``(executable, event)`` when ``command`` is a hook command a rubi wrote, else
    None (a user's own hook, a plugin's, anything not exactly rubi's form, or rubi's
    form calling a program not named ``rubi``: another tool's ``X hook EVENT``).

    The executable and event are found with one anchored regular expression (linear
    in the command's length: a settings file of 20 MB of hooks is read in well under
    a second) and the command rebuilt from them must be one of rubi's forms, byte for
    byte.

    Args:
        command: a hook's ``command`` string from a settings file (untrusted text:
            only matched, never run).
    """
    if not isinstance(command, str) or len(command) > 4096:
        return None
    found = _GUARDED.match(command) or _PLAIN.fullmatch(command)
    if found is None:
        return None
    executable = shlex.split(found.group(1))[0]  # one word: the pattern is shlex.quote's
    event = found.group(2)
    if not _names_rubi(executable) or not event.isidentifier():
        return None
    return (executable, event) if command in _forms(executable, event) else None


def runnable(executable: str) -> bool:
    """Whether ``executable`` names a program a shell could run: an absolute path to
    an executable file whose script interpreter exists (:func:`why_not_runnable`), or
    a bare name (looked up on the caller's PATH, which is not known here: taken as
    runnable)."""
    return why_not_runnable(executable) is None


GONE = "no longer exists"
""":func:`why_not_runnable`'s reason for a path that is not there."""

_PIP_EXEC = "'''exec' "
"""How the second line of a script pip writes under ``#!/bin/sh`` starts (for an
interpreter path that is long or holds spaces): the interpreter follows."""


def why_not_runnable(executable: str) -> str | None:
    """Why a shell could not run ``executable``, in a few words (:data:`GONE`, or
    ``cannot run: its Python /old/bin/python3 is gone``), None when it could.

    A venv's ``rubi`` is a script whose first line names the venv's Python: once
    that Python is removed or upgraded (pyenv, Homebrew) the script is still there,
    ``command -v`` still finds it, and every hook exits 127 with ``not found``. So
    the interpreter is read back, from the ``#!`` line or from the line pip writes
    below ``#!/bin/sh`` (:data:`_PIP_EXEC`). Reads at most the first 512 bytes;
    never runs the file.
    """
    if not os.path.isabs(executable):
        return None
    path = Path(executable)
    if not (path.is_file() and os.access(path, os.X_OK)):
        return GONE
    interpreter = _interpreter(path)
    if interpreter is None or (os.path.isfile(interpreter) and os.access(interpreter, os.X_OK)):
        return None
    return f"cannot run: its Python {interpreter} is gone"


def _interpreter(script: Path) -> str | None:
    """The absolute interpreter path a script's first lines name, None when there is
    none to check (a binary, a relative name, an unreadable or odd first line)."""
    try:
        with script.open("rb") as handle:
            head = handle.read(512).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    if not head or not head[0].startswith("#!"):
        return None
    words = head[0][2:].split()
    if words == ["/bin/sh"] and len(head) > 1 and head[1].startswith(_PIP_EXEC):
        try:
            words = shlex.split(head[1][len(_PIP_EXEC) :])
        except ValueError:
            return None
    return words[0] if words and os.path.isabs(words[0]) else None


def shown(executable: str) -> str:
    """``executable`` for a line of output: every character that is not printable (a
    line break, ESC, a bidirectional override) as its escape (``\\n``), so a path
    from a cloned settings file cannot add a line or a terminal sequence."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in executable)


@dataclass(frozen=True)
class StaleCommand:
    """A command rubi wrote that calls a rubi which is gone.

    Attributes:
        file: the settings file holding it.
        what: ``hooks`` (how many follow in ``events``) or ``MCP server``.
        executable: the absolute path it calls.
        fix: the command that points it at the running rubi.
        events: the hooks' events (empty for the MCP server).
        falls_back: the hooks run ``rubi`` from PATH meanwhile (this rubi's form;
            an older install's do nothing).
        reason: why it cannot run (:func:`why_not_runnable`).
    """

    file: Path
    what: str
    executable: str
    fix: str
    events: tuple[str, ...] = ()
    falls_back: bool = False
    reason: str = GONE

    def line(self) -> str:
        """One line for a user: the file, then :meth:`problem`."""
        return f"{self.file}: {self.problem()}"

    def problem(self) -> str:
        """What is gone, what happens meanwhile, and the command that fixes it."""
        one = len(self.events) == 1
        if not self.events:
            what, meanwhile = "MCP server calls", "Claude Code cannot start it"
        else:
            what = f"hook {self.events[0]} calls" if one else f"{len(self.events)} hooks call"
            meanwhile = f"{'it does' if one else 'they do'} nothing"
            if self.falls_back:
                meanwhile = f"{'it runs' if one else 'they run'} `rubi` from PATH, if any"
        if self.reason != GONE:  # the script is there: the guard runs it, and it fails
            cause = f"{self.reason} (a Python removed or upgraded)"
            if self.events:
                meanwhile = f"{'it fails' if one else 'each fails'} with 'not found'"
        else:
            cause = f"{GONE} (a venv moved, rubi reinstalled)"
        return (
            f"rubi's {what} {shown(self.executable)}, which {cause}; `{self.fix}` points "
            f"{'it' if one or not self.events else 'them'} at the rubi you run "
            f"now (meanwhile {meanwhile})"
        )


def settings_files(project: Path | None) -> list[tuple[Path, bool]]:
    """The Claude Code files ``rubi install`` may have written hooks or a server
    into, as ``(path, user_wide)``: the project's ``.claude/settings.local.json``, then
    the user's ``~/.claude/settings.json`` and ``~/.claude.json`` (both in
    ``$CLAUDE_CONFIG_DIR`` when it is set: :mod:`rubi.claude.userfiles`)."""
    from rubi.claude.userfiles import user_json, user_settings

    files: list[tuple[Path, bool]] = []
    if project is not None:
        files.append((project / ".claude" / "settings.local.json", False))
    files += [(user_settings(), True), (user_json(), True)]
    return files


def _hook_commands(data: dict[str, Any]) -> Iterator[str]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    for groups in hooks.values():
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            for hook in entries if isinstance(entries, list) else ():
                if isinstance(hook, dict) and isinstance(hook.get("command"), str):
                    yield hook["command"]


def _server_command(data: dict[str, Any]) -> str | None:
    servers = data.get("mcpServers")
    server = servers.get("rubi") if isinstance(servers, dict) else None
    command = server.get("command") if isinstance(server, dict) else None
    if isinstance(command, str) and _names_rubi(command):
        return command
    return None


def stale_server(entry: Any) -> bool:
    """Whether ``entry`` (an ``mcpServers.rubi`` member) is a server some rubi's
    install wrote, ``{"type": "stdio", "command": ".../rubi", "args": ["serve"]}``,
    whose rubi is gone: a second install may point it at the running rubi without
    its record, as it does rubi's hooks (anything else named rubi is the user's)."""
    if not isinstance(entry, dict) or set(entry) - {"type", "command", "args"}:
        return False
    command = entry.get("command")
    return (
        entry.get("type", "stdio") == "stdio"
        and entry.get("args") == ["serve"]
        and isinstance(command, str)
        and os.path.isabs(command)
        and _names_rubi(command)
        and not runnable(command)
    )


def stale_commands(files: Iterable[tuple[Path, bool]]) -> list[StaleCommand]:
    """Every hook (and user-wide MCP server) rubi wrote in ``files`` whose rubi is
    gone, in file order; a file absent, unreadable or not JSON is skipped (what reads
    it for real reports that), and so is a project's file that resolves outside its
    project (a cloned ``.claude/settings.local.json`` linked elsewhere: ``rubi
    install`` neither reads nor rewrites it either).

    Args:
        files: ``(settings file, user_wide)`` pairs, see :func:`settings_files` (a
            project's file is ``PROJECT/.claude/settings.local.json``).
    """
    from rubi.claude import settingsfile
    from rubi.core.errors import RubiError

    found: list[StaleCommand] = []
    for path, user_wide in files:
        within = None if user_wide else path.parent.parent  # the project
        try:
            data = settingsfile.load(path, within) if path.is_file() else {}
        except (RubiError, OSError):
            continue
        fix = FIX_COMMAND + (" --user" if user_wide else "")
        gone: dict[str, list[str]] = {}  # executable -> events, in file order
        fallback: dict[str, bool] = {}
        reasons: dict[str, str | None] = {}
        for command in _hook_commands(data):
            parsed = parse_hook_command(command)
            if parsed and parsed[0] not in reasons:
                reasons[parsed[0]] = why_not_runnable(parsed[0])
            if parsed and reasons[parsed[0]]:
                events = gone.setdefault(parsed[0], [])
                if parsed[1] not in events:
                    events.append(parsed[1])
                fallback[parsed[0]] = command == hook_command(*parsed)
        for exe, events in gone.items():
            found.append(
                StaleCommand(
                    path, "hooks", exe, fix, tuple(events), fallback[exe], reasons[exe] or GONE
                )
            )
        server = _server_command(data) if user_wide else None
        why = why_not_runnable(server) if server else None
        if server and why:
            found.append(StaleCommand(path, "MCP server", server, fix, reason=why))
    return found


def _handler(group: Any) -> tuple[str, str] | None:
    """``(executable, event)`` of a matcher group some rubi's install added (one hook
    whose command is exactly rubi's form), else None."""
    hooks = group.get("hooks") if isinstance(group, dict) else None
    if not isinstance(hooks, list) or len(hooks) != 1 or not isinstance(hooks[0], dict):
        return None
    return parse_hook_command(hooks[0].get("command", ""))


def shared_server_unreachable(project: Path, bin_folder: Path) -> str | None:
    """One line when the project's ``.mcp.json`` runs rubi's MCP server as ``rubi`` from
    PATH (:data:`SHARED_COMMAND`, what ``rubi install`` writes) and no ``rubi`` is on
    this process's PATH: Claude Code, started from the same shell, cannot start the
    server. None otherwise (no such file or server, a file rubi cannot read: what
    reads it for real reports that).

    Args:
        project: the project folder.
        bin_folder: the folder of the rubi that runs now, named as one fix.
    """
    import shutil

    from rubi.claude import settingsfile
    from rubi.core.errors import RubiError

    mcp_file = project / ".mcp.json"
    try:
        data = settingsfile.load(mcp_file, project) if mcp_file.is_file() else {}
    except (RubiError, OSError):
        return None
    servers = data.get("mcpServers")
    server = servers.get("rubi") if isinstance(servers, dict) else None
    if not isinstance(server, dict) or server.get("command") != SHARED_COMMAND:
        return None
    if shutil.which(SHARED_COMMAND) is not None:
        return None
    return (
        f"{mcp_file}: the MCP server runs `rubi` from PATH, and rubi is not on this PATH "
        "(Claude Code started from this shell cannot start it): install rubi with "
        f"`pipx install` or `uv tool install` (README), or put {bin_folder} on PATH"
    )


def own_group(groups: list[Any], event: str) -> dict[str, Any] | None:
    """The first of ``groups`` that some rubi's install added for ``event`` (one hook
    whose command is exactly rubi's form, any executable named rubi: see
    :func:`rubi.claude.hookpaths.parse_hook_command`), None when there is none; so a
    second install replaces it in place even when its record is gone."""
    for group in groups:
        handler = _handler(group)
        if handler is not None and handler[1] == event:
            return group  # type: ignore[no-any-return]
    return None


def drop_stale(groups: list[Any], event: str, keep: Any) -> list[str]:
    """Take out of ``groups`` (but ``keep``) every hook some rubi's install added for
    ``event`` whose rubi is gone, and every group left empty by that, and return their
    executables: a copy an install appended when its record was lost (rubi before
    the in-place update) runs ``rubi`` from PATH a second time on every event, and
    ``rubi doctor`` would name it while a new install changed nothing. A hook of the
    user's own in the same group (added beside rubi's in Claude Code's ``/hooks``)
    stays."""
    dropped: list[str] = []
    for group in list(groups):
        hooks = group.get("hooks") if isinstance(group, dict) and group != keep else None
        if not isinstance(hooks, list):
            continue
        gone = [(h, exe) for h in hooks if (exe := _stale_hook(h, event)) is not None]
        for hook, exe in gone:
            hooks.remove(hook)
            dropped.append(exe)
        if gone and not hooks:
            groups.remove(group)
    return dropped


def _stale_hook(hook: Any, event: str) -> str | None:
    """The executable of ``hook`` when it is rubi's for ``event`` and its rubi is gone."""
    command = hook.get("command") if isinstance(hook, dict) else None
    handler = parse_hook_command(command) if isinstance(command, str) else None
    if handler is None or handler[1] != event or runnable(handler[0]):
        return None
    return handler[0]


def event_groups(path: Path, hooks: Any, event: str) -> list[Any]:
    """The matcher groups of ``event`` in ``hooks`` (a settings file's ``hooks``
    member), an empty list added when there are none.

    Raises:
        RubiError: ``hooks`` is not an object, or its ``event`` member not a list
            (a hand edit Claude Code would refuse too): rubi will not overwrite it.
    """
    from rubi.core.errors import RubiError

    if not isinstance(hooks, dict):
        raise RubiError(f"{path}: `hooks` is not an object; rubi will not overwrite it")
    groups = hooks.setdefault(event, [])
    if not isinstance(groups, list):
        raise RubiError(f"{path}: `hooks.{event}` is not a list; rubi will not overwrite it")
    return groups


def place_group(
    groups: list[Any], key: str, group: dict[str, Any], added: dict[str, Any]
) -> list[str]:
    """Put ``group`` (rubi's matcher group for the settings event ``key``) into
    ``groups``: an earlier install's updated in place (found by ``added``, the
    record's groups by event, or when the record is lost by its form:
    :func:`own_group`), else appended; then every other copy whose rubi is gone taken
    out (:func:`drop_stale`). ``added[key]`` is set when ``groups`` changed.

    Returns:
        What changed, one phrase each (``hook KEY updated``, ``hook KEY``, ``hook KEY
        calling PATH removed``); empty when ``group`` was there already.
    """
    handler = _handler(group)
    event = handler[1] if handler else key  # a harness's event runs rubi's handler
    previous = added.get(key)
    if previous is None or previous not in groups:  # the record lost: rubi's by form
        previous = own_group(groups, event)
    changes: list[str] = []
    if previous is not None and previous != group and previous in groups:
        groups[groups.index(previous)] = copy.deepcopy(group)
        changes.append(f"hook {key} updated")
    elif group not in groups:
        groups.append(copy.deepcopy(group))
        changes.append(f"hook {key}")
    if changes:
        added[key] = group
    return changes + [
        f"hook {key} calling {gone} removed" for gone in drop_stale(groups, event, group)
    ]
