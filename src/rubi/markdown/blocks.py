"""markdown-it's parser as rubi uses it, and its block parser: the tokens of a body's
blocks (code blocks, HTML blocks, paragraphs), inline content not parsed.

Its own module so that a reader of a note's blocks (:mod:`rubi.markdown.comments`)
needs neither the note parser nor YAML.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common import normalize_url
from markdown_it.token import Token

from rubi.markdown.blockrules import dispatch_by_first_char
from rubi.markdown.linkdest import fast_helpers

__all__ = ["BLOCKS", "Parser", "block_tokens"]

_WEB_URL = re.compile(r"(?:https?|mailto):", re.IGNORECASE)
"""A link destination :func:`Parser.normalizeLink` leaves as written."""


class Parser(MarkdownIt):
    """markdown-it's parser, except that web and mail links are not normalized and
    link destinations are read by :func:`rubi.markdown.linkdest.parse_link_destination`
    (the same results)."""

    def __init__(self, config: str) -> None:
        super().__init__(config)
        self.helpers = fast_helpers()

    def normalizeLink(self, url: str) -> str:
        """markdown-it's ``normalizeLink`` (URL parse, punycode host, percent-encode),
        but a destination starting with ``http:``, ``https:`` or ``mailto:`` (any case)
        is returned as written. Such a link is dropped
        (:func:`rubi.markdown.links.markdown_link` keeps no link with a scheme, and
        normalizing keeps the scheme in front), and markdown-it's ``validateLink``,
        which decides how a link or autolink is parsed, accepts these schemes written or
        normalized alike: the tokens and the note are the same. Normalizing took 6%
        of a full build of a vault of web links (obsidian-hub: 42,000 links, 35,000
        distinct)."""
        if _WEB_URL.match(url):
            return url
        return normalize_url.normalizeLink(url)


BLOCKS = Parser("commonmark").disable("inline")
"""The same parser stopping at blocks: its block rules are tried by a line's first character
(:func:`rubi.markdown.blockrules.dispatch_by_first_char`: the same tokens)."""
dispatch_by_first_char(BLOCKS)


def block_tokens(body: str) -> list[Token]:
    """markdown-it's block tokens of ``body`` (CommonMark, inline content not parsed)."""
    return BLOCKS.parse(body, {})
