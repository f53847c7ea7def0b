"""Link destinations read with regular expressions give markdown-it's results."""

from __future__ import annotations

import random
import re

import pytest
from markdown_it import helpers

from rubi.markdown import parse as P
from rubi.markdown.linkdest import parse_link_destination

from helpers import VAULTS, require_data

ALPHABET = "ab(é)\\ <>\n\t\x01\x7f#%)("


def _same(text: str, pos: int, maximum: int) -> None:
    got = parse_link_destination(text, pos, maximum)
    want = helpers.parseLinkDestination(text, pos, maximum)
    assert (got.ok, got.pos, got.str) == (want.ok, want.pos, want.str), (text, pos, maximum)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a",
        "https://example.com/a_(b)_c)rest",
        "x\\ y",
        "x\\)y) z",
        "end\\",
        "(" * 33 + ")" * 33,
        "(" * 32 + ")" * 32,
        "a(b",
        "<inside brackets> x",
        "tab\there",
        "del\x7fete",
        "é/ü?q=1#frag",
        "%20encoded%2F",
    ],
)
def test_written_destinations(text: str) -> None:
    for pos in range(len(text) + 1):
        for maximum in (pos, len(text) - 1, len(text)):
            _same(text, pos, maximum)


def test_generated_destinations() -> None:
    rng = random.Random(29)
    for _ in range(20_000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 40)))
        pos = rng.randrange(0, len(text) + 1)
        _same(text, pos, rng.randrange(pos, len(text) + 1))


def test_destinations_of_real_vaults() -> None:
    found = 0
    for path in sorted(require_data(VAULTS).rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"\]\(", text):
            _same(text, m.end(), len(text))
            found += 1
    assert found > 100


def test_the_note_parser_reads_destinations_this_way() -> None:
    assert P._MD.helpers.parseLinkDestination is parse_link_destination
    assert P._MD_BLOCKS.helpers.parseLinkDestination is parse_link_destination
    note = P.parse_note("[a](Some%20Note.md#Part) [b](x_(y).md) [c](<spaced name.md>)", "n.md")
    assert [(link.target, link.heading) for link in note.links] == [
        ("Some Note", "Part"),
        ("x_(y)", None),
        ("spaced name", None),
    ]
