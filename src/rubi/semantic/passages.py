"""The passages embedded for one note: its heading sections.

Each passage starts with the note's title (and its heading), so a section of
"Callouts" called "Supported types" still says what it is about. Pure text work: no
numpy, no model.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rubi.index.indexdoc import IndexDoc
from rubi.markdown.headings import headings

__all__ = [
    "MAX_PASSAGES",
    "MAX_PASSAGE_CHARS",
    "MIN_SECTION_CHARS",
    "Passage",
    "doc_passages",
    "passages_digest",
]

MAX_PASSAGES = 32
"""Sections of one note embedded at most; later ones join the last passage."""
MAX_PASSAGE_CHARS = 2_000
"""Characters of one passage's text embedded at most."""
MIN_SECTION_CHARS = 80
"""A section with less text than this joins the passage before it."""


@dataclass(frozen=True, slots=True)
class Passage:
    """One embedded piece of a document.

    Attributes:
        heading: the section's heading ("" for the text before the first heading).
        text: what is embedded (title and heading first).
    """

    heading: str
    text: str


def doc_passages(doc: IndexDoc) -> list[Passage]:
    """The passages of the note ``doc`` (its index document), in document order (at
    least one)."""
    return _note_passages(doc)


def passages_digest(model_id: str, passages: list[Passage]) -> str:
    """A SHA-256 of the model id and the passages: equal digests mean equal vectors."""
    h = hashlib.sha256(model_id.encode())
    for p in passages:
        h.update(b"\x00" + p.heading.encode("utf-8", "replace"))
        h.update(b"\x01" + p.text.encode("utf-8", "replace"))
    return h.hexdigest()


def _sections(body: str) -> list[tuple[str, list[str]]]:
    """``(heading, lines)`` per heading section, the text before the first heading
    first (heading ""); headings inside fenced code are text
    (:func:`rubi.markdown.headings.headings`, the sections search and ``read`` cut)."""
    lines = body.splitlines()
    heads = headings(lines)
    sections = [("", lines[: heads[0][0] if heads else len(lines)])]
    for n, (i, _level, heading) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        sections.append((heading, lines[i + 1 : end]))
    return sections


def _note_passages(doc: IndexDoc) -> list[Passage]:
    title = doc.fields.get("title", "") or doc.id
    merged: list[tuple[str, str]] = []
    for heading, lines in _sections(doc.fields.get("body", "")):
        text = "\n".join(lines).strip()
        short = len(text) < MIN_SECTION_CHARS
        if merged and (short or len(merged) >= MAX_PASSAGES) and heading:
            prev_heading, prev_text = merged[-1]
            merged[-1] = (prev_heading, f"{prev_text}\n{heading}\n{text}".strip())
        elif text or heading or not merged:
            merged.append((heading, text))
    passages = []
    for heading, text in merged:
        head = f"{title}: {heading}" if heading else title
        passages.append(Passage(heading, f"{head}\n{text}"[:MAX_PASSAGE_CHARS]))
    return passages
