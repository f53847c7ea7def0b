"""Whether a new dense index reads on demand (:func:`load_on_demand`) and whether this
thread's searches keep an on-demand dense index on demand (:func:`staying_on_demand`),
for :class:`rubi.semantic.dense.DenseIndex`. A module of its own, so that a process set
up to search once (:func:`rubi.app.searching.one_search`) imports nothing of the dense
channel's when the channel is off."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["load_on_demand", "on_demand", "staying", "staying_on_demand"]

_ON_DEMAND = False
"""Set by :func:`load_on_demand`: a new :class:`~rubi.semantic.dense.DenseIndex` reads
on demand."""

_STAY: ContextVar[bool] = ContextVar("rubi_dense_staying_on_demand", default=False)
"""Set while this thread's searches keep an on-demand index on demand
(:func:`staying_on_demand`)."""


def load_on_demand(on: bool = True) -> None:
    """For a process that searches once (a cold recall hook): each
    :class:`~rubi.semantic.dense.DenseIndex` made from now on first loads its
    documents' whole-document rows only (the small ``docs`` table of the vectors file:
    at 6,300 notes 4 MB, no passage vector), and its first search reads the passages
    of its candidates from the file (0.7 MB of 25 MB); a second search loads
    everything. The rankings are the same either way (the same float16 values,
    converted and multiplied in the same order)."""
    global _ON_DEMAND
    _ON_DEMAND = on


def on_demand() -> bool:
    """:func:`load_on_demand`'s setting (False until it is called)."""
    return _ON_DEMAND


@contextmanager
def staying_on_demand() -> Iterator[None]:
    """Within the block, this thread's searches of a dense index that reads on
    demand (its documents' rows loaded, its candidates' passages read per search) keep
    reading that way, where a second search otherwise loads every vector: a long-lived
    process answering hooks cold (``rubi serve``'s recalls,
    :func:`rubi.app.searching.searching_once`) pays per prompt for its candidates only,
    and the full load waits for a search that keeps the process warm (a search tool
    call, the engine's warm-up). A context variable: other threads never see it. The
    rankings are the same either way."""
    token = _STAY.set(True)
    try:
        yield
    finally:
        _STAY.reset(token)


def staying() -> bool:
    """Whether this thread is inside :func:`staying_on_demand`."""
    return _STAY.get()
