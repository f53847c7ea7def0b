"""Passage ids at their edges: Obsidian's lenient heading links, block ids, session
turns whose answers hold headings, hostile headings, and one clear line for every
anchor that names nothing."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import NoteNotFoundError
from rubi.search.passages import choose
from rubi.search.sections import (
    MAX_ANCHOR_CHARS,
    file_lines,
    find_section,
    note_sections,
)

from helpers import write

FAQ = """# FAQ

## General

### How large can each remote vault be?

Up to 50 GB.

### `hasTag()`

Checks a tag.

## Café crème

Coffee.
"""

BLOCKS = """---
title: Blocks
---
# Blocks

First paragraph line,
second line of it ^para-1

- item one
- item two ^item2
- item three

| a | b |
|---|---|
| 1 | 2 |

^table1

```md
fenced text ^fenced
```
"""

SESSION = """---
type: note
tags: [session]
---
# Session 2026-05-01 ab12

### 14:05

**User:** fix the okapi parser

**Claude:** Done.

## Summary

I changed the okapi parser.

### Details

It was the tokenizer.

### 14:06

**User:** where is the walrus config?

### 14:07

**Claude:** Under settings/, next to the seeds.
"""


def _find(text: str, anchor: str) -> tuple[int, int] | None:
    lines = file_lines(text)
    found = find_section(note_sections(text), anchor, len(lines), lines)
    return (found.start, found.end) if found is not None else None


def test_a_heading_link_matches_as_obsidian_does_ignoring_punctuation() -> None:
    question = _find(FAQ, "How large can each remote vault be?")
    assert question is not None
    assert _find(FAQ, "How large can each remote vault be") == question
    assert _find(FAQ, "General#How large can each remote vault be") == question
    assert _find(FAQ, "hasTag") == _find(FAQ, "`hasTag()`") is not None
    assert _find(FAQ, "How large") is None


def test_a_heading_matches_in_either_unicode_normalization() -> None:
    nfd = unicodedata.normalize("NFD", FAQ)
    assert _find(nfd, "Café crème") is not None
    assert _find(FAQ, unicodedata.normalize("NFD", "Café crème")) is not None


def test_a_block_id_opens_its_block() -> None:
    lines = file_lines(BLOCKS)
    para = _find(BLOCKS, "^para-1")
    assert para is not None and lines[para[0] - 1] == "First paragraph line,"
    assert para[1] == para[0] + 1
    item = _find(BLOCKS, "^item2")
    assert item is not None and item[0] == item[1] and lines[item[0] - 1] == "- item two ^item2"
    table = _find(BLOCKS, "^table1")
    assert table is not None and lines[table[0] - 1] == "| a | b |"
    assert lines[table[1] - 1] == "^table1"
    assert _find(BLOCKS, "^fenced") is None
    assert _find(BLOCKS, "^nothing") is None


def test_headings_a_link_cannot_name_or_too_long_are_addressed_by_lines() -> None:
    long_heading = "word " * (MAX_ANCHOR_CHARS // 4)
    text = f"# Top\n\n## ##\n\nweird\n\n## {long_heading}\n\nokapi\n"
    anchors = [s.anchor for s in note_sections(text)]
    assert anchors == ["Top", "L3-6", "L7-9"]
    assert all(len(a) <= MAX_ANCHOR_CHARS for a in anchors)
    # The heading as written still opens its section.
    assert _find(text, long_heading.strip()) == (7, 9)


def test_no_lines_in_an_empty_file() -> None:
    assert find_section([], "L1", 0) is None


def test_a_session_s_sections_are_its_turns() -> None:
    anchors = [s.anchor for s in note_sections(SESSION, session=True)]
    assert anchors == ["Session 2026-05-01 ab12", "14 05", "14 06", "14 07"]
    # A note that is not a session keeps every heading.
    assert "Summary" in [s.anchor for s in note_sections(SESSION)]
    found = choose("s", SESSION, {"okapi": "okapi"}, {}, kind="session")
    assert found[0].anchor == "14 05" and "It was the tokenizer." in found[0].text


# -- through the app and the CLI ------------------------------------------------------
@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write(root / "notes" / "FAQ.md", FAQ)
    write(root / "notes" / "Blocks.md", BLOCKS)
    write(root / "notes" / "Empty.md", "")
    write(root / "sessions" / "2026-05-01-ab12.md", SESSION)
    return root


def test_read_of_a_turn_is_what_search_showed(vault: Path) -> None:
    paths = app.locate(vault)
    hit = app.search(paths, "walrus config", scope="sessions").hits[0]
    turn = hit.passages[0]
    assert turn.anchor == "14 06"
    part = app.read_part(paths, turn.id)
    assert part is not None and (part.start, part.end) == (turn.start, turn.end)
    assert "Under settings/" in part.text
    answered = app.read_part(paths, f"{hit.id}#14 05")
    assert answered is not None and "It was the tokenizer." in answered.text
    assert "walrus" not in answered.text


def test_read_of_a_block_id_and_a_lenient_heading(vault: Path) -> None:
    paths = app.locate(vault)
    block = app.read_part(paths, "notes/Blocks#^para-1")
    assert block is not None and block.id == "notes/Blocks#^para-1"
    assert block.text == "First paragraph line,\nsecond line of it ^para-1"
    faq = app.read_part(paths, "notes/FAQ#How large can each remote vault be")
    assert faq is not None and faq.text.startswith("### How large can each remote vault be?")


@pytest.mark.parametrize(
    ("ref", "says"),
    [
        ("notes/FAQ#L5-2", "lines count from 1"),
        ("notes/FAQ#L0-0", "lines count from 1"),
        ("notes/FAQ#L900", "the file has 15 lines"),
        ("notes/Empty#L1", "the file is empty"),
        ("notes/Blocks#^nope", "no block carries this id"),
        ("#General", "name the note or file before the #"),
        ("notes/FAQ#" + "x" * 5000, "no such section"),
        ("notes/FAQ#../../etc/passwd", "no such section"),
    ],
)
def test_a_bad_anchor_is_one_short_line_naming_what_to_do(vault: Path, ref: str, says: str) -> None:
    paths = app.locate(vault)
    with pytest.raises(NoteNotFoundError) as info:
        app.read_part(paths, ref)
    message = str(info.value)
    assert says in message and "\n" not in message
    assert len(message) < 600


def test_cli_read_of_a_turn_matches_search_json(vault: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        cli, ["search", "walrus config", "--scope", "sessions", "--json", "--vault", str(vault)]
    )
    assert out.exit_code == 0, out.output
    passage = json.loads(out.stdout)["hits"][0]["passages"][0]
    read = runner.invoke(cli, ["read", passage["id"], "--json", "--vault", str(vault)])
    assert read.exit_code == 0, read.output
    assert json.loads(read.stdout)["text"] == passage["text"]
