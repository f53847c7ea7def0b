"""How this process reads its graphs: frozen (a one-shot reader) or live.

A flag of its own, apart from :mod:`rubi.graph.snapshot` (``pickle``, the snapshot's
classes and writer): a cold recall sets and reads it (:func:`rubi.app.searching.one_search`,
:func:`rubi.sync.oneshot.current_flat`) and, when the flat graph is current, never
opens a snapshot, so it need not import one."""

from __future__ import annotations

__all__ = ["load_frozen", "reads_frozen"]

_frozen = False
"""Whether graphs are read back as :class:`~rubi.graph.frozen.FrozenGraph` (see
:func:`load_frozen`)."""


def load_frozen() -> None:
    """Read every graph snapshot of this process back as a
    :class:`~rubi.graph.frozen.FrozenGraph` (networkx's dicts without networkx, which a
    one-shot search process need not import; :func:`rubi.app.searching.one_search`).
    The graph reads the same; a live graph thaws it before changing it."""
    global _frozen
    _frozen = True


def reads_frozen() -> bool:
    """Whether this process reads its graphs frozen (:func:`load_frozen`): a one-shot
    reader, which reads the flat graph (:mod:`rubi.graph.flat`) when it is current."""
    return _frozen
