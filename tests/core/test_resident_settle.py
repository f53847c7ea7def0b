"""A resident process (``rubi serve``) freezes what its full collections leave, so the
next ones do not walk it again; a generation it replaces is still freed
(:mod:`rubi.core.collector`)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.core import collector
from rubi.core.collector import WHOLE_EVERY, new_generation, resident_collector
from rubi.core.picklefiles import load_pickle
from rubi.index.warm import index_at

from helpers import pickled_rows, write


class _Node:
    """One half of a reference cycle (freed by the cyclic collector only)."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> tuple[_Node, weakref.ref[_Node]]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return a, weakref.ref(b)


@pytest.fixture
def settled() -> Iterator[None]:
    """This process settled as a server does, and as it was after the test (the
    collector off, so only the test's own collections run)."""
    kept, was = gc.get_threshold(), gc.isenabled()
    gc.disable()
    gc.unfreeze()
    resident_collector()
    try:
        yield
    finally:
        collector._SETTLE.clear()
        gc.unfreeze()
        gc.set_threshold(*kept)
        (gc.enable if was else gc.disable)()


@pytest.mark.usefixtures("settled")
def test_a_full_collection_freezes_what_it_left() -> None:
    alive, _ = _cycle()
    gc.collect()
    assert gc.get_freeze_count() > 2
    assert alive.other is not None


@pytest.mark.usefixtures("settled")
def test_a_dropped_frozen_cycle_is_freed_after_a_new_generation() -> None:
    old, ref = _cycle()
    gc.collect()  # frozen with everything alive
    del old
    gc.collect()
    assert ref() is not None  # frozen: this full collection did not walk it
    new_generation()
    gc.collect()
    assert ref() is None


@pytest.mark.usefixtures("settled")
def test_every_few_full_collections_walk_the_whole_heap() -> None:
    old, ref = _cycle()
    gc.collect()  # the first full collection since the process settled: it freezes
    del old
    for _ in range(WHOLE_EVERY - 2):
        gc.collect()
        assert ref() is not None
    gc.collect()  # the WHOLE_EVERY-th
    assert ref() is None


@pytest.mark.usefixtures("settled")
def test_a_settled_process_freezes_no_load() -> None:
    """A server's loads are not frozen: they would freeze its start's garbage cycles
    (the collector is paused until its first idle spell) with them."""
    path = pickled_rows()
    load_pickle(path)
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gc.get_freeze_count() > 0


def test_a_process_that_does_not_settle_freezes_nothing() -> None:
    gc.unfreeze()
    gc.collect()
    assert gc.get_freeze_count() == 0


@pytest.mark.usefixtures("settled")
def test_a_new_commit_unfreezes_and_an_edit_shows_in_the_next_search(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write(vault / "a.md", "# Alpha\n\nThe harbour crane lifts containers.\n")
    write(vault / "b.md", "# Beta\n\nSee [[Alpha]].\n")
    paths = app.locate(vault)
    app.index(paths)
    assert [h.id for h in app.search(paths, "harbour crane", refresh=False).hits][:1] == ["a"]
    gc.collect()  # the first full collection: the reader and graph frozen
    assert gc.get_freeze_count() > 0
    old = weakref.ref(index_at(paths.whoosh_dir)._scorer)  # type: ignore[arg-type]
    write(vault / "a.md", "# Alpha\n\nThe quay gantry lifts containers.\n")
    app.index(paths)
    assert gc.get_freeze_count() > 0
    hits = app.search(paths, "quay gantry", refresh=False).hits
    assert [h.id for h in hits][:1] == ["a"]  # no stale answer
    assert gc.get_freeze_count() == 0  # the search reopened the reader: all unfrozen
    gc.collect()
    assert old() is None
