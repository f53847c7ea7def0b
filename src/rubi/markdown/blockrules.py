"""markdown-it's block rules, tried by the first character of a line.

markdown-it tries every block rule in turn at each block's first line, and each
rule that can end a paragraph at every further line of a paragraph, list item or
block quote (``fence``, ``blockquote``, ``hr``, ``list``, ``html_block``,
``heading``: each a Python call and a debug log call, most failing on the line's
first character). :func:`dispatch_by_first_char` puts in each of a parser's chains
one rule that calls, in the chain's order, only the rules that can match a line
starting with that character. The rules left out return ``False`` on such a line
before anything else (they test that character first, or a code block's indent
they share with the rules kept), so the tokens are the same
(``tests/markdown/test_block_dispatch.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from markdown_it import MarkdownIt

__all__ = ["dispatch_by_first_char"]

BlockRule = Callable[[Any, int, int, bool], bool]
"""A markdown-it block rule: ``(state, start line, end line, silent) -> matched``."""

MARKERS = {
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "reference": "[",
    "html_block": "<",
    "heading": "#",
}
"""The first characters (after the line's indent) each rule can match; a rule not
named here is tried on every line."""


def dispatch_by_first_char(md: MarkdownIt) -> None:
    """Replace each compiled chain of ``md``'s block ruler with one rule that tries
    only the chain's rules for the line's first character. A later change to the
    ruler (enable, disable, a plugin) compiles the chains again, as markdown-it
    does, without the dispatch."""
    ruler = md.block.ruler
    try:  # markdown-it's own fields: another release may lay them out otherwise
        names = {rule.fn: rule.name for rule in ruler.__rules__}
        ruler.getRules("")  # compiles every chain
        cache = ruler.__cache__
    except (AttributeError, TypeError):
        return  # the stock chains: slower, the same tokens
    if not isinstance(cache, dict):
        return
    for chain, rules in cache.items():
        cache[chain] = [_dispatcher(rules, [names.get(rule, "") for rule in rules])]


def _dispatcher(rules: Sequence[BlockRule], names: Sequence[str]) -> BlockRule:
    marks = [MARKERS.get(name) for name in names]
    every = tuple(rules)
    anywhere = tuple(rule for rule, mark in zip(rules, marks, strict=True) if mark is None)
    by_char = {
        char: tuple(
            rule for rule, mark in zip(rules, marks, strict=True) if mark is None or char in mark
        )
        for char in "".join(mark for mark in marks if mark)
    }

    def rule(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
        pos = state.bMarks[start_line] + state.tShift[start_line]
        src = state.src
        tried = by_char.get(src[pos], anywhere) if pos < len(src) else every
        for tried_rule in tried:  # noqa: SIM110 (a loop: no generator per line)
            if tried_rule(state, start_line, end_line, silent):
                return True
        return False

    return rule
