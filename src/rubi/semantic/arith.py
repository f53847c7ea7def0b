"""The dense channel's vector arithmetic, each step as numpy computes it but without
what a one-shot process cannot afford (BLAS threads, ``numpy.ma``): a product, a median,
a best-first order, the candidates whose passages are scored. numpy is imported inside
each function (the ``semantic`` extra); the results are the same floats."""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["PASSAGE_CANDIDATES", "best_first", "candidates", "dot", "median"]

PASSAGE_CANDIDATES = 400
"""Notes (by whole-document cosine) whose passages are scored; the others count their
whole cosine twice. Bounds the work of a search in a big vault (6,000 notes hold about
30,000 passages)."""


def best_first(scores: Any, limit: int) -> Iterator[tuple[int, float]]:
    """``(index, score)`` of ``scores`` best first (as Python numbers): the top
    ``4 × limit`` by a partial sort (the eligible ones are nearly always among them),
    then the rest."""
    import numpy as np

    head = 4 * limit
    if len(scores) <= head:
        order = np.argsort(-scores, kind="stable")
        yield from zip(order.tolist(), scores[order].tolist(), strict=True)
        return
    top = np.argpartition(-scores, head)[:head]
    top = top[np.argsort(-scores[top], kind="stable")]
    yield from zip(top.tolist(), scores[top].tolist(), strict=True)
    rest = np.setdiff1d(np.arange(len(scores)), top, assume_unique=True)
    rest = rest[np.argsort(-scores[rest], kind="stable")]
    yield from zip(rest.tolist(), scores[rest].tolist(), strict=True)


def median(values: Any) -> float:
    """``float(np.median(values))`` of a 1-D float array, computed as numpy computes it
    (a partition, the mean of the middle one or two, NaN when any value is NaN) but
    without ``np.median``'s check for masked arrays, which imports ``numpy.ma`` (20–30 ms
    of CPU a one-shot recall hook paid). NaN for an empty array."""
    import numpy as np

    size = len(values)
    if size == 0:
        return float("nan")
    half = size // 2
    kth = [half - 1, half, -1] if size % 2 == 0 else [half, -1]
    part = np.partition(values, kth)
    if np.isnan(part[-1]):
        return float("nan")
    middle = part[half - 1 : half + 1] if size % 2 == 0 else part[half : half + 1]
    return float(np.mean(middle))


def dot(rows: Any, vector: Any) -> Any:
    """``rows @ vector`` without BLAS: OpenBLAS's threads spin on a busy machine and
    made a 6,000 × 256 product cost 4–8 ms of CPU instead of 0.3–0.5 ms."""
    import numpy as np

    return np.einsum("ij,j->i", rows, vector)


def candidates(whole: Any) -> Any:
    """Indexes of the :data:`PASSAGE_CANDIDATES` best whole-document cosines."""
    import numpy as np

    if len(whole) <= PASSAGE_CANDIDATES:
        return np.arange(len(whole))
    return np.sort(np.argpartition(-whole, PASSAGE_CANDIDATES)[:PASSAGE_CANDIDATES])
