"""The graph snapshot on disk of one vault sync: which generation and code stamp it
holds, and its deferred rewrite; beside it, the flat graph a one-shot reader opens
(:mod:`rubi.graph.flat`, ``graph.flat``), written with every snapshot and by a one-shot
reader that found it behind (:class:`rubi.sync.livegraph.GraphKeeper`).

A vault sync (:class:`rubi.sync.vaultsync.VaultSync`) owns one :class:`Snapshots`. The
snapshot is rewritten when the journal behind it grows long, or when the code map
changed shape; a watching vault sync defers that rewrite :data:`SNAPSHOT_DELAY_S` after
the last such change, so a run of edits writes it once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rubi.core.lazylog import get_logger

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    import threading

    from rubi.graph.build import GraphBuild
    from rubi.graph.live import LiveGraph
    from rubi.sync.codeback import CodeBack

__all__ = ["SNAPSHOT_DELAY_S", "Snapshots"]

log = get_logger(__name__)

SNAPSHOT_DELAY_S = 5.0
"""A watching vault sync writes the graph snapshot this long after the last change of the
code map's shape, not at every one (0.3 s of CPU on a 10,000-file repository; a run
of edits writes it once). Until then another process finds the snapshot's code nodes
older than the store says (:data:`rubi.sync.livegraph.CODE_STAMP`) and moves them
itself."""


class Snapshots:
    """The graph snapshot at ``graph_file`` as this process last read or wrote it.

    Not locked itself: the owning vault sync calls it under its own lock (the deferred
    write's timer calls the vault sync's ``flush``, which takes that lock).
    """

    def __init__(self, graph_file: Path) -> None:
        self.graph_file = graph_file
        self.gen = -1
        """The store generation the snapshot on disk holds (-1: not known)."""
        self.stamp = -1
        """The code stamp of the snapshot on disk, as this process last read or
        wrote it."""
        self.timer: threading.Timer | None = None
        """The pending deferred write (:meth:`later`), if any."""
        self.flat_file = graph_file.with_name("graph.flat")
        self.reparse_file = graph_file.with_name("reparse.json")  # reparse.REPARSE_NAME
        """Notes to parse again (:mod:`rubi.sync.reparse`)."""
        self.repaired = True
        """Whether a written flat graph should remove :attr:`reparse_file`: at first
        (a process does not know whether one is there), and after a refusal marked it."""
        self.flat_gen = -1
        """The store generation the flat graph on disk holds, as this process last read
        or wrote it (-1: not known)."""
        self.flat_stamp = -1
        """The code stamp of the flat graph on disk, likewise."""
        self.back_file = graph_file.with_name("graph.codeback")
        """The code moves the snapshot has not taken (:mod:`rubi.sync.codeback`)."""
        self._origin: tuple[str, object] | None = None
        """The id of the snapshot write the graph at hand was read from or written as,
        and that graph (``build.graph``): what a flat graph written from it names, so
        the next write takes its unchanged rows again (:mod:`rubi.graph.flatwrite`)."""

    def load(self) -> LiveGraph:
        """The live graph read back from the snapshot; records its generation and
        code stamp.

        Raises:
            IndexCorruptError: no snapshot, or an unreadable or untrusted one.
        """
        from rubi.graph.snapshot import load_snapshot_ident

        live, self.gen, ident = load_snapshot_ident(self.graph_file)
        self.stamp = live.code_stamp
        self._origin = None if ident is None else (ident, live.build.graph)
        return live

    def mark(self, gen: int, stamp: int) -> None:
        """Record that the snapshot on disk holds generation ``gen`` and code stamp
        ``stamp``."""
        self.gen, self.stamp = gen, stamp

    def save(self, live: LiveGraph, gen: int) -> None:
        """Write ``live`` as of generation ``gen`` and record it.

        Raises:
            OSError: the write failed (nothing recorded).
        """
        from rubi.graph.snapshot import save_snapshot

        self._origin = None
        ident = save_snapshot(self.graph_file, live, gen)
        graph = live.build.graph
        retrack = getattr(type(graph), "retrack", None)  # a FrozenGraph's
        if retrack is not None:
            retrack(graph)  # its changes are counted from this snapshot
        self._origin = (ident, graph)
        self.mark(gen, live.code_stamp)
        self._save_flat(live, gen, frozenset())

    def read_back(self, base: str) -> CodeBack | None:
        """The code moves on disk from the snapshot's map of shape ``base``, if any
        (:func:`rubi.sync.codeback.read_back`)."""
        from rubi.sync.codeback import read_back

        return read_back(self.back_file, base)

    def write_back(self, back: CodeBack) -> bool:
        """Write ``back`` beside the snapshot; False (logged) when the write failed."""
        from rubi.sync.codeback import write_back

        try:
            write_back(self.back_file, back)
        except OSError as exc:
            log.warning("%s: not written (%s); the snapshot is written", self.back_file, exc)
            return False
        return True

    def load_flat(self) -> tuple[GraphBuild, int, int]:
        """The flat graph on disk: the build, its generation and its code stamp
        (recorded).

        Raises:
            IndexCorruptError: none yet, or an unreadable, damaged or untrusted one.
        """
        from rubi.graph.flat import read_flat

        build, self.flat_gen, self.flat_stamp = read_flat(self.flat_file)
        return build, self.flat_gen, self.flat_stamp

    def save_flat(self, live: LiveGraph, gen: int) -> None:
        """Write the flat graph of ``live`` as of generation ``gen`` and record it; a
        failed write is logged (a reader then reads the snapshot and replays the
        journal, as without a flat graph). One the graph itself cannot be written as
        (a value JSON cannot hold, a node id holding a NUL) also removes the file there,
        which no reader can use (behind, damaged, of an older format): every later
        reader fails the same write, and says this one line, not also why it could not
        read that file."""
        self._save_flat(live, gen, None)

    def _save_flat(self, live: LiveGraph, gen: int, changed: frozenset[str] | None) -> None:
        """:meth:`save_flat`; ``changed``: the nodes whose rows may differ from the
        snapshot's (None: what the graph recorded, :meth:`_origin_of`)."""
        from rubi.graph.flatwrite import write_flat

        try:
            write_flat(
                self.flat_file, live.build, gen, live.code_stamp, self._origin_of(live, changed)
            )
        except OSError as exc:
            log.warning("%s: flat graph not written (%s)", self.flat_file, exc)
            return
        except (TypeError, ValueError) as exc:
            self._refused(live, exc)
            return
        self._whole()
        self.flat_gen, self.flat_stamp = gen, live.code_stamp

    def forget_origin(self) -> None:
        """Forget the graph at hand and its snapshot's id (a full build replaced it)."""
        self._origin = None

    def _origin_of(
        self, live: LiveGraph, changed: frozenset[str] | None
    ) -> tuple[str, frozenset[str]] | None:
        """The snapshot write ``live``'s graph was read from or written as and the nodes
        whose rows may differ from it (``changed``, else those its graph recorded:
        :meth:`rubi.graph.frozen.FrozenGraph.touched`); None when either is not known
        (another graph, one read without an id, a networkx graph changed since)."""
        origin = self._origin
        graph = live.build.graph
        if origin is None or origin[1] is not graph:
            return None
        if changed is None:
            touched = getattr(type(graph), "touched", None)  # a FrozenGraph's
            changed = touched(graph) if touched is not None else None
        return None if changed is None else (origin[0], changed)

    def _whole(self) -> None:
        """A flat graph is on disk, so the graph holds no node it cannot carry: the
        notes :attr:`reparse_file` names (if any) need no other parse. Removed here,
        after a write or a restamp (a run whose reparse changed no link commits no
        graph change), else every incremental run would read them again."""
        if self.repaired:  # a graph an older rubi parsed is whole again
            try:
                self.reparse_file.unlink(missing_ok=True)  # rubi.sync.reparse
            except OSError as exc:  # the next run parses those notes once more
                log.debug("%s: not removed (%s)", self.reparse_file, exc)
            self.repaired = False

    def _refused(self, live: LiveGraph, exc: Exception) -> None:
        """The flat graph of ``live`` could not be written (``exc``): remove the file
        there and say so. A node id holding a NUL (an index an older rubi parsed)
        records the notes that made it for the next ``rubi index`` or watcher pass
        to parse again (:mod:`rubi.sync.reparse`); only the reader that recorded
        them warns, naming that command: later readers log it below warning level."""
        from contextlib import suppress  # here: a cold reader's import list stays

        from rubi.sync.reparse import mark, nul_linkers

        linkers = nul_linkers(live.build.graph)
        self.repaired = bool(linkers)
        if linkers and not mark(self.reparse_file, linkers):
            log.info("%s: flat graph not written (%s)", self.flat_file, exc)
        elif linkers:
            log.warning(
                "%s: flat graph not written: an older rubi parsed a link to a name "
                "holding a NUL in %d note%s; `rubi index` parses %s again (once)",
                self.flat_file,
                len(linkers),
                "s" if len(linkers) != 1 else "",
                "it" if len(linkers) == 1 else "them",
            )
        else:
            log.warning("%s: flat graph not written (%s)", self.flat_file, exc)
        with suppress(OSError):  # not removed: readers refuse it, as before
            self.flat_file.unlink(missing_ok=True)

    def restamp_flat(self, gen: int, new_gen: int) -> None:
        """Mark the flat graph on disk as of ``new_gen`` when it holds ``gen`` (a run
        that committed without changing the graph: :func:`rubi.graph.flat.restamp`);
        a failure is logged (a reader then replays, as for a flat graph behind)."""
        from rubi.graph.flatwrite import restamp

        try:
            if restamp(self.flat_file, gen, new_gen):
                self.flat_gen = new_gen
                self._whole()
        except OSError as exc:
            log.warning("%s: flat graph not marked current (%s)", self.flat_file, exc)

    def flat_behind(self, live: LiveGraph, live_gen: int) -> bool:
        """True when ``live`` (at generation ``live_gen``) is not what the flat graph on
        disk holds, as far as this process knows."""
        return live_gen != self.flat_gen or live.code_stamp != self.flat_stamp

    def write(self, live: LiveGraph, gen: int) -> None:
        """:meth:`save`, with a failed write logged instead of raised (the next reader
        catches up from the older snapshot)."""
        try:
            self.save(live, gen)
        except OSError as exc:
            log.warning("%s: graph snapshot not written (%s)", self.graph_file, exc)

    def behind(self, live: LiveGraph, live_gen: int) -> bool:
        """True when ``live`` (at generation ``live_gen``) is ahead of the snapshot:
        newer notes, or code nodes of another code stamp."""
        return live_gen > self.gen or live.code_stamp != self.stamp

    def later(self, flush: Callable[[], None]) -> None:
        """Call ``flush`` :data:`SNAPSHOT_DELAY_S` from now (again from now when a
        call is pending), in a daemon timer thread."""
        import threading  # a long-lived process's: a cold one reads the flat graph only

        self.cancel()
        timer = threading.Timer(SNAPSHOT_DELAY_S, flush)
        timer.daemon = True
        self.timer = timer
        timer.start()

    def cancel(self) -> None:
        """Drop the pending deferred write, if any."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
