"""The Whoosh schema: one document per note (and, with the code map, per code file).

Text fields keep no positions (``phrase=False``): rubi never runs phrase queries,
and positions roughly double the index.
"""

from __future__ import annotations

from whoosh.fields import ID, STORED, TEXT, Schema

from rubi.index.analysis import text_analyzer
from rubi.index.version import SCHEMA_VERSION

__all__ = [
    "FIELD_ANALYSIS",
    "FIELD_BOOSTS",
    "SCHEMA_VERSION",
    "TEXT_FIELDS",
    "build_schema",
    "field_kind",
    "field_language",
]


FIELD_BOOSTS: dict[str, float] = {
    # notes
    "title": 4.0,  # a query word in the title is the strongest single signal
    "aliases": 3.0,  # aliases are titles people chose on purpose
    "tags": 2.0,
    "headings": 2.0,  # section names summarise what a note covers
    "path_text": 1.5,  # folder and file names carry topic words
    "body": 1.0,
    "body_pt": 1.0,
    # code files
    "code_title": 4.0,  # the file name
    "symbols": 3.0,  # a named function or class is nearly as good as a title
    "code_path": 1.5,
    "docs": 2.0,  # comments and docstrings of code: the prose that answers questions
    "code_body": 1.0,
}
"""BM25F field weights (Robertson & Zaragoza 2009, section 3.5): multipliers on each
field's BM25 term score, applied as query boosts. Code files have fields of their own,
so their lengths and term statistics never mix with notes' and their words are stemmed
as code (:data:`FIELD_ANALYSIS`)."""

FIELD_ANALYSIS: dict[str, str] = {
    "body_pt": "pt",
    "code_title": "code",
    "symbols": "code",
    "code_path": "code",
    "docs": "code",
    "code_body": "code",
}
"""The analysis chain of each text field (:func:`rubi.index.analysis.text_analyzer`);
fields not named here are English prose (``en``)."""

TEXT_FIELDS: tuple[str, ...] = tuple(FIELD_BOOSTS)


def field_language(field_name: str) -> str:
    """The analysis chain of a text field: ``en``, ``pt`` or ``code``."""
    return FIELD_ANALYSIS.get(field_name, "en")


def field_kind(field_name: str) -> str:
    """The kind of document that has a text field: ``file`` (code) or ``note``."""
    return "file" if field_language(field_name) == "code" else "note"


def build_schema() -> Schema:
    """The schema for the current :data:`SCHEMA_VERSION`."""
    text = {
        name: TEXT(
            analyzer=text_analyzer(field_language(name)),
            phrase=False,
            stored=name == "title",
        )
        for name in TEXT_FIELDS
    }
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        path=ID(stored=True),
        type=ID(stored=True),
        status=ID(stored=True),
        meta=STORED(),
        **text,
    )
