"""A note titled by its first H1 is titled with the text a reader sees of it, as
Obsidian shows the heading: a wikilink by its alias or target, a markdown link by its
text, emphasis, strikethrough, highlight and code marks gone and their text kept. The
headings (section anchors) and the note's id, path and file name stay as written.

The headings are real ones, from the public obsidian-hub vault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.markdown import parse_note

from helpers import write


@pytest.mark.parametrize(
    ("heading", "title"),
    [
        ("# An Introduction to [[dataview|Dataview]]", "An Introduction to Dataview"),
        (
            "# An Introduction to [[dataview|Dataview]] (Slides)",
            "An Introduction to Dataview (Slides)",
        ),
        ("# [[Obsidian Publish|Publish]] sites", "Publish sites"),
        (
            "# How to use [[QuickAdd]] for Obsidian - with examples",
            "How to use QuickAdd for Obsidian - with examples",
        ),
        ("# `hub.yaml` proposal for theme designers", "hub.yaml proposal for theme designers"),
        ("# A [guide](Guides/Guide.md) to **bold** and *em*", "A guide to bold and em"),
        ("# ~~Old~~ and ==new== _plans_", "Old and new plans"),
        ("# [[Plugins#Dataview]] and [[#Setup]]", "Plugins > Dataview and Setup"),
        ("# Logo ![[logo.png]] <b>here</b>", "Logo here"),
        ("Setext [[x|y]] title\n===", "Setext y title"),
        ("# \\[\\[brackets\\]\\] kept", "[[brackets]] kept"),
        ("# Code `[[x]]` is not a link", "Code [[x]] is not a link"),
    ],
)
def test_an_h1_title_is_the_text_a_reader_sees(heading: str, title: str) -> None:
    note = parse_note(f"{heading}\n\nBody.\n", "Guides/Some file.md")
    assert note.title == title
    assert note.id == "Guides/Some file" and note.path == "Guides/Some file.md"


def test_headings_keep_their_text_as_written() -> None:
    note = parse_note("# Intro to [[dataview|Dataview]] Plugin\n\n## [[a|b]] part\n", "x.md")
    assert [h.text for h in note.headings] == [
        "Intro to [[dataview|Dataview]] Plugin",
        "[[a|b]] part",
    ]


def test_a_heading_showing_only_code_titles_the_note() -> None:
    assert parse_note("# `Where`\n\n# Later\n", "x.md").title == "Where"
    assert parse_note("# ![[only.png]]\n\n# Later\n", "x.md").title == "Later"
    assert parse_note("# ![[only.png]]\n", "f/File.md").title == "File"


def test_a_frontmatter_title_is_kept_as_written() -> None:
    note = parse_note("---\ntitle: See [[a|b]]\n---\n# Other [[c]]\n", "x.md")
    assert note.title == "See [[a|b]]"


def test_the_shown_title_is_what_search_and_read_answer_and_names_the_note(
    tmp_path: Path,
) -> None:
    vault = tmp_path / "v"
    write(
        vault / "Guides" / "YT - Intro to Dataview Plugin.md",
        "# Intro to [[dataview|Dataview]] Plugin\n\nA video on queries over notes.\n",
    )
    write(
        vault / "dataview.md",
        "# Dataview\n\nA query plugin. See [[YT - Intro to Dataview Plugin]].\n",
    )
    paths = app.locate(vault)
    app.index(paths)
    result = app.search(paths, "video queries")
    hit = next(h for h in result.hits if h.id == "Guides/YT - Intro to Dataview Plugin")
    assert hit.title == "Intro to Dataview Plugin"
    runner = CliRunner()
    for ref in ("Intro to Dataview Plugin", "YT - Intro to Dataview Plugin"):
        done = runner.invoke(cli, ["read", "--json", ref, "--vault", str(vault)])
        data = json.loads(done.stdout)
        assert done.exit_code == 0 and data["id"] == "Guides/YT - Intro to Dataview Plugin"
        assert data["title"] == "Intro to Dataview Plugin"
    assert [lv.title for lv in app.backlinks(paths, "YT - Intro to Dataview Plugin")] == [
        "Dataview"
    ]
    assert [lv.title for lv in app.links(paths, "dataview")] == ["Intro to Dataview Plugin"]
