"""Search cost is capped in one place every door goes through (rubi.app.search)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.search.limits import (
    MAX_QUERY_CHARS,
    MAX_QUERY_WORDS,
    QueryTooLargeError,
    check_query,
)

from helpers import write


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write(root / "trie.md", "# Route with a trie\n\nPrefix matching keeps routing fast.\n")
    return root


def word(i: int) -> str:
    """A distinct lower-case word of letters only (one piece): aa, ab, ... ."""
    letters = ""
    for _ in range(3):
        i, r = divmod(i, 26)
        letters += chr(ord("a") + r)
    return "w" + letters


def words(n: int, start: int = 0) -> str:
    return " ".join(word(i) for i in range(start, start + n))


def test_queries_within_the_caps_pass() -> None:
    check_query(words(MAX_QUERY_WORDS))
    check_query(words(4_000))  # many words: the search reduces them, not refused
    check_query("x" * MAX_QUERY_CHARS)
    check_query("a " * 2_000)  # one distinct word, many times
    check_query(words(100), words(100, start=100).split())
    check_query(" ".join(f"{word(i).title()}{word(i + 500).title()}" for i in range(66)))


@pytest.mark.parametrize(
    ("query", "terms", "message"),
    [
        ("x" * (MAX_QUERY_CHARS + 1), [], "100,001 characters"),
        ("short", ["y" * MAX_QUERY_CHARS], "characters with its terms"),
        ("short", words(MAX_QUERY_WORDS + 1).split(), "distinct words"),
        # identifiers count their pieces: 70 ids of two pieces are 210 words
        (
            "short",
            [f"{word(i).title()}{word(i + 500).title()}" for i in range(70)],
            "identifiers count their pieces",
        ),
        ("w" * 1_000_000, [], "1,000,000 characters"),
    ],
)
def test_queries_over_a_cap_are_refused(query: str, terms: list[str], message: str) -> None:
    with pytest.raises(QueryTooLargeError, match=message) as err:
        check_query(query, terms)
    assert "\n" not in str(err.value)


def test_not_text_is_refused() -> None:
    with pytest.raises(RubiError, match="query: must be text"):
        check_query(42)  # type: ignore[arg-type]
    with pytest.raises(RubiError, match="terms: expected a list"):
        check_query("q", "not a list")
    with pytest.raises(RubiError, match="terms: expected a list"):
        check_query("q", [1, 2])  # type: ignore[list-item]


@pytest.mark.timeout(30)
def test_the_facade_refuses_before_opening_anything(vault: Path) -> None:
    paths = app.locate(vault)
    with pytest.raises(QueryTooLargeError):
        app.search(paths, "w" * (MAX_QUERY_CHARS + 1))
    assert not paths.store_file.exists()  # refused before the first index
    assert app.search(paths, "trie").hits[0].id == "trie"
    # thousands of words: reduced to the ones this index holds, and found
    assert app.search(paths, f"trie routing {words(4_000)}").hits[0].id == "trie"
    with pytest.raises(QueryTooLargeError):
        app.search(paths, "trie", terms=[words(300)], scope="notes")


@pytest.mark.timeout(30)
def test_the_cli_prints_one_line(vault: Path) -> None:
    long = "w" * (MAX_QUERY_CHARS + 1)
    result = CliRunner().invoke(cli, ["search", long, "--vault", str(vault)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "characters" in result.stderr
