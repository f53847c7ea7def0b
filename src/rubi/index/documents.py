"""Turn a parsed note into the document the Whoosh index stores."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from rubi.core.model import Note
from rubi.dates.days import day_keys, parse_day, spelled_days, text_days
from rubi.dates.relativedays import resolved_days
from rubi.index.indexdoc import IndexDoc
from rubi.index.language import detect_language
from rubi.index.schema import CODE_FIELDS
from rubi.markdown.comments import shown_body

__all__ = ["CODE_FIELDS", "code_document", "code_title", "note_document"]

_SKIP_META = frozenset({"title", "aliases", "alias", "tags", "tag", "type", "status", "id"})
_PATH_SPLIT = re.compile(r"[/\\._-]+")


def _meta_text(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _meta_text(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _meta_text(v)]
    return []


def note_document(note: Note) -> IndexDoc:
    """The index document for ``note``.

    The body field holds the markdown body plus the text of frontmatter properties
    that are not indexed elsewhere (``author: ...``, ``genre: [...]``) and every
    ``YYYY-MM-DD`` date of the title and body in words
    (:func:`rubi.dates.days.spelled_days`); ``days`` holds what the body's relative
    times ("yesterday", "last month") name and every day as one word ``YYYYMMDD``
    (:func:`_days`; a search adds the word of each day its query names). The
    document's ``lang`` is the language detected in the note's title and body
    (:func:`rubi.index.language.detect_language`): its prose is stemmed and its stop
    words dropped in that language. Only the indexed text: the note's file is never
    changed. Its comments (``%% ... %%``, ``<!-- ... -->``) are not indexed
    (:func:`rubi.markdown.comments.shown_body`): a reader never sees them.
    """
    shown = shown_body(note.body)
    extra = [s for k, v in note.metadata.items() if k not in _SKIP_META for s in _meta_text(v)]
    body = shown if not extra else shown + "\n" + "\n".join(extra)
    iso_days = text_days(note.title + "\n" + body)  # one scan for both fields
    days = spelled_days("", iso_days)
    if days:  # "October 13, 2023" finds a record that wrote 2023-10-13
        body += "\n" + days
    fields = {
        "title": note.title,
        "aliases": "\n".join(note.aliases),
        "tags": " ".join(t.replace("/", " ") for t in note.tags),
        "headings": "\n".join(h.text for h in note.headings),
        "path_text": _PATH_SPLIT.sub(" ", note.id),
        "body": body,
        "days": _days(note, shown, body, iso_days),
    }
    return IndexDoc(
        id=note.id,
        kind="note",
        path=note.path,
        type=note.type,
        status=note.status,
        fields=fields,
        lang=detect_language(note.title + "\n" + shown),
    )


def _days(note: Note, shown: str, body: str, iso_days: list[dt.date]) -> str:
    """The ``days`` field: what the body's relative times name
    (:func:`rubi.dates.relativedays.resolved_days`), resolved against the note's
    ``created`` day, else its ``updated`` day (a captured session's ``created`` is its
    first turn's), then every day of the title, ``body`` (as indexed) and those as one
    word ``YYYYMMDD`` (:func:`rubi.dates.days.day_keys`). A field of its own: the dense
    channel embeds the body, and these words are for matching, not meaning.

    ``iso_days`` are the ISO dates of the title and the body before its dates in
    words were added: those of the whole text too, as neither the dates in words nor
    ``resolved`` hold a ``-`` (``tests/index/test_note_days.py``)."""
    day = parse_day(note.metadata.get("created")) or parse_day(note.metadata.get("updated"))
    resolved = resolved_days(shown, dt.date.fromisoformat(day)) if day else ""
    keys = day_keys(f"{note.title}\n{body}\n{resolved}", iso_days)
    return f"{resolved}\n{' '.join(keys)}".strip()


_NAMED_BY_FOLDER = frozenset(
    {"build.gradle.kts", "build.gradle", "settings.gradle.kts", "settings.gradle"}
)
"""File names that say what kind of file it is but not which: every Gradle project or
module has its ``build.gradle.kts`` (and a build its ``settings.gradle.kts``); which
one is said by the folder it configures."""


def code_title(path: str) -> str:
    """A code file's title field: its name, and for a file named only by its kind
    (:data:`_NAMED_BY_FOLDER`) its folder's name before it
    (``multiplatform-settings-datastore/build.gradle.kts`` →
    ``multiplatform-settings-datastore build.gradle.kts``), so the module a question
    names ("the DataStore integration module's build") matches the title as a source
    file named for its class does. Measured in ``docs/benchmarks-history.md``,
    "issue 28: Kotlin, twentieth pass"."""
    folder, _, name = path.rpartition("/")
    if name in _NAMED_BY_FOLDER and folder:
        return f"{folder.rpartition('/')[2]} {name}"
    return name


def code_document(path: str, language: str, symbols: str, text: str, docs: str = "") -> IndexDoc:
    """The index document for a code file.

    Args:
        path: repository-relative POSIX path (the document id).
        language: the file's language (stored as its ``type``).
        symbols: its top-level definitions as one string of names.
        text: a bounded slice of its text.
        docs: its comments and docstrings.
    """
    name = path.rsplit("/", 1)[-1]
    return IndexDoc(
        id=path,
        kind="file",
        path=path,
        type=language,
        status="active",
        fields={
            "title": name,
            "code_title": code_title(path),
            "symbols": symbols,
            "path_text": _PATH_SPLIT.sub(" ", path),
            "code_path": _PATH_SPLIT.sub(" ", path),
            "docs": docs,
            "body": text,
        },
    )
