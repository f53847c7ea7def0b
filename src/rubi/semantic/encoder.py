"""The static embedding model: a token → vector table and a WordPiece tokenizer.

A text's embedding is the mean of its tokens' rows, L2-normalized (Model2Vec's
``mean`` pooling); no neural network runs. The table is int8 with one float32 scale
per row (``scripts/distill_semantic_model.py`` made it from all-MiniLM-L6-v2), loaded
from package data with ``numpy.load(allow_pickle=False)`` (the table memory-mapped,
read-only: a text reads the rows of its tokens); the tokenizer is
:mod:`rubi.semantic.wordpiece`. Needs numpy (the ``semantic`` extra).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rubi.semantic import weights_dir
from rubi.semantic.wordpiece import WordPiece

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Matrix = npt.NDArray[np.float32]
else:
    Matrix = Any

__all__ = ["MAX_TEXT_CHARS", "Encoder", "load_encoder", "model_id", "weights_dir"]

MAX_TEXT_CHARS = 4_000
"""Characters of one text embedded at most (a mean of more tokens says little more)."""

_LOCK = threading.Lock()
_LOADED: list[Encoder] = []
"""The shipped model, once loaded (one item): process-wide and never cleared; its
files are part of the installed package and change only with it."""
_MODEL_ID: list[str] = []
"""The shipped model's id, once read (one item), like :data:`_LOADED`."""


@dataclass(frozen=True, slots=True)
class Encoder:
    """A loaded model.

    Attributes:
        model_id: the model's name and version; cached vectors of another id are
            recomputed.
        dims: the vector length.
    """

    model_id: str
    dims: int
    _vectors: Any  # int8 (vocab, dims)
    _scales: Any  # float32 (vocab,)
    _tokenizer: WordPiece

    def token_sums(self, texts: Sequence[str]) -> tuple[Matrix, Matrix]:
        """The sum of each text's token vectors and its token count.

        The texts' tokens are looked up in one gather; each text's rows are then summed
        by itself, in token order, so a text's sum does not depend on the other texts
        in the batch (it equals the sum of that text alone, to the last bit).

        Returns:
            ``(sums, counts)``: float32 arrays of shapes ``(len(texts), dims)`` and
            ``(len(texts),)``; a text with no known token has a zero row and count 0.
        """
        import numpy as np

        encode = self._tokenizer.encode
        ids = [encode(text[:MAX_TEXT_CHARS]) for text in texts]
        lengths = [len(i) for i in ids]
        sums = np.zeros((len(texts), self.dims), dtype=np.float32)
        counts = np.array(lengths, dtype=np.float32)
        flat = np.fromiter(chain.from_iterable(ids), dtype=np.intp, count=sum(lengths))
        rows = self._vectors[flat]  # int8: einsum converts it in cache-sized buffers
        scales = self._scales[flat]
        end = 0
        for i, length in enumerate(lengths):
            start, end = end, end + length
            if length:
                # einsum, not a matrix product: no BLAS threads, a fixed summation order
                sums[i] = np.einsum("i,ij->j", scales[start:end], rows[start:end])
        return sums, counts

    def encode(self, texts: Sequence[str]) -> Matrix:
        """Unit vectors of ``texts``, shape ``(len(texts), dims)`` float32 (a zero row
        for a text with no known token)."""
        sums, _ = self.token_sums(texts)
        return normalize(sums)


def normalize(rows: Matrix) -> Matrix:
    """``rows`` scaled to unit length (zero rows stay zero)."""
    import numpy as np

    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    result: Matrix = (rows / norms).astype(np.float32)
    return result


def load_encoder() -> Encoder:
    """The shipped model, loaded once per process (thread-safe).

    Raises:
        ImportError: numpy is not installed.
        OSError, ValueError: the weights are missing or malformed.
    """
    with _LOCK:
        if not _LOADED:
            _LOADED.append(_load(weights_dir()))
        return _LOADED[0]


def model_id() -> str:
    """The shipped model's id (:attr:`Encoder.model_id`), read from its ``model.json``
    without numpy or the weights: whether a text's cached vectors are current is known
    before anything is loaded (thread-safe, read once per process).

    Raises:
        OSError: ``model.json`` cannot be read.
        ValueError: it is not JSON, or not an object with an ``id``.
    """
    with _LOCK:
        if not _MODEL_ID:
            _MODEL_ID.append(_read_id(weights_dir()))
        return _MODEL_ID[0]


def _read_id(folder: Path) -> str:
    meta = json.loads((folder / "model.json").read_text(encoding="utf-8"))
    if not isinstance(meta, dict) or "id" not in meta:
        raise ValueError(f"{folder}: model.json has no id")
    return str(meta["id"])


def _load(folder: Path) -> Encoder:
    import numpy as np

    # Mapped, not read: a query (the recall hook's one search) gathers the rows of its
    # few tokens; reading the whole 7.5 MB table cost 2-3 ms of CPU warm and 50-60 ms
    # when the file was not in the page cache. The same int8 values either way.
    vectors = np.load(folder / "vectors.npy", allow_pickle=False, mmap_mode="r")
    scales = np.load(folder / "scales.npy", allow_pickle=False)
    if vectors.ndim != 2 or vectors.dtype != np.int8 or scales.shape != (vectors.shape[0],):
        raise ValueError(f"{folder}: malformed model (vectors {vectors.shape}, {vectors.dtype})")
    tokenizer = WordPiece.from_vocab_file(folder / "vocab.txt")
    if len(tokenizer.vocab) != vectors.shape[0]:
        raise ValueError(f"{folder}: {len(tokenizer.vocab)} tokens, {vectors.shape[0]} vectors")
    return Encoder(
        model_id=_read_id(folder),
        dims=int(vectors.shape[1]),
        _vectors=vectors,
        _scales=scales.astype(np.float32),
        _tokenizer=tokenizer,
    )
