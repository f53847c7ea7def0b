"""The array iteration's set-up without a general sort: the columns' order taken run by
run (not by ``np.lexsort``) and the small integer sorts by radix are the same
permutations as the sorts they replace, so the sums are taken in the same order."""

from __future__ import annotations

import random

import pytest

from rubi.core import pagerankarrays
from rubi.core.pagerankarrays import Segments, stable_order

np = pytest.importorskip("numpy")


def _lexsort_order(sizes: object) -> tuple[object, list[int], object]:
    """The columns' order as first written (``np.lexsort`` of column, then place)."""
    count = len(sizes)  # type: ignore[arg-type]
    starts = np.zeros(count + 1, dtype=np.intp)
    np.cumsum(sizes, out=starts[1:])
    depth = pagerankarrays._split(np, sizes)
    short = np.flatnonzero(sizes <= depth)
    short = short[np.argsort(-sizes[short], kind="stable")]
    place = np.empty(count, dtype=np.intp)
    place[short] = np.arange(len(short))
    run_of = np.repeat(np.arange(count), sizes)
    mine = np.flatnonzero(sizes[run_of] <= depth)
    column = mine - starts[run_of[mine]]
    order = mine[np.lexsort((place[run_of[mine]], column))]
    heights = np.bincount(sizes[short], minlength=depth + 1)[::-1].cumsum()[::-1]
    return order, [int(h) for h in heights[1:] if h], short


@pytest.mark.parametrize("seed", range(60))
def test_the_columns_order_is_the_lexsorts(seed: int) -> None:
    rnd = random.Random(seed)
    count = rnd.choice([1, 2, 5, 40, 300, 2000])
    sizes = [rnd.choice([1, 1, 1, 2, 2, 3, 4, 7, 12]) for _ in range(count)]
    for _ in range(rnd.randint(0, 3)):  # a hub or three
        sizes[rnd.randrange(count)] = rnd.randint(20, 400)
    arr = np.array(sizes, dtype=np.intp)
    runs = Segments(np, arr)
    order, cols, short = _lexsort_order(arr)
    assert np.array_equal(runs._order, order)
    assert runs._cols == cols
    assert np.array_equal(runs._where, short)
    values = np.array([rnd.random() * 10 ** rnd.randint(-8, 8) for _ in range(int(arr.sum()))])
    starts = np.concatenate(([0], np.cumsum(arr)))
    expected = [sum(values[starts[k] : starts[k + 1]].tolist(), 0.0) for k in range(count)]
    assert runs.sums(values).tolist() == expected


@pytest.mark.parametrize("bound", [1, 2, 7, 300, 65_535, 65_536, 65_537, 1_000_000])
def test_a_stable_order_is_numpys_stable_argsort(bound: int) -> None:
    rnd = np.random.default_rng(bound)
    for size in (0, 1, 5, 1000, 20_000):
        keys = rnd.integers(0, bound, size).astype(np.intp)
        assert np.array_equal(stable_order(np, keys, bound), np.argsort(keys, kind="stable"))
    minor, major = rnd.integers(0, bound, 5000), rnd.integers(0, min(bound, 50), 5000)
    by_minor = stable_order(np, minor, bound)
    both = by_minor[stable_order(np, major[by_minor], bound)]
    assert np.array_equal(both, np.lexsort((minor, major)))
