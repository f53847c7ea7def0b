"""Edit a JSON settings file's text member by member, keeping every other byte.

Claude Code and its users format settings files their own way (indentation, spacing,
key order, a final newline or none). When rubi takes something out of such a file it
changes only the text of the top-level members whose values changed: a member that
went is cut out with its comma, a changed value is rewritten in place (on one line
when it was on one line, else indented like its member), a new member is added
before the closing brace. Every other byte stays as it was.

The member spans come from :meth:`json.JSONDecoder.raw_decode`, which returns where
each value ends, so strings with braces or escaped quotes need no scanner of ours.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["edit_members"]

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


@dataclass(frozen=True, slots=True)
class _Member:
    """Where one key and its value lie in a JSON object's text."""

    key: str
    start: int  # where the key's opening quote is
    value_start: int
    value_end: int


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def _members(text: str) -> tuple[int, int, list[_Member]] | None:
    """The object's ``{`` and ``}`` positions and its members, or None when ``text``
    is not one JSON object (then nothing is edited)."""
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return None
    opening = at
    at = _skip(text, at + 1)
    members: list[_Member] = []
    try:
        while not text.startswith("}", at):
            if members:
                if not text.startswith(",", at):
                    return None
                at = _skip(text, at + 1)
            key, key_end = _DECODER.raw_decode(text, at)
            if not isinstance(key, str):
                return None
            colon = _skip(text, key_end)
            if not text.startswith(":", colon):
                return None
            value_start = _skip(text, colon + 1)
            _, value_end = _DECODER.raw_decode(text, value_start)
            members.append(_Member(key, at, value_start, value_end))
            at = _skip(text, value_end)
    except json.JSONDecodeError:
        return None
    if text[_skip(text, at + 1) :]:
        return None  # something after the object
    return opening, at, members


def _indent_unit(text: str) -> str:
    found = re.search(r"\{[ \t]*\r?\n([ \t]+)\S", text)
    return found.group(1) if found else "  "


def _render(value: Any, old_text: str, line_indent: str, unit: str, newline: str) -> str:
    if "\n" not in old_text:
        return json.dumps(value, ensure_ascii=False)
    lines = json.dumps(value, indent=unit, ensure_ascii=False).split("\n")
    return newline.join([lines[0], *(line_indent + line for line in lines[1:])])


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    prefix = text[start:at]
    return prefix if not prefix.strip() else ""


def _one_edit(text: str, new: dict[str, Any]) -> str | None:
    """``text`` with its first differing member brought in line with ``new``; the same
    text when none differs; None when ``text`` cannot be edited."""
    parsed = _members(text)
    if parsed is None:
        return None
    opening, closing, members = parsed
    newline = "\r\n" if "\r\n" in text else "\n"
    unit = _indent_unit(text)
    keys = [m.key for m in members]
    if len(set(keys)) != len(keys):
        return None  # a key twice: which one counts is the reader's guess
    for i, member in enumerate(members):
        if member.key not in new:
            if len(members) == 1:
                return text[: opening + 1] + text[closing:]
            if i + 1 < len(members):
                return text[: member.start] + text[members[i + 1].start :]
            return text[: members[i - 1].value_end] + text[member.value_end :]
        old_text = text[member.value_start : member.value_end]
        if json.loads(old_text) != new[member.key]:
            rendered = _render(
                new[member.key], old_text, _line_indent(text, member.start), unit, newline
            )
            return text[: member.value_start] + rendered + text[member.value_end :]
    multiline = "\n" in text
    for key, value in new.items():
        if key in keys:
            continue
        indent = _line_indent(text, members[-1].start) if members else unit
        if not multiline:
            indent = ""
        item = json.dumps(key, ensure_ascii=False) + ": "
        item += _render(value, "\n" if multiline else "", indent, unit, newline)
        if not members:
            pad = newline + indent if multiline else ""
            return text[: opening + 1] + pad + item + (newline if pad else "") + text[closing:]
        separator = "," + (newline + indent if multiline else " ")
        end = members[-1].value_end
        return text[:end] + separator + item + text[end:]
    return text


def edit_members(text: str, new: dict[str, Any]) -> str | None:
    """``text`` (a JSON object) edited to hold ``new``, keeping the bytes of every
    top-level member whose value did not change.

    Args:
        text: the file's current text.
        new: what it should hold.

    Returns:
        The edited text (``text`` itself when it already holds ``new``), or None when
        ``text`` is not a single JSON object with distinct keys (write it whole then).
    """
    for _ in range(len(new) + text.count(":") + 2):  # an edit per member at most
        edited = _one_edit(text, new)
        if edited is None:
            return None
        if edited == text:
            try:
                return text if json.loads(text) == new else None
            except json.JSONDecodeError:
                return None
        text = edited
    return None
