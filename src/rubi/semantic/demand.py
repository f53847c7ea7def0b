"""Whether this thread's searches keep an on-demand dense index on demand
(:func:`staying_on_demand`), for :class:`rubi.semantic.dense.DenseIndex`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["staying", "staying_on_demand"]

_STAY: ContextVar[bool] = ContextVar("rubi_dense_staying_on_demand", default=False)
"""Set while this thread's searches keep an on-demand index on demand
(:func:`staying_on_demand`)."""


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
