"""The Whoosh schema: one document per note (and, with the code map, per code file).

Text fields keep no positions (``phrase=False``): rubi never runs phrase queries,
and positions roughly double the index.
"""

from __future__ import annotations

from rubi.core.indexformat import SCHEMA_VERSION

# Whoosh's fields (and its columns and formats) load with the first schema built: a
# search that reads the index without Whoosh (rubi.index.segmentfiles) needs none.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from whoosh.fields import Schema

__all__ = [
    "CODE_FIELDS",
    "CODE_SCOPE_FIELDS",
    "DOCUMENT_LANGUAGE_FIELDS",
    "DOC_KINDS",
    "FIELD_ANALYSIS",
    "FIELD_BOOSTS",
    "SCHEMA_VERSION",
    "SOLO_FIELDS",
    "TEXT_FIELDS",
    "build_schema",
    "field_language",
]

CODE_FIELDS = ("code_title", "symbols", "code_path", "docs", "body")
"""The text fields a code-only search queries: a code file's name and path as code,
its symbols, comments and text (here, not with the documents' builder in
:mod:`rubi.index.documents`, so a search does not import what indexing needs)."""


FIELD_BOOSTS: dict[str, float] = {
    "title": 1.0,  # prose fields weigh 1 each: higher title weights did no better
    "aliases": 1.0,
    "tags": 1.0,
    "headings": 1.0,
    "symbols": 3.0,  # a named function or class is nearly as good as a title
    "path_text": 1.0,
    "docs": 2.0,  # comments and docstrings of code: the prose that answers questions
    "body": 1.0,
    "days": 1.0,  # a note's days as words (relative times resolved, YYYYMMDD keys)
    "code_title": 4.0,  # a code file's name again, stemmed as code: code-only searches
    "code_path": 1.5,  # its path again, stemmed as code: code-only searches
}
"""BM25F field weights ``w_f`` (Robertson, Zaragoza & Taylor 2004): a query word's
frequency in a field, length-normalised by the field's average length, counts
``w_f`` times in the word's ``tf~`` before its one saturation
(:mod:`rubi.index.termscore`). The prose fields weigh 1 each: on the development
halves of five unseen sets (two knowledge bases, three languages) titles ×4, aliases
×3, tags and headings ×2 and paths ×1.5 did no better (MRR within 0.003 of equal
weights on each), ×8 titles no better either, and equal weights were best on the
tuned-on notes-qa (0.760 against 0.744); a field still counts by its own length, so a
word in a three-word title weighs more than one in a long body. Code's own fields
(:data:`SOLO_FIELDS`) weigh each term on its own, ``w_f`` times its field's BM25
score, as before BM25F proper. Notes and code files share title, path and body
(one vocabulary and one set of statistics, so a search of both kinds favours neither
by how many of it there are); aliases, tags and headings are notes' own, symbols and
comments code files' own. A code file's name and path are indexed a second time,
stemmed as code, for searches of code alone (:data:`CODE_SCOPE_FIELDS`). A note's
``days`` are words made for matching days (``20230507``; see
:func:`rubi.index.documents.note_document`), kept out of the body the dense channel
embeds. Figures: ``docs/benchmarks-history.md``, "issue 28: BM25F proper". Code's own
weights were checked again on seven unseen code sets' development halves: a grid
chosen on four of them picked these weights, and its nearest alternative (name ×2, path
×0.75, comments ×1) fell on two of the other three and on the public benchmark; a
lighter file name helped one set (Java and Kotlin, a class per file) and cost every
other ("issue 28: code's own field weights on the development halves, twenty-first
pass")."""

FIELD_ANALYSIS: dict[str, str] = {
    "symbols": "code",
    "docs": "code",
    "code_title": "code",
    "code_path": "code",
}
"""The analysis chain of each text field (:func:`rubi.index.analysis.text_analyzer`):
code files' own fields are stemmed as code; fields not named here are English, and
those of :data:`DOCUMENT_LANGUAGE_FIELDS` are analysed in each document's language
instead."""

DOCUMENT_LANGUAGE_FIELDS = frozenset({"title", "aliases", "tags", "headings", "path_text", "body"})
"""Prose fields analysed in each document's language (its ``lang``: a note's as
detected, :func:`rubi.index.language.detect_language`; a code file's ``en``), which
brings its chain with the text (:class:`rubi.index.textfield.LanguageText`); the
schema's analyzer there is English. ``days`` is rubi's own English."""

SOLO_FIELDS = frozenset({"symbols", "docs", "code_title", "code_path"})
"""Code's own fields, where each query term is scored as before BM25F proper: a BM25
of its own in the field (the field's IDF and saturation) times the field's weight,
added to the word's BM25F score over the prose fields. What a file defines or is
named is evidence of another kind than how often its code mentions a word (an
identifier's words recur in every caller's body, so a word rare among definitions is
common in bodies): folded into one saturation with the body, code search fell from
0.915 to 0.854 NDCG@10 and issue -> files dev MRR from 0.551 to 0.485 (title alone
0.711 -> 0.646); scored alone it is 0.915 and 0.525 (0.711). ``docs/benchmarks-history.md``,
"issue 28: BM25F proper"."""

CODE_SCOPE_FIELDS = ("code_title", "code_path")
"""Fields searched only when a search is of code alone: in a search of notes and code
they would count a file's name twice."""

TEXT_FIELDS: tuple[str, ...] = tuple(FIELD_BOOSTS)


DOC_KINDS = ("note", "file")
"""The values of the ``kind`` field: every document holds one, a note's or a code file's
(:mod:`rubi.index.documents`)."""


def field_language(field_name: str) -> str:
    """The analysis chain of a text field in the schema: ``en`` or ``code`` (in
    :data:`DOCUMENT_LANGUAGE_FIELDS`, a document's language may bring its own)."""
    return FIELD_ANALYSIS.get(field_name, "en")


def build_schema() -> Schema:
    """The schema for the current :data:`SCHEMA_VERSION`."""
    from whoosh.fields import ID, STORED, Schema

    from rubi.index.analysis import text_analyzer
    from rubi.index.textfield import TermText

    text = {
        name: TermText(text_analyzer(field_language(name)), stored=name == "title")
        for name in TEXT_FIELDS
    }
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        path=ID(stored=True),
        type=ID(stored=True),
        status=ID(stored=True),
        lang=ID(stored=True),
        meta=STORED(),
        **text,
    )
