"""What happened in a stretch of a transcript: requests, files read and edited,
commands run, notes written. Read from a byte offset, so each record covers only
what is new."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Activity", "read_activity"]

_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.S)
READ_TOOLS = frozenset({"Read", "NotebookRead"})
EDIT_TOOLS = frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"})


@dataclass
class Activity:
    """A stretch of a session; lists keep first-seen order without repeats."""

    requests: list[str] = field(default_factory=list)
    files_read: list[str] = field(default_factory=list)
    files_edited: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    notes_written: list[str] = field(default_factory=list)
    end_offset: int = 0

    def empty(self) -> bool:
        return not (
            self.requests
            or self.files_read
            or self.files_edited
            or self.commands
            or self.notes_written
        )


def _add(items: list[str], value: str) -> None:
    if value and value not in items:
        items.append(value)


def _relative(path: str, cwd: Path | None) -> str:
    if cwd is not None:
        try:
            return Path(path).resolve().relative_to(cwd.resolve()).as_posix()
        except (ValueError, OSError):
            pass
    return path


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


def _tool(activity: Activity, block: dict[str, Any], cwd: Path | None) -> None:
    name = str(block.get("name") or "")
    data = block.get("input") if isinstance(block.get("input"), dict) else {}
    assert isinstance(data, dict)
    path = str(data.get("file_path") or data.get("notebook_path") or "")
    if name in READ_TOOLS:
        _add(activity.files_read, _relative(path, cwd))
    elif name in EDIT_TOOLS:
        _add(activity.files_edited, _relative(path, cwd))
    elif name == "Bash":
        _add(activity.commands, " ".join(str(data.get("command") or "").split())[:200])
    elif name.endswith("__register"):
        for note in data.get("notes") or ():
            if isinstance(note, dict):
                _add(activity.notes_written, str(note.get("title") or ""))


def read_activity(path: Path, offset: int = 0, cwd: Path | None = None) -> Activity:
    """Activity in the transcript after byte ``offset`` (main chain only).

    A partial last line is left for the next read (``end_offset`` stops before it).
    """
    activity = Activity(end_offset=offset)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError:
        return activity
    with fh:
        size = fh.seek(0, os.SEEK_END)
        if offset > size:
            offset = 0  # the file was replaced
        fh.seek(offset)
        pos = offset
        for raw in fh:
            if not raw.endswith(b"\n"):
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
                text = " ".join(_user_text(message).split())
                args = _COMMAND_ARGS.search(text)
                if args:  # a slash command: its arguments are the request
                    command = _COMMAND_NAME.search(text)
                    name = f"{command.group(1)} " if command else ""
                    text = (name + args.group(1)).strip()
                if text and not text.startswith("<"):
                    _add(activity.requests, text[:300])
            elif line.get("type") == "assistant":
                for block in message.get("content") or ():
                    if isinstance(block, dict) and block.get("type") == "tool_use":
                        _tool(activity, block, cwd)
        activity.end_offset = pos
    return activity
