"""Open, update and query a vault's Whoosh index (``VaultPaths.whoosh_dir``).

Scoring is BM25F (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25
and Beyond", 2009) as implemented by Whoosh, with per-field boosts from
:data:`rubi.index.schema.FIELD_BOOSTS`.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.filedb.filestore import FileStorage
from whoosh.qparser.common import QueryParserError
from whoosh.query import Or, Term
from whoosh.writing import SegmentWriter

from rubi.core.atomic import DEBRIS_AGE_S, host_tag, owner_gone, sweep_temp_files
from rubi.core.errors import IndexCorruptError
from rubi.index import deletions
from rubi.index.abbreviations import expansions
from rubi.index.analysis import analyze
from rubi.index.deletions import LiveBM25F, merge_policy, total_stored_lengths
from rubi.index.schema import CODE_SCOPE_FIELDS, FIELD_BOOSTS, build_schema, field_language

__all__ = [
    "BM25_B",
    "BM25_K1",
    "WRITER_LIMIT_MB",
    "BM25Hit",
    "IndexDoc",
    "SearchIndex",
]

log = logging.getLogger(__name__)

BM25_K1 = 1.2
"""Term-frequency saturation (the usual 1.2; Robertson & Zaragoza 2009)."""
BM25_B = 0.75
"""Length normalisation (the usual 0.75)."""
WRITER_LIMIT_MB = 256
"""Memory Whoosh may buffer before flushing a segment during a full build."""


@dataclass(frozen=True, slots=True)
class IndexDoc:
    """One document to index. ``fields`` maps schema field names to text."""

    id: str
    kind: str
    path: str
    type: str
    status: str
    fields: Mapping[str, str]
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BM25Hit:
    """A BM25F match: document id, score, and the query terms it matched per field."""

    id: str
    score: float
    matched: dict[str, tuple[str, ...]]
    kind: str
    path: str
    title: str
    type: str = "note"
    status: str = "active"


def _matched_terms(
    reader: Any, subqueries: list[Term], docnums: list[int]
) -> dict[int, dict[str, tuple[str, ...]]]:
    """Which query terms each of ``docnums`` holds, per field, read from the postings.

    Asking Whoosh's collector for matched terms (``terms=True``) records them for every
    matching document; skipping through each term's postings to the few hits kept is
    about 1.4 ms cheaper per query on a 200-file repository.
    """
    wanted = sorted(set(docnums))
    out: dict[int, dict[str, set[str]]] = {}
    for sub in subqueries:
        field_name, text = sub.fieldname, sub.text
        if not wanted or (field_name, text) not in reader:
            continue
        postings = reader.postings(field_name, text)
        for docnum in wanted:
            if not postings.is_active():
                break
            if postings.id() < docnum:
                postings.skip_to(docnum)
                if not postings.is_active():
                    break
            if postings.id() == docnum:
                out.setdefault(docnum, {}).setdefault(field_name, set()).add(text)
    return {d: {f: tuple(sorted(ts)) for f, ts in fs.items()} for d, fs in out.items()}


class SearchIndex:
    """The Whoosh index of one vault.

    Args:
        directory: the folder holding the Whoosh files (created on demand).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._ix: Any = None

    # -- lifecycle ---------------------------------------------------------------
    def exists(self) -> bool:
        """True when an index is present in the directory."""
        return self.directory.is_dir() and bool(windex.exists_in(str(self.directory)))

    def rebuild(self, docs: Iterable[IndexDoc]) -> int:
        """Build a new index from ``docs`` beside the current one, then swap it in.

        The current index stays intact and searchable until the new one is committed,
        so an interrupted rebuild (Ctrl-C, a crash) leaves the old index as it was.

        Returns:
            The number of documents written.
        """
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
            written = fresh.apply(docs, (), bulk=True)
            fresh.close()
            old = parent / f"{self.directory.name}.old-{owner}{secrets.token_hex(4)}"
            if self.directory.exists():
                os.replace(self.directory, old)
            os.replace(building, self.directory)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(building, ignore_errors=True)
        return written

    def sweep(self) -> list[Path]:
        """Remove what killed runs left beside the index: build folders
        (``<name>.building-<pid>-<host>-…``), swapped-out indexes (``<name>.old-…``)
        and temp files, once their owner is gone or they are older than
        :data:`~rubi.core.atomic.DEBRIS_AGE_S` (an older rubi's unnamed ones: by age only).

        Files inside the index that a killed writer left are Whoosh's to remove: its
        next commit deletes every segment file the table of contents does not list.

        Returns:
            The paths removed. Never raises.
        """
        parent = self.directory.parent
        removed = [*sweep_temp_files(parent, force=True)]
        pattern = re.compile(
            rf"^{re.escape(self.directory.name)}\.(?P<kind>building|old)-"
            r"(?:(?P<pid>\d+)-(?P<host>[0-9a-f]{6})-[0-9a-z_]+|(?P<legacy>[0-9a-z_]+))$"
        )
        try:
            entries = list(os.scandir(parent))
        except OSError:
            return removed
        now = time.time()
        for entry in entries:
            m = pattern.match(entry.name)
            if m is None or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                age = now - entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
            gone = m["pid"] is not None and owner_gone(int(m["pid"]), m["host"])
            if not gone and m["kind"] == "old" and (m["legacy"] or "").isdigit():
                # an older rubi's ``.old-<pid>``: assume this host
                gone = owner_gone(int(m["legacy"]), host_tag())
            if gone or age > DEBRIS_AGE_S:
                shutil.rmtree(entry.path, ignore_errors=True)
                if not os.path.exists(entry.path):
                    removed.append(Path(entry.path))
        return removed

    def _open(self) -> Any:
        if self._ix is None:
            if not self.exists():
                raise IndexCorruptError(f"{self.directory}: no index; run `rubi index --full`")
            # Whoosh's table of contents is a pickle: only the user's own cache is opened.
            from rubi.core.storage import check_trusted

            for toc in self.directory.glob("*.toc"):
                check_trusted(toc)
            try:
                # Without mmap: Whoosh's mmap path copies whole segments into memory
                # on open (67 MB for Obsidian Help); plain reads are 2.5x faster here.
                storage = FileStorage(str(self.directory), supports_mmap=False)
                self._ix = storage.open_index()
            except Exception as exc:  # whoosh raises many kinds on a damaged index
                raise IndexCorruptError(
                    f"{self.directory}: index unreadable ({exc}); run `rubi index --full`"
                ) from exc
        return self._ix

    def close(self) -> None:
        """Release the index (file handles are reopened on the next use)."""
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- writing -----------------------------------------------------------------
    def apply(
        self, upserts: Iterable[IndexDoc], deletes: Iterable[str], *, bulk: bool = False
    ) -> int:
        """Add or replace documents and delete others, in one commit.

        Args:
            upserts: documents to write (replacing any with the same id).
            deletes: ids to remove.
            bulk: the index was just created (skip the per-document delete).

        Returns:
            The number of documents written.
        """
        ix = self._open()
        writer: SegmentWriter = ix.writer(limitmb=WRITER_LIMIT_MB)
        total_stored_lengths(writer)
        written = 0
        try:
            for doc_id in deletes:
                writer.delete_by_term("id", doc_id)
            for doc in upserts:
                values = {k: v for k, v in doc.fields.items() if v}
                put = writer.add_document if bulk else writer.update_document
                put(
                    id=doc.id,
                    kind=doc.kind,
                    path=doc.path,
                    type=doc.type,
                    status=doc.status,
                    meta=dict(doc.meta),
                    **values,
                )
                written += 1
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
        """Documents in the index."""
        return int(self._open().doc_count())

    # -- reading -----------------------------------------------------------------
    def bm25(
        self,
        text: str,
        *,
        extra_terms: Iterable[str] = (),
        limit: int = 50,
        kind: str | None = None,
        exclude_status: Iterable[str] = (),
        fields: Iterable[str] | None = None,
    ) -> list[BM25Hit]:
        """Rank documents for ``text`` by BM25F over every text field.

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

        Returns:
            Hits by descending score; empty when no term survives analysis.
        """
        query_text = " ".join([text, *extra_terms])
        wanted = set(fields) if fields is not None else set(FIELD_BOOSTS) - set(CODE_SCOPE_FIELDS)
        langs = {field_language(f) for f in wanted}
        terms = {lang: list(dict.fromkeys(analyze(query_text, lang))) for lang in langs}
        if kind == "file":
            # A code-only search: programming abbreviations, in every field. In notes,
            # or in a search of both kinds, words stay as written: there "info" is the
            # info callout, and code would gain a second match per concept over notes.
            for lang in terms:
                terms[lang] += expansions(terms[lang])
        subqueries = []
        for field_name, boost in FIELD_BOOSTS.items():
            if field_name not in wanted:
                continue
            for term in terms[field_language(field_name)]:
                subqueries.append(Term(field_name, term, boost=boost))
        if not subqueries:
            return []
        query: Any = Or(subqueries)
        # Scores summed into an array per term, as Whoosh does by itself below 5,000
        # documents; above, its default (a binary tree of union matchers, built for
        # block-max pruning, which is off) costs 3x on a 4,000-character prompt over
        # 6,400 notes for the same hits and scores.
        query.matcher_type = Or.ARRAY_MATCHER
        # Filter and mask as document sets (Whoosh caches them), not as And/Not
        # queries scored per document: 40% faster on 6,000 notes.
        allow = Term("kind", kind) if kind else None
        statuses = [Term("status", s) for s in exclude_status]
        mask = (Or(statuses) if len(statuses) > 1 else statuses[0]) if statuses else None
        ix = self._open()
        try:
            with ix.searcher(weighting=LiveBM25F(B=BM25_B, K1=BM25_K1)) as searcher:
                results = searcher.search(
                    query, limit=limit, filter=allow, mask=mask, optimize=False
                )
                found = [(hit.docnum, float(hit.score), hit.fields()) for hit in results]
                # Equal scores in id order, not in the order documents were added, so
                # an index updated note by note ranks like a fresh build.
                found.sort(key=lambda f: (-f[1], f[2]["id"]))
                matched = _matched_terms(searcher.reader(), subqueries, [d for d, _, _ in found])
                hits: list[BM25Hit] = []
                for docnum, score, stored in found:
                    hits.append(
                        BM25Hit(
                            id=stored["id"],
                            score=score,
                            matched=matched.get(docnum, {}),
                            kind=stored.get("kind", "note"),
                            path=stored.get("path", ""),
                            title=stored.get("title", ""),
                            type=stored.get("type", "note"),
                            status=stored.get("status", "active"),
                        )
                    )
                return hits
        except QueryParserError as exc:  # pragma: no cover - we build queries directly
            log.debug("query failed: %s", exc)
            return []
