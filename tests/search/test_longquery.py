"""A long query is reduced to its discriminative words in the index, not refused."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rubi import app
from rubi.index.warm import index_at
from rubi.search.limits import MAX_QUERY_WORDS
from rubi.search.longquery import (
    KEPT_WORDS,
    LONG_QUERY_WORDS,
    MAX_WORD_CHARS,
    bounded_word,
    is_identifier,
    reduce_query,
    written_words,
)

from helpers import write


class Counts:
    """An index of ``total`` documents where each term in ``df`` is held that often."""

    def __init__(self, total: int, df: dict[str, int]) -> None:
        self.total, self.df, self.asked = total, df, 0

    def term_df(self, terms: Iterable[str], field: str = "body") -> tuple[int, dict[str, int]]:
        found = {t: self.df.get(t, 0) for t in terms}
        self.asked += len(found)
        return self.total, found


COMMON = [f"common{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(6)]


def test_a_question_is_left_as_written() -> None:
    question = "how do I sync my vault between two devices?"
    assert reduce_query(question, Counts(10, {})) == question


def test_a_long_query_keeps_names_and_rare_words_in_written_order() -> None:
    body = " ".join(COMMON)  # 36 words every document holds but one
    text = f"Crash on save\n\nwhen I call `flush_all` {body} the zebra parse_tree.py breaks"
    df = {c: 9 for c in COMMON} | {"zebra": 1, "break": 5, "call": 8, "crash": 2, "save": 9}
    df |= {"flush_al": 1, "flush": 3, "all": 9, "parse_tree.pi": 1, "pars": 4, "tree": 4}
    kept = reduce_query(text, Counts(10, df)).split()
    assert len(kept) == KEPT_WORDS
    # identifiers first, then the rarest of the rest; a stop word ("on") has no terms
    for word in ("flush_all", "parse_tree.py", "zebra", "Crash", "breaks"):
        assert word in kept, word
    assert "on" not in kept and "commonff" not in kept  # equal IDF: the earlier word
    assert kept.index("Crash") < kept.index("flush_all") < kept.index("zebra")


def test_words_no_document_holds_are_dropped() -> None:
    text = " ".join(f"unknown{i}" for i in range(100)) + " trie"
    assert reduce_query(text, Counts(10, {"trie": 1})) == "trie"


def test_the_reduction_is_deterministic_and_bounded() -> None:
    many = " ".join(f"W{i}x{i}Name{i}" for i in range(5_000))  # 4 pieces each
    counts = Counts(100, {})
    counts.df = {f"w{i}x{i}name{i}": 1 + i % 50 for i in range(5_000)}
    first = reduce_query(many, counts)
    assert first == reduce_query(many, counts)
    assert len(first.split()) <= KEPT_WORDS
    pieces = {p for w in first.split() for p in (w.casefold(), *w.casefold().split("x"))}
    assert len(pieces) <= MAX_QUERY_WORDS
    assert counts.asked <= 2 * 2_000 * 5  # only the first scanned words are looked up


def test_names_are_recognised() -> None:
    for name in ("snake_case", "camelCase", "ValueError", "attr.s", "src/a/b.py", "_private"):
        assert is_identifier(name), name
    for word in ("plain", "3.7", "Title", "e-mail"):
        assert not is_identifier(word), word
    written = written_words("Title words: plain `quoted` call() and plain again.")
    assert written == ["Title", "words", "plain", "quoted", "call", "and", "again"]
    assert len(written) < LONG_QUERY_WORDS


def test_a_pasted_issue_finds_the_note_its_names_point_to(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "flush.md", "# Flushing\n\nThe `flush_all` writer drains the queue.\n")
    for i in range(6):
        write(vault / f"n{i}.md", f"# Note {i}\n\nWhen using this it seems broken, see below.\n")
    paths = app.locate(vault)
    app.index(paths)
    filler = " ".join(COMMON)
    issue = f"It seems broken when using this\n\nSee below: `flush_all` {filler} seems broken."
    reduced = reduce_query(issue, index_at(paths.whoosh_dir))
    assert reduced != issue
    assert app.search(paths, reduced, scope="notes").hits[0].id == "flush"
    # The whole issue is also searched by its headline (rubi.search.headline), here a
    # title of the filler notes' words: its list votes for them beside the names'.
    hits = [h.id for h in app.search(paths, issue, scope="notes").hits]
    assert "flush" in hits and hits[0] != "flush"


def test_words_that_differ_only_in_digits_count_once() -> None:
    """A pasted traceback's frames (``app/module7.py``, line numbers, ``handler7``)
    are one word each, their first spelling: the question around them is not long."""
    frames = "\n".join(
        f'  File "/srv/app/module{i}.py", line {i}, in handler{i}' for i in range(30)
    )
    text = f"the login token expires at midnight and then this happens:\n{frames}"
    words = written_words(text)
    assert [w for w in words if "module" in w] == ["/srv/app/module0.py".strip("/")]
    assert [w for w in words if w.startswith("handler")] == ["handler0"]
    df = {"login": 4, "token": 3, "expir": 3, "midnight": 3, "modul": 2, "py": 3, "file": 2}
    kept = reduce_query(text, Counts(6, df)).split()  # long, reduced to the families
    assert {"login", "token", "expires", "midnight"} <= set(kept)


PERMALINK = (
    "https://github.com/octo-labs/serialization-kit/blob/1337d0891757e192165668d2606db36cf08e65a9"
    "/src/pkg/serializers.py"
)


def test_an_overlong_path_keeps_its_last_two_segments() -> None:
    """A link to a file at a commit is longer than a word; its tail names the file."""
    assert len(PERMALINK) > MAX_WORD_CHARS
    assert bounded_word(PERMALINK) == "pkg/serializers.py"
    deep = "home/ci/" + "workspace-" * 12 + "/lib/python3.7/site-packages/babel/core.py"
    assert bounded_word(deep) == "babel/core.py"
    assert bounded_word("pkg/serializers.py") == "pkg/serializers.py"  # short: as written


def test_an_overlong_word_that_is_no_path_names_nothing() -> None:
    assert bounded_word("QUJD" * 40) == ""  # a blob
    assert bounded_word("x" * 120 + "/") == ""  # no last segment
    assert bounded_word("https://example.org/" + "y" * 120) == ""  # a segment too long


def test_a_long_issue_keeps_the_file_its_permalink_points_at() -> None:
    """The link's tail is kept, an identifier, ahead of the issue's prose words; the
    host, owner and commit before it are not."""
    issue = f"Empty tags leak\n\nThe list at [this line]({PERMALINK}#L44) is short. " + " ".join(
        COMMON
    )
    df = {c: 2 for c in COMMON} | {"pkg": 3, "serializers.pi": 1, "serial": 1, "py": 5}
    kept = reduce_query(issue, Counts(40, df)).split()
    assert "pkg/serializers.py" in kept
    assert not any("github" in w or "1337d" in w for w in kept)
