"""Marking a process as one that runs one command or hook and exits, apart from the
search use case (:mod:`rubi.app.searching` re-exports it): a cold SessionStart or
PreCompact hook marks its process before its handler runs, and importing
:mod:`rubi.app.searching` for it (its context variables, ``importlib``, the search
defaults) cost PreCompact 1-2 ms of CPU a call for a search it never makes."""

from __future__ import annotations

__all__ = ["runs_once"]


def runs_once(*, frozen: bool = False) -> None:
    """Mark this process as one that runs one command or hook and exits (a cold hook, a
    CLI command; :func:`rubi.app.searching.one_search` does too): an index run in it
    that changes the graph leaves the flat graph current for the next cold reader
    (:func:`rubi.sync.oneshot.mark_one_shot`).

    With ``frozen`` (a cold ``rubi index`` that is not a full build), the graph
    snapshot is read back as networkx's dicts without networkx
    (:func:`rubi.graph.readmode.load_frozen`): a run that moves the code nodes (an
    edit that changes imports) changes them in place as networkx would, and the
    snapshot and flat graph it writes are the same; only a change the frozen graph
    does not make itself imports networkx (about 0.1 s of CPU)."""
    from rubi.sync.oneshot import mark_one_shot

    mark_one_shot()
    if frozen:
        from rubi.graph.readmode import load_frozen

        load_frozen()
