"""Open, update and query a vault's Whoosh index (``VaultPaths.whoosh_dir``).

Scoring is BM25F proper (Robertson, Zaragoza & Taylor 2004; Zaragoza et al. 2004),
in rubi's own term-at-a-time scorer (:mod:`rubi.index.termscore`): for each query
word, its frequencies in every field, weighted by :data:`rubi.index.schema.FIELD_BOOSTS`
and length-normalised, are added before one saturation, with one IDF per word (the
documents holding it in any field)."""

from __future__ import annotations

import _thread  # threading's RLock (the C one), without its import
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from rubi.core.errors import IndexCorruptError, index_reads, index_unreadable
from rubi.core.lazylog import get_logger
from rubi.core.segmentreads import reads_without_whoosh
from rubi.index.analysis import chain_language
from rubi.index.bm25params import BM25_B, BM25_FIELD_B, BM25_K1
from rubi.index.openretry import generation_replaced, try_again
from rubi.index.queryanalysis import QueryAnalysis
from rubi.index.querymatch import (
    BM25Hit,
    cjk_share,
    floor_measure,
    query_clauses,
    significance,
    word_groups,
)
from rubi.index.schema import (
    DOC_KINDS,
    DOCUMENT_LANGUAGE_FIELDS,
    build_schema,
)
from rubi.index.termscore import SegmentData, TermScorer

PROSE_FIELDS = tuple(sorted(DOCUMENT_LANGUAGE_FIELDS))
INDEX_FILES = (".toc", ".seg")
"""Whoosh's files a reader opens: each a regular file of this user's, or refused."""
"""The fields whose lengths make a document's length for the relevance floor
(:meth:`TermScorer.length_shares`): its prose, analysed in its language."""

# Whoosh (its reading and writing sides) loads in the methods that read or write with it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from rubi.index.indexdoc import IndexDoc
    from rubi.index.writing import Counter

    _T = TypeVar("_T")

__all__ = [
    "BM25_B",
    "BM25_FIELD_B",
    "BM25_K1",
    "BM25Hit",
    "SearchIndex",
    "query_clauses",
    "significance",
]

log = get_logger(__name__)


class SearchIndex:
    """The Whoosh index of one vault.

    A search reads the index with its statistics in memory (:class:`TermScorer`).
    With ``keep_open`` they stay until :meth:`close`, and the index is opened afresh
    when a commit or a rebuild replaced it, keeping its unchanged segments' data
    (:class:`~rubi.index.termscore.SegmentData`): a long-lived process keeps one such
    instance per vault (:mod:`rubi.index.warm`). Thread-safe for searches.

    Args:
        directory: the folder holding the Whoosh files (created on demand).
        keep_open: keep the reader open between searches (else each search closes it).
    """

    def __init__(self, directory: Path, *, keep_open: bool = False) -> None:
        self.directory = directory
        self.keep_open = keep_open
        self._ix: Any = None
        self._lock = _thread.RLock()
        self._reader: Any = None
        self._scorer: TermScorer | None = None
        self._segments = SegmentData(self.directory)  # kept across reopens: segments do not change
        self._opened: tuple[int, int, int] | None = None
        self._langs: tuple[TermScorer, list[str]] | None = None  # of the scorer named
        self._cold = False  # the reader is rubi.index.segmentfiles' (no Whoosh)
        self._whoosh = False  # read through Whoosh: the cold read failed once

    # -- lifecycle ---------------------------------------------------------------
    def exists(self) -> bool:
        """True when an index is present in the directory."""
        from whoosh import index as windex

        return self.directory.is_dir() and bool(windex.exists_in(str(self.directory)))

    def rebuild(self, docs: Iterable[IndexDoc], *, progress: Counter | None = None) -> int:
        """Build a new index from ``docs`` beside the current one, then swap it in.

        The current index stays intact and searchable until the new one is committed,
        so an interrupted rebuild (Ctrl-C, a crash) leaves the old index as it was. A
        large list of documents is written in two processes
        (:mod:`rubi.index.twoprocess`); ``progress(done, total)`` is called as a list's
        documents are written.

        Returns:
            The number of documents written.
        """
        import shutil
        import tempfile

        from whoosh import index as windex

        from rubi.core.atomic import host_tag  # a rebuild's: not a reader's import
        from rubi.index import twoprocess
        from rubi.index.deletions import merge_policy
        from rubi.index.writing import add_docs, new_writer

        self.close()
        parent = self.directory.parent
        parent.mkdir(parents=True, exist_ok=True)
        owner = f"{os.getpid()}-{host_tag()}-"
        building = Path(
            tempfile.mkdtemp(prefix=f"{self.directory.name}.building-{owner}", dir=parent)
        )
        try:
            fresh = SearchIndex(building)
            fresh._ix = windex.create_in(str(building), build_schema())
            if isinstance(docs, Sequence) and twoprocess.wanted(docs):
                written = twoprocess.write_in_two(
                    fresh._ix,
                    docs,
                    lambda lock: new_writer(fresh._ix, lock=lock),
                    lambda writer, part, whole: add_docs(
                        writer, part, bulk=True, progress=progress if whole else None, whole=whole
                    ),
                    merge_policy,
                )
            else:
                written = fresh.apply(docs, (), bulk=True, progress=progress)
            fresh.close()
            import secrets  # hmac and OpenSSL's hashlib: only for this rare rename

            old = parent / f"{self.directory.name}.old-{owner}{secrets.token_hex(4)}"
            if self.directory.exists():
                os.replace(self.directory, old)
            os.replace(building, self.directory)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(building, ignore_errors=True)
        return written

    def sweep(self) -> list[Path]:
        """Remove what killed runs left beside the index (never raises): the paths."""
        from rubi.index.debris import sweep_debris

        return sweep_debris(self.directory)

    def _open(self) -> Any:
        if self._ix is None:
            if not self.exists():
                raise IndexCorruptError(f"{self.directory}: no index; run `rubi index --full`")
            # Whoosh's table of contents is a pickle: only the user's own cache is opened.
            from rubi.core.picklefiles import check_trusted_files
            from rubi.index.mappedstorage import storage_for

            attempt, started = 0, time.monotonic()
            while True:
                check_trusted_files(self.directory, INDEX_FILES)
                try:
                    storage = storage_for(self.directory)
                    self._ix = storage.open_index()
                    break
                except FileNotFoundError as exc:
                    if try_again(attempt, started):
                        attempt += 1
                        continue  # a commit replaced the generation being opened
                    raise index_unreadable(self.directory, exc) from exc
                except Exception as exc:  # whoosh raises many kinds on a damaged index
                    raise index_unreadable(self.directory, exc) from exc
        return self._ix

    def close(self) -> None:
        """Release the index (file handles are reopened on the next use)."""
        with self._lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = self._scorer = self._opened = None
                self._cold = False
            if self._ix is not None:
                self._ix.close()
                self._ix = None
            self._segments.close()  # the segment files read by pread (kept data stays)

    def _scoring(self) -> TermScorer:
        """The scorer of the index as it is now: the one kept open, unless a commit
        or a rebuild came since it was opened, or it is a call's one-shot reader
        (:func:`~rubi.core.segmentreads.reading_once`) and this search is no such call."""
        if self._cold and not reads_without_whoosh():  # read through Whoosh from now on
            self.close()
        if self._scorer is not None and self._opened is not None:
            try:
                st = os.stat(self.directory)
                source = self._reader if self._cold else self._ix
                now = (st.st_dev, st.st_ino, int(source.latest_generation()))
            except (OSError, ValueError):
                now = None
            if now == self._opened:
                return self._scorer
            self.close()
            from rubi.core.collector import new_generation  # a commit or rebuild came

            new_generation()  # the old reader's cycles freed by the next full collection
        cold = self._cold_reader()
        if cold is not None:
            folder, reader = cold
            latest = reader.generation()
        attempt, started = 0, time.monotonic()
        while cold is None:
            ix = self._open()  # raises when there is no index
            folder = os.stat(self.directory)
            latest = int(ix.latest_generation())  # before the reader: a commit between reopens
            try:
                reader = ix.reader()
                break
            except FileNotFoundError as exc:  # a commit merged away a segment of that generation
                replaced = generation_replaced(self.directory, self._open, folder, latest)
                self.close()
                if not replaced:  # no commit came: a segment file gone for good
                    raise index_unreadable(self.directory, exc) from exc
                if not try_again(attempt, started):
                    raise
                attempt += 1
        self._reader, self._cold = reader, cold is not None
        self._scorer = TermScorer(
            reader, B=BM25_B, K1=BM25_K1, field_B=BM25_FIELD_B, segments=self._segments
        )
        # An index of no documents (an empty vault) gives a reader without a generation.
        generation = reader.generation()
        self._opened = (
            folder.st_dev,
            folder.st_ino,
            latest if generation is None else int(generation),
        )
        return self._scorer

    def _cold_reader(self) -> tuple[os.stat_result, Any] | None:
        """The folder and the index read without Whoosh (:mod:`~.segmentfiles`) for a
        search once (:func:`~rubi.core.segmentreads.reads_without_whoosh`), or None."""
        from rubi.core.picklefiles import check_trusted_files
        from rubi.index.segmentfiles import open_segments

        if self._ix is not None or self._whoosh or not reads_without_whoosh():
            return None
        try:
            folder = os.stat(self.directory)  # before the reader: a rebuild meanwhile
            check_trusted_files(self.directory, INDEX_FILES)
            return folder, open_segments(self.directory)
        except Exception:  # a format it does not know, a commit meanwhile, no index
            self._whoosh = True
            return None

    def _read(self, work: Callable[[TermScorer], _T]) -> _T:
        """``work(scorer)`` under the lock, done again through Whoosh when the index
        read without it fails (a format :mod:`rubi.index.segmentfiles` does not know);
        a damaged segment Whoosh cannot read either: :class:`IndexCorruptError`."""
        with self._lock, index_reads(self.directory):
            try:
                try:
                    return work(self._scoring())
                except Exception:
                    if not self._cold:
                        raise
                    log.debug("%s: read through Whoosh", self.directory, exc_info=True)
                    self._whoosh = True
                    self.close()
                    return work(self._scoring())
            finally:
                if not self.keep_open:
                    self.close()

    # -- writing -----------------------------------------------------------------
    def apply(
        self,
        upserts: Iterable[IndexDoc],
        deletes: Iterable[str],
        *,
        bulk: bool = False,
        progress: Counter | None = None,
    ) -> int:
        """Add or replace documents and delete others, in one commit.

        Args:
            upserts: documents to write (replacing any with the same id).
            deletes: ids to remove.
            bulk: the index was just created (skip the per-document delete).
            progress: called as ``progress(done, total)`` every
                :data:`PROGRESS_EVERY` documents and at the end, when ``upserts`` is a
                list.

        Returns:
            The number of documents written.
        """
        from rubi.index.deletions import merge_policy
        from rubi.index.writing import add_docs, new_writer

        ix = self._open()
        writer = new_writer(ix)
        try:
            for doc_id in deletes:
                writer.delete_by_term("id", doc_id)
            written = add_docs(writer, upserts, bulk=bulk, progress=progress)
        except BaseException:
            writer.cancel()
            raise
        writer.commit(mergetype=merge_policy)
        return written

    def deleted_share(self) -> float:
        """The share of the index's documents that are deleted but still counted in
        its statistics (0.0 right after a merge), between 0 and 1."""
        ix = self._open()
        total = int(ix.doc_count_all())
        return (total - int(ix.doc_count())) / total if total else 0.0

    def compaction_advice(self) -> str | None:
        """One line for the user when deleted copies have piled up in an index too big
        to merge during an update (:data:`~rubi.index.deletions.MERGE_MAX_TOKENS`),
        else None. Rankings stay exact; every search pays for the deleted copies."""
        from rubi.index import deletions

        share = self.deleted_share()
        if share <= deletions.MERGE_DELETED_SHARE:
            return None
        with self._open().reader() as reader:
            tokens = sum(reader.field_length(name) for name in reader.schema.scorable_names())
        if tokens <= deletions.MERGE_MAX_TOKENS:
            return None  # the next update merges it
        return (
            f"{share:.0%} of the search index is old copies of edited files, which slow "
            "every search; run `rubi index --full` to compact it (about as long as the "
            "first index)"
        )

    def doc_count(self) -> int:
        """Documents in the index (:class:`IndexCorruptError` when a segment is damaged)."""
        with index_reads(self.directory):
            return int(self._open().doc_count())

    def languages(self) -> list[str]:
        """The analysis chains of the index's prose, sorted: each document language's
        (:func:`rubi.index.analysis.chain_language`), ``en`` when there is none."""
        return self._read(self._languages)

    def _languages(self, scorer: TermScorer) -> list[str]:
        if self._langs is not None and self._langs[0] is scorer:
            return self._langs[1]
        try:
            found = {chain_language(t.decode("utf-8")) for t in scorer.reader.lexicon("lang")}
        except Exception:  # whoosh raises many kinds for a field it lacks
            if self._cold:
                raise  # read it through Whoosh (_read)
            found = set()
        langs = sorted(found) or ["en"]
        self._langs = (scorer, langs)
        return langs

    # -- reading -----------------------------------------------------------------
    def term_idf(self, terms: Iterable[str], fields: Sequence[str] = ("body",)) -> dict[str, float]:
        """Each analysed term's IDF, ``log(N / (df + 1)) + 1``, where ``df`` is the most
        live documents holding it in one of ``fields`` (the passage chooser weighs a
        query's words with it, :mod:`rubi.search.passages`)."""
        words = dict.fromkeys(terms)
        return self._read(
            lambda sc: {t: sc.idf(max(sc.doc_frequency(f, t) for f in fields)) for t in words}
        )

    def term_df(self, terms: Iterable[str], field: str = "body") -> tuple[int, dict[str, int]]:
        """Live documents, and how many of them hold each analysed term in ``field``
        (a long query keeps its rarest words by these, :mod:`rubi.search.longquery`)."""
        words = dict.fromkeys(terms)
        return self._read(lambda sc: (sc.doc_count, {t: sc.doc_frequency(field, t) for t in words}))

    def bm25(
        self,
        text: str,
        *,
        extra_terms: Iterable[str] = (),
        limit: int = 50,
        kind: str | None = None,
        exclude_status: Iterable[str] = (),
        fields: Iterable[str] | None = None,
        analysis: QueryAnalysis | None = None,
        k1: float | None = None,
        field_b: Mapping[str, float] | None = None,
    ) -> list[BM25Hit]:
        """Rank documents for ``text`` by BM25F over every text field (saturation
        ``k1``, else :data:`BM25_K1`; ``field_b``: a field's ``b`` for this query).

        Args:
            text: the query in words; analysed like the documents.
            extra_terms: more words or identifiers (the agent's query expansion).
                With ``kind="file"`` terms are also expanded with programming
                abbreviations (:func:`rubi.index.abbreviations.expansions`).
            limit: hits at most.
            kind: only documents of this kind (``note`` or ``file``), or all.
            exclude_status: statuses to leave out (``superseded``).
            fields: search only these fields (default: every text field but
                :data:`~rubi.index.schema.CODE_SCOPE_FIELDS`); fewer fields is faster
                (the per-prompt recall searches notes' own fields only).
            analysis: the query's analysis, made already by the caller (a new one
                otherwise).

        Returns:
            Hits by descending score; empty when no term survives analysis.
        """
        extra_terms, exclude_status = tuple(extra_terms), tuple(exclude_status)

        def read(scorer: TermScorer) -> tuple[Any, ...] | None:
            langs = self._languages(scorer)
            clauses = query_clauses(
                text,
                extra_terms=extra_terms,
                kind=kind,
                fields=fields,
                languages=langs,
                analysis=analysis,
            )
            if not clauses:
                return None
            allow = scorer.docs_with("kind", kind, DOC_KINDS) if kind else None
            mask = frozenset().union(*(scorer.docs_with("status", s) for s in exclude_status))
            dfs, scored, parts = scorer.word_dfs(clauses), clauses, None  # top reads them too
            if kind != "file" and 0 in dfs.values():
                # a word no document holds: a compound's parts searched, else a truncation
                from rubi.index.compounds import searched_parts

                stats = (scorer.doc_frequency, scorer.docs, scorer.idf, scorer.reader)
                scored, parts = searched_parts(text, clauses, dfs, langs, fields, *stats)
            top = scorer.top(scored, limit, allow=allow, mask=mask, k1=k1, field_b=field_b)
            found = [(doc, scorer.stored(doc.docnum)) for doc in top]
            lengths = scorer.length_shares([doc.docnum for doc in top], PROSE_FIELDS)
            dfs, parts = (dfs, parts) if top else ({}, None)
            idfs = {w: scorer.idf(df) for w, df in dfs.items()}
            return langs, scored, found, lengths, dfs, idfs, scorer.doc_count, parts

        answer = self._read(read)
        if answer is None:
            return []
        langs, clauses, found, lengths, dfs, idfs, docs, parts = answer
        # Equal scores in id order, not in the order documents were added, so an index
        # updated note by note ranks like a fresh build.
        found.sort(key=lambda f: (-f[0].score, f[1]["id"]))
        cjk = cjk_share(clauses, idfs)
        groups = word_groups(clauses, text, extra_terms, kind, fields, idfs, langs, analysis)
        # a truncation's terms count in the significance, not in the coverage
        plain = parts.measure(dfs, idfs, groups, False) if parts and parts.loose else None
        if parts is not None:
            dfs, idfs, groups = parts.measure(dfs, idfs, groups)
        measure = floor_measure(text, clauses, dfs, idfs, groups, docs)
        shares = measure
        if plain:
            shares = floor_measure(text, clauses, plain[0], plain[1], plain[2], docs)
        if measure.words_read:
            cjk = 0.0  # Japanese, Chinese: measured by their words, coverage too
        most = measure.significance({w for w, df in dfs.items() if df > 0})
        hits: list[BM25Hit] = []
        for doc, stored in found:
            matched: dict[str, set[str]] = {}
            held: set[int] = set()
            for i in doc.matched:
                matched.setdefault(clauses[i].field, set()).add(clauses[i].text)
                if clauses[i].origin >= 0:
                    held.add(clauses[i].origin)
            if parts is not None:
                held |= parts.held(doc.docnum)
            hits.append(
                BM25Hit(
                    id=stored["id"],
                    score=doc.score,
                    matched={f: tuple(sorted(ts)) for f, ts in matched.items()},
                    kind=stored.get("kind", "note"),
                    path=stored.get("path", ""),
                    title=stored.get("title", ""),
                    type=stored.get("type", "note"),
                    status=stored.get("status", "active"),
                    coverage=shares.coverage(held),
                    cjk=cjk,
                    significance=measure.significance(held, lengths[doc.docnum]),
                    words=len(measure.held(held)),
                    most=most,
                )
            )
        return hits
