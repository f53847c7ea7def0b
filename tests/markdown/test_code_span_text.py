"""Content whose only markup is code spans is read without markdown-it's inline
parser, and content without escapes, entities, ``<`` or ``](`` with a parser of
fewer rules, to the same text and links."""

from __future__ import annotations

import random

import pytest
from markdown_it.token import Token

from rubi.markdown import parse as mp


def _parsed(content: str) -> str:
    token = Token("inline", "", 0)
    token.content = content
    token.children = []
    mp._MD.inline.parse(content, mp._MD, {}, token.children)
    return mp._inline_text(token)


@pytest.mark.parametrize(
    "content",
    [
        "run `rubi index` then `rubi search x`",
        "``a ` b`` and `c`",
        "open ` never closed",
        "```` four and ` one ```` ",
        "`a`` b `c`",
        "line one  \n   `code`\nline three \n\tfour",
        "`span\nover lines` after",
        "`` ` `` `` x",
        "[[Note|alias]] with `code` and #tag",
    ],
)
def test_cases(content: str) -> None:
    content = content.strip()
    assert mp._CODE_SPANS_ONLY.search(content) is None
    assert mp._code_span_text(content) == _parsed(content)


def test_random_content() -> None:
    rng = random.Random(16)
    pieces = ["`", "``", "```", " ", "  ", "\n", "\t", "a", "[", "]", "(", "!", "x y", "é"]
    for _ in range(5000):
        content = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 25))).strip()
        if "`" in content:
            assert mp._code_span_text(content) == _parsed(content), repr(content)


def test_parse_note_takes_the_short_path() -> None:
    note = mp.parse_note("# Title `x`\n\nSee [[Other]] and `code [[not a link]]` #tag\n", "n.md")
    assert note.title == "Title x"  # a title shows its code, as a reader sees it
    assert [h.text for h in note.headings] == ["Title"]
    assert [link.target for link in note.links] == ["Other"]
    assert note.tags == ("tag",)


def _full(content: str) -> tuple[str, list[Token]]:
    token = Token("inline", "", 0)
    token.content = content
    token.children = []
    mp._MD.inline.parse(content, mp._MD, {}, token.children)
    return mp._inline_text(token), token.children


def test_fewer_rules_same_tokens() -> None:
    rng = random.Random(17)
    pieces = ["`", "*", "**", "_", "__", " ", "\n", "a", "[", "]", "(", ")", "!", "[[", "]]", "é"]
    for _ in range(5000):
        content = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 25))).strip()
        if not content or mp._SPANS_ONLY.search(content):
            continue
        token = Token("inline", "", 0)
        token.content = content
        text = mp._parse_inline(token, {})
        want_text, want_children = _full(content)
        assert text == want_text, repr(content)
        if token.children is not None:  # parsed: the same tokens
            assert [(c.type, c.content) for c in token.children] == [
                (c.type, c.content) for c in want_children
            ], repr(content)
