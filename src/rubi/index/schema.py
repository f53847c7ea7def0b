"""The Whoosh schema: one document per note (and, with the code map, per code file).

Text fields keep no positions (``phrase=False``): rubi never runs phrase queries,
and positions roughly double the index.
"""

from __future__ import annotations

from whoosh.fields import ID, STORED, TEXT, Schema

from rubi.index.analysis import text_analyzer
from rubi.index.version import SCHEMA_VERSION

__all__ = ["FIELD_BOOSTS", "SCHEMA_VERSION", "TEXT_FIELDS", "build_schema"]


FIELD_BOOSTS: dict[str, float] = {
    "title": 4.0,  # a query word in the title is the strongest single signal
    "aliases": 3.0,  # aliases are titles people chose on purpose
    "tags": 2.0,
    "headings": 2.0,  # section names summarise what a note covers
    "symbols": 3.0,  # a named function or class is nearly as good as a title
    "path_text": 1.5,  # folder and file names carry topic words
    "docs": 2.0,  # comments and docstrings of code: the prose that answers questions
    "body": 1.0,
    "body_pt": 1.0,
}
"""BM25F field weights (Robertson & Zaragoza 2009, section 3.5): multipliers on each
field's BM25 term score, applied as query boosts."""

TEXT_FIELDS: tuple[str, ...] = tuple(FIELD_BOOSTS)


def build_schema() -> Schema:
    """The schema for the current :data:`SCHEMA_VERSION`."""
    en = text_analyzer("en")
    pt = text_analyzer("pt")
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        path=ID(stored=True),
        type=ID(stored=True),
        status=ID(stored=True),
        title=TEXT(analyzer=en, phrase=False, stored=True),
        aliases=TEXT(analyzer=en, phrase=False),
        tags=TEXT(analyzer=en, phrase=False),
        headings=TEXT(analyzer=en, phrase=False),
        symbols=TEXT(analyzer=en, phrase=False),
        path_text=TEXT(analyzer=en, phrase=False),
        body=TEXT(analyzer=en, phrase=False),
        docs=TEXT(analyzer=en, phrase=False),
        body_pt=TEXT(analyzer=pt, phrase=False),
        meta=STORED(),
    )
