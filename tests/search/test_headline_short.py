"""A short titled query (title, blank line, a few lines of body: under the length that
reduces a query) is searched by its headline too, as a reduced one is: the title says
what the report is about, the body the words of what the author saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.search.longquery import LONG_QUERY_WORDS, written_words

from helpers import rubi_project

CART = (
    '"""The cart: its lines and their prices."""\n\n\n'
    "def cart_total(lines):\n"
    '    """Sum the prices of the cart\'s lines, each rounded to cents."""\n'
    "    return sum(round(price, 2) for price in lines)\n"
)
REPORT = (
    '"""The monthly report: a table of figures printed as text."""\n\n\n'
    "def print_report(figures):\n"
    '    """Print the monthly report table, one figure per row of output."""\n'
    "    for figure in figures:\n"
    "        print(figure)\n"
)
TITLE = "Cart total rounds prices down"
BODY = "The monthly report prints the wrong figure in its table: report output below."


@pytest.fixture
def project(tmp_path: Path) -> VaultPaths:
    root = rubi_project(tmp_path / "proj", {"shop/cart.py": CART, "shop/report.py": REPORT})
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return paths


def _order(paths: VaultPaths, query: str) -> list[str]:
    return [h.path for h in app.search(paths, query, scope="code", top_k=5).hits]


def test_a_short_titled_issue_is_searched_by_its_title_too(project: VaultPaths) -> None:
    issue = f"{TITLE}\n\n{BODY}"
    assert len(written_words(issue)) <= LONG_QUERY_WORDS  # not reduced
    # As one paragraph the body's words take the report first; with its title apart,
    # the headline's own search votes for the cart beside the whole's.
    assert _order(project, f"{TITLE} {BODY}")[0] == "shop/report.py"
    assert _order(project, issue)[0] == "shop/cart.py"
