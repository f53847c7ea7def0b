"""Keep the cached vectors in step with the index: the sync apply step
(:meth:`rubi.sync.vaultsync.VaultSync._apply`) passes the documents it indexes
through a :class:`VectorSink` and commits it after its own rows.

Notes only: code files are not embedded (on the code-search benchmark the channel
cost 0.07 NDCG@10; ``docs/semantic.md``). Only what changed is embedded: a note
whose passages hash as before keeps its vectors (a ``rubi index --full`` re-embeds
nothing unchanged). A failure here never
fails the index run: it is logged, and the channel ranks what it has; a vectors file
that is no database (or a malformed one) is built anew by the next full run.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.core.picklefiles import UntrustedCacheError
from rubi.index.indexdoc import IndexDoc

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FLUSH_ROWS", "VECTORS_FILE", "VectorSink", "vectors_file"]

log = get_logger(__name__)

VECTORS_FILE = "semantic.sqlite"
"""The vectors' file name inside a vault's index folder."""

_FAILURES = (OSError, ValueError, ImportError, sqlite3.Error, UntrustedCacheError)

FLUSH_ROWS = 1000
"""Embedded documents held before they are written (a full run of a large vault
writes as it goes: 50,000 notes' vectors and headings are ≈ 150 MB in memory)."""


def vectors_file(index_dir: Path) -> Path:
    """The vectors file of the vault whose derived data is in ``index_dir``."""
    return index_dir / VECTORS_FILE


class VectorSink:
    """The vectors of one sync run: :meth:`feed` embeds each document as the run
    indexes it, :meth:`commit` stores them and forgets removed ids in one transaction.

    Inactive (documents pass through untouched) when the channel is off
    (:func:`rubi.semantic.enabled`) or after a failure, which is logged once.

    Args:
        index_dir: the vault's derived-data folder.
        full: the run rebuilds everything: commit forgets every document not fed.
    """

    def __init__(self, index_dir: Path, *, full: bool) -> None:
        from rubi import semantic

        self.path = vectors_file(index_dir)
        self.full = full
        self.active = semantic.enabled()
        self.embedded = 0
        """Documents embedded so far (unchanged ones are not)."""
        self._fed: set[str] = set()
        self._rows: list[tuple[str, str, str, list[str], bytes]] = []
        self._known: dict[str, str] | None = None
        self._encoder: Any = None

    def feed(self, docs: Iterable[IndexDoc]) -> Iterator[IndexDoc]:
        """``docs``, each embedded (when new or changed) as it is handed on."""
        for doc in docs:
            if self.active:
                try:
                    self._embed(doc)
                except _FAILURES as exc:
                    self._fail(exc)
            yield doc
            if self.active and len(self._rows) >= FLUSH_ROWS:
                self._write((), keep_only=None)

    def commit(self, removed: Sequence[str]) -> None:
        """Store what was fed, forget ``removed`` (and, in a full run, every id not fed)."""
        if not self.active or not (self._rows or removed or self.full):
            return
        self._write(removed, keep_only=self._fed if self.full else None)

    def _write(self, removed: Sequence[str], *, keep_only: set[str] | None) -> None:
        from rubi.semantic.vectors import open_vectors

        try:
            encoder = self._model()
            store = open_vectors(self.path, create=True, replace_damaged=self.full)
            assert store is not None
            try:
                store.write(
                    self._rows,
                    removed,
                    model_id=encoder.model_id,
                    dims=encoder.dims,
                    keep_only=keep_only,
                )
            finally:
                store.close()
        except _FAILURES as exc:
            self._fail(exc)
        self._rows = []

    def _model(self) -> Any:
        if self._encoder is None:
            from rubi.semantic.encoder import load_encoder

            self._encoder = load_encoder()
        return self._encoder

    def _digest(self, model_id: str, doc_id: str) -> str | None:
        """The digest stored for ``doc_id`` under ``model_id``: a full run reads them
        all once; an incremental run asks for its few documents one by one, so a save
        does not read the digests of the whole vault."""
        from rubi.semantic.vectors import open_vectors

        if self._known is None and self.full:
            # a full run embeds every note again: a damaged file is built anew
            store = open_vectors(self.path, create=False, replace_damaged=True)
            self._known = {}
            if store is not None:
                try:
                    if store.meta("model") == model_id:
                        self._known = store.digests()
                finally:
                    store.close()
        if self._known is not None:
            return self._known.get(doc_id)
        store = open_vectors(self.path, create=False)
        if store is None:
            return None
        try:
            return store.digest(doc_id) if store.meta("model") == model_id else None
        finally:
            store.close()

    def _embed(self, doc: IndexDoc) -> None:
        if doc.kind != "note":
            return  # code is left to the other lists: the static model cost code search
        from rubi.semantic.encoder import model_id
        from rubi.semantic.passages import doc_passages, passages_digest

        self._fed.add(doc.id)
        passages = doc_passages(doc)
        shipped = model_id()
        digest = passages_digest(shipped, passages)
        if self._digest(shipped, doc.id) == digest:
            return  # the same passages: neither numpy nor the model is loaded for it
        import numpy as np  # only now: a run that embeds nothing never imports numpy

        from rubi.semantic.encoder import normalize

        encoder = self._model()
        sums, _ = encoder.token_sums([p.text for p in passages])
        whole = sums.sum(axis=0, keepdims=True)  # every token of the document
        vecs = normalize(np.vstack([whole, sums])).astype(np.float16)
        self._rows.append((doc.id, doc.kind, digest, [p.heading for p in passages], vecs.tobytes()))
        self.embedded += 1

    def _fail(self, exc: BaseException) -> None:
        log.warning("semantic vectors not updated (%s); `rubi index --full` retries", exc)
        self.active = False
        self._rows = []
