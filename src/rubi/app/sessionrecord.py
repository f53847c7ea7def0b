"""The session record in ``.rubi/sessions/<date>-<session>.md``: captured turns
(redacted) and pre-compaction records. Git-ignored, searchable with
``scope="sessions"``.

Captured text is redacted before it is cut (:func:`rubi.transcripts.privacy.redact_cut`),
so a cut never leaves part of a secret. The transcript is read from a byte offset, in
time linear in its size, within a time budget; what is left goes in the next record.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from rubi.app.turntext import MAX_TURN_CHARS, clean_turn
from rubi.core.paths import VaultPaths
from rubi.core.safepaths import require_inside

__all__ = [
    "MAX_ITEMS",
    "MAX_TURN_CHARS",
    "SESSIONS_DIR",
    "append",
    "capture_turn",
    "clean_turn",
    "context_reading",
    "context_size",
    "last_answer_id",
    "latest_record",
    "link_files",
    "session_file",
    "write_record",
]

SESSIONS_DIR = "sessions"

RECORD_MODE = 0o600
"""A record holds the conversation: readable by its owner only. Given to ``open(2)``
(never a ``chmod`` after), so no other user can open it in between, whatever the umask."""
FOLDER_MODE = 0o700
"""``sessions/`` when rubi creates it."""
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import overload
else:

    def overload(func: object) -> object:
        """Stands for :func:`typing.overload` at run time: the variants are for mypy."""
        return func


@overload
def session_file(vault: VaultPaths, session_id: str, now: float | None = None) -> Path: ...
@overload
def session_file(  # noqa: F811 (ruff knows no overload but typing's)
    vault: VaultPaths, session_id: str, now: float | None = None, *, create: bool
) -> Path | None: ...


def session_file(  # noqa: F811
    vault: VaultPaths, session_id: str, now: float | None = None, *, create: bool = True
) -> Path | None:
    """The record file of ``session_id``, created with its frontmatter if missing
    (None when missing and ``create`` is False).

    Raises:
        UnsafePathError: ``sessions/`` or the record is a symlink that leads out of the
            project (a cloned tree would otherwise receive the conversation).
    """
    root = vault.project_root or vault.root
    folder = require_inside(root, vault.root / SESSIONS_DIR, what=SESSIONS_DIR + "/")
    short = re.sub(r"[^A-Za-z0-9-]", "", session_id)[:36] or "unknown"
    existing = _records_of(folder, short) if folder.is_dir() else []
    if existing:
        return require_inside(root, existing[0], what=existing[0].name)
    if not create:
        return None
    when = time.gmtime(now if now is not None else time.time())
    day = time.strftime("%Y-%m-%d", when)
    path = folder / f"{day}-{short}.md"
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
    header = (
        "---\ntype: note\ntags: [session]\n"
        f"session_id: {session_id or 'unknown'}\n"
        f"created: '{time.strftime('%Y-%m-%dT%H:%M:%SZ', when)}'\n---\n"
        f"# Session {day} {short}\n"
    )
    try:
        fd = os.open(path, _CREATE_FLAGS | os.O_EXCL, RECORD_MODE)
    except FileExistsError:
        return path
    with os.fdopen(fd, "wb") as fh:
        fh.write(header.encode("utf-8"))
    return path


def _records_of(folder: Path, short: str) -> list[Path]:
    """``sorted(folder.glob(f"????-??-??-{short}.md"))`` without the glob: the names
    of ``folder`` whose 5th and 8th characters are ``-`` and that end with
    ``-{short}.md`` after ten characters (``?`` is any one character; the same
    comparison as the glob's, case-insensitive where the platform's paths are). The
    glob made ``fnmatch`` compile a pattern holding the session id, one new pattern
    per session, which the kept patterns' file (:mod:`rubi.core.regexcode`) then kept
    and rewrote, about 300 KB and an fsync, as every session's server and cold Stop
    hook exited."""
    tail = os.path.normcase(f"-{short}.md")
    try:
        names = os.listdir(folder)
    except PermissionError:  # as the glob: nothing found
        return []
    return sorted(
        folder / name
        for name in names
        if len(name) == 10 + len(tail)
        and name[4] == "-"
        and name[7] == "-"
        and os.path.normcase(name).endswith(tail)
    )


def append(path: Path, text: str) -> None:
    """Append a block (appends of a few kilobytes land whole on local file systems); a
    record missing meanwhile is created :data:`RECORD_MODE`.

    Raises:
        OSError: the record cannot be written.
    """
    fd = os.open(path, _CREATE_FLAGS | os.O_APPEND, RECORD_MODE)
    with os.fdopen(fd, "ab") as fh:
        fh.write(("\n" + text.rstrip("\n") + "\n").encode("utf-8"))


MAX_ITEMS = 40
"""Per list of a pre-compaction record: a record is a summary, not a log."""
LINKED_FILES = 200
"""Files added to the record's ``files:`` per record."""
RECORD_HEADING = "## Record"


def capture_turn(
    paths: VaultPaths,
    session_id: str,
    prompt: str,
    answer: str | None,
    now: float | None = None,
) -> bool:
    """Append one turn (``### HH:MM``, the prompt and the answer, each redacted and cut)
    to the session's record; nothing when both are empty.

    ``now`` (seconds since the epoch, UTC; default: the current time) is the turn's
    time and, for a new record, its day (replaying a past conversation).

    Returns:
        Whether a turn was written.

    Raises:
        UnsafePathError: the record or ``sessions/`` leads out of the project.
    """
    if not prompt and not answer:
        return False
    block = [f"### {time.strftime('%H:%M', time.gmtime(now))}"]
    if prompt:
        block.append("**User:** " + clean_turn(prompt))
    if answer:
        block.append("**Claude:** " + clean_turn(answer))
    append(session_file(paths, session_id, now), "\n\n".join(block))
    return True


def context_size(transcript: Path) -> int | None:
    """Tokens in the session's context now (see :func:`rubi.transcripts.tail.current_context`),
    or None when unknown."""
    from rubi.transcripts.tail import current_context

    return current_context(transcript)


def context_reading(transcript: Path) -> tuple[int | None, str]:
    """Tokens in the session's context now (None when unknown) and the model id that
    answered last (``""`` when unknown); see :func:`rubi.transcripts.tail.current_reading`."""
    from rubi.transcripts.tail import current_reading

    return current_reading(transcript)


def last_answer_id(transcript: Path) -> str:
    """The ``uuid`` of the transcript's last answer (``""`` when unknown); see
    :func:`rubi.transcripts.tail.last_answer_id`."""
    from rubi.transcripts.tail import last_answer_id as last_id

    return last_id(transcript)


def latest_record(paths: VaultPaths, session_id: str, chars: int) -> tuple[str, str] | None:
    """The session's record file name and the last ``chars`` characters from its first
    pre-compaction record on; None when there is no record (or no pre-compaction
    record, or it cannot be read)."""
    from rubi.app.pagetext import page_text

    path = session_file(paths, session_id, create=False)
    if path is None:
        return None
    text = page_text(paths, path, 100_000)
    at = text.rfind(RECORD_HEADING)
    return (path.name, text[at:][-chars:]) if at >= 0 else None


def _section(title: str, items: list[str], total: int, code: bool = False) -> str:
    if not items:
        return ""
    shown = items[:MAX_ITEMS]
    more = f"\n- … {total - len(shown)} more" if total > len(shown) else ""
    tick = "`" if code else ""
    return f"**{title}**\n" + "\n".join(f"- {tick}{s}{tick}" for s in shown) + more


def _before(trigger: str) -> str:
    """What the record was written before: ``/clear``, or a manual or auto compaction."""
    return "/clear" if trigger == "clear" else f"{trigger} compaction"


def write_record(
    paths: VaultPaths,
    session_id: str,
    transcript: Path,
    offset: int,
    *,
    cwd: Path | None,
    trigger: str,
    budget_s: float,
) -> tuple[int, Path | None, list[str]]:
    """Append an objective record of the transcript after byte ``offset`` (requests,
    files read and edited, commands, notes written; redacted) to the session record.

    Returns:
        ``(end offset, record written or None, project-relative files to link)``: the
        caller saves the offset first, then calls :func:`link_files`, so a record that
        cannot be edited never stalls the next one.
    """
    from rubi.transcripts.privacy import redact, redact_cut
    from rubi.transcripts.turns import COMMAND_CHARS, REQUEST_CHARS, read_activity

    activity = read_activity(transcript, offset, cwd, budget_s=budget_s)
    if activity.empty():
        return activity.end_offset, None, []
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    requests = [
        redact_cut(r, REQUEST_CHARS, collapse=True, more="…") for r in activity.requests[:MAX_ITEMS]
    ]
    commands = [
        redact_cut(c, COMMAND_CHARS, collapse=True, more="…") for c in activity.commands[:MAX_ITEMS]
    ]
    read = [redact(f) for f in activity.files_read]
    edited = [redact(f) for f in activity.files_edited]
    notes = [redact(n) for n in activity.notes_written]
    rest = "" if activity.complete else " — the rest goes in the next record"
    parts = [
        f"{RECORD_HEADING} {stamp} (before {_before(trigger)}; transcript byte "
        f"{offset}–{activity.end_offset}{rest})",
        _section("Requests", requests, activity.total("requests")),
        _section("Files read", read, activity.total("files_read"), code=True),
        _section("Files edited", edited, activity.total("files_edited"), code=True),
        _section("Commands", commands, activity.total("commands"), code=True),
        _section("Notes written", notes, activity.total("notes_written")),
    ]
    path = session_file(paths, session_id)
    append(path, "\n\n".join(p for p in parts if p))
    files = [f for f in read + edited if "[REDACTED:" not in f]
    return activity.end_offset, path, files


def link_files(path: Path, files: list[str]) -> None:
    """Add project-relative ``files`` to the record's ``files:`` so the graph links the
    session to them (absolute paths are left out)."""
    relative = [f for f in files if f and not f.startswith("/")]
    if not relative:
        return
    from rubi.knowledge.notefile import edit_note_text, rewrite

    rewrite(
        path,
        path.name,
        lambda text: edit_note_text(
            text, path.name, merge_lists={"files": relative[:LINKED_FILES]}
        ),
    )
