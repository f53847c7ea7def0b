"""What Claude Code loads before the first message, read from its configuration files.

Memory files (the loading rules of Claude Code's memory docs): the managed policy
file; ``~/.claude/CLAUDE.md`` and ``~/.claude/rules/*.md``; in the project folder and
each parent up to (not including) ``/``: ``CLAUDE.md``, ``.claude/CLAUDE.md``,
``CLAUDE.local.md`` and ``.claude/rules/**/*.md``; files they import with ``@path``
(five levels deep); the first 200 lines of the auto memory ``MEMORY.md``. Rules with
``paths:`` frontmatter load only when matching files are touched and are listed as
conditional. MCP servers come from ``.mcp.json`` and ``~/.claude.json``; hooks from
the settings files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubi.app import claude_config_dir, project_slug
from rubi.claude.userfiles import user_json
from rubi.core.safeio import UnsafeFileError, read_regular
from rubi.core.tokens import estimate_tokens

__all__ = [
    "ConfiguredHook",
    "McpServer",
    "MemoryFile",
    "approved_project_servers",
    "configured_hooks",
    "external_imports_approved",
    "mcp_servers",
    "memory_files",
]

MAX_MEMORY_BYTES = 2_000_000
"""A memory file is read up to this size: bigger ones are reported, not loaded whole."""

IMPORT_DEPTH = 5
"""Claude Code follows ``@path`` imports at most five levels deep."""

AUTO_MEMORY_LINES = 200
"""Claude Code loads the first 200 lines of the auto memory ``MEMORY.md``."""

MANAGED_MEMORY = (
    Path("/etc/claude-code/CLAUDE.md"),
    Path("/Library/Application Support/ClaudeCode/CLAUDE.md"),
)
"""Managed-policy memory on Linux and macOS."""

STARTUP_HOOK_EVENTS = ("SessionStart", "UserPromptSubmit")
"""Hook events whose output can enter the context with or before the first message."""

_IMPORT = re.compile(r"(?:^|(?<=\s))@((?:~/|\.{1,2}/|/)?[\w./-]+)")
_FENCE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


@dataclass(frozen=True, slots=True)
class MemoryFile:
    """A memory file: path, kind, estimated tokens (None when not read), whether it
    loads at startup, and why not when it does not."""

    path: Path
    kind: str
    tokens: int | None
    always: bool
    note: str = ""


EXTERNAL_IMPORT_NOTE = "outside the project: Claude Code asks before loading it; not read"
"""Why an import leading out of the project is listed but not read: Claude Code loads
imports outside the project folder (from any memory file but the user's own) only
after the user approves them (``hasClaudeMdExternalIncludesApproved``)."""


@dataclass(frozen=True, slots=True)
class McpServer:
    """A configured MCP server: name, scope, transport, and its launch command."""

    name: str
    scope: str
    transport: str
    command: str | None
    args: tuple[str, ...]
    env: dict[str, str]


@dataclass(frozen=True, slots=True)
class ConfiguredHook:
    """A command hook on a startup event, and the settings file that defines it."""

    event: str
    command: str
    source: Path


def _read(
    path: Path, max_lines: int | None = None, refused: list[tuple[Path, str]] | None = None
) -> str | None:
    """A configuration file's text (at most :data:`MAX_MEMORY_BYTES`, or its first
    ``max_lines`` lines), read through :func:`rubi.core.safeio.read_regular`: None
    when absent or unreadable; a FIFO, socket, device or folder (which would block or
    fail the read) is not opened, and is added to ``refused`` with why."""
    try:
        data = read_regular(path, limit=MAX_MEMORY_BYTES).data
    except UnsafeFileError as exc:
        if refused is not None:
            refused.append((path, exc.reason))
        return None
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    if max_lines is None:
        return text
    return "".join(text.splitlines(keepends=True)[:max_lines])


def _tokens(text: str) -> int:
    return estimate_tokens(text)


def _conditional(text: str) -> bool:
    """True when a rule's frontmatter has ``paths:`` (it loads only for those files)."""
    if not text.startswith("---"):
        return False
    end = text.find("\n---", 3)
    return end > 0 and re.search(r"^paths\s*:", text[3:end], re.MULTILINE) is not None


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _imports(
    path: Path, text: str, depth: int, seen: set[Path], within: Path | None
) -> Iterator[MemoryFile]:
    """The files ``path`` imports, depth first; ``within``: the folder imports must stay
    in to be read (None: any), else they are listed with
    :data:`EXTERNAL_IMPORT_NOTE`."""
    if depth > IMPORT_DEPTH:
        return
    for match in _IMPORT.finditer(_FENCE.sub("", text)):
        raw = match.group(1).rstrip(".,;:")
        target = Path(raw).expanduser()
        target = target if target.is_absolute() else path.parent / target
        try:
            resolved = target.resolve()
        except OSError:
            continue
        if resolved in seen:
            continue
        if within is not None and not _inside(resolved, within):
            seen.add(resolved)
            kind = f"import outside the project (from {path.name})"
            yield MemoryFile(resolved, kind, None, False, EXTERNAL_IMPORT_NOTE)
            continue
        if not resolved.is_file():
            continue
        seen.add(resolved)
        body = _read(resolved)
        if body is None:
            continue
        yield MemoryFile(resolved, f"import (from {path.name})", _tokens(body), True)
        yield from _imports(resolved, body, depth + 1, seen, within)


def _memory_candidates(project: Path) -> Iterator[tuple[Path, str]]:
    for path in MANAGED_MEMORY:
        yield path, "managed CLAUDE.md"
    config = claude_config_dir()
    yield config / "CLAUDE.md", "user CLAUDE.md"
    rules = config / "rules"
    if rules.is_dir():
        for path in sorted(rules.rglob("*.md")):
            yield path, "user rule"
    folders = [project, *project.parents][:-1] if project.parent != project else []
    for folder in reversed(folders):
        yield folder / "CLAUDE.md", "project CLAUDE.md"
        yield folder / ".claude" / "CLAUDE.md", "project CLAUDE.md"
        yield folder / "CLAUDE.local.md", "local CLAUDE.md"
        rule_dir = folder / ".claude" / "rules"
        if rule_dir.is_dir():
            for path in sorted(rule_dir.rglob("*.md")):
                yield path, "project rule"


def memory_files(project: Path) -> list[MemoryFile]:
    """The memory files Claude Code would load for a session started in ``project``.

    Args:
        project: the project folder (made absolute).

    Returns:
        Existing files in load order, each import right after its importer; the
        auto memory last. Conditional rules have ``always=False``.
    """
    project = project.absolute()
    found: list[MemoryFile] = []
    seen: set[Path] = set()
    inside = None if external_imports_approved(project) else project.resolve()
    for path, kind in _memory_candidates(project):
        if not path.is_file():
            continue
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        text = _read(path)
        if text is None:
            continue
        always = not (kind.endswith("rule") and _conditional(text))
        found.append(MemoryFile(path, kind, _tokens(text), always))
        if always:
            found.extend(_imports(path, text, 1, seen, None if kind.startswith("user") else inside))
    auto = claude_config_dir() / "projects" / project_slug(project) / "memory" / "MEMORY.md"
    text = _read(auto, AUTO_MEMORY_LINES) if auto.is_file() else None
    if text is not None:
        found.append(MemoryFile(auto, "auto memory (first 200 lines)", _tokens(text), True))
    return found


def _json(path: Path, refused: list[tuple[Path, str]] | None = None) -> dict[str, Any]:
    text = _read(path, refused=refused)
    if text is None:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _servers(block: object, scope: str) -> Iterator[McpServer]:
    if not isinstance(block, dict):
        return
    for name, spec in sorted(block.items()):
        if not isinstance(spec, dict):
            continue
        command = spec.get("command")
        args = spec.get("args")
        env = spec.get("env")
        transport = spec.get("type") or ("stdio" if command else "http")
        yield McpServer(
            str(name),
            scope,
            str(transport),
            command if isinstance(command, str) else None,
            tuple(str(a) for a in args) if isinstance(args, list) else (),
            {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {},
        )


def mcp_servers(project: Path, refused: list[tuple[Path, str]] | None = None) -> list[McpServer]:
    """MCP servers configured for ``project``: project ``.mcp.json``, then the local and
    user scopes of ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json`` when set).

    Args:
        project: the project folder.
        refused: where a file that is not a regular file (a FIFO from an archive) is
            added, with why, instead of being read.

    Returns:
        The servers; a name defined in several scopes appears once, closest scope first.
    """
    project = project.absolute()
    user = _json(user_json(), refused)
    projects = user.get("projects")
    local = projects.get(str(project), {}) if isinstance(projects, dict) else {}
    found: list[McpServer] = []
    names: set[str] = set()
    for server in [
        *_servers(local.get("mcpServers") if isinstance(local, dict) else None, "local"),
        *_servers(_json(project / ".mcp.json", refused).get("mcpServers"), "project"),
        *_servers(user.get("mcpServers"), "user"),
    ]:
        if server.name not in names:
            names.add(server.name)
            found.append(server)
    return found


def external_imports_approved(project: Path) -> bool:
    """Whether the user let Claude Code load this project's imports from outside its
    folder: ``hasClaudeMdExternalIncludesApproved`` in the project's entry of
    ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json`` when set), where Claude
    Code keeps the answer to its "external imports" question."""
    projects = _json(user_json()).get("projects")
    local = projects.get(str(project.absolute())) if isinstance(projects, dict) else None
    return isinstance(local, dict) and local.get("hasClaudeMdExternalIncludesApproved") is True


def approved_project_servers(project: Path) -> set[str] | None:
    """The project ``.mcp.json`` servers the user approved in Claude Code.

    Claude Code asks before it starts a server from a repository's ``.mcp.json`` and
    keeps the answer in the user's own files: ``enabledMcpjsonServers`` (or
    ``enableAllProjectMcpServers: true``) in the project's entry of ``~/.claude.json``
    or in ``~/.claude/settings.json``. Only those count: a project's
    ``.claude/settings*.json`` arrives with the repository, as ``.mcp.json`` does.

    Returns:
        The approved names, or None when every project server is approved.
    """
    project = project.absolute()
    user = _json(user_json())
    projects = user.get("projects")
    local = projects.get(str(project), {}) if isinstance(projects, dict) else {}
    names: set[str] = set()
    for block in (
        local if isinstance(local, dict) else {},
        _json(claude_config_dir() / "settings.json"),
    ):
        if block.get("enableAllProjectMcpServers") is True:
            return None
        enabled = block.get("enabledMcpjsonServers")
        if isinstance(enabled, list):
            names.update(str(n) for n in enabled)
    return names


def configured_hooks(
    project: Path, refused: list[tuple[Path, str]] | None = None
) -> list[ConfiguredHook]:
    """Command hooks on startup events (``STARTUP_HOOK_EVENTS``) in the settings files.

    Args:
        project: the project folder.
        refused: as for :func:`mcp_servers`.

    Returns:
        Hooks from ``~/.claude/settings.json``, ``.claude/settings.json`` and
        ``.claude/settings.local.json``, in that order.
    """
    project = project.absolute()
    files = [
        claude_config_dir() / "settings.json",
        project / ".claude" / "settings.json",
        project / ".claude" / "settings.local.json",
    ]
    found: list[ConfiguredHook] = []
    for path in files:
        hooks = _json(path, refused).get("hooks")
        if not isinstance(hooks, dict):
            continue
        for event in STARTUP_HOOK_EVENTS:
            for group in hooks.get(event) or []:
                handlers = group.get("hooks") if isinstance(group, dict) else None
                for handler in handlers or []:
                    if isinstance(handler, dict) and isinstance(handler.get("command"), str):
                        args = handler.get("args")
                        command = handler["command"]
                        if isinstance(args, list):
                            command = " ".join([command, *map(str, args)])
                        found.append(ConfiguredHook(event, command, path))
    return found
