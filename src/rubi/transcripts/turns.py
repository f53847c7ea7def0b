"""What happened in a stretch of a transcript: requests, files read and edited,
commands run, notes written. Read from a byte offset, so each record covers only
what is new.

One pass, linear in the bytes read: each list keeps its first :data:`KEEP_ITEMS`
distinct items (a set of hashes finds repeats in O(1); the lists used to be searched
item by item, which made a 4 MB transcript take 34 s) and counts the rest. A time
budget stops the pass at a line boundary, so a huge transcript is summarised over
several compactions instead of timing out and being retried from the same offset.

Requests and commands are kept as written (at most :data:`KEPT_CHARS` characters of
each): the caller redacts them first and cuts them afterwards, so a cut never leaves
part of a secret (:func:`rubi.transcripts.privacy.redact_cut`).
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from rubi.transcripts.privacy import CUT_MARGIN

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "COMMAND_CHARS",
    "KEEP_ITEMS",
    "KEPT_CHARS",
    "REQUEST_CHARS",
    "Activity",
    "read_activity",
]

_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.S)
READ_TOOLS = frozenset({"Read", "NotebookRead"})
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})

KEEP_ITEMS = 200
"""Distinct items kept per list; the rest are only counted."""
REQUEST_CHARS = 300
"""A request is shown cut to this many characters (after redaction)."""
COMMAND_CHARS = 200
"""A command is shown cut to this many characters (after redaction)."""
KEPT_CHARS = REQUEST_CHARS + CUT_MARGIN + 1
"""Characters of a request or command kept for redaction: what
:func:`~rubi.transcripts.privacy.redact_cut` reads, plus one so it sees the text goes on."""
_KEY_CHARS = {"requests": REQUEST_CHARS, "commands": COMMAND_CHARS}
"""Two requests are the same when their first characters (whitespace squeezed) are."""


@dataclass
class Activity:
    """A stretch of a session; lists keep first-seen order without repeats.

    Attributes:
        requests: the user's requests as written (slash commands as ``/name args``),
            at most :data:`KEPT_CHARS` characters each, not redacted.
        files_read: paths read (relative to ``cwd`` when inside it).
        files_edited: paths edited or written.
        commands: Bash commands as written, not redacted.
        notes_written: titles of notes registered through rubi.
        totals: distinct items seen per list name (the lists keep at most
            :data:`KEEP_ITEMS`).
        end_offset: the byte after the last complete line read.
        complete: False when the time budget stopped the read before the end.
    """

    requests: list[str] = field(default_factory=list)
    files_read: list[str] = field(default_factory=list)
    files_edited: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    notes_written: list[str] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    end_offset: int = 0
    complete: bool = True
    _seen: dict[str, set[int]] = field(default_factory=dict, repr=False)

    def empty(self) -> bool:
        return not (
            self.requests
            or self.files_read
            or self.files_edited
            or self.commands
            or self.notes_written
        )

    def total(self, name: str) -> int:
        """Distinct items seen in the list ``name`` (kept or not)."""
        return self.totals.get(name, 0)

    def add(self, name: str, value: str) -> None:
        """Add ``value`` to the list ``name`` unless it is there already (O(1))."""
        if not value:
            return
        limit = _KEY_CHARS.get(name)
        key = hash(" ".join(value[: limit * 4].split())[:limit] if limit else value)
        seen = self._seen.setdefault(name, set())
        if key in seen:
            return
        seen.add(key)
        self.totals[name] = self.totals.get(name, 0) + 1
        items: list[str] = getattr(self, name)
        if len(items) < KEEP_ITEMS:
            items.append(value[:KEPT_CHARS] if limit else value)


class _Paths:
    """``path`` relative to ``cwd`` when inside it; each distinct path worked out once,
    by its spelling first (no system call) and by resolving links only when that fails."""

    def __init__(self, cwd: Path | None) -> None:
        self.roots: list[str] = []
        if cwd is not None:
            for root in (os.path.normpath(os.path.abspath(cwd)), str(cwd.resolve())):
                if root not in self.roots:
                    self.roots.append(root)
        self.cache: dict[str, str] = {}

    def relative(self, path: str) -> str:
        if not self.roots or not path:
            return path
        if not os.path.isabs(path):
            return path  # relative already (to the session's folder)
        known = self.cache.get(path)
        if known is None:
            known = self._inside(os.path.normpath(path))
            if known is None:
                try:
                    known = self._inside(str(Path(path).resolve())) or path
                except (OSError, RuntimeError):
                    known = path
            self.cache[path] = known
        return known

    def _inside(self, path: str) -> str | None:
        for root in self.roots:
            if path.startswith(root + os.sep):
                return path[len(root) + 1 :].replace(os.sep, "/")
        return None


def _user_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return ""
        return "\n".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _request(text: str) -> str:
    """The request in a user message: a slash command's name and arguments, else the
    text; "" for system-made messages (they start with a tag)."""
    args = _COMMAND_ARGS.search(text)
    if args:
        command = _COMMAND_NAME.search(text)
        name = f"{command.group(1).strip()} " if command else ""
        text = name + args.group(1).strip()
    text = text.strip()
    return "" if text.startswith("<") else text


def _tool(activity: Activity, block: dict[str, Any], paths: _Paths) -> None:
    name = str(block.get("name") or "")
    data = block.get("input") if isinstance(block.get("input"), dict) else {}
    assert isinstance(data, dict)
    path = str(data.get("file_path") or data.get("notebook_path") or "")
    if name in READ_TOOLS:
        activity.add("files_read", paths.relative(path))
    elif name in EDIT_TOOLS:
        activity.add("files_edited", paths.relative(path))
    elif name == "Bash":
        activity.add("commands", str(data.get("command") or "").strip())
    elif name.endswith("__register"):
        for note in data.get("notes") or ():
            if isinstance(note, dict):
                activity.add("notes_written", str(note.get("title") or ""))


def read_activity(
    path: Path, offset: int = 0, cwd: Path | None = None, *, budget_s: float | None = None
) -> Activity:
    """Activity in the transcript after byte ``offset`` (main chain only).

    Args:
        path: the transcript (JSON lines).
        offset: bytes already summarised; a larger offset than the file's size means
            the file was replaced, and reading starts over.
        cwd: the project folder; paths inside it are made relative.
        budget_s: stop after this many seconds, at a line boundary (``complete`` is
            then False and ``end_offset`` tells where to go on); at least 256 lines
            are read, so each call makes progress. None: no limit.

    Returns:
        The activity; a partial last line is left for the next read (``end_offset``
        stops before it). An unreadable file gives an empty activity at ``offset``.
    """
    activity = Activity(end_offset=offset)
    deadline = time.monotonic() + budget_s if budget_s is not None else None
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError:
        return activity
    paths = _Paths(cwd)
    with fh:
        size = fh.seek(0, os.SEEK_END)
        if offset > size:
            offset = 0  # the file was replaced
        fh.seek(offset)
        pos = offset
        for count, raw in enumerate(fh):
            if not raw.endswith(b"\n"):
                break
            if deadline is not None and count and count % 256 == 0 and time.monotonic() > deadline:
                activity.complete = False
                break
            pos += len(raw)
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(line, dict) or line.get("isSidechain"):
                continue
            message = line.get("message")
            if not isinstance(message, dict):
                continue
            if (
                line.get("type") == "user"
                and not line.get("isMeta")
                and not line.get("isCompactSummary")
            ):
                activity.add("requests", _request(_user_text(message)))
            elif line.get("type") == "assistant":
                for block in message.get("content") or ():
                    if isinstance(block, dict) and block.get("type") == "tool_use":
                        _tool(activity, block, paths)
        activity.end_offset = pos
    return activity
