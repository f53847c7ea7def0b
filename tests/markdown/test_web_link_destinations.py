"""Web and mail link destinations are left as written by the note parser: a note's
headings, links and tags are those of stock markdown-it, whose ``normalizeLink``
percent-encodes every destination, and only internal destinations are normalized."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from markdown_it.common import normalize_url

from rubi.markdown import parse as P
from rubi.markdown.blockrules import dispatch_by_first_char

TEXTS = [
    "[site](https://example.com/a b) and [[Note]] #tag",
    "[upper](HTTPS://Ex.COM/ü?q=1#frag) [mail](mailto:someone@example.com)",
    "<https://auto.example/x> <MAILTO:a@b.c> <someone@example.com> #t",
    "![img](http://host/pic.png) ![local](pics/My%20Pic.png)",
    "[ref] and [other][r2]\n\n[ref]: https://ref.example/é\n[r2]: Other%20Note.md#Part",
    "[bad](javascript:alert(1)) [data](data:image/png;base64,AAA) [ftp](ftp://x/y)",
    '[mixed](<https://a b.example/c d> "title") [rel](Folder/Note.md#^block)',
    "[x](//host/path) [y](#anchor) [z](Note%20Two.md)",
    "[http-ish](httpx://not.web/) [no-scheme](https) [colon](https:)",
]


@pytest.mark.parametrize("text", TEXTS)
def test_note_from_web_links_equals_stock_markdown_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = P._walk_body(text)
    monkeypatch.setattr(P, "_MD", MarkdownIt("commonmark"))
    stock_blocks = MarkdownIt("commonmark").disable("inline")
    dispatch_by_first_char(stock_blocks)
    monkeypatch.setattr(P, "_MD_BLOCKS", stock_blocks)
    assert ours == P._walk_body(text)


def test_only_internal_destinations_are_normalized(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    stock = normalize_url.normalizeLink

    def counting(url: str) -> str:
        seen.append(url)
        return stock(url)

    monkeypatch.setattr(normalize_url, "normalizeLink", counting)
    note = P.parse_note(
        "[a](https://a.example/x) [b](HTTP://b.example) <https://c.example>\n"
        "[m](mailto:x@y.z) [n](Other%20Note.md) ![p](pic.png)\n",
        "n.md",
    )
    assert sorted(seen) == ["Other%20Note.md", "pic.png"]
    assert [link.target for link in note.links] == ["Other Note", "pic.png"]
