"""The systems the retrieval evaluation compares, all over the same documents.

- :class:`RubiSystem`: rubi through its facade (``rubi.app.search``), with the dense
  channel on or off by ``RUBI_SEMANTIC`` (the switch ``docs/semantic.md`` gives for
  benchmarks); a query rubi refuses (too long) counts as refused, with no results.
- :class:`Bm25System`: plain BM25 from the ``bm25s`` library with its default
  parameters, English stop words, and its English Snowball stemmer when PyStemmer is
  installed (:attr:`Bm25System.stemmer` says which); one document per note (file name
  stem + its text) or per code file (path + its text).
- :class:`DenseModel`: the static model rubi ships, each document and the query
  embedded whole (the encoder reads at most its first 4,000 characters), cosine.
- :func:`rrf`: Reciprocal Rank Fusion, k = 60, equal weights, of ranked lists.

A search returns ``(ids, scores)``: ids best first, only documents the system scored
above zero (BM25) or all of them (cosine, fusion), at most ``k``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = [
    "RRF_DEPTH",
    "RRF_K",
    "Bm25System",
    "DenseModel",
    "Document",
    "RubiSystem",
    "Searched",
    "code_documents",
    "note_documents",
    "rrf",
    "semantic_switch",
]

RRF_K = 60
RRF_DEPTH = 100
"""Documents of each list that take part in the fusion."""
MAX_FILE_BYTES = 2_000_000
"""A larger file is read up to this many bytes (both baselines see the same text)."""


@dataclass(frozen=True, slots=True)
class Document:
    """One retrievable unit: ``id`` as the set's ``relevant`` paths write it."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Searched:
    """One answer: ids best first, their scores, and whether the system refused."""

    ids: tuple[str, ...]
    scores: tuple[float, ...]
    refused: bool = False


def _read_text(path: Path) -> str | None:
    """A regular file's text (UTF-8, bad bytes replaced), None for anything else."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with path.open("rb") as f:
            return f.read(MAX_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


def note_documents(folder: Path, files: Sequence[str]) -> list[Document]:
    """The folder-relative note ``files`` under ``folder`` as ``stem + "\\n" + text``
    (unreadable ones and symlinks left out), sorted by path."""
    docs = []
    for rel in sorted(files):
        text = _read_text(folder / rel)
        if text is not None:
            docs.append(Document(rel, f"{PurePosixPath(rel).stem}\n{text}"))
    return docs


def code_documents(root: Path, files: Sequence[str]) -> list[Document]:
    """The repository-relative ``files`` under ``root`` as ``path + "\\n" + text``
    (unreadable ones and symlinks left out)."""
    docs = []
    for rel in sorted(files):
        text = _read_text(root / rel)
        if text is not None:
            docs.append(Document(rel, f"{rel}\n{text}"))
    return docs


class Bm25System:
    """BM25 (bm25s defaults) over ``docs``."""

    def __init__(self, docs: Sequence[Document]) -> None:
        import bm25s

        try:
            import Stemmer

            self._stem: Any = Stemmer.Stemmer("english")
            self.stemmer = "PyStemmer english"
        except ImportError:
            self._stem = None
            self.stemmer = "none (PyStemmer not installed)"
        self._bm25s = bm25s
        self._ids = [d.id for d in docs]
        self._model = bm25s.BM25()
        if docs:
            self._model.index(self._tokens([d.text for d in docs]), show_progress=False)

    def _tokens(self, texts: list[str]) -> Any:
        return self._bm25s.tokenize(
            texts, stopwords="en", stemmer=self._stem, show_progress=False, return_ids=False
        )

    def search(self, query: str, k: int) -> Searched:
        """The top ``k`` documents with a positive score."""
        if not self._ids:
            return Searched((), ())
        found = self._model.retrieve(
            self._tokens([query]), k=min(k, len(self._ids)), show_progress=False
        )
        pairs = [
            (self._ids[int(i)], float(s))
            for i, s in zip(found.documents[0], found.scores[0], strict=True)
            if s > 0
        ]
        return Searched(tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))


class DenseModel:
    """The shipped static model over ``docs`` (needs numpy)."""

    def __init__(self, docs: Sequence[Document]) -> None:
        from rubi.semantic.encoder import load_encoder

        self._encoder = load_encoder()
        self._ids = [d.id for d in docs]
        self._matrix = self._encoder.encode([d.text for d in docs])

    def search(self, query: str, k: int) -> Searched:
        """All documents by cosine, the top ``k``."""
        import numpy as np

        if not self._ids:
            return Searched((), ())
        scores = self._matrix @ self._encoder.encode([query])[0]
        order = np.argsort(-scores, kind="stable")[:k]
        return Searched(tuple(self._ids[i] for i in order), tuple(float(scores[i]) for i in order))


def rrf(lists: Sequence[Sequence[str]], k: int) -> Searched:
    """Reciprocal Rank Fusion of ranked id lists: ``sum 1 / (RRF_K + rank)`` over the
    first :data:`RRF_DEPTH` of each list, equal weights; the top ``k``, ties by id."""
    fused: dict[str, float] = {}
    for ids in lists:
        for rank, doc in enumerate(ids[:RRF_DEPTH], start=1):
            fused[doc] = fused.get(doc, 0.0) + 1.0 / (RRF_K + rank)
    best = sorted(fused.items(), key=lambda p: (-p[1], p[0]))[:k]
    return Searched(tuple(p[0] for p in best), tuple(p[1] for p in best))


@contextlib.contextmanager
def semantic_switch(on: bool) -> Iterator[None]:
    """``RUBI_SEMANTIC`` set to ``1`` or ``0`` inside the block, restored after."""
    from rubi.semantic import DISABLE_ENV

    old = os.environ.get(DISABLE_ENV)
    os.environ[DISABLE_ENV] = "1" if on else "0"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(DISABLE_ENV, None)
        else:
            os.environ[DISABLE_ENV] = old


class RubiSystem:
    """rubi's own search of an indexed vault or project (``scope`` notes or code)."""

    def __init__(self, paths: Any, scope: str, semantic: bool) -> None:
        self._paths = paths
        self._scope = scope
        self._semantic = semantic

    def search(self, query: str, k: int) -> Searched:
        """``rubi.app.search`` as the CLI calls it, no terms, no personal vault."""
        from rubi import app
        from rubi.core.errors import RubiError

        with semantic_switch(self._semantic):
            try:
                hits = app.search(
                    self._paths,
                    query,
                    top_k=k,
                    scope=self._scope,
                    refresh=False,
                    personal=False,
                ).hits
            except RubiError:
                return Searched((), (), refused=True)
        return Searched(tuple(h.path for h in hits), tuple(h.score for h in hits))
