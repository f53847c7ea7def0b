"""markdown-it's ``parseLinkDestination``, with the characters its loop only steps
over jumped by one regular expression match.

markdown-it reads a link destination (``[text](destination "title")``) one character
at a time through ``charCodeAt`` (a Python call each): on a vault of web links that
is about 100 calls per link and 5% of a full build. :func:`parse_link_destination`
takes the same decisions on the same characters (space and control characters end
the destination, a backslash skips the next character, parentheses nest up to 32
deep) and jumps over each run of characters that are none of these with
:data:`_PLAIN`; a destination in ``<...>`` and a bound past the string go to
markdown-it's own function. The result is the same object with the same fields
(``tests/markdown/test_link_destination.py`` compares them on generated input and
on the links of real vaults).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from markdown_it import helpers
from markdown_it.common.utils import unescapeAll
from markdown_it.helpers.parse_link_destination import _Result

__all__ = ["fast_helpers", "parse_link_destination"]

_PLAIN = re.compile(r"[^\x00-\x20\x7f\\()]+")
"""Characters markdown-it's loop only steps over: not space, not a control character,
not a backslash, not a parenthesis."""


def parse_link_destination(string: str, pos: int, maximum: int) -> Any:
    """``markdown_it.helpers.parseLinkDestination(string, pos, maximum)``: a result
    with ``ok``, ``pos`` (after the destination) and ``str`` (unescaped)."""
    if maximum > len(string) or string[pos : pos + 1] == "<":
        return helpers.parseLinkDestination(string, pos, maximum)
    start = pos
    level = 0
    plain = _PLAIN.match
    while pos < maximum:
        run = plain(string, pos, maximum)
        if run is not None:
            pos = run.end()
            continue
        char = string[pos]
        if char <= " " or char == "\x7f":
            break
        if char == "\\" and pos + 1 < maximum:
            if string[pos + 1] == " ":
                break
            pos += 2
            continue
        if char == "(":
            level += 1
            if level > 32:
                return _Result()
        elif char == ")":
            if level == 0:
                break
            level -= 1
        pos += 1
    result = _Result()
    if start == pos or level != 0:
        return result
    result.str = unescapeAll(string[start:pos])
    result.pos = pos
    result.ok = True
    return result


def fast_helpers() -> Any:
    """markdown-it's ``helpers`` module as a parser holds it (``md.helpers``), with
    :func:`parse_link_destination` in place of ``parseLinkDestination`` (a
    :class:`~types.SimpleNamespace`)."""
    return SimpleNamespace(
        parseLinkDestination=parse_link_destination,
        parseLinkLabel=helpers.parseLinkLabel,
        parseLinkTitle=helpers.parseLinkTitle,
    )
