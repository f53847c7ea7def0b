"""The numpy BM25F sums (:func:`rubi.index.bm25fsums.best_numpy`) number the documents
and add each word's frequencies without sorting the (word, document) pairs: no
``numpy.unique``, whose sorts were most of their cost; the hits equal the dict sums'
(``tests/index/test_termscore.py`` compares them to the last bit)."""

from __future__ import annotations

import math
import random
from array import array
from typing import Any

import pytest

from rubi.index.bm25fsums import Postings, best, best_numpy, word_sums


class _NoUnique:
    """numpy, with ``unique`` refused."""

    def __init__(self, np: Any) -> None:
        self._np = np

    def __getattr__(self, name: str) -> Any:
        if name == "unique":
            raise AssertionError("numpy.unique called")
        return getattr(self._np, name)


@pytest.mark.parametrize("seed", range(5))
def test_the_numpy_sums_sort_no_pairs_and_equal_the_dict_sums(seed: int) -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(seed)
    lists = []
    for _ in range(6):
        docs = sorted(rng.sample(range(2000), rng.randint(0, 700)))
        lists.append(Postings(array("i", docs), array("d", [rng.random() * 5 for _ in docs])))
    words = [[4, 1], [0], [5, 2, 3]]  # a word's clauses in any order

    def idf(df: int) -> float:
        return math.log(2000 / (df + 1)) + 1

    scales = [1.0, 3.0, 1.0]
    acc = word_sums(lists, words, scales, [idf] * 3, 1.2)
    mask = frozenset(rng.sample(range(2000), 50))
    for limit in (1, 20, 3000):
        got = best_numpy(_NoUnique(np), lists, words, scales, [idf] * 3, 1.2, limit, mask)
        assert got == best(acc, set(acc) - mask, limit, whole=False)
