"""The text a reader sees of a line of inline markdown, as Obsidian shows it in reading
view: what a note's title is when it comes from its first H1.

``# An Introduction to [[dataview|Dataview]]`` reads ``An Introduction to Dataview``:
a wikilink shows its alias, else its target (``[[a#h]]`` as ``a > h``, Obsidian's
way); an embed (``![[image.png]]``) and an image show no text; a markdown link shows
its text; emphasis, strikethrough (``~~``) and highlight (``==``) marks go and
their text stays; a code span shows its code; inline HTML tags go. A backslash escape
shows the character it escapes, never starting a wikilink.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rubi.markdown.links import WIKILINK_RE, parse_link_text

TYPE_CHECKING = False  # markdown-it's Token is only named in annotations
if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = ["display_text"]

_PAIRED_MARKS = re.compile(r"(~~|==)(?=\S)(.+?)(?<=\S)\1")
"""GFM strikethrough and Obsidian's highlight, which CommonMark leaves as text."""

_SPACES = re.compile(r"\s+")


def display_text(children: Sequence[Token]) -> str:
    """The text a reader sees of an inline token's ``children`` (markdown-it's full
    CommonMark inline parse of it), on one line with runs of spaces made one."""
    parts: list[str] = []
    run: list[str] = []  # consecutive text, where wikilinks and paired marks are read

    def flush() -> None:
        if run:
            parts.append(_plain("".join(run)))
            run.clear()

    for child in children:
        if child.type == "text":
            run.append(child.content)
            continue
        flush()
        if child.type in ("text_special", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    flush()
    return _SPACES.sub(" ", "".join(parts)).strip()


def _plain(text: str) -> str:
    """``text`` with its wikilinks shown as Obsidian shows them and its paired marks
    removed."""
    text = WIKILINK_RE.sub(_shown_link, text)
    while True:
        plain = _PAIRED_MARKS.sub(r"\2", text)
        if plain == text:
            return text
        text = plain


def _shown_link(m: re.Match[str]) -> str:
    if m.group(1):  # an embed shows the file, not text
        return ""
    link = parse_link_text(m.group(2))
    if link.alias:
        return link.alias
    anchor = link.heading or (f"^{link.block}" if link.block else "")
    if not link.target:
        return anchor
    return f"{link.target} > {anchor}" if anchor else link.target
