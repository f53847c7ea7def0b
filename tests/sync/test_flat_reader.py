"""A one-shot reader (a cold recall hook, a cold ``rubi search``) opens the flat graph
when it holds the store's generation and code stamp, and searches it to the same
answers as the live graph; when the flat graph is behind the store (a note saved since),
of another code stamp or damaged, it reads the snapshot, replays the journal, and
writes the flat graph again for the next reader."""

from __future__ import annotations

import dataclasses
import logging
import os
import struct
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.graph import flatlayout, readmode
from rubi.graph.flat import FlatGraph, read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.frozen import FrozenGraph
from rubi.sync import forget_vault_syncs, vault_sync_for
from rubi.sync.oneshot import current_flat
from rubi.sync.run import has_vault_sync
from rubi.sync.vaultsync import VaultSync

from helpers import login_project, store_generation, write

QUERIES = ("why does the login token expire at night?", "cache server", "login", "auth.py")
NEW = "notes/gotcha-night-shift-tokens"
_LAZY = ("source", "day", "day_from", "parts")


@pytest.fixture
def paths(tmp_path: Path) -> VaultPaths:
    """An indexed project whose flat graph is current: a first one-shot reader wrote it
    (the runs that changed the graph did not)."""
    paths = app.locate(login_project(tmp_path / "proj") / ".rubi")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readmode, "_frozen", True)
        forget_vault_syncs()
        VaultSync(paths).graph()
    forget_vault_syncs()
    assert read_flat(_flat_file(paths))[1] == store_generation(paths)
    return paths


def _flat_file(paths: VaultPaths) -> Path:
    return paths.graph_file.with_name("graph.flat")


def _answers(paths: VaultPaths) -> list[object]:
    """Each query's hits, every field but those read from the files when shown."""
    found = []
    for query in QUERIES:
        hits = [dataclasses.asdict(hit) for hit in app.search(paths, query, refresh=False).hits]
        found.append([{k: v for k, v in hit.items() if k not in _LAZY} for hit in hits])
    return found


def _save_a_note(paths: VaultPaths) -> None:
    write(
        paths.root / f"{NEW}.md",
        "---\ntype: gotcha\n---\n# Night shift tokens expire at the login rollover\n\n"
        "The login token rolls over at night; see "
        "[[gotcha-login-tokens-expire-at-midnight-utc]].\n",
    )
    app.index(paths)


def test_a_one_shot_reader_opens_the_flat_graph_and_answers_as_the_live_graph(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    sync = VaultSync(paths)
    assert isinstance(sync.graph().graph, FlatGraph)
    assert sync._graphs.live is None  # no live graph (resolver, readers, records) loaded
    forget_vault_syncs()
    assert _answers(paths) == live_answers


def test_a_body_edit_marks_the_flat_graph_current_without_writing_it_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run that commits what the graph does not hold (a sentence added to a body)
    moves the store's generation; the flat graph is the same build at both."""
    flat_file = _flat_file(paths)
    before, gen_before = flat_file.read_bytes(), store_generation(paths)
    note = paths.root / "notes" / "gotcha-login-tokens-expire-at-midnight-utc.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nRefresh it at noon too.\n")
    app.index(paths)
    assert store_generation(paths) > gen_before
    assert read_flat(flat_file)[1] == store_generation(paths)
    after = flat_file.read_bytes()
    assert after[:16] + after[24:] == before[:16] + before[24:]  # the generation alone
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    assert isinstance(VaultSync(paths).graph().graph, FlatGraph)


def test_a_link_edit_leaves_the_flat_graph_to_the_next_one_shot_reader(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run that changed the graph does not write the flat graph; the next one-shot
    reader replays the journal and writes it, and the one after opens it."""
    _save_a_note(paths)
    assert read_flat(_flat_file(paths))[1] < store_generation(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    graph = VaultSync(paths).graph().graph
    assert isinstance(graph, FrozenGraph) and NEW in graph
    build, gen, _ = read_flat(_flat_file(paths))
    assert gen == store_generation(paths) and NEW in build.graph
    forget_vault_syncs()
    graph = VaultSync(paths).graph().graph
    assert isinstance(graph, FlatGraph) and NEW in graph


def test_a_note_saved_after_the_flat_graph_is_found_by_a_one_shot_search(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    _save_a_note(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    assert NEW in [h.id for h in app.search(paths, "night shift rollover", refresh=False).hits]
    forget_vault_syncs()
    assert isinstance(VaultSync(paths).graph().graph, FlatGraph)
    assert NEW in [h.id for h in app.search(paths, "night shift rollover", refresh=False).hits]


def test_a_flat_graph_of_another_code_stamp_is_not_read_and_is_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    flat_file = _flat_file(paths)
    build, gen, stamp = read_flat(flat_file)
    write_flat(flat_file, build, gen, stamp + 1)  # code nodes older than the store says
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    graph = VaultSync(paths).graph().graph
    assert not isinstance(graph, FlatGraph)
    assert read_flat(flat_file)[1:] == (gen, stamp)


def _refused_once_and_written_again(
    paths: VaultPaths,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    live_answers: object,
    data: bytes,
    words: str,
) -> None:
    """A fresh process's answers equal the live graph's, one one-line message naming
    ``graph.flat`` holds ``words``, and the file is written again as ``data``."""
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    with caplog.at_level(logging.INFO, logger="rubi"):
        assert _answers(paths) == live_answers
    said = [r.getMessage() for r in caplog.records if "graph.flat" in r.getMessage()]
    assert len(said) == 1 and "\n" not in said[0] and words in said[0]
    assert _flat_file(paths).read_bytes() == data  # written again, as it was


def test_a_damaged_flat_graph_is_refused_with_one_warning_and_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    flat_file = _flat_file(paths)
    data = flat_file.read_bytes()
    flat_file.write_bytes(data[: len(data) - 5])
    live_answers = _answers(paths)
    _refused_once_and_written_again(paths, monkeypatch, caplog, live_answers, data, "truncated")


def test_a_flat_graph_of_the_older_format_is_refused_and_written_again(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A file of format 1 (its ids one JSON array) is never read as this format's: the
    one-shot reader answers from the snapshot, as the live graph does, and writes the
    file again in this format."""
    flat_file = _flat_file(paths)
    data = flat_file.read_bytes()
    assert flatlayout.FLAT_FORMAT == 2
    flat_file.write_bytes(data[:8] + struct.pack("<I", 1) + data[12:])
    live_answers = _answers(paths)
    _refused_once_and_written_again(
        paths, monkeypatch, caplog, live_answers, data, "old format (1)"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.timeout(60)
def test_a_fifo_in_place_of_the_flat_graph_is_refused_without_blocking_and_replaced(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    flat_file = _flat_file(paths)
    data = flat_file.read_bytes()
    live_answers = _answers(paths)
    flat_file.unlink()
    os.mkfifo(flat_file, 0o600)  # opening it to read would wait for a writer forever
    _refused_once_and_written_again(
        paths, monkeypatch, caplog, live_answers, data, "not a regular file"
    )


def test_a_one_shot_search_of_a_current_flat_graph_makes_no_vault_sync(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A one-shot reader opens a current flat graph itself (no vault sync, no note
    cache or code memory), to the same answers; once a note is saved the flat graph is
    behind, and the search goes through the vault sync, which writes it again."""
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    build = current_flat(paths)
    assert build is not None and isinstance(build.graph, FlatGraph)
    assert _answers(paths) == live_answers
    assert not has_vault_sync(paths)

    monkeypatch.setattr(readmode, "_frozen", False)
    _save_a_note(paths)
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    assert current_flat(paths) is None  # behind the store
    assert _answers(paths) == live_answers
    assert has_vault_sync(paths)  # the vault sync replayed the journal
    forget_vault_syncs()
    assert read_flat(_flat_file(paths))[1] == store_generation(paths)
    assert current_flat(paths) is not None


def test_a_one_shot_reader_defers_to_a_vault_sync_that_holds_the_live_graph(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process whose vault sync loaded the live graph (an index run or a reader
    before the search) reads the graph through it, however current the flat graph; a
    vault sync made only for the code map (a code hit's symbols) holds no graph, and
    the current flat graph is read as without one."""
    monkeypatch.setattr(readmode, "_frozen", True)
    forget_vault_syncs()
    vault_sync_for(paths).code_map()
    assert current_flat(paths) is not None
    monkeypatch.setattr(readmode, "_frozen", False)
    vault_sync_for(paths).graph()  # the live graph, as a long-lived reader loads it
    monkeypatch.setattr(readmode, "_frozen", True)
    assert current_flat(paths) is None
    forget_vault_syncs()
    assert current_flat(paths) is not None


def test_a_search_once_after_a_code_hit_still_reads_the_flat_graph(paths: VaultPaths) -> None:
    """A server's recall searches notes, then code; the first search's code hits read
    their symbols from the code map through a vault sync. The next search once still
    opens the current flat graph, not the live graph (networkx), to the same answers."""
    from rubi.app.searching import searching_once
    from rubi.sync.run import holds_live_graph

    live_answers = _answers(paths)
    forget_vault_syncs()
    with searching_once():
        vault_sync_for(paths).code_map()  # as a code hit's passages do
        assert _answers(paths) == live_answers
        assert not holds_live_graph(paths)
    forget_vault_syncs()


def test_a_run_in_a_process_that_runs_once_leaves_the_flat_graph_current(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index run that changes the graph (a new note links to another) in a process
    marked as running once (``rubi index``, a cold hook) writes the flat graph of its
    generation, so the next cold reader opens it instead of replaying the run; in a
    long-lived process (a server, a watcher) the run leaves it behind, for that reader
    to write."""
    from rubi.sync import oneshot

    monkeypatch.setattr(oneshot, "_ONE_SHOT", [])
    _save_a_note(paths)  # not marked: the flat graph stays behind
    assert read_flat(_flat_file(paths))[1] != store_generation(paths)

    monkeypatch.setattr(oneshot, "_ONE_SHOT", [True])
    write(
        paths.root / "notes" / "gotcha-cache-server-restarts.md",
        "---\ntype: gotcha\n---\n# The cache server restarts at night\n\n"
        f"It drops the tokens: see [[{NEW.removeprefix('notes/')}]].\n",
    )
    app.index(paths)
    assert read_flat(_flat_file(paths))[1] == store_generation(paths)
    live_answers = _answers(paths)
    forget_vault_syncs()
    monkeypatch.setattr(readmode, "_frozen", True)
    assert current_flat(paths) is not None
    assert _answers(paths) == live_answers
    assert not has_vault_sync(paths)


def test_a_search_once_in_a_long_lived_process_opens_the_flat_graph_for_its_thread_only(
    paths: VaultPaths,
) -> None:
    """A server answering a hook cold (``searching_once``) opens a current flat graph
    as a cold process does, to the same answers, without making a vault sync and
    without marking the process: another thread's search meanwhile, and every search
    after the block, reads through the vault sync; once one exists, a search once
    reads its graph too."""
    import threading

    from rubi.app.searching import searching_once
    from rubi.sync import oneshot

    live_answers = _answers(paths)
    forget_vault_syncs()
    other: list[bool] = []
    with searching_once():
        assert _answers(paths) == live_answers
        assert not has_vault_sync(paths)
        thread = threading.Thread(target=lambda: other.append(bool(_answers(paths))))
        thread.start()
        thread.join(60)
        assert other == [True] and has_vault_sync(paths)  # its thread read the usual way
        forget_vault_syncs()
    assert not readmode.reads_frozen() and not oneshot.is_one_shot()
    assert _answers(paths) == live_answers
    assert has_vault_sync(paths)  # after the block: the usual reader
    with searching_once():
        assert current_flat(paths, once=True) is None  # the vault sync holds the graph
        assert _answers(paths) == live_answers
    forget_vault_syncs()


def test_a_server_s_catch_up_run_leaves_the_flat_graph_current_for_the_next_session(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one run a starting server makes when something changed since the last run
    (the last session's record) writes the flat graph it changed, though the process
    is not one that runs once: the next session's first recall reads it without a
    vault sync."""
    from rubi.app.searching import searching_once
    from rubi.sync import oneshot

    monkeypatch.setattr(oneshot, "_ONE_SHOT", [])
    forget_vault_syncs()
    write(
        paths.root / f"{NEW}.md",
        "---\ntype: gotcha\n---\n# Night shift tokens expire at the login rollover\n\n"
        "See [[gotcha-login-tokens-expire-at-midnight-utc]].\n",
    )
    assert app.catch_up_if_changed(paths, lock_timeout_s=5)
    assert read_flat(_flat_file(paths))[1] == store_generation(paths)
    live_answers = _answers(paths)
    forget_vault_syncs()
    with searching_once():
        assert _answers(paths) == live_answers
        assert not has_vault_sync(paths)
    forget_vault_syncs()


def test_a_one_shot_processes_searches_share_one_opening_of_the_current_flat_graph(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code project's recall searches twice: the second search gets the build the
    first opened (what it decoded stays decoded) while the store and the file are as
    they were; a run that moves the store on, or a cold answer in a long-lived process
    (``once``), opens the file again."""
    monkeypatch.setattr(readmode, "_frozen", True)
    first = current_flat(paths)
    assert first is not None
    assert current_flat(paths) is first
    assert current_flat(paths, once=True) is not first
    _save_a_note(paths)  # the store moves on; the flat graph is behind it
    assert current_flat(paths) is None
    forget_vault_syncs()
    VaultSync(paths).graph()  # replays the journal and writes the flat graph again
    forget_vault_syncs()
    again = current_flat(paths)
    assert again is not None and again is not first
    assert NEW in again.graph


def test_a_call_answered_once_shares_one_opening_for_its_searches_only(
    paths: VaultPaths,
) -> None:
    """In a long-lived process, the searches of one call answered cold (a recall that
    searches code, then notes) share the flat graph one of them opened; the next call
    opens it again, and nothing outside such a call keeps it."""
    from rubi.app.searching import searching_once

    forget_vault_syncs()
    with searching_once():
        first = current_flat(paths, once=True)
        assert first is not None
        assert current_flat(paths, once=True) is first
    with searching_once():
        second = current_flat(paths, once=True)
        assert second is not None and second is not first
        _save_a_note(paths)  # the store moves on: the opening is not reused
        assert current_flat(paths, once=True) is None
    assert current_flat(paths, once=True) is None
    forget_vault_syncs()


def test_a_graph_the_writer_refuses_says_one_line_per_reader_not_also_the_old_file_s(
    paths: VaultPaths, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A graph the writer refuses (a node id holding a NUL, as a wikilink around a code
    span made in an index of the code before it was dropped at parse) is refused on
    every cold reader's write: the file of the older format there is removed with the
    first refusal, so each later reader logs the refusal alone (naming what to do), not
    also "old format (1)", and answers as the live graph does."""
    from rubi.graph import flatwrite

    flat_file = _flat_file(paths)
    data = flat_file.read_bytes()
    flat_file.write_bytes(data[:8] + struct.pack("<I", 1) + data[12:])
    live_answers = _answers(paths)

    def refused(ids: list[str]) -> bytes:
        raise ValueError("the node id 'dangling:a\\x00b' holds a NUL character")

    monkeypatch.setattr(flatwrite, "_ids_text", refused)
    monkeypatch.setattr(readmode, "_frozen", True)
    said_per_reader = []
    for _ in range(2):
        forget_vault_syncs()
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="rubi"):
            assert _answers(paths) == live_answers
        said_per_reader.append(
            [r.getMessage() for r in caplog.records if "graph.flat" in r.getMessage()]
        )
    assert len(said_per_reader[0]) == 2 and "old format (1)" in said_per_reader[0][0]
    assert len(said_per_reader[1]) == 1 and "NUL" in said_per_reader[1][0]
    assert not flat_file.exists()
