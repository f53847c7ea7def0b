"""Snippets: the line that best shows why a document matched."""

from __future__ import annotations

from rubi.index.analysis import analyze
from rubi.search.snippet import SNIPPET_CHARS, best_snippet


def _terms(text: str) -> set[str]:
    return set(analyze(text))


def test_code_snippet_is_the_line_with_most_query_words() -> None:
    code = "\n".join(
        [
            "package chi",
            "",
            "// Router is the routing interface.",
            *[f"func helper{i}() {{}}" for i in range(2000)],
            "func (mx *Mux)   Route(pattern string, fn func(r Router)) Router {",
            "// route pattern",
        ]
    )
    got = best_snippet(code, _terms("route pattern router"), code=True)
    assert got == "func (mx *Mux) Route(pattern string, fn func(r Router)) Router {"


def test_code_snippet_without_a_match_is_the_first_line() -> None:
    assert best_snippet("\n\n  package main\nfunc x() {}\n", _terms("nothing"), code=True) == (
        "package main"
    )
    assert best_snippet("", _terms("anything"), code=True) == ""


def test_long_code_line_is_cut_around_the_match() -> None:
    line = "x = " + "a + " * 100 + "serialize(value)"
    got = best_snippet(line, _terms("serialize"), code=True)
    assert got.startswith("…")
    assert "serialize(value)" in got
    assert len(got) <= SNIPPET_CHARS + 1


def test_snippet_offsets_survive_characters_that_lower_case_longer() -> None:
    # "İ" lower-cases to two characters; the chosen line must still be the right one.
    code = "İİİİ = 1\nparse_config()\n"
    assert best_snippet(code, _terms("parse config"), code=True) == "parse_config()"


def test_markdown_snippet_skips_fences_and_cleans_links() -> None:
    body = "# Title\n```\nembed embed embed\n```\nUse [[Embed files|embeds]] to embed.\n"
    assert best_snippet(body, _terms("embed")) == "Use embeds to embed."
