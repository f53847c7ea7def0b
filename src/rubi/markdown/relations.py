"""Typed links: a list item ``<relation> [[target]]`` names how its note relates to the
targets (``- supersedes [[decision-old]]``), and the wikilink pattern it is read with.

Standard library ``re`` only, so a search can ask whether a line is such an item
(:func:`rubi.search.snippet.best_snippet`) without the link parser's imports
(:mod:`rubi.markdown.links`: the note model's dataclasses and ``urllib.parse``, which
imports ``ipaddress``: about 8 ms of a cold recall hook's CPU).
"""

from __future__ import annotations

import re

__all__ = ["WIKILINK_RE", "item_relation"]

WIKILINK_RE = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
"""``![[inner]]`` or ``[[inner]]``: inner has no brackets and no newline."""

_RELATION_RE = re.compile(r"^\s*([a-z][a-z0-9_-]{0,40})\s+!?\[\[")
"""A list item that starts ``<relation> [[`` (relation in lower case) types its links."""

_RELATION_REST_RE = re.compile(r"^[\s,;.]*(?:(?:and|or|&)[\s,;.]*)*$")
"""What may remain of such an item once its links are removed: separators only."""


def item_relation(text: str) -> str | None:
    """The relation word of a ``<relation> [[target]]`` list item, else None.

    The item must hold only the relation word and its links (separated by commas or
    "and"), so prose list items stay plain links. ``-`` becomes ``_``
    (``depends-on`` → ``depends_on``).

    Args:
        text: the item's text after its list marker (``supersedes [[a]], [[b]]``).

    Returns:
        The relation (``supersedes``), or None for any other text.
    """
    m = _RELATION_RE.match(text)
    if not m:
        return None
    rest = WIKILINK_RE.sub(" ", text[m.end(1) :])
    if not _RELATION_REST_RE.match(rest):
        return None  # prose such as "- open [[Settings]] and pick a theme"
    return m.group(1).replace("-", "_")
