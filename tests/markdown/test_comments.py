"""Comments a reader never sees (Obsidian's ``%% ... %%``, HTML's ``<!-- ... -->``) are
not the note's text: not indexed, not links, not in a snippet; code keeps its ``%%``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.documents import note_document
from rubi.markdown.comments import shown_body, shown_text
from rubi.markdown.parse import parse_note
from rubi.search.hittext import FileText

from helpers import write

PROFILE = """\
---
aliases:
- Jane Doe (@jdoe)
publish: true
---

# Jane Doe (@jdoe)

- GitHub: [jdoe](https://github.com/jdoe/) ^github
<!-- - Discord: `@` ^discord-->
<!-- - [[Publish sites|Publish site]]: <https://> ^publish-->

%% Feel free to add a bio below this comment %%
Writes about gardening and beekeeping.

## Author of

%% Begin Hub: Released contributions %%
### Plugins
- [[hive-tracker|Hive Tracker]]

%% End Hub: Released contributions %%

%% Add links to any plugins, themes or other notes that the author has created
but are not (yet) included in the `obsidian-releases` repo, or a [[Website]] %%

<!--
## Sponsor this author
-->
"""
"""A people profile of the shape of obsidian-hub's template (2,687 of its 2,692
profiles hold these comments)."""

BLOCK = """\
# Draft

Visible first paragraph.

%%
hidden planning words: zeppelin
[[Secret plan]] #hiddentag

- a list that is hidden too
%%

Visible last paragraph.
"""

CODE = """\
# Templater

```js
%% not a comment in code: zeppelin %%
<!-- nor this: zeppelin -->
```

    %% indented code keeps it too: zeppelin %%

Inline `%%` and `<!--` are code, and so is `a %% b %%`; then %% real comment %% text.
"""


def test_a_profile_template_comment_is_not_indexed() -> None:
    note = parse_note(PROFILE, "People/jdoe.md")
    body = note_document(note).fields["body"]
    assert "gardening" in body and "Hive Tracker" in body
    for hidden in ("Publish", "Discord", "bio below", "Begin Hub", "Sponsor", "Website"):
        assert hidden not in body
    assert note.body == PROFILE.split("---\n", 2)[2].strip()  # the note's text is kept


def test_a_link_in_a_comment_is_no_link_and_a_heading_in_one_is_none() -> None:
    note = parse_note(PROFILE, "People/jdoe.md")
    assert [link.target for link in note.links] == ["hive-tracker"]
    assert [h.text for h in note.headings] == ["Jane Doe (@jdoe)", "Author of", "Plugins"]


def test_a_multi_line_block_comment_keeps_the_lines_around_it() -> None:
    note = parse_note(BLOCK, "Draft.md")
    shown = shown_body(note.body)
    assert "zeppelin" not in shown and "Secret" not in shown and "hidden" not in shown
    assert shown.count("\n") == note.body.count("\n")  # every line keeps its number
    assert "Visible first paragraph." in shown and "Visible last paragraph." in shown
    assert note.links == () and "hiddentag" not in note.tags


def test_a_comment_in_code_is_code() -> None:
    note = parse_note(CODE, "Templater.md")
    shown = shown_body(note.body)
    assert shown.count("zeppelin") == 3
    assert "`%%`" in shown and "`<!--`" in shown and "`a %% b %%`" in shown
    assert "real comment" not in shown and shown.rstrip().endswith("then  text.")


def test_an_unclosed_mark_is_text() -> None:
    body = "Growth was 5%% this year and <!-- stays.\n"
    assert shown_body(body) == body


def test_frontmatter_is_kept_as_written() -> None:
    text = "---\nsummary: 50%% done %% half\n---\n\n# A\n\nbody %%hidden%% shown\n"
    shown = shown_text(text)
    assert shown.startswith("---\nsummary: 50%% done %% half\n---\n")
    assert shown.endswith("body  shown\n")


def test_search_does_not_find_or_show_comment_text(tmp_path: Path) -> None:
    write(tmp_path / "People" / "jdoe.md", PROFILE)
    write(
        tmp_path / "Publish sites.md",
        "# Publish sites\n\nHow to publish your notes as a website with Obsidian Publish.\n",
    )
    paths = app.locate(tmp_path)
    app.index(paths)
    ids = [h.id for h in app.search(paths, "publish website", top_k=10).hits]
    assert ids == ["Publish sites"]
    found = app.search(paths, "beekeeping", top_k=10)
    assert [h.id for h in found.hits] == ["People/jdoe"]
    shown = app.render_search(found, 4000)
    assert "beekeeping" in shown and "bio below" not in shown


def test_a_hit_file_of_a_note_is_read_without_its_comments(tmp_path: Path) -> None:
    note = write(tmp_path / "a.md", BLOCK)
    assert "zeppelin" not in FileText(tmp_path, note, markdown=True).text
    assert "zeppelin" in FileText(tmp_path, note).text  # a code file is read as written


def test_a_reader_without_tokens_finds_the_parser_s_code_blocks() -> None:
    from rubi.markdown.blocks import block_tokens
    from rubi.markdown.comments import _code_blocks, code_lines

    fenced = (
        "# A\n\n~~~\n%% kept %%\n~~~\n\n- item `x`\n\n"
        "````md\n```\n<!-- kept -->\n````\n%% gone %%\n"
    )
    for body in (fenced, BLOCK, PROFILE.split("---\n", 2)[2]):
        assert _code_blocks(body) == code_lines(block_tokens(body))
    assert "kept" in shown_text(fenced) and "gone" not in shown_text(fenced)


def test_code_spans_pair_runs_of_one_length_within_a_paragraph() -> None:
    body = "a ``b ` %%c%% ` d`` %%e%% `x\n\n%%f%%` y"
    # the double run closes on the double run; the lone backtick before the blank
    # line finds no partner there, so the last comment is one
    assert shown_body(body) == "a ``b ` %%c%% ` d``  `x\n\n` y"


def test_an_unclosed_mark_is_looked_for_once_not_once_per_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a hostile note of many "<!--" and no "-->": each opening rescanned the rest of
    # the note for its close (20,000 marks: 1.0 s; quadratic)
    from rubi.markdown import comments

    calls: list[int] = []
    find = comments._find_outside

    def counted(text: str, mark: str, pos: int, spans: list[tuple[int, int]]) -> int:
        calls.append(pos)
        return find(text, mark, pos, spans)

    monkeypatch.setattr(comments, "_find_outside", counted)
    body = "<!-- a\n" * 200 + "%% b %%"
    assert comments.comment_spans(body, []) == [(1400, 1407)]
    assert len(calls) == 2  # the first "<!--" and the "%%"
    assert comments.comment_spans("%% x\n" + "<!-- y " * 300, []) == []
    assert len(calls) == 4


class _CountedSpans(list[tuple[int, int]]):
    """A list that counts the items read from it."""

    reads = 0

    def __getitem__(self, i):  # type: ignore[no-untyped-def,override]
        _CountedSpans.reads += 1
        return super().__getitem__(i)

    def __iter__(self):  # type: ignore[no-untyped-def]
        for item in super().__iter__():
            _CountedSpans.reads += 1
            yield item


def test_a_mark_is_placed_among_many_code_blocks_by_bisection() -> None:
    # many fenced blocks, each followed by a comment: each mark scanned every block
    # before it (20,000 blocks: 14 s; quadratic)
    from rubi.markdown.comments import _inside

    spans = _CountedSpans((10 * i, 10 * i + 5) for i in range(10_000))
    assert _inside(99_992, spans) == 99_995
    assert _inside(99_997, spans) == -1
    assert _inside(3, spans) == 5 and _inside(5, spans) == -1 and _inside(10, spans) == 15
    assert _CountedSpans.reads <= 5 * 40
    body = "```\nx %% in code %%\n```\n%% a %%\nb\n" * 50
    assert shown_body(body).count("in code") == 50 and " a " not in shown_body(body)


def test_a_fence_in_a_quote_keeps_its_comment_marks_without_the_parser_s_tokens() -> None:
    # an Obsidian callout's code: the parser kept its "%%", a hit's file or a recall
    # line (read without tokens, fences found by lines) blanked it
    from rubi.markdown.blocks import block_tokens
    from rubi.markdown.comments import _code_blocks, code_lines

    body = "> [!note]\n> ~~~\n> %% kept %%\n> ~~~\n%% gone %%\n"
    assert _code_blocks(body) == code_lines(block_tokens(body)) == [(1, 4)]
    assert shown_body("".join(body)) == "> [!note]\n> ~~~\n> %% kept %%\n> ~~~\n\n"
    assert shown_text(body) == shown_body(body, block_tokens(body))


def test_a_fence_opened_on_a_list_item_s_line_keeps_its_comment_marks() -> None:
    # "- ```" opens a fence markdown-it reads as the item's code; the rule by lines saw
    # its closing line as an opening one, so a hit's passage and recall blanked the
    # code's "%%" that the index kept
    from rubi.markdown.blocks import block_tokens
    from rubi.markdown.comments import _code_blocks, code_lines

    body = "- ```\n  %% kept %%\n  ```\n%% gone %%\n"
    assert _code_blocks(body) == code_lines(block_tokens(body)) == [(0, 3)]
    assert shown_body("".join(body)) == "- ```\n  %% kept %%\n  ```\n\n"
    # a backtick line whose info holds a backtick is no fence (CommonMark): the next
    # "```" opens one that runs to the end; by lines, the first closed at it
    odd = "``` a`b\n%% x %%\n```\n\n%% kept %%"
    assert _code_blocks(odd) == code_lines(block_tokens(odd)) == [(2, 5)]
    assert shown_text(odd) == shown_body("".join(odd), block_tokens(odd)) == odd


def test_indented_mark_found_from_the_marks_as_the_pattern_finds_it() -> None:
    """:func:`rubi.markdown.comments._indented_mark` reads only the lines holding a
    mark; it answers what a search of the pattern it replaced answers (a mark on a
    line indented by four columns or quoted), on texts made of the pieces that decide
    it (indents, quotes, marks, line breaks)."""
    import random
    import re

    indented_mark = re.compile(r"^(?: {4}| {0,3}\t| {0,3}>).*?(?:%%|<!--)", re.MULTILINE)

    from rubi.markdown import comments

    pieces = ["%%", "<!--", "-->", "`", "\n", "\n\n", "    ", "  ", "\t", ">", " ", "a", "- "]
    rnd = random.Random(29)
    texts = ["", "    %%", "a\n    b %% c", "> <!-- x", "x\n  \t%%", "%%\n    a"]
    texts += ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30))) for _ in range(3000)]
    for text in texts:
        expected = indented_mark.search(text) is not None
        assert comments._indented_mark(text) is expected, repr(text)
    assert sum(comments._indented_mark(t) for t in texts) > 100  # both answers are met
