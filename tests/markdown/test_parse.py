from __future__ import annotations

import pytest

from rubi.core.errors import NoteParseError
from rubi.core.model import Link
from rubi.markdown import parse_link_text, parse_note


@pytest.mark.parametrize(
    ("inner", "expected"),
    [
        ("a", Link("a")),
        ("a|shown", Link("a", alias="shown")),
        ("a#Heading", Link("a", heading="Heading")),
        ("a#^block1", Link("a", block="block1")),
        ("a#H1#H2|x", Link("a", heading="H2", alias="x")),
        ("#Local heading", Link("", heading="Local heading")),
        ("Folder/Note.md", Link("Folder/Note.md")),
        ("a\\|escaped", Link("a", alias="escaped")),
    ],
)
def test_link_forms(inner: str, expected: Link) -> None:
    assert parse_link_text(inner) == expected


def test_embed_and_all_forms_in_a_note() -> None:
    text = (
        "# Title\n\nSee [[a]], [[b|B]], [[c#Part]], [[d#^blk]] and ![[e.png]].\n"
        "Also ![[f#Section]] and [[#Local]].\n"
    )
    note = parse_note(text, "x.md")
    got = [(lk.target, lk.embed, lk.alias, lk.heading, lk.block) for lk in note.links]
    assert got == [
        ("a", False, None, None, None),
        ("b", False, "B", None, None),
        ("c", False, None, "Part", None),
        ("d", False, None, None, "blk"),
        ("e.png", True, None, None, None),
        ("f", True, None, "Section", None),
        ("", False, None, "Local", None),
    ]


def test_no_links_or_tags_inside_code() -> None:
    text = (
        "Text `[[in span]]` and `#nottag` here [[real]] #realtag\n\n"
        "```\n[[fenced]] #fencetag\n```\n\n"
        "    [[indented code]]\n\n"
        "~~~md\n![[tilde fenced]]\n~~~\n"
    )
    note = parse_note(text, "x.md")
    assert [lk.target for lk in note.links] == ["real"]
    assert note.tags == ("realtag",)


def test_typed_relations_from_list_items() -> None:
    text = (
        "## Links\n- about [[concept-auth]]\n- supersedes [[decision-old]]\n"
        "- depends-on [[a]], [[b]]\n- Open [[Settings]] and pick a theme\n"
        "- see [[x]] for details\n"
    )
    rels = [(lk.relation, lk.target) for lk in parse_note(text, "n.md").links]
    assert rels == [
        ("about", "concept-auth"),
        ("supersedes", "decision-old"),
        ("depends_on", "a"),
        ("depends_on", "b"),
        ("links_to", "Settings"),
        ("links_to", "x"),
    ]


def test_frontmatter_fields_title_aliases_tags() -> None:
    text = (
        "---\ntitle: Use JWT\ntype: decision\naliases: [JWT decision]\ntags: [auth, '#api']\n"
        "custom_key: {nested: 1}\nsupersedes: decision-cookies\ncategories: ['[[Books]]']\n---\n"
        "# Heading one\n\nBody with #inline/tag and #2024 (not a tag).\n"
    )
    note = parse_note(text, "notes/decision-jwt.md")
    assert note.id == "notes/decision-jwt"
    assert note.title == "Use JWT"
    assert note.type == "decision"
    assert note.aliases == ("JWT decision",)
    assert note.tags == ("auth", "api", "inline/tag")
    assert note.metadata["custom_key"] == {"nested": 1}
    rels = {(lk.relation, lk.target) for lk in note.links}
    assert ("supersedes", "decision-cookies") in rels
    assert ("categories", "Books") in rels
    assert [h.text for h in note.headings] == ["Heading one"]


def test_title_falls_back_to_h1_then_file_name() -> None:
    assert parse_note("# First\n\n# Second\n", "a/b.md").title == "First"
    assert parse_note("## Only h2\n", "a/File name.md").title == "File name"


def test_unknown_type_is_note_but_kept_in_metadata() -> None:
    note = parse_note("---\ntype: recipe\n---\nx", "r.md")
    assert note.type == "note"
    assert note.metadata["type"] == "recipe"


def test_conflict_markers_in_frontmatter_name_the_merge_not_the_yaml() -> None:
    """Two teammates set the same key; git left markers in the frontmatter. The warning
    said "broken YAML ... remove the --- block", which would drop the note's
    frontmatter; it now names the unfinished merge and what to delete."""
    text = (
        "---\ntype: decision\n<<<<<<< HEAD\ntags: [api]\n=======\ntags: [perf]\n"
        ">>>>>>> 8e00035\nfiles:\n- sugar.go\n---\n# Edges\n"
    )
    with pytest.raises(NoteParseError) as raised:
        parse_note(text, "d.md")
    message = str(raised.value)
    assert "git conflict markers in the frontmatter from line 3 (an unfinished merge)" in message
    assert "remove the --- block" not in message
    body_only = "---\ntags: [a\n---\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\n"
    with pytest.raises(NoteParseError, match="broken YAML"):  # markers in the body only
        parse_note(body_only, "b.md")


def test_bom_and_crlf() -> None:
    note = parse_note("\ufeff---\r\ntitle: T\r\n---\r\n[[a]]\r\n", "x.md")
    assert note.title == "T"
    assert [lk.target for lk in note.links] == ["a"]


def test_broken_yaml_strict_raises_lenient_keeps_body() -> None:
    text = "---\ncreated: {{date}}\ntags: [a\n---\nBody [[link]]\n"
    with pytest.raises(NoteParseError, match="broken YAML"):
        parse_note(text, "t.md")
    note = parse_note(text, "t.md", strict=False)
    assert note.frontmatter_error
    assert note.metadata == {}
    assert [lk.target for lk in note.links] == ["link"]
    assert "created" not in note.body


def test_markdown_links_to_notes_count() -> None:
    note = parse_note("[x](Other%20note.md#Part) [web](https://a.b/c.md) [a](#anchor)", "x.md")
    assert [(lk.target, lk.heading) for lk in note.links] == [("Other note", "Part")]


def test_links_in_table_with_escaped_pipe() -> None:
    note = parse_note("| a | b |\n|---|---|\n| [[t\\|shown]] | x |\n", "x.md")
    assert [(lk.target, lk.alias) for lk in note.links] == [("t", "shown")]


def test_template_placeholders_are_read_as_text() -> None:
    text = "---\ncreated: {{date}}\ntags:\n  - journal\nref: '{{quoted}}'\n---\nBody\n"
    note = parse_note(text, "Templates/Journal Template.md")
    assert note.metadata == {"created": "{{date}}", "tags": ["journal"], "ref": "{{quoted}}"}
    assert note.frontmatter_error is None


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        ("- [[modules/__tests__|__tests__]] 3 imports\n", ["modules/__tests__"]),
        ("see [[__init__]] and [[a*b*c]]\n", ["__init__", "a*b*c"]),
        ("*[[_draft_ ideas]]* and ![[*shot*.png]]\n", ["_draft_ ideas", "*shot*.png"]),
        ("- supersedes [[__old plan__]]\n", ["__old plan__"]),
    ],
    ids=["dunder folder", "dunder and stars", "inside emphasis", "typed"],
)
def test_a_wikilink_target_keeps_its_underscores_and_stars(text: str, targets: list[str]) -> None:
    # Obsidian reads [[...]] as it is written; CommonMark emphasis must not reach inside
    assert [link.target for link in parse_note(text, "a.md").links] == targets


def test_emphasis_and_code_around_wikilinks_still_read_as_markdown() -> None:
    note = parse_note("# The __big__ [[a_b_]]\n\n`[[not_a_link_]]` *#tag*\n", "n.md")
    assert [link.target for link in note.links] == ["a_b_"]
    assert note.title == "The big a_b_" and note.tags == ("tag",)
