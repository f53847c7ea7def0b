"""Find Claude Code transcripts: the projects folder, a project's folder, its sessions.

Layout (as Claude Code 2.1 writes it, observed on real sessions)::

    <config>/projects/<slug>/<session-id>.jsonl                 the session
    <config>/projects/<slug>/<session-id>/subagents/agent-*.jsonl  its subagents (2.x)
    <config>/projects/<slug>/agent-<id>.jsonl                   a subagent (older CLIs)

``<config>`` is ``$CLAUDE_CONFIG_DIR`` when set, else ``~/.claude``.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.transcripts.errors import TranscriptsNotFoundError

__all__ = [
    "SessionFiles",
    "claude_config_dir",
    "discover_sessions",
    "find_project_dir",
    "project_slug",
    "projects_dir",
    "transcript_file_sessions",
]

SLUG_MAX_CHARS = 200
"""Claude Code keeps the first 200 characters of a long slug and appends a hash."""

_FIRST_LINE_MAX_BYTES = 1 << 16
"""How much of an old-style agent file is read to learn its parent session id."""

_SNIFF_BYTES = 4096
"""How much of a transcript named on the command line is read to tell it is JSONL."""


@dataclass(frozen=True, slots=True)
class SessionFiles:
    """The files of one session.

    Attributes:
        session_id: the session's id (file stem of its main transcript).
        project: the project folder name (slug) under ``projects/``.
        main: the main transcript, or None for subagent files whose parent is gone.
        agents: subagent transcripts as ``(agent_id, path)`` pairs, sorted by path.
        mtime: latest modification time of its files (POSIX seconds).
        size: total size of its files (bytes).
    """

    session_id: str
    project: str
    main: Path | None
    agents: tuple[tuple[str, Path], ...]
    mtime: float
    size: int


def claude_config_dir() -> Path:
    """Claude Code's configuration folder: ``$CLAUDE_CONFIG_DIR`` as Claude Code reads
    it (no ``~`` expanded, a relative path from the working folder:
    :mod:`rubi.claude.userfiles`), else ``~/.claude``."""
    override = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(override) if override else Path.home() / ".claude"


def projects_dir() -> Path:
    """The folder holding one transcript folder per project (``<config>/projects``)."""
    return claude_config_dir() / "projects"


def _js_hash(text: str) -> int:
    """Claude Code's 32-bit string hash (``h = (h << 5) - h + code unit``, signed)."""
    data = text.encode("utf-16-le", errors="surrogatepass")
    value = 0
    for i in range(0, len(data), 2):
        value = (value * 31 + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def project_slug(path: Path) -> str:
    """The folder name Claude Code gives the project at ``path``.

    Every UTF-16 code unit that is not an ASCII letter or digit becomes ``-`` (so
    ``/home/me/my_app.v2`` gives ``-home-me-my-app-v2``); past 200 characters the name
    is cut and a base-36 hash of the path is appended. Checked against public
    re-implementations that were verified on Claude Code 2.1.x.

    Args:
        path: the project folder; made absolute (not resolved through symlinks,
            as Claude Code uses the cwd as given).

    Returns:
        The slug, e.g. ``-home-me-proj``.
    """
    text = str(path.absolute())
    out: list[str] = []
    for char in text:
        if char.isascii() and char.isalnum():
            out.append(char)
        else:
            out.append("--" if ord(char) > 0xFFFF else "-")
    slug = "".join(out)
    if len(slug) <= SLUG_MAX_CHARS:
        return slug
    return f"{slug[:SLUG_MAX_CHARS]}-{_base36(abs(_js_hash(text)))}"


def find_project_dir(root: Path, project: Path) -> Path:
    """The transcript folder of ``project`` under the projects folder ``root``.

    Args:
        root: the projects folder (see :func:`projects_dir`).
        project: the project's folder as the user names it.

    Returns:
        The existing folder. For long paths whose hash suffix differs between
        Claude Code builds, a unique folder sharing the 200-character prefix is used.

    Raises:
        TranscriptsNotFoundError: no such folder.
    """
    slug = project_slug(project)
    candidate = root / slug
    if candidate.is_dir():
        return candidate
    if len(slug) > SLUG_MAX_CHARS and root.is_dir():
        prefix = slug[:SLUG_MAX_CHARS] + "-"
        matches = [p for p in root.iterdir() if p.is_dir() and p.name.startswith(prefix)]
        if len(matches) == 1:
            return matches[0]
    raise TranscriptsNotFoundError(
        f"{candidate}: no Claude Code transcripts for project {project}; "
        "run Claude Code in that folder first, or check --project and CLAUDE_CONFIG_DIR"
    )


def _parent_session(path: Path) -> str | None:
    """The ``sessionId`` on the first line of an old-style ``agent-<id>.jsonl``."""
    try:
        with path.open("rb") as handle:
            first = handle.readline(_FIRST_LINE_MAX_BYTES)
        record = json.loads(first)
    except (OSError, ValueError):
        return None
    value = record.get("sessionId") if isinstance(record, dict) else None
    return value if isinstance(value, str) and value else None


def _stat(path: Path) -> tuple[float, int]:
    try:
        info = path.stat()
    except OSError:
        return 0.0, 0
    return info.st_mtime, info.st_size


def _project_sessions(folder: Path) -> list[SessionFiles]:
    mains: dict[str, Path] = {}
    agents: dict[str, list[tuple[str, Path]]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        if path.name.startswith("agent-"):
            parent = _parent_session(path) or path.stem
            agents.setdefault(parent, []).append((path.stem.removeprefix("agent-"), path))
        else:
            mains[path.stem] = path
    for session_id in mains:
        sub = folder / session_id / "subagents"
        if sub.is_dir():
            for path in sorted(sub.glob("*.jsonl")):
                agents.setdefault(session_id, []).append((path.stem.removeprefix("agent-"), path))
    sessions: list[SessionFiles] = []
    for session_id in sorted(set(mains) | set(agents)):
        main = mains.get(session_id)
        files = ([main] if main else []) + [p for _, p in agents.get(session_id, [])]
        stats = [_stat(p) for p in files]
        sessions.append(
            SessionFiles(
                session_id,
                folder.name,
                main,
                tuple(sorted(agents.get(session_id, []), key=lambda pair: str(pair[1]))),
                max(m for m, _ in stats),
                sum(s for _, s in stats),
            )
        )
    return sessions


def discover_sessions(
    root: Path, *, project: Path | None = None, since: float | None = None
) -> list[SessionFiles]:
    """List the sessions under the projects folder ``root``, oldest first.

    Args:
        root: the projects folder (see :func:`projects_dir`).
        project: only this project's sessions (a project folder, mapped to its slug).
        since: only sessions with a file modified at or after this time (POSIX seconds).

    Returns:
        Sessions sorted by last modification, oldest first, so that a call copied into
        a resumed session is credited to the session where it happened.

    Raises:
        TranscriptsNotFoundError: ``root`` (or the project's folder) does not exist.
    """
    if not root.is_dir():
        raise TranscriptsNotFoundError(
            f"{root}: no Claude Code transcripts folder; run Claude Code once, "
            "or set CLAUDE_CONFIG_DIR to the folder that holds projects/"
        )
    folders = (
        [find_project_dir(root, project)]
        if project is not None
        else sorted(p for p in root.iterdir() if p.is_dir())
    )
    sessions = [s for folder in folders for s in _project_sessions(folder)]
    if since is not None:
        sessions = [s for s in sessions if s.mtime >= since]
    return sorted(sessions, key=lambda s: (s.mtime, s.project, s.session_id))


def _checked_transcript(path: Path) -> tuple[float, int]:
    """``path``'s (mtime, size) once it is known to be a readable JSONL transcript file.

    Raises:
        TranscriptsNotFoundError: missing, not a regular file, not named ``*.jsonl``,
            or its first non-blank character is not ``{``.
    """
    try:
        info = path.stat()
    except OSError as err:
        raise TranscriptsNotFoundError(
            f"{path}: cannot read this transcript ({err.strerror or err})"
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise TranscriptsNotFoundError(
            f"{path}: a folder; give transcript files (<session>.jsonl), or --project FOLDER"
        )
    if not stat.S_ISREG(info.st_mode):
        raise TranscriptsNotFoundError(f"{path}: not a regular file; give a .jsonl transcript")
    if path.suffix.lower() != ".jsonl":
        raise TranscriptsNotFoundError(
            f"{path}: not a Claude Code transcript (expected a .jsonl file)"
        )
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES).lstrip()
    except OSError as err:
        raise TranscriptsNotFoundError(
            f"{path}: cannot read this transcript ({err.strerror or err})"
        ) from None
    if head and not head.startswith(b"{"):
        raise TranscriptsNotFoundError(
            f"{path}: not JSON Lines (a transcript's lines are JSON objects)"
        )
    return info.st_mtime, info.st_size


def transcript_file_sessions(paths: Sequence[Path]) -> list[SessionFiles]:
    """The sessions of transcript files named by the user (``rubi xray FILE...``).

    Each file is one session (id: its stem, project: its folder's name). A main
    transcript's subagents in ``<stem>/subagents/*.jsonl`` beside it come along, as in
    the projects folder; a file named twice counts once.

    Args:
        paths: ``.jsonl`` transcript files.

    Returns:
        The sessions, oldest first (as :func:`discover_sessions`).

    Raises:
        TranscriptsNotFoundError: a path is missing, a folder, not a regular file, not
            ``*.jsonl`` or not JSON Lines; the message names the path.
    """
    sessions: list[SessionFiles] = []
    seen: set[Path] = set()
    for path in paths:
        key = path.absolute()
        if key in seen:
            continue
        seen.add(key)
        mtime, size = _checked_transcript(path)
        sub = path.parent / path.stem / "subagents"
        agents = (
            tuple(
                (p.stem.removeprefix("agent-"), p)
                for p in sorted(sub.glob("*.jsonl"))
                if p.is_file()
            )
            if sub.is_dir()
            else ()
        )
        stats = [_stat(p) for _, p in agents]
        sessions.append(
            SessionFiles(
                path.stem,
                path.absolute().parent.name,
                path,
                agents,
                max([mtime, *(m for m, _ in stats)]),
                size + sum(s for _, s in stats),
            )
        )
    return sorted(sessions, key=lambda s: (s.mtime, s.project, s.session_id))
