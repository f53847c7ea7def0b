"""The systems the retrieval evaluation compares, all over the same documents.

- :class:`RubiSystem`: rubi through its facade (``rubi.app.search``), with the dense
  channel on or off by ``RUBI_SEMANTIC`` (the switch ``docs/semantic.md`` gives for
  benchmarks); a query rubi refuses (too long) counts as refused, with no results.
- :class:`Bm25System`: plain BM25 from the ``bm25s`` library with its default
  parameters over the tokens of an :class:`Analyzer` for the set's language: that
  language's Snowball stemmer (PyStemmer) where Snowball has one, bm25s's stop words
  for it where bm25s has them (else none), and for Chinese, Japanese and Korean
  overlapping character bigrams of each CJK run (as Lucene's CJK bigram filter does;
  Latin words kept as words); one document per note (file name stem + its text) or per
  code file (path + its text). :attr:`Bm25System.analysis` says what was used.
- :class:`DenseModel`: the static model rubi ships, each document and the query
  embedded whole (the encoder reads at most its first 4,000 characters), cosine.
- :func:`rrf`: Reciprocal Rank Fusion, k = 60, equal weights, of ranked lists.

A search returns ``(ids, scores)``: ids best first, only documents the system scored
above zero (BM25) or all of them (cosine, fusion), at most ``k``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = [
    "CJK_LANGUAGES",
    "RRF_DEPTH",
    "RRF_K",
    "Analyzer",
    "Bm25System",
    "DenseModel",
    "Document",
    "RubiSystem",
    "Searched",
    "bm25s_missing",
    "code_documents",
    "note_documents",
    "rrf",
    "semantic_switch",
]

RRF_K = 60
RRF_DEPTH = 100
"""Documents of each list that take part in the fusion."""
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})
"""Languages written without spaces between words (Korean spaces words, but its
syllable blocks are bigrammed by the same rule in Lucene's CJK analyzer): their CJK
runs are cut into overlapping character bigrams."""
SNOWBALL = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech",
    "da": "danish", "nl": "dutch", "en": "english", "eo": "esperanto", "et": "estonian",
    "fi": "finnish", "fr": "french", "de": "german", "el": "greek", "hi": "hindi",
    "hu": "hungarian", "id": "indonesian", "ga": "irish", "it": "italian",
    "lt": "lithuanian", "ne": "nepali", "no": "norwegian", "nb": "norwegian",
    "fa": "persian", "pl": "polish", "pt": "portuguese", "ro": "romanian",
    "ru": "russian", "sr": "serbian", "st": "sesotho", "es": "spanish", "sv": "swedish",
    "ta": "tamil", "tr": "turkish", "yi": "yiddish",
}  # fmt: skip
"""ISO 639-1 code -> Snowball algorithm name (used when ``Stemmer.algorithms()`` has it)."""
BM25S_STOPWORDS = frozenset(
    {"en", "de", "nl", "fr", "es", "pt", "it", "ru", "sv", "no", "zh", "tr", "ko", "da"}
)
"""The language codes ``bm25s.tokenize`` has a stop word list for (bm25s 0.2-0.3)."""
_CJK = (
    "\u1100-\u11ff\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff\u3130-\u318f"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
)
"""Hangul jamo, hiragana, katakana (not its middle dot), compatibility jamo, CJK
ideographs (extension A, unified, compatibility) and Hangul syllables."""
_CJK_RUN = re.compile(f"([{_CJK}]+)")
_WORD = re.compile(r"(?u)\b\w\w+\b")
"""bm25s's own token pattern: a run of two or more word characters."""
MAX_FILE_BYTES = 2_000_000
"""A larger file is read up to this many bytes (both baselines see the same text)."""


def bm25s_missing(instead: str) -> str | None:
    """Why the bm25s baseline cannot run (one line naming the ``bench`` extra and
    ``instead``, the option that runs without it), or None when ``bm25s`` is installed:
    a plain install of rubi lacks it."""
    if importlib.util.find_spec("bm25s") is not None:
        return None
    return (
        "the bm25s baseline needs bm25s, which is not installed: install the bench extra "
        f"(pip install -e '.[bench]' in rubi's checkout), or pass {instead}"
    )


@dataclass(frozen=True, slots=True)
class Document:
    """One retrievable unit: ``id`` as the set's ``relevant`` paths write it."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class Searched:
    """One answer: ids best first, their scores, whether the system refused, and,
    for a system with a relevance floor, whether it calls the answer relevant and the
    measure it decided on (None: no floor)."""

    ids: tuple[str, ...]
    scores: tuple[float, ...]
    refused: bool = False
    relevant: bool | None = None
    coverage: float | None = None
    evidence: dict[str, float] | None = None


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


class Analyzer:
    """Tokens for BM25 in one language ``lang`` (an ISO 639-1 code; a region subtag, as in
    ``pt-BR`` or ``pt_BR``, is dropped), the same for documents and queries: lower case;
    stop words of ``lang`` where bm25s has a list (:data:`BM25S_STOPWORDS`); the
    Snowball stemmer of ``lang`` where PyStemmer has one (:data:`SNOWBALL`); for
    :data:`CJK_LANGUAGES`, each CJK run cut into overlapping character bigrams (a
    one-character run kept as it is), the text between runs split into words of two or
    more word characters, unstemmed. Bigrams are the usual dictionary-free baseline for
    CJK retrieval (Kwok 1997, "Comparing representations in Chinese information
    retrieval"; Lucene's ``CJKBigramFilter``). :attr:`description` says what was used."""

    def __init__(self, lang: str = "en") -> None:
        import bm25s

        self._bm25s = bm25s
        # a region subtag is dropped, written as BCP 47 (pt-BR) or as POSIX locales and
        # tldr-pages folders write it (pt_BR): the stemmer and stop words are the language's
        self.lang = re.split(r"[-_]", lang.lower())[0] or "en"
        self.cjk = self.lang in CJK_LANGUAGES
        self._stopwords: Any = self.lang if self.lang in BM25S_STOPWORDS else None
        # bm25s's own list for the code (the one bm25s.tokenize uses for words), applied
        # to CJK bigrams too: a bigram that is a listed word (怎么, 什么) is dropped
        self._stop: frozenset[str] = frozenset(
            bm25s.tokenization._infer_stopwords(self._stopwords) if self._stopwords else ()
        )
        self._stem: Any = None
        stemmer = "none (Snowball has no stemmer for it)"
        algorithm = SNOWBALL.get(self.lang)
        if self.cjk:
            stemmer = "none (CJK)"
        elif algorithm:
            try:
                import Stemmer

                if algorithm in Stemmer.algorithms():
                    self._stem = Stemmer.Stemmer(algorithm)
                    stemmer = f"PyStemmer {algorithm}"
            except ImportError:
                stemmer = "none (PyStemmer not installed)"
        self.stemmer = stemmer
        stop = f"bm25s {self.lang}" if self._stopwords else "none"
        tokens = "CJK character bigrams + words" if self.cjk else "words"
        self.description = (
            f"lang {self.lang}; stemmer {stemmer}; stop words {stop}; tokens {tokens}"
        )

    def tokens(self, texts: list[str]) -> list[list[str]]:
        """Each text's tokens, in order."""
        if not self.cjk:
            out: list[list[str]] = self._bm25s.tokenize(
                texts,
                stopwords=self._stopwords,
                stemmer=self._stem,
                show_progress=False,
                return_ids=False,
            )
            return out
        return [self._cjk_tokens(t) for t in texts]

    def _cjk_tokens(self, text: str) -> list[str]:
        out: list[str] = []
        for i, part in enumerate(_CJK_RUN.split(text.lower())):
            if i % 2 == 0:  # between CJK runs: words, as bm25s splits them
                out.extend(_WORD.findall(part))
            elif len(part) == 1:
                out.append(part)
            else:
                out.extend(part[j : j + 2] for j in range(len(part) - 1))
        return [t for t in out if t not in self._stop]


class Bm25System:
    """BM25 (bm25s defaults) over ``docs``, tokens of an :class:`Analyzer` for ``lang``."""

    def __init__(self, docs: Sequence[Document], lang: str = "en") -> None:
        import bm25s

        self.analyzer = Analyzer(lang)
        self.stemmer = self.analyzer.stemmer
        self.analysis = self.analyzer.description
        self._ids = [d.id for d in docs]
        self._model = bm25s.BM25()
        if docs:
            self._model.index(self.analyzer.tokens([d.text for d in docs]), show_progress=False)

    def search(self, query: str, k: int) -> Searched:
        """The top ``k`` documents with a positive score."""
        if not self._ids:
            return Searched((), ())
        found = self._model.retrieve(
            self.analyzer.tokens([query]), k=min(k, len(self._ids)), show_progress=False
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
    """rubi's own search of an indexed vault or project (``scope`` notes or code);
    ``gated`` false: the dense list is computed whatever the vault's stored measurement
    says (:func:`rubi.semantic.separation.list_may_vote` taken as True), so its per-query
    weight alone decides."""

    def __init__(self, paths: Any, scope: str, semantic: bool, gated: bool = True) -> None:
        self._paths = paths
        self._scope = scope
        self._semantic = semantic
        self._gated = gated

    def search(self, query: str, k: int) -> Searched:
        """``rubi.app.search`` as the CLI calls it, no terms, no personal vault."""
        from rubi import app
        from rubi.core.errors import RubiError
        from rubi.semantic import separation

        gate = separation.list_may_vote
        with contextlib.ExitStack() as stack:
            stack.enter_context(semantic_switch(self._semantic))
            if not self._gated:
                separation.list_may_vote = lambda *_: True  # type: ignore[assignment]
                stack.callback(setattr, separation, "list_may_vote", gate)
            try:
                result = app.search(
                    self._paths,
                    query,
                    top_k=k,
                    scope=self._scope,
                    refresh=False,
                    personal=False,
                )
            except RubiError:
                return Searched((), (), refused=True, relevant=False, coverage=0.0)
        hits = result.hits
        return Searched(
            tuple(h.path for h in hits),
            tuple(h.score for h in hits),
            relevant=result.relevant,
            coverage=result.coverage,
            evidence={
                "cjk": result.cjk,
                "named": result.named,
                "significance": result.significance,
            },
        )


class RubiDenseSystem:
    """rubi's dense list alone over the vectors rubi indexed, as a search reads it
    (:func:`rubi.search.dense.dense_list`: every note eligible, the cosine floor); its
    ``evidence`` is the weight the search would give it (``weight``), the best
    cosine's gap above the median document (``gap``) and its lead over the mean of the
    list's first ten (``lead``)."""

    def __init__(self, paths: Any) -> None:
        from rubi.sync import notes_for

        self._paths = paths
        self._path_of = {note_id: note.path for note_id, note in notes_for(paths).items()}

    def search(self, query: str, k: int) -> Searched:
        """The list's first ``k`` notes by cosine."""
        from rubi.search.dense import dense_list
        from rubi.semantic.dense import dense_index_for

        with semantic_switch(True):
            found = dense_list(dense_index_for(self._paths.index_dir), query, (), _anything)
        read = {"gap": found.gap, "lead": found.lead} if found.evidence else {}
        return Searched(
            tuple(self._path_of.get(m.id, m.id) for m in found.matches[:k]),
            tuple(m.score for m in found.matches[:k]),
            evidence={"weight": found.weight, **read},
        )


def _anything(_: str) -> bool:
    return True
