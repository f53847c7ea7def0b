"""The power iteration on numpy arrays gives the list iteration's floats, bit for bit,
whichever way this interpreter's ``sum`` adds floats."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from rubi.core import pagerank as pr
from rubi.core import pagerankarrays

np = pytest.importorskip("numpy")


def _neumaier(values: object, start: float = 0.0) -> float:
    """Python 3.12's ``sum`` of floats (Neumaier's compensated sum), written out."""
    s, c = start, 0.0
    for x in values:  # type: ignore[attr-defined]
        t = s + x
        c += (s - t) + x if abs(s) >= abs(x) else (x - t) + s
        s = t
    return s + c


def _plain(values: object, start: float = 0.0) -> float:
    """Python 3.11's ``sum`` of floats: left to right."""
    s = start
    for x in values:  # type: ignore[attr-defined]
        s = s + x
    return s


def _case(seed: int) -> tuple[list[int], list[tuple[int, int, float]], dict[int, float] | None]:
    rnd = random.Random(seed)
    n = rnd.randint(1, 300)
    hubs = [rnd.randrange(n) for _ in range(3)]  # a few nodes of many in-links
    edges = [
        (
            rnd.randrange(n + 3),
            rnd.choice(hubs) if rnd.random() < 0.3 else rnd.randrange(n),
            rnd.choice([1.0, 0.5, 0.3, rnd.random() * 2]),
        )
        for _ in range(rnd.randint(0, 2500))
    ]
    seeds = {i: rnd.random() for i in range(n) if rnd.random() < 0.05} if seed % 2 else None
    return list(range(n)), edges, seeds


def _ranks(
    monkeypatch: pytest.MonkeyPatch, numpy: ModuleType | None, case: tuple[object, ...]
) -> dict[int, float]:
    nodes, edges, seeds = case
    monkeypatch.setattr(pr, "loaded_numpy", lambda: numpy)
    return pr.pagerank(nodes, edges, personalization=seeds, damping=0.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("compensated", [False, True])
@pytest.mark.parametrize("seed", range(24))
def test_the_arrays_give_the_lists_floats(
    monkeypatch: pytest.MonkeyPatch, seed: int, compensated: bool
) -> None:
    adder = _neumaier if compensated else _plain
    monkeypatch.setattr(pr, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "COMPENSATED_SUM", compensated)
    monkeypatch.setattr(pr, "ARRAY_NODES", 1)
    case = _case(seed)
    on_lists = _ranks(monkeypatch, None, case)
    on_arrays = _ranks(monkeypatch, np, case)
    assert on_arrays == on_lists
    assert list(on_arrays) == list(on_lists)


def test_this_interpreters_sum_is_the_one_the_columns_repeat() -> None:
    values = [0.1 * k + 1e-9 * k * k for k in range(1, 60)]
    want = _neumaier(values) if pagerankarrays.COMPENSATED_SUM else _plain(values)
    assert sum(values, 0.0) == want


def test_a_hub_is_summed_alone_and_the_rest_in_columns() -> None:
    sizes = np.array([1] * 500 + [2] * 300 + [3] * 100 + [400, 900])
    depth = pagerankarrays._split(np, sizes)
    assert 3 <= depth < 400


@pytest.mark.parametrize("compensated", [False, True])
@pytest.mark.parametrize("seed", range(16))
def test_out_edges_as_arrays_give_the_numbered_pageranks_floats(
    monkeypatch: pytest.MonkeyPatch, seed: int, compensated: bool
) -> None:
    """Out-edges given as arrays, in each source's dict order: the ranks of the dicts,
    dangling nodes (many here) added in node order."""
    from itertools import chain, repeat

    adder = _neumaier if compensated else _plain
    monkeypatch.setattr(pr, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "sum", adder, raising=False)
    monkeypatch.setattr(pagerankarrays, "COMPENSATED_SUM", compensated)
    nodes, edges, seeds = _case(seed)
    index, out = pr._adjacency(nodes, edges)
    order = list(index)
    monkeypatch.setattr(pr, "loaded_numpy", lambda: None)
    want = pr.pagerank_numbered(order, out, personalization=seeds, damping=0.5)
    source = np.fromiter(chain.from_iterable(map(repeat, range(len(out)), map(len, out))), int)
    target = np.fromiter(chain.from_iterable(out), int)
    weight = np.fromiter(chain.from_iterable(map(dict.values, out)), float)
    pulls, dangling, perm = pagerankarrays.entry_pulls(np, len(order), source, target, weight, 0.5)
    got = pr.pagerank_pulled(order, pulls, dangling, perm, personalization=seeds, damping=0.5)
    assert got == want
    assert list(got) == list(want)
