"""What a streamed full build keeps of each note: nothing but its graph record.

A full build of a plain vault reads each note, hands it to Whoosh and drops it
(:meth:`rubi.sync.vaultsync.VaultSync._apply`). :class:`StreamedNotes` takes each
note on its way: its store row is written at once, in the run's open transaction
(:meth:`rubi.sync.rows.Store.begin`, committed with the manifest), and its graph
record (:func:`rubi.graph.live.graph_record`, a few hundred bytes) is kept for the
graph built at the end. Memory then grows by the graph, not by the parsed notes
(about 2.4 KB a note of 50,000 even with bodies cut short).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubi.core.model import Note
from rubi.sync.manifest import NOTES_BODY_KEPT
from rubi.sync.rows import Store

if TYPE_CHECKING:
    from rubi.graph.live import GraphRecord

__all__ = ["BATCH", "StreamedNotes"]

BATCH = 256
"""Notes written to the store in one statement."""


class StreamedNotes:
    """The notes of a streamed full build: rows written to ``store`` (whose write
    transaction the caller has begun, and which it commits or rolls back) under
    ``gen``; graph records kept by id in :attr:`records`.

    Args:
        store: the store, in an open transaction, already cleared.
        gen: the generation the build commits.
    """

    def __init__(self, store: Store, gen: int) -> None:
        self.store, self.gen = store, gen
        self.records: dict[str, GraphRecord] = {}
        self._batch: list[Note] = []

    def add(self, note: Note) -> None:
        """Take ``note``: queue its row, keep its graph record (the last note of an
        id wins, as in the store)."""
        from rubi.graph.live import graph_record

        self.records[note.id] = graph_record(note)
        self._batch.append(note)
        if len(self._batch) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the queued rows."""
        self.store.put_notes(self._batch, self.gen, NOTES_BODY_KEPT)
        self._batch = []
