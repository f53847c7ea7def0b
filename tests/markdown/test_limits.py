"""Per-note limits: a note past a limit keeps its first items of that kind, its body
is cut at a line end past the distinct-word limit, and one line says what was left
out; a note within every limit comes back unchanged."""

from __future__ import annotations

import dataclasses

from rubi.core.model import Heading, Link, Note
from rubi.markdown import parse_note
from rubi.markdown.limits import (
    MAX_ALIASES,
    MAX_DISTINCT_WORDS,
    MAX_HEADINGS,
    MAX_LINKS,
    MAX_TAGS,
    MAX_TITLE_CHARS,
    bound_note,
)

PLAIN = Note(id="n", path="n.md", title="N", body="just a few words\n")


def test_a_note_within_every_limit_is_returned_as_it_is() -> None:
    note = parse_note("# Title\n\n#tag see [[Other]] and [[Third]]\n", "n.md")
    assert bound_note(note) == (note, None)
    assert bound_note(note)[0] is note


def test_a_note_exactly_at_every_limit_is_returned_as_it_is() -> None:
    note = dataclasses.replace(
        PLAIN,
        tags=tuple(f"t{i}" for i in range(MAX_TAGS)),
        links=tuple(Link(target=f"l{i}") for i in range(MAX_LINKS)),
        headings=tuple(Heading(2, f"h{i}", i) for i in range(MAX_HEADINGS)),
        aliases=tuple(f"a{i}" for i in range(MAX_ALIASES)),
        body="\n".join(f"w{i}" for i in range(MAX_DISTINCT_WORDS)),
    )
    assert bound_note(note) == (note, None)


def test_too_many_tags_keep_the_first_and_say_so() -> None:
    note = dataclasses.replace(PLAIN, tags=tuple(f"t{i}" for i in range(MAX_TAGS + 5)))
    bounded, problem = bound_note(note)
    assert bounded.tags == note.tags[:MAX_TAGS]
    assert (
        problem
        == f"{MAX_TAGS + 5:,} tags, over the limit of {MAX_TAGS:,}: the first {MAX_TAGS:,} indexed"
    )
    assert bounded.body == note.body and bounded.links == note.links


def test_too_many_links_aliases_and_headings_are_each_named_in_one_line() -> None:
    note = dataclasses.replace(
        PLAIN,
        links=tuple(Link(target=f"l{i}") for i in range(MAX_LINKS + 1)),
        aliases=tuple(f"a{i}" for i in range(MAX_ALIASES + 2)),
        headings=tuple(Heading(1, f"h{i}", i) for i in range(MAX_HEADINGS + 3)),
    )
    bounded, problem = bound_note(note)
    assert bounded.links == note.links[:MAX_LINKS]
    assert bounded.aliases == note.aliases[:MAX_ALIASES]
    assert bounded.headings == note.headings[:MAX_HEADINGS]
    assert problem is not None and "\n" not in problem
    parts = problem.split("; ")
    assert parts == [
        f"{MAX_LINKS + 1:,} links, over the limit of {MAX_LINKS:,}: "
        f"the first {MAX_LINKS:,} indexed",
        f"{MAX_ALIASES + 2:,} aliases, over the limit of {MAX_ALIASES:,}: "
        f"the first {MAX_ALIASES:,} indexed",
        f"{MAX_HEADINGS + 3:,} headings, over the limit of {MAX_HEADINGS:,}: "
        f"the first {MAX_HEADINGS:,} indexed",
    ]


def test_a_body_of_too_many_distinct_words_is_cut_at_the_line_of_the_first_word_past() -> None:
    lines = [" ".join(f"w{i * 10 + j}" for j in range(10)) for i in range(MAX_DISTINCT_WORDS // 10)]
    lines.insert(3, "w5 w17 w5 w17 " * 50)  # repeats count once
    body = "\n".join(lines) + "\nw0 w1\nlast line past the limit\n"
    bounded, problem = bound_note(dataclasses.replace(PLAIN, body=body))
    kept = bounded.body
    assert body.startswith(kept) and kept.endswith("w0 w1\n")
    assert problem == (
        f"a body of more than {MAX_DISTINCT_WORDS:,} distinct words: "
        f"its first {len(kept):,} characters indexed"
    )


def test_headings_of_too_many_distinct_words_keep_those_within() -> None:
    wide = " ".join(f"x{i}" for i in range(MAX_DISTINCT_WORDS // 2))
    other = " ".join(f"y{i}" for i in range(MAX_DISTINCT_WORDS // 2 + 1))
    note = dataclasses.replace(
        PLAIN, headings=(Heading(1, wide, 0), Heading(2, wide, 1), Heading(2, other, 2))
    )
    bounded, problem = bound_note(note)
    assert bounded.headings == note.headings[:2]
    assert problem == (
        f"headings of more than {MAX_DISTINCT_WORDS:,} distinct words: the first 2 indexed"
    )


def test_a_first_line_of_too_many_distinct_words_is_cut_at_the_word_past() -> None:
    body = " ".join(f"w{i}" for i in range(MAX_DISTINCT_WORDS + 10)) + "\nnext line\n"
    bounded, _ = bound_note(dataclasses.replace(PLAIN, body=body))
    assert bounded.body == body[: body.index(f" w{MAX_DISTINCT_WORDS}") + 1]


def test_a_title_too_long_is_cut() -> None:
    note = parse_note("# " + "long " * MAX_TITLE_CHARS + "\n\nbody\n", "n.md")
    bounded, problem = bound_note(note)
    assert bounded.title == note.title[:MAX_TITLE_CHARS]
    assert problem == (
        f"a title of {len(note.title):,} characters, over the limit of {MAX_TITLE_CHARS:,}: "
        f"its first {MAX_TITLE_CHARS:,} indexed"
    )
