"""A starting server's recall answers with the lists that are ready: inside
``searching_once(ready_only=True)`` the dense list is left out while the process has
not imported NumPy (counted in ``LEFT_OUT``), the other lists rank as they do with the
channel off; once NumPy is loaded the same block has the list again. A cold recall hook's process
(``one_search(ready_only=True)``) answers the same way for all its searches; a cold
``rubi search`` (``one_search()``) reads the list."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rubi import app, semantic
from rubi.app import searching
from rubi.semantic import dense
from rubi.semantic.sync import vectors_file

from helpers import copy_vault

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

QUERY = "a new journal page for each day"


def test_a_ready_only_search_leaves_the_dense_list_out_until_numpy_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    with_list = app.search(paths, QUERY, refresh=False).hits
    with monkeypatch.context() as m:
        m.setenv(semantic.DISABLE_ENV, "0")
        without_list = app.search(paths, QUERY, refresh=False).hits
    dense._INDEXES.pop(vectors_file(paths.index_dir), None)
    before = searching.LEFT_OUT.get("dense", 0)
    with monkeypatch.context() as m:
        m.delitem(sys.modules, "numpy")  # a server that has not imported it yet
        with searching.searching_once(ready_only=True):
            hits = app.search(paths, QUERY, refresh=False).hits
        assert "numpy" not in sys.modules  # nothing imported it for the search
    assert searching.LEFT_OUT["dense"] == before + 1
    assert vectors_file(paths.index_dir) not in dense._INDEXES  # no vector read
    assert hits == without_list  # the other lists, the same rules
    with searching.searching_once(ready_only=True):  # NumPy loaded: the list is back
        assert app.search(paths, QUERY, refresh=False).hits == with_list
    with searching.searching_once():  # a cold reader's block never leaves it out
        assert app.search(paths, QUERY, refresh=False).hits == with_list
    assert searching.LEFT_OUT["dense"] == before + 1


def test_a_cold_recall_process_answers_with_the_lists_that_are_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(copy_vault("kepano-obsidian", tmp_path))
    app.index(paths)
    with monkeypatch.context() as m:
        m.setenv(semantic.DISABLE_ENV, "0")
        without_list = app.search(paths, QUERY, refresh=False).hits
    dense._INDEXES.pop(vectors_file(paths.index_dir), None)
    before = searching.LEFT_OUT.get("dense", 0)
    searching.one_search(ready_only=True)  # as rubi.entry sets up a cold recall hook
    with monkeypatch.context() as m:
        m.delitem(sys.modules, "numpy")  # a fresh process has not imported it
        for _ in range(2):  # every search of the process, not one block
            assert app.search(paths, QUERY, refresh=False).hits == without_list
        assert "numpy" not in sys.modules
    assert searching.LEFT_OUT["dense"] == before + 2
    assert vectors_file(paths.index_dir) not in dense._INDEXES
    searching.one_search()  # a cold `rubi search`: every list, as the engine answers
    asked: list[Path] = []
    with monkeypatch.context() as m:
        m.delitem(sys.modules, "numpy")
        m.setattr(dense, "dense_index_for", lambda index_dir, **_: asked.append(index_dir))
        app.search(paths, QUERY, refresh=False)
    assert searching.LEFT_OUT["dense"] == before + 2
    assert asked == [paths.index_dir]  # the list is read without NumPy loaded before
