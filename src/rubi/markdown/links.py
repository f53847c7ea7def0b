"""Wikilinks in every Obsidian form, found only outside code.

Forms (Obsidian Help, "Internal links" and "Embed files"): ``[[a]]``, ``[[a|alias]]``,
``[[a#heading]]``, ``[[a#^block]]``, ``[[#heading]]`` (same note) and ``![[embed]]``.
Internal markdown links (``[text](Other%20note.md)``) count too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

from rubi.core.model import LINKS_TO, Link
from rubi.markdown.relations import WIKILINK_RE, item_relation

__all__ = [
    "WIKILINK_RE",
    "find_wikilinks",
    "item_relation",
    "markdown_link",
    "parse_link_text",
]

_URL_SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def parse_link_text(
    inner: str, *, embed: bool = False, relation: str = LINKS_TO, line: int = 0
) -> Link:
    """Split the inside of ``[[...]]`` into target, heading, block and alias.

    Args:
        inner: the text between the brackets, e.g. ``Note#Heading|shown``. An escaped
            pipe (``\\|``, as Obsidian requires inside tables) counts as the alias bar.
        embed: the link was written ``![[...]]``.
        relation: the edge type to record.
        line: 0-based body line of the block holding the link.

    Returns:
        A :class:`Link`; ``target`` is stripped and may be empty for ``[[#heading]]``.
    """
    inner = inner.replace("\\|", "|")
    target, bar, alias = inner.partition("|")
    heading: str | None = None
    block: str | None = None
    if "#" in target:
        target, _, frag = target.partition("#")
        frag = frag.strip()
        if frag.startswith("^"):
            block = frag[1:] or None
        else:
            # Obsidian nests headings as a#h1#h2; keep the deepest.
            heading = frag.split("#")[-1].strip() or None
    return Link(
        target=target.strip(),
        relation=relation,
        alias=(alias.strip() or None) if bar else None,
        heading=heading,
        block=block,
        embed=embed,
        line=line,
    )


def find_wikilinks(text: str, *, relation: str = LINKS_TO, line: int = 0) -> Iterator[Link]:
    """Yield the wikilinks in a run of plain text (code already removed)."""
    for m in WIKILINK_RE.finditer(text):
        yield parse_link_text(m.group(2), embed=m.group(1) == "!", relation=relation, line=line)


def markdown_link(href: str, *, embed: bool, line: int) -> Link | None:
    """A link for an internal markdown link target, or None for URLs and anchors.

    ``Other%20note.md#Part`` → target ``Other note``, heading ``Part``.
    """
    if not href or href.startswith("#") or _URL_SCHEME_RE.match(href) or href.startswith("//"):
        return None
    path, _, frag = unquote(href).partition("#")
    path = path.strip()
    if not path:
        return None
    if path.lower().endswith(".md"):
        path = path[:-3]
    heading = frag.strip() or None
    block = None
    if heading and heading.startswith("^"):
        block, heading = heading[1:] or None, None
    return Link(target=path, heading=heading, block=block, embed=embed, line=line)
