"""A text file's layout (byte order mark, line endings, final newline), kept across an edit.

A note checked out by Git for Windows has CRLF line endings; one saved by Notepad
may start with a UTF-8 byte order mark; one written by hand may end without a
newline. rubi edits text with ``\\n`` line endings and no mark; :func:`split_layout`
takes a file's bytes apart into that text and its :class:`TextLayout`, and
:meth:`TextLayout.encode` puts an edited text back into the same layout, so a rewrite
changes only what it meant to change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["BOM", "TextLayout", "split_layout"]

BOM = "\ufeff"
"""The byte order mark, as a character (``EF BB BF`` in UTF-8)."""

Newline = Literal["\n", "\r\n", "\r"]


@dataclass(frozen=True, slots=True)
class TextLayout:
    """How a text file lays out its lines.

    Attributes:
        newline: the line ending its lines use (the most frequent one when mixed;
            ``\\n`` for a file of one line).
        bom: it starts with a UTF-8 byte order mark.
        final_newline: it ends with a line ending (True for an empty file, so text
            added to it gets one).
    """

    newline: Newline = "\n"
    bom: bool = False
    final_newline: bool = True

    def encode(self, text: str) -> bytes:
        """``text`` (``\\n`` line endings, no mark) as UTF-8 bytes in this layout.

        Raises:
            UnicodeEncodeError: ``text`` holds a lone surrogate.
        """
        body = text.removeprefix(BOM)
        if not self.final_newline and body.endswith("\n"):
            body = body[:-1]
        if self.newline != "\n":
            body = body.replace("\n", self.newline)
        return ((BOM if self.bom else "") + body).encode("utf-8")


def _newline(text: str) -> Newline:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    if crlf > lf and crlf >= cr:
        return "\r\n"
    if cr > lf and cr > crlf:
        return "\r"
    return "\n"


def split_layout(data: bytes) -> tuple[str, TextLayout]:
    """A file's text, with ``\\n`` line endings and no byte order mark, and its layout.

    ``layout.encode(text) == data`` for every UTF-8 file whose line endings are not
    mixed (a mixed file comes back with its most frequent ending on every line).

    Raises:
        UnicodeDecodeError: ``data`` is not UTF-8.
    """
    raw = data.decode("utf-8")
    bom = raw.startswith(BOM)
    if bom:
        raw = raw[1:]
    layout = TextLayout(_newline(raw), bom, raw == "" or raw.endswith(("\n", "\r")))
    return raw.replace("\r\n", "\n").replace("\r", "\n"), layout
