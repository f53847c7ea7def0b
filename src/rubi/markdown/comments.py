"""Comments a reader never sees: Obsidian's ``%% ... %%`` and HTML's ``<!-- ... -->``.

Obsidian renders neither (Obsidian Help, "Basic formatting syntax", section Comments:
"Comments are only visible in Editing view"; "HTML content", section Comments), so
their text is not the note's text: it is not searched, not shown in a snippet or a
passage, and not counted among the note's words. :func:`shown_body` blanks them out
of a note's body; the note's file is never changed (the vault is the truth).

Where a comment is:

- ``%%`` opens a comment that the next ``%%`` closes, on the same line (inline) or
  lines later (a block); ``<!--`` one that the next ``-->`` closes.
- Inside a fenced or indented code block (markdown-it's ``fence`` and ``code_block``
  tokens) or a code span (CommonMark's backtick rule) it is code, not a comment.
- An opening mark never closed is text (Obsidian would hide the rest of the note: a
  stray ``%%`` must not take a note's text out of search).
- A code fence written inside a comment is seen as code by markdown-it, which does not
  know Obsidian's comments: the comment's closing mark after it is then looked for
  after the fence.

A blanked comment keeps its line breaks, so every line keeps its number (headings,
links and passages are located by line). What happens to a wikilink inside a comment:
it is no link (:func:`rubi.markdown.parse.parse_note` reads the shown body), as an
HTML comment on lines of its own already was (an ``html_block``, never parsed inline).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

TYPE_CHECKING = False  # markdown-it is imported only where a body holds a comment mark
if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = [
    "blank_spans",
    "code_lines",
    "comment_spans",
    "has_comment_mark",
    "shown_body",
    "shown_text",
    "text_comment_spans",
]

_CLOSE = {"%%": "%%", "<!--": "-->"}
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_BACKTICKS = re.compile(r"`+")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
"""A fence line (:func:`rubi.markdown.headings.unfenced`'s rule)."""
_LINE_LEAD = re.compile(r" {4}| {0,3}\t| {0,3}>")
"""The start of a line indented by four columns or in a block quote."""


def _indented_mark(body: str) -> bool:
    r"""Whether a line of ``body`` holding a comment mark (``%%``, ``<!--``) is indented
    by four columns or in a block quote (:data:`_LINE_LEAD`): the mark may be in an
    indented code block, or a fence inside a quote (an Obsidian callout's code), which
    only markdown-it can tell (a list item's line is indented as well; a quoted fence's
    line begins with ``>``, which the fence rule by lines does not read).

    Only the marks' lines are asked (the pattern
    ``^(?: {4}| {0,3}\t| {0,3}>).*?(?:%%|<!--)`` tried at every line's start gives the
    same answer at 40 µs a note of obsidian-hub's 7,000 characters); a mark cannot
    begin inside the lead (spaces, a tab, ``>``), so it lies after it."""
    for mark in ("%%", "<!--"):
        at = body.find(mark)
        while at != -1:
            if _LINE_LEAD.match(body, body.rfind("\n", 0, at) + 1):
                return True
            line_end = body.find("\n", at)
            at = -1 if line_end == -1 else body.find(mark, line_end)
    return False


_CONTAINED_FENCE = re.compile(
    r"^[ \t]*(?:[-*+>]|\d{1,9}[.)])[ \t]*(?:(?:[-*+>]|\d{1,9}[.)])[ \t]*)*(?:`{3}|~{3})"
    r"|^ {0,3}`{3,}[^`\n]*`",
    re.MULTILINE,
)
"""A fence the rule by lines does not read: one opened on a list item's or a quote's
first line (``- ```python``), or a backtick line whose info holds a backtick (no fence
in CommonMark). Only markdown-it can tell where its code ends."""


def _code_blocks(body: str) -> list[tuple[int, int]]:
    """The code blocks' line ranges of ``body`` for a caller without its tokens (a
    hit's file read at search time, a recall hook): its fenced code by lines, the
    rule of :func:`rubi.markdown.headings.unfenced` (the scanner that cuts a note
    into sections), and markdown-it's tokens only when a comment mark is on a line
    indented by four columns or quoted (:func:`_indented_mark`), or a fence opens on a
    list item's or a quote's line (:data:`_CONTAINED_FENCE`): a cold recall imports no
    markdown-it for a note whose comments and fences are not nested."""
    fenced = "```" in body or "~~~" in body  # both of _CONTAINED_FENCE's forms hold one
    if _indented_mark(body) or (fenced and _CONTAINED_FENCE.search(body)):
        from rubi.markdown.blocks import block_tokens

        return code_lines(block_tokens(body))
    if not fenced:
        return []
    blocks: list[tuple[int, int]] = []
    fence, start = "", 0
    for i, line in enumerate(body.split("\n")):
        m = _FENCE.match(line)
        if not m:
            continue
        mark = m.group(1)
        if not fence:
            fence, start = mark[0] * len(mark), i
        elif mark.startswith(fence) and not line.strip()[len(mark) :].strip():
            blocks.append((start, i + 1))
            fence = ""
    if fence:  # never closed: code to the end (CommonMark)
        blocks.append((start, body.count("\n") + 1))
    return blocks


_FRONTMATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
"""A frontmatter block, found without parsing it (the one of :mod:`rubi.markdown.parse`)."""


def has_comment_mark(text: str) -> bool:
    """Whether ``text`` holds ``%%`` or ``<!--`` (then it may hold a comment)."""
    return "%%" in text or "<!--" in text


def code_lines(tokens: list[Token]) -> list[tuple[int, int]]:
    """The ``[start, end)`` 0-based line ranges of the fenced and indented code blocks
    among markdown-it's block ``tokens`` (nested ones too: a fence in a list item)."""
    return [
        (tok.map[0], tok.map[1])
        for tok in tokens
        if tok.type in ("fence", "code_block") and tok.map is not None
    ]


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def _code_spans(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character ranges ``[start, end)`` of ``text`` that the line ranges ``blocks`` cover."""
    if not blocks:
        return []
    starts = _line_starts(text)
    n = len(starts)
    return sorted(
        (starts[a] if a < n else len(text), starts[b] if b < n else len(text)) for a, b in blocks
    )


def _inside(pos: int, spans: list[tuple[int, int]]) -> int:
    """The end of the span of ``spans`` (sorted, disjoint) holding ``pos``, or -1 when
    none does; found by bisection, so a note of many code blocks and many comment marks
    is no quadratic scan."""
    i = bisect_right(spans, (pos, _AFTER)) - 1
    if i >= 0 and pos < spans[i][1]:
        return spans[i][1]
    return -1


_AFTER = 1 << 62
"""An end after any text's end: ``(pos, _AFTER)`` sorts after every span starting at ``pos``."""


def _find_outside(text: str, mark: str, pos: int, spans: list[tuple[int, int]]) -> int:
    """The first ``mark`` of ``text`` from ``pos`` on outside the code ``spans`` (-1: none)."""
    while (found := text.find(mark, pos)) != -1:
        end = _inside(found, spans)
        if end == -1:
            return found
        pos = end
    return -1


class _CodeSpans:
    """CommonMark's code spans of a text, found with one pass over it: a run of
    backticks opens a span that the next run of the same length closes within the
    same paragraph (before a blank line); a run with none is text. Each run's closing
    is found by bisection, so a text of many unmatched runs stays linear (a hostile
    note's paragraph of 100,000 backticks is not a quadratic scan)."""

    def __init__(self, text: str) -> None:
        self._runs: dict[int, list[int]] = {}
        at = text.find("`")  # the runs _BACKTICKS.finditer gives, in a seventh of its time
        while at != -1:
            end = _BACKTICKS.match(text, at).end()  # type: ignore[union-attr]
            self._runs.setdefault(end - at, []).append(at)
            at = text.find("`", end)
        self._blanks = [m.start() for m in _BLANK_LINE.finditer(text)]
        self._size = len(text)

    def end(self, start: int, end: int) -> int:
        """Where the span opened by the run ``[start, end)`` ends, or -1 (text)."""
        length = end - start
        runs = self._runs[length]
        i = bisect_right(runs, start)
        if i == len(runs):
            return -1
        b = bisect_left(self._blanks, end)
        limit = self._blanks[b] if b < len(self._blanks) else self._size
        return runs[i] + length if runs[i] < limit else -1


def comment_spans(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``[start, end)`` character ranges of the comments of a markdown body.

    Args:
        text: the body (no frontmatter).
        blocks: its code blocks' line ranges (:func:`code_lines`).
    """
    code = _code_spans(text, blocks)
    code_spans: _CodeSpans | None = None
    spans: list[tuple[int, int]] = []
    unclosed: set[str] = set()
    pos = 0
    pct, html = text.find("%%"), text.find("<!--")  # each found again only once passed
    while True:
        if 0 <= pct < pos:
            pct = text.find("%%", pos)
        if 0 <= html < pos:
            html = text.find("<!--", pos)
        if pct == -1 and html == -1:
            break
        at, mark = (pct, "%%") if html == -1 or 0 <= pct < html else (html, "<!--")
        after = at + len(mark)
        # The marks in text order (opening marks and backtick runs): a backtick run
        # before this opening mark first (a code span may hold it); the runs after
        # the last opening mark are never visited (they hide no comment).
        start = text.find("`", pos, at)
        if start != -1:
            mark = "`"
            tick_end = _BACKTICKS.match(text, start).end()  # type: ignore[union-attr]
        else:
            start = at
        if code and (end := _inside(start, code)) != -1:
            pos = end
        elif mark == "`":
            if code_spans is None:
                code_spans = _CodeSpans(text)
            closed = code_spans.end(start, tick_end)
            pos = closed if closed != -1 else tick_end
        else:
            close = _CLOSE[mark]
            found = -1 if close in unclosed else _find_outside(text, close, after, code)
            if found == -1:
                unclosed.add(close)  # none after this one either: no rescan per mark
                pos = after  # never closed: text
            else:
                spans.append((start, found + len(close)))
                pos = found + len(close)
    return spans


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` replaced by the line breaks it held."""
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for start, end in spans:
        parts.append(text[last:start])
        parts.append("\n" * text.count("\n", start, end))
        last = end
    parts.append(text[last:])
    return "".join(parts)


def shown_body(body: str, tokens: list[Token] | None = None) -> str:
    """``body`` (markdown, no frontmatter) with its comments blanked out (each keeps
    its line breaks), as Obsidian's reading view shows it; ``body`` itself when it
    has none.

    Args:
        body: the note's body.
        tokens: markdown-it's block tokens of ``body`` when the caller has them (the
            note parser); else its code blocks are found by :func:`_code_blocks`.
    """
    global _last
    if not has_comment_mark(body):
        return body
    if _last[0] is body:  # the parser's, asked again for the note's index document
        return _last[1]
    blocks = code_lines(tokens) if tokens is not None else _code_blocks(body)
    shown = blank_spans(body, comment_spans(body, blocks))
    _last = (body, shown)
    return shown


_last: tuple[str, str] = ("", "")
"""The last body :func:`shown_body` blanked and what it made: a note is parsed
(:func:`rubi.markdown.parse.parse_note`), then its index document is made from the
same body object (:func:`rubi.index.documents.note_document`); one block parse less
for a note with a comment mark."""


def shown_text(text: str) -> str:
    """A note file's full ``text`` with the comments of its body blanked out
    (:func:`shown_body`); its frontmatter block is left as written."""
    return blank_spans(text, text_comment_spans(text))


def text_comment_spans(text: str) -> list[tuple[int, int]]:
    """The ``[start, end)`` character ranges of a note file's full ``text`` that
    :func:`shown_text` blanks: the comments of its body (:func:`comment_spans`), its
    frontmatter block aside; [] when it holds no comment mark. ``blank_spans(text,
    text_comment_spans(text))`` is :func:`shown_text`'s answer, so a caller that keeps
    the spans blanks the same text again without looking for its comments."""
    if not has_comment_mark(text):
        return []
    fence = _FRONTMATTER.match(text)
    head = fence.end() if fence else 0
    body = text[head:]
    if not has_comment_mark(body):
        return []
    spans = comment_spans(body, _code_blocks(body))
    return [(start + head, end + head) for start, end in spans] if head else spans
