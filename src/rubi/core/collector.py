"""The cyclic garbage collector's pace in a resident process (``rubi serve``), and in
a process that runs one command and exits.

CPython collects its youngest generation every 700 container allocations beyond
deallocations (``gc.get_threshold()[0]``), and a search allocates hundreds of
thousands of short-lived dicts, lists and tuples: over 300 distinct searches on a
5,200-note vault that was 1,205 young collections, 109 middle ones and 3 full ones,
2.2 ms of CPU a search, the full ones (about 110 ms each, the whole heap of a process
holding the graph, the index's statistics and the MCP SDK) half of it. Collecting the
young generation every :data:`RESIDENT_YOUNG` allocations instead did 38, 3 and 1:
1.1 ms a search. What is collected is the same (reference counting frees everything
not in a cycle at once, at any threshold); cycles wait a little longer.

A one-shot process (``rubi index``, a cold search or hook: :func:`freeze_loads`) loads
millions of objects it keeps until it exits (the graph snapshot, the code map and its
memory), and every full collection walked them all again: in a cold ``rubi index``
after an import edit on spring-framework, 3 full, 53 middle and 575 young collections
took 0.64-0.90 s of a run of about 3 s, freeing nothing of what was loaded. There,
what is alive when a load ends is frozen (``gc.freeze``): left out of every later
collection. Reference cycles among frozen objects are then never freed, which a
process that exits after its command does not notice; a long-lived one (which
replaces its graph after changes) never freezes.

A starting ``rubi serve`` over stdio (:func:`pause_collector`: from the start of its
bare command, :mod:`rubi.cli.servebare`) collects nothing until its first idle spell:
a ``claude -p`` session's server imports the search stack and answers a dozen hooks
within a second or two, and its 25 collections walked the imports' objects for
garbage the process then exits with (10-12 ms of a session's 0.23-0.25 s of server
CPU). Reference counting frees all but cycles meanwhile, as in a cold hook (which
collects nothing at all). The bare command does not turn it back on as it ends: the
young generation then holds everything allocated since the start, and the
collections its last allocations trigger walked it all (8 collections, 14-19 ms,
more than the 25 it saved).

A resident process settles (:func:`resident_collector`): what survives each of its
full collections is frozen, so the next ones walk only what came since (a
6,700-note project's server walked the graph, the index's statistics and the MCP SDK
for 130-200 ms in each). Cycles among frozen objects are never freed while frozen, so
a replaced generation would stay (networkx caches views that point back at their
graph: issue 16's unbounded growth). Hence :func:`new_generation`: whoever replaces
what the searches read (the index reader reopened on a new commit, the graph dropped
or read again) unfreezes everything, and the next full collection walks the whole heap
once, frees the replaced generation's cycles and freezes what is left. Every
:data:`WHOLE_EVERY`-th full collection walks the whole heap anyway (a cycle dropped
between two generations is freed then). What a load leaves is not frozen in a server
(:func:`loaded`): its start collects nothing until its first idle spell, so what is
alive then holds that start's garbage cycles too, and freezing it kept 3-5 MiB more
over 150 register + read cycles on obsidian-hub.
"""

from __future__ import annotations

import gc

__all__ = [
    "RESIDENT_YOUNG",
    "WHOLE_EVERY",
    "freeze_loads",
    "loaded",
    "new_generation",
    "pause_collector",
    "resident_collector",
    "resume_collector",
]

RESIDENT_YOUNG = 10_000
"""Container allocations (net) between two young collections in a resident process."""


WHOLE_EVERY = 8
"""A settled process's full collections: every this many, one walks the whole heap."""


def resident_collector() -> None:
    """Collect the young generation every :data:`RESIDENT_YOUNG` allocations, unless
    the process collects less often already (or not at all: a threshold of 0); the
    older generations keep their ratios. From now on the process settles: what each
    full collection leaves is frozen (the module docstring; :func:`new_generation`)."""
    young, middle, old = gc.get_threshold()
    if 0 < young < RESIDENT_YOUNG:
        gc.set_threshold(RESIDENT_YOUNG, middle, old)
    if not _SETTLE:
        _SETTLE.append(0)
    if _settle not in gc.callbacks:
        gc.callbacks.append(_settle)


_SETTLE: list[int] = []
"""One item while the process settles: its full collections since one walked the
whole heap."""


def _settle(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` hook: around each full collection of a settling process,
    unfreeze first when this one is to walk the whole heap, freeze what survived after.
    Both are O(1) (CPython splices its generation lists)."""
    if info.get("generation") != 2 or not _SETTLE:
        return
    if phase == "start":
        _SETTLE[0] += 1
        if _SETTLE[0] >= WHOLE_EVERY:
            _SETTLE[0] = 0
            gc.unfreeze()  # merged into the oldest generation this collection walks
    elif phase == "stop":
        gc.freeze()


def new_generation() -> None:
    """What the searches read was replaced (a new index generation, a rebuilt graph):
    in a settling process, unfreeze everything so the next full collection frees the
    old generation's cycles (then freezes what is left); otherwise nothing. O(1)."""
    if _SETTLE:
        _SETTLE[0] = 0
        gc.unfreeze()


_PAUSED: list[bool] = []
"""Set (one item) while :func:`pause_collector` holds the collector off."""


def pause_collector() -> bool:
    """Turn the cyclic collector off until :func:`resume_collector` (a starting
    server: see the module docstring); nothing when it is off already (paused, or
    turned off by the process or its user: resuming leaves that off).

    Returns:
        Whether this call paused it."""
    if gc.isenabled() and not _PAUSED:
        gc.disable()
        _PAUSED.append(True)
        return True
    return False


def resume_collector() -> None:
    """Turn the collector back on if :func:`pause_collector` turned it off; otherwise
    nothing (safe to call more than once, from any thread)."""
    if _PAUSED:
        _PAUSED.clear()
        gc.enable()


_FREEZE: list[bool] = []
"""Set (one item) once :func:`freeze_loads` was called in this process."""


def freeze_loads() -> None:
    """Have :func:`loaded` freeze what is alive, from now on in this process (one that
    runs one command and exits: see the module docstring)."""
    if not _FREEZE:
        _FREEZE.append(True)


def loaded() -> None:
    """A large load ended (:func:`rubi.core.picklefiles.collector_paused`): in a
    process that asked (:func:`freeze_loads`), freeze every object alive now, so no
    later collection walks them; otherwise nothing (a server settles at its full
    collections instead: the module docstring)."""
    if _FREEZE:
        gc.freeze()
