"""A term of a path pasted into a query (a traceback's file) maps back to the path
segment that gives it (:func:`rubi.index.queryanalysis.word_map`), so a why-line says
``text match: _cachedmethod.py (title)``, not the user's whole site-packages path."""

from __future__ import annotations

from rubi.index.analysis import analyze
from rubi.index.queryanalysis import word_map

TRACEBACK_LINE = (
    '  File "/home/alice/proj/.venv/lib/python3.12/site-packages/cachetools/_cachedmethod.py",'
    " line 84, in __get__"
)


def test_a_file_name_term_maps_to_the_file_name_not_the_whole_path() -> None:
    found, _ = word_map(TRACEBACK_LINE)
    terms = [t for t in analyze("_cachedmethod.py") if "." in t]
    assert terms  # the analyzer keeps the file name with its extension
    for term in terms:
        assert found[term] == "_cachedmethod.py"
    assert found["python3.12"] == "python3.12"
    assert not any(source.startswith("/home/") for source in found.values())


def test_a_windows_path_is_cut_at_backslashes() -> None:
    found, _ = word_map(r"C:\Users\bob\app\core\Router.py failed")
    assert found["router.py"] == "router.py"


def test_words_without_a_path_map_as_before() -> None:
    found, _ = word_map("HttpServer dispatch_request v1.2")
    assert found["httpserver"] == "httpserver"
    assert found["request"] == "request"
    assert all("/" not in source for source in found.values())
