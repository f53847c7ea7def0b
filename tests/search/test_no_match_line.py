"""The text of a search with no hit: it says so when the index keeps no word of the
query (a new user's `rubi search "a"` read only `No match for "a".`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from rubi.search.render import NO_SEARCHABLE_WORD, no_match_line

from helpers import write


@pytest.mark.parametrize("query", ["a", "?", "the", "of the", "x", "#"])
def test_a_query_with_no_searched_word_says_so(query: str) -> None:
    assert no_match_line(query) == f'No match for "{query}": {NO_SEARCHABLE_WORD}.'


@pytest.mark.parametrize(
    ("query", "terms"),
    [("zzqv", ()), ("quuxFrobnicator", ()), ("a", ("zzqv",)), ("的确", ())],
)
def test_a_query_or_term_with_a_searched_word_keeps_the_plain_line(
    query: str, terms: tuple[str, ...]
) -> None:
    assert no_match_line(query, terms) == f'No match for "{query}".'


def test_rubi_search_prints_it(tmp_path: Path) -> None:
    write(tmp_path / "v" / "a.md", "# Routing\n\nThe router matches paths.\n")
    vault = str(tmp_path / "v")
    out = CliRunner().invoke(cli, ["search", "a", "--vault", vault]).output
    assert out.strip() == f'No match for "a": {NO_SEARCHABLE_WORD}.', out
    out = CliRunner().invoke(cli, ["search", "zzqv", "--vault", vault]).output
    assert out.strip() == 'No match for "zzqv".', out
