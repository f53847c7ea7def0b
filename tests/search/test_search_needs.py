"""A search for a caller that shows nothing of a result below the relevance floor (or
naming no note or file): the recall of a short prompt. Such a search ends once its
text and name lists have told, with no hit, and the same evidence; one that clears the
bar gives the same hits as without ``needs``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.search import engine

from helpers import rubi_project, write

LOADER = "def load_settings(defaults):\n    return dict(defaults)\n"


def _project(tmp_path: Path) -> app.VaultPaths:
    root = rubi_project(tmp_path / "proj", {"src/loader.py": LOADER})
    vault = root / ".rubi"
    write(
        vault / "notes" / "settings.md",
        "# Settings\n\nEnvironment variables override the defaults at startup.\n",
    )
    write(vault / "notes" / "startup.md", "# Startup\n\nThe loader reads settings at startup.\n")
    write(vault / "notes" / "cooking.md", "# Cooking\n\nBoil the pasta in salted water.\n")
    paths = app.locate(vault)
    app.index(paths)
    return paths


def _no_walk(*args: object, **kwargs: object) -> object:
    raise AssertionError("the graph walk of a search whose result nobody shows")


def _no_collapse(*args: object, **kwargs: object) -> object:
    raise AssertionError("the near-duplicate check of a search whose result nobody shows")


def test_a_search_below_the_floor_that_needs_relevance_ends_before_the_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _project(tmp_path)
    query = "which telescope should an astronomer buy for the settings of saturn"
    full = app.search(paths, query, scope="notes", top_k=20, personal=False, refresh=False)
    assert not full.relevant and full.hits  # below the floor, hits all the same
    monkeypatch.setattr(engine, "graph_list", _no_walk)
    monkeypatch.setattr(engine, "collapse", _no_collapse)
    bare = app.search(
        paths, query, scope="notes", top_k=20, personal=False, refresh=False, needs="relevant"
    )
    assert bare.hits == [] and bare.candidates == 0
    assert (bare.relevant, bare.coverage, bare.significance, bare.cjk, bare.named) == (
        full.relevant,
        full.coverage,
        full.significance,
        full.cjk,
        full.named,
    )


@pytest.mark.parametrize(
    ("scope", "query", "needs"),
    [
        ("notes", "how are settings read at startup", "relevant"),
        ("code", "where is load_settings defined", "named"),
    ],
)
def test_a_search_that_clears_what_it_needs_gives_the_same_hits(
    tmp_path: Path, scope: str, query: str, needs: str
) -> None:
    paths = _project(tmp_path)
    full = app.search(paths, query, scope=scope, top_k=20, personal=False, refresh=False)
    assert getattr(full, needs) and full.hits
    needed = app.search(
        paths, query, scope=scope, top_k=20, personal=False, refresh=False, needs=needs
    )
    assert needed == full


def test_a_code_search_that_names_nothing_and_needs_a_name_ends_before_the_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _project(tmp_path)
    query = "return the defaults as a dict"
    full = app.search(paths, query, scope="code", top_k=20, personal=False, refresh=False)
    assert not full.named and full.hits
    monkeypatch.setattr(engine, "graph_list", _no_walk)
    monkeypatch.setattr(engine, "collapse", _no_collapse)
    bare = app.search(
        paths, query, scope="code", top_k=20, personal=False, refresh=False, needs="named"
    )
    assert bare.hits == [] and bare.named == 0 and bare.relevant == full.relevant


def test_the_recall_of_a_short_prompt_below_the_floor_walks_no_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nor does it open the dense index (with the channel on, NumPy and the vectors'
    rows: most of a cold recall's CPU)."""
    from rubi.app import searching
    from rubi.app.recall import recall

    paths = _project(tmp_path)
    prompt = "which telescope should an astronomer buy for the settings of saturn"
    assert recall(paths, prompt, max_tokens=600) is None
    monkeypatch.setattr(engine, "graph_list", _no_walk)
    monkeypatch.setattr(engine, "collapse", _no_collapse)

    def no_dense(*args: object, **kwargs: object) -> object:
        raise AssertionError("the dense index of a search whose result nobody shows")

    monkeypatch.setattr(searching, "_dense", no_dense)
    assert recall(paths, prompt, max_tokens=600) is None


def test_an_unknown_need_is_refused(tmp_path: Path) -> None:
    paths = _project(tmp_path)
    with pytest.raises(ValueError, match="needs"):
        app.search(paths, "settings", personal=False, refresh=False, needs="everything")
