"""Block rules tried by a line's first character give markdown-it's tokens: the same
tokens (every field: type, map, level, markup, info, content, hidden...) and the same
reference definitions, on real vaults and random block markup."""

from __future__ import annotations

import random

import pytest
from markdown_it import MarkdownIt

from rubi.markdown import parse as P
from rubi.markdown.blockrules import dispatch_by_first_char

from helpers import VAULTS, require_data

_PIECES = [
    "> ",
    ">",
    "- ",
    "-",
    "* ",
    "*",
    "+ ",
    "1. ",
    "2) ",
    "1234567890. ",
    "```",
    "~~~",
    "````",
    "# ",
    "## ",
    "#",
    "    ",
    "  ",
    " ",
    "\t",
    "[a]: /u",
    "[a]:",
    "[",
    "]",
    "<div>",
    "</div>",
    "<!-- ",
    "-->",
    "<pre>",
    "<x",
    "---",
    "===",
    "***",
    "___",
    "text",
    "a b",
    "\n",
    "\n",
    "\n\n",
    "`",
    "\\",
    "\u00e9",
    "\r",
    "\x00",
    "| a | b |",
    "0",
    "9",
]


def _reference() -> MarkdownIt:
    return MarkdownIt("commonmark").disable("inline")


def _assert_same(ref: MarkdownIt, fast: MarkdownIt, text: str) -> None:
    env_ref: dict[str, object] = {}
    env_fast: dict[str, object] = {}
    assert fast.parse(text, env_fast) == ref.parse(text, env_ref), text
    assert env_fast == env_ref


def test_the_note_parser_dispatches() -> None:
    chains = P._MD_BLOCKS.block.ruler.__cache__
    assert chains is not None
    assert all(len(rules) == 1 for rules in chains.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_blocks_give_the_same_tokens(seed: int) -> None:
    ref = _reference()
    fast = _reference()
    dispatch_by_first_char(fast)
    rng = random.Random(seed)
    for _ in range(4000):
        text = "".join(rng.choices(_PIECES, k=rng.randint(0, 80)))
        _assert_same(ref, fast, text)


def test_a_real_vault_gives_the_same_tokens() -> None:
    root = require_data(VAULTS / "obsidian-help-en")
    ref = _reference()
    fast = _reference()
    dispatch_by_first_char(fast)
    for path in sorted(root.rglob("*.md")):
        _assert_same(ref, fast, path.read_text(encoding="utf-8", errors="replace"))


def test_a_changed_ruler_drops_the_dispatch() -> None:
    fast = _reference()
    dispatch_by_first_char(fast)
    fast.disable("hr")
    assert len(fast.block.ruler.getRules("")) > 1
    ref = _reference().disable("hr")
    _assert_same(ref, fast, "***\n- a\n> b\n")
