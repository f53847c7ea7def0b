"""How rubi writes to a Whoosh index: one writer set-up and one way to add documents,
for an update, a rebuild and each part of a two-process build
(:mod:`rubi.index.twoprocess`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from whoosh.writing import SegmentWriter

from rubi.index.analysis import chain_language
from rubi.index.deletions import total_stored_lengths
from rubi.index.flushlengths import cache_flush_lengths
from rubi.index.pool import RunPool
from rubi.index.schema import DOCUMENT_LANGUAGE_FIELDS
from rubi.index.textfield import LanguageText
from rubi.index.whooshinternals import temp_storage

__all__ = ["PROGRESS_EVERY", "WRITER_LIMIT_MB", "Counter", "Doc", "add_docs", "new_writer"]


class Doc(Protocol):
    """What a writer reads of a document (:class:`rubi.index.indexdoc.IndexDoc`)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def fields(self) -> Mapping[str, str]: ...
    @property
    def meta(self) -> Mapping[str, Any]: ...
    @property
    def lang(self) -> str: ...


PROGRESS_EVERY = 50
"""Documents written between two progress reports."""
Counter = Callable[[int, int], None]
"""A progress callback, ``progress(done, total)``."""

WRITER_LIMIT_MB = 32
"""Postings (in Whoosh's estimate of their size in memory, MB) the writer's pool holds
before it sorts them into a temporary run on disk; the runs are merged at commit. A
full build holds a pool this big at most, whatever the vault's size: at 20,000 notes,
64 against 128 held 80 MiB less for the same CPU; with the pool's cheap spills
(:mod:`rubi.index.pool`), 32 against 64 held 27 MiB less at 5,000 notes and 14 MiB
less at 50,000 (387 → 374 MiB peak), CPU the same (``docs/benchmarks-history.md``,
"issue 16: memory, third pass")."""


def new_writer(ix: Any, *, lock: bool = True) -> SegmentWriter:
    """A Whoosh writer as rubi writes: :class:`RunPool`, lengths read once per field at
    flush, field-length totals of the live documents (``lock=False``: under a parent
    writer's lock, for :mod:`rubi.index.twoprocess`)."""
    writer: SegmentWriter = (
        ix.writer(limitmb=WRITER_LIMIT_MB)
        if lock
        else SegmentWriter(ix, _lk=False, limitmb=WRITER_LIMIT_MB)
    )
    writer.pool = RunPool(temp_storage(writer), writer.newsegment, limitmb=WRITER_LIMIT_MB)
    cache_flush_lengths(writer)
    total_stored_lengths(writer)
    return writer


def add_docs(
    writer: SegmentWriter,
    docs: Iterable[Doc],
    *,
    bulk: bool,
    progress: Counter | None = None,
    whole: int | None = None,
) -> int:
    """Add (``bulk``: to a new index) or replace ``docs``; returns how many.

    ``progress`` is called every :data:`PROGRESS_EVERY` documents of a list. A part
    of a two-process build (:mod:`rubi.index.twoprocess`) passes the ``whole``
    build's size and reports its own share scaled to it, since both parts hold about
    the same text."""
    put = writer.add_document if bulk else writer.update_document
    if isinstance(docs, Sequence) and not isinstance(docs, list):
        # Documents made on read (rubi.sync.codedocs) are all made first: making them
        # between the writer's documents cost a fifth more CPU on spring-framework
        # (the collector walking the writer's pooled postings), and a generator (a
        # streamed build) stays a generator.
        docs = list(docs)
    written = 0
    report = None
    if progress is not None and isinstance(docs, Sequence) and docs:
        report = progress, len(docs), whole or len(docs)
    for doc in docs:
        values: dict[str, Any] = {k: v for k, v in doc.fields.items() if v}
        chain = chain_language(doc.lang)
        if chain != "en":  # prose fields in the document's own language
            for name, text in list(values.items()):
                if name in DOCUMENT_LANGUAGE_FIELDS:
                    values[name] = LanguageText(text, chain)
            if "title" in values:  # stored as the plain text it is
                values["_stored_title"] = str(values["title"])
        put(
            id=doc.id,
            kind=doc.kind,
            path=doc.path,
            type=doc.type,
            status=doc.status,
            lang=doc.lang,
            meta=dict(doc.meta),
            **values,
        )
        written += 1
        if report is not None and (written % PROGRESS_EVERY == 0 or written == report[1]):
            call, mine, whole = report
            call(min(whole, round(written * whole / mine)), whole)
    return written
