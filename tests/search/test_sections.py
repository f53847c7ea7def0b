"""Passage anchors: a note's heading sections, a code file's parts, and finding one
again from the anchor a search printed."""

from __future__ import annotations

import itertools

from rubi.search.sections import (
    code_sections,
    file_lines,
    find_section,
    link_text,
    note_sections,
)

NOTE = """---
title: Setup
tags: [guide]
---
Intro line before any heading.

# Setup

## Install

pip install it.

## Configure

### Options

Set the options.

## Windows

### Install

Run the installer.

### Options

Other options.

```bash
# Install
not a heading inside a fence
```

## Step 2: sync

Sync it.
"""


def _anchors(text: str) -> list[str]:
    return [s.anchor for s in note_sections(text)]


def test_anchors_are_headings_and_unique() -> None:
    assert _anchors(NOTE) == [
        "L5-6",
        "Setup",
        "Install",
        "Configure",
        "Options",
        "Windows",
        "Windows#Install",
        "Windows#Options",
        "Step 2 sync",
    ]


def test_lines_count_the_frontmatter_and_a_fence_holds_no_heading() -> None:
    parts = {s.anchor: s for s in note_sections(NOTE)}
    lines = file_lines(NOTE)
    lead = parts["L5-6"]
    assert lines[lead.start - 1] == "Intro line before any heading."
    windows = parts["Windows"]
    assert lines[windows.start - 1] == "## Windows"
    options = parts["Windows#Options"]
    # The fenced "# Install" stays inside the Options section.
    assert "# Install" in "\n".join(lines[options.start - 1 : options.end])
    assert lines[options.end] == "## Step 2: sync"
    # A section with its subsections runs to the next heading of its level.
    assert windows.end == windows.start + 1
    assert lines[windows.tree_end] == "## Step 2: sync"


def test_repeated_headings_under_one_parent_take_an_ordinal() -> None:
    turns = "### 14:05\nA\n\n### 14:05\nB\n\n### 14:07\nC\n\n### 14:05\nD\n"
    text = "# Session 2026-05-01 ab12\n\n" + turns
    assert _anchors(text) == ["Session 2026-05-01 ab12", "14 05", "14 05~2", "14 07", "14 05~3"]
    parts = note_sections(text)
    lines = file_lines(text)
    third = find_section(parts, "14 05~3", len(lines))
    assert third is not None and lines[third.start] == "D"


def test_a_heading_named_like_an_ordinal_keeps_its_name() -> None:
    text = "## A\nx\n## A~2\ny\n## A\nz\n"
    anchors = _anchors(text)
    assert anchors[:2] == ["A", "A~2"]
    assert len(set(anchors)) == 3
    parts = note_sections(text)
    last = find_section(parts, anchors[2], 6)
    assert last is not None and last.start == 5


def test_find_section_as_written_ignoring_case_chains_and_lines() -> None:
    parts = note_sections(NOTE)
    total = len(file_lines(NOTE))

    def start(anchor: str) -> int | None:
        found = find_section(parts, anchor, total)
        return found.start if found else None

    assert start("Install") == 9
    assert start("install") == 9
    assert start("Step 2: sync") == start("Step 2 sync")  # as written, or as a link
    assert start("Windows#Install") == start("Setup#Windows#Install")  # Obsidian's chain
    assert start("Setup#Install") == 9  # levels may be skipped: the first under Setup
    assert start("Install~2") == start("Windows#Install")
    got = find_section(parts, "L3-4", total)
    assert got is not None and (got.start, got.end) == (3, 4)
    assert start("Nope") is None
    assert start("L900-901") is None
    assert start("") is None


def test_link_text_drops_what_a_link_cannot_hold() -> None:
    assert link_text("Step 2: sync | now #fast ^x") == "Step 2 sync now fast x"
    assert link_text("[[Link]] %%c%%") == "Link c"


def test_code_parts_follow_symbols_and_cut_long_ones() -> None:
    lines = ["import os", ""] + ["def a():"] + ["    x = 1"] * 9 + ["class Big:"]
    lines += ["    y = 2" if i % 20 else "" for i in range(200)]
    parts = code_sections(lines, [("Big", 13), ("a", 3)])
    assert [(p.heading, p.start) for p in parts[:3]] == [("", 1), ("a", 3), ("Big", 13)]
    assert parts[0].anchor == "L1-2" and parts[1].anchor == "L3-12"
    big = [p for p in parts if p.heading == "Big"]
    assert len(big) > 1 and big[-1].end == len(lines)
    assert all(p.end - p.start < 76 for p in big)
    assert all(b.start == a.end + 1 for a, b in itertools.pairwise(big))
    # A symbol's name opens all of it; its lines open a part of it.
    whole = find_section(parts, "Big", len(lines))
    assert whole is not None and (whole.start, whole.end) == (13, len(lines))
    assert find_section(parts, big[1].anchor, len(lines)) == big[1]


def test_a_method_is_found_by_its_own_name() -> None:
    lines = ["type Context struct{}", "", "func (c *Context) Abort() {", "}", ""]
    parts = code_sections(lines, [("Context", 1), ("Context.Abort", 3)])
    found = find_section(parts, "abort", len(lines))
    assert found is not None and found.heading == "Context.Abort" and found.start == 3


def test_a_file_without_symbols_is_cut_by_lines() -> None:
    parts = code_sections([f"line {i}" for i in range(1, 201)], [])
    assert parts[0].anchor == "L1-60" and parts[-1].end == 200


def test_tree_end_is_the_next_heading_of_the_same_or_a_higher_level() -> None:
    import random

    rng = random.Random(3)
    for _ in range(300):
        levels = [rng.randint(1, 6) for _ in range(rng.randint(0, 12))]
        text = "\n".join(f"{'#' * lv} h{n}\ntext" for n, lv in enumerate(levels))
        lines = text.split("\n")
        parts = note_sections(text)
        heads = [
            (i, len(line) - len(line.lstrip("#")))
            for i, line in enumerate(lines)
            if line[:1] == "#"
        ]
        want = [
            next((j for j, lw in heads[n + 1 :] if lw <= lv), len(lines))
            for n, (_, lv) in enumerate(heads)
        ]
        assert [p.tree_end for p in parts] == want
