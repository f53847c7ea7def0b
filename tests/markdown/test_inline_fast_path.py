"""Blocks without inline markup are read without markdown-it's inline parser: the
headings, links and tags of a note are those of a full markdown-it parse."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.core.model import LINKS_TO, Heading, Link
from rubi.markdown import parse as P
from rubi.markdown.links import WIKILINK_RE, find_wikilinks, item_relation

from helpers import VAULTS, require_data


def _full_parse_walk(body: str) -> tuple[list[Heading], list[Link], list[str]]:
    """The walk as it was with every block's inline content parsed by markdown-it."""
    headings: list[Heading] = []
    links: list[Link] = []
    tags: list[str] = []
    tokens = P._MD.parse(body)
    depth = 0
    pending: int | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open":
            depth += 1
        elif tok.type == "list_item_close":
            depth -= 1
        elif tok.type == "heading_open":
            pending = int(tok.tag[1:])
        elif tok.type == "inline":
            line = tok.map[0] if tok.map else 0
            text = P._inline_text(tok)
            if pending is not None:
                headings.append(Heading(pending, text.replace("\x00", "").strip(), line))
                pending = None
            relation = LINKS_TO
            if depth > 0 and tokens[i - 1].type == "paragraph_open":
                relation = item_relation(text) or LINKS_TO
            links.extend(find_wikilinks(text, relation=relation, line=line))
            links.extend(P._markdown_links(tok, line))
            tags.extend(P._TAG_RE.findall(WIKILINK_RE.sub(" ", text)))
    return headings, links, tags


CASES = [
    "plain words #tag and [[Link]] over\ntwo lines",
    "trailing spaces  \n  hard break [[A]] \n\tsoft #t",
    "# Title with [[Link]] #tag\n\nText",
    "# **Bold** `code` [[L]]\n\n- [[x]]  \n  [[y]]",
    "- supersedes: [[Old]]\n- a #t\n  b [[c|d]]\n",
    "[r]: http://example.com\n\n[[r]] [r] #after",
    "a\\\nb [[escaped\\]] link]]",
    "&amp; <b>x</b> #tag <span>[[in html]]</span>",
    "[text](Note.md#heading) ![img](pic.png) (#not-a-tag)",
    "_#emph_ *[[a*b*c]]* __#strong__",
    "    indented code [[not a link]] #nottag\n\npara [[yes]]",
    "```\n[[fenced]] #no\n```\n~~~\n#no\n~~~\n[[after]]",
    "> quote [[q]] #qt\n> > nested [[n]]",
    "Setext [[h]]\n===\n\nSecond\n---",
    "1. one [[1]]\n2. two\n\n   continued [[2]]",
    "<div>\n[[html block]]\n</div>\n\n[[outside]]",
]


@pytest.mark.parametrize("body", CASES)
def test_walk_equals_a_full_parse(body: str) -> None:
    assert P._walk_body(body)[:3] == _full_parse_walk(body)


def test_walk_equals_a_full_parse_on_a_real_vault() -> None:
    root = require_data(VAULTS / "obsidian-help-en")
    for path in sorted(Path(root).rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        try:
            _, body = P.split_frontmatter(text, path.name)
        except Exception:
            body = text
        assert P._walk_body(body)[:3] == _full_parse_walk(body), path.name
