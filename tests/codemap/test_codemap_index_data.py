"""What the index and the graph take from the map."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rubi.codemap import build_code_map, graph_edges, read_text_slice, symbol_text


def test_text_slice_symbols_and_edges(make_repo: Callable[..., Path]) -> None:
    root = make_repo(
        {
            "app.py": "import util\nclass Flask:\n    def dispatch_request(self): ...\n",
            "util.py": "x = 1\n" * 100,
        }
    )
    code_map = build_code_map(root)
    assert symbol_text(code_map.files["app.py"]) == "Flask Flask.dispatch_request dispatch_request"
    # A generated file's thousands of symbols are cut to the first ones.
    assert symbol_text(code_map.files["app.py"], max_symbols=1) == "Flask"
    assert read_text_slice(root, "util.py", max_chars=15) == "x = 1\nx = 1\n"
    assert read_text_slice(root, "gone.py") == ""
    assert list(graph_edges(code_map)) == [
        ("app.py", "imports", "util.py", 1.0),
        ("app.py", "in_module", "(root)", 1.0),
        ("util.py", "in_module", "(root)", 1.0),
    ]
