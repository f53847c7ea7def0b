"""A markdown-it inline rule that reads ``[[...]]`` and ``![[...]]`` as Obsidian does:
as one run of text, taken before emphasis, links and the other inline rules see it.

Without it, CommonMark's emphasis ate the underscores and stars of a link's target
(``[[modules/__tests__]]`` became a link to ``modules/tests``, ``[[__init__]]`` to
``init``), so such links were left unresolved: every map page of a project with a
``__tests__`` folder had one.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

__all__ = ["WIKILINK_RULE", "add_wikilink_rule"]

WIKILINK_RULE = "wikilink"
"""The rule's name in the inline ruler (for ``enableOnly`` lists)."""

_SPAN = re.compile(r"!?\[\[[^\[\]\n`]+?\]\]")
"""The same span as :data:`rubi.markdown.links.WIKILINK_RE`."""


def add_wikilink_rule(md: MarkdownIt) -> None:
    """Add the rule to ``md``'s inline parser, right after the plain-text rule (which
    stops at ``!`` and ``[``), so no later rule sees inside a wikilink."""
    md.inline.ruler.after("text", WIKILINK_RULE, _wikilink)


def _wikilink(state: StateInline, silent: bool) -> bool:
    """At ``[[`` or ``![[``: the whole wikilink as one text token."""
    src, pos = state.src, state.pos
    if not (src.startswith("[[", pos) or src.startswith("![[", pos)):
        return False
    found = _SPAN.match(src, pos, state.posMax)
    if found is None:
        return False
    if not silent:
        state.push("text", "", 0).content = found.group()
    state.pos = found.end()
    return True
