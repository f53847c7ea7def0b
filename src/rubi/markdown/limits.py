"""Per-note limits: what of one parsed note the index and the link graph take.

A note may come from a clone or an archive, and one note of hostile shape (100,000
``#tags``, a million headings, 100,000 unresolved links, a megabyte of distinct
words) made every step after parsing pay per item: each distinct word is a posting
list of its own in the index, each link target a graph node, each heading a section.
:func:`bound_note` keeps the first items of each kind up to a limit and cuts the title
and the body where they reach :data:`MAX_TITLE_CHARS` and :data:`MAX_DISTINCT_WORDS`;
the note is indexed with the rest, and the caller reports the one problem it returns.

The limits are far above real notes: the largest in the Obsidian Help, kepano and
rubi's own vaults have 6 tags, 58 links, 162 headings and 8 aliases, and a megabyte
of a real changelog (Vim's ``version9.txt``) holds 12,600 distinct words.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from rubi.core.model import Heading, Note

__all__ = [
    "MAX_ALIASES",
    "MAX_DISTINCT_WORDS",
    "MAX_HEADINGS",
    "MAX_LINKS",
    "MAX_TAGS",
    "MAX_TITLE_CHARS",
    "bound_note",
]

MAX_TAGS = 1_000
"""Tags kept per note (frontmatter first, then inline, as parsed)."""

MAX_LINKS = 10_000
"""Links kept per note (body first, then frontmatter properties): an index note of a
10,000-note vault still links every note."""

MAX_HEADINGS = 5_000
"""Headings kept per note, in order."""

MAX_ALIASES = 1_000
"""Aliases kept per note."""

MAX_TITLE_CHARS = 1_000
"""Characters of the title kept (a title comes from frontmatter or the first H1, and
is shown with every hit): real titles are a line, file names at most 255 bytes."""

MAX_DISTINCT_WORDS = 20_000
"""Distinct words (``\\w+`` runs, as written) in the indexed text of the body and of
the headings: each is a term with a posting list of its own. The body is cut at the
end of the last line before the word past the limit, the headings after the last one
within it."""

_WORD_RE = re.compile(r"\w+")


def _words_cut(text: str, limit: int) -> int | None:
    """The offset where ``text`` is cut to hold at most ``limit`` distinct words: the
    start of the line of the first word past the limit (of that word, when its line is
    the first); None when it holds no more."""
    if len(text) <= limit:  # a word is one character at least
        return None
    seen: set[str] = set()
    add = seen.add
    for m in _WORD_RE.finditer(text):
        add(m.group())
        if len(seen) > limit:
            return text.rfind("\n", 0, m.start()) + 1 or m.start()
    return None


def _headings_within(headings: tuple[Heading, ...], limit: int) -> int:
    """How many of the first ``headings`` hold at most ``limit`` distinct words together."""
    seen: set[str] = set()
    for i, heading in enumerate(headings):
        seen.update(_WORD_RE.findall(heading.text))
        if len(seen) > limit:
            return i
    return len(headings)


def _over(count: int, limit: int, what: str, kept: str) -> str:
    return f"{count:,} {what}, over the limit of {limit:,}: {kept} indexed"


def bound_note(note: Note) -> tuple[Note, str | None]:
    """``note`` within the per-note limits, and what was left out.

    Args:
        note: a parsed note.

    Returns:
        ``(note, problem)``: the same note and None when it is within every limit;
        else a copy holding the first :data:`MAX_TITLE_CHARS` characters of its
        title, the first :data:`MAX_TAGS` tags, :data:`MAX_LINKS` links,
        :data:`MAX_ALIASES` aliases and :data:`MAX_HEADINGS` headings (fewer when
        their text passes :data:`MAX_DISTINCT_WORDS`), its body cut at a line end
        to at most :data:`MAX_DISTINCT_WORDS` distinct words, and one line naming
        each limit it broke and what was indexed (``"100,000 tags, over the limit
        of 1,000: the first 1,000 indexed"``, several joined by ``; ``).
    """
    changes: dict[str, Any] = {}
    said: list[str] = []
    for field, limit in (("tags", MAX_TAGS), ("links", MAX_LINKS), ("aliases", MAX_ALIASES)):
        items: tuple[object, ...] = getattr(note, field)
        if len(items) > limit:
            changes[field] = items[:limit]
            said.append(_over(len(items), limit, field, f"the first {limit:,}"))
    if len(note.title) > MAX_TITLE_CHARS:
        changes["title"] = note.title[:MAX_TITLE_CHARS]
        said.append(
            f"a title of {len(note.title):,} characters, over the limit of "
            f"{MAX_TITLE_CHARS:,}: its first {MAX_TITLE_CHARS:,} indexed"
        )
    headings = note.headings
    if len(headings) > MAX_HEADINGS:
        said.append(_over(len(headings), MAX_HEADINGS, "headings", f"the first {MAX_HEADINGS:,}"))
        headings = headings[:MAX_HEADINGS]
    kept = _headings_within(headings, MAX_DISTINCT_WORDS)
    if kept < len(headings):
        said.append(
            f"headings of more than {MAX_DISTINCT_WORDS:,} distinct words: "
            f"the first {kept:,} indexed"
        )
        headings = headings[:kept]
    if len(headings) < len(note.headings):
        changes["headings"] = headings
    cut = _words_cut(note.body, MAX_DISTINCT_WORDS)
    if cut is not None:
        changes["body"] = note.body[:cut]
        said.append(
            f"a body of more than {MAX_DISTINCT_WORDS:,} distinct words: "
            f"its first {cut:,} characters indexed"
        )
    if not said:
        return note, None
    return dataclasses.replace(note, **changes), "; ".join(said)
