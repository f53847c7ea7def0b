"""A watcher that stops, and an engine that stops, leave no segment file of the vault's
search index open (:func:`rubi.app.updates.close_search_index`). Before, the index
this process kept open (:mod:`rubi.index.warm`) held its ``.seg`` file until the
process ended: ``ResourceWarning: unclosed file ...seg`` in the watcher tests."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from watchfiles import Change

from rubi import app
from rubi.watch import watch

from helpers import write

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")


def _open_files(keep: Callable[[str], bool]) -> list[str]:
    """The files this process has open whose paths ``keep`` accepts."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if keep(target):
            found.append(target)
    return found


def _open_segments(folder: Path) -> list[str]:
    """The segment files of ``folder`` (the index's) this process has open."""
    return _open_files(lambda target: target.startswith(str(folder)) and target.endswith(".seg"))


def test_a_stopped_watcher_leaves_no_segment_file_open(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nwombat burrow\n")
    paths = app.locate(vault)
    app.index(paths)
    assert app.search(paths, "wombat", refresh=False).hits
    assert _open_segments(paths.whoosh_dir)  # kept open between searches
    note = write(vault / "b.md", "# Beta\n\nwombat tunnel\n")
    watch(paths, changes=[{(Change.added, str(note))}], catch_up=False)
    assert _open_segments(paths.whoosh_dir) == []
    # The next search opens it again and sees the watcher's change.
    assert {h.id for h in app.search(paths, "wombat", refresh=False).hits} == {"a", "b"}


def test_a_stopped_engine_leaves_no_segment_file_open(tmp_path: Path) -> None:
    from rubi.engine.server import Engine

    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nwombat burrow\n")
    paths = app.locate(vault)
    app.index(paths)
    engine = Engine(paths)
    assert app.search(paths, "wombat", refresh=False).hits  # as a hook it answered would
    assert _open_segments(paths.whoosh_dir)
    engine.stop()
    assert _open_segments(paths.whoosh_dir) == []


def test_an_index_still_held_when_it_is_closed_keeps_no_file_open_after_a_later_read(
    tmp_path: Path,
) -> None:
    """A search under way while an engine or a watcher stops holds the kept index past
    its close; its next read opened the files again out of the cache and kept them
    until the collector found them (a ResourceWarning that failed a CLI test)."""
    from rubi.index import warm

    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nwombat burrow\n")
    paths = app.locate(vault)
    app.index(paths)
    held = warm.index_at(paths.whoosh_dir)
    assert held.term_idf(["wombat"])
    warm.close_index(paths.whoosh_dir)  # the engine stops; a thread still holds it
    assert held.term_idf(["wombat"])  # the straggler's next read still answers
    assert _open_segments(paths.whoosh_dir) == []
    assert warm.index_at(paths.whoosh_dir) is not held  # the next search opens afresh


def test_closing_the_search_index_closes_the_kept_fingerprint_reader(tmp_path: Path) -> None:
    from rubi.app.updates import close_search_index
    from rubi.search.printstore import PRINTS_FILE

    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nwombat burrow and a few more words here\n")
    paths = app.locate(vault)
    app.index(paths)
    assert app.search(paths, "wombat", refresh=False).hits

    def open_store() -> list[str]:
        return _open_files(lambda target: target == str(paths.index_dir / PRINTS_FILE))

    assert open_store()  # a long-lived search keeps it open
    close_search_index(paths)
    assert open_store() == []
