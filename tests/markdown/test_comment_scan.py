"""The comment scan by ``str.find`` (:func:`rubi.markdown.comments.comment_spans`,
``_indented_mark``, ``_CodeSpans``) finds what the scan by one regex over every mark
found: the spans and code blocks of random markdown, mark for mark. The reference
below is the scan as it was before (twenty-seventh pass)."""

from __future__ import annotations

import random
import re

import pytest

from rubi.markdown import comments
from rubi.markdown.comments import _code_blocks, _CodeSpans, _indented_mark, comment_spans

_MARK = re.compile(r"%%|<!--|`+")
_INDENTED_MARK = re.compile(r"^(?: {4}| {0,3}\t| {0,3}>).*?(?:%%|<!--)", re.MULTILINE)
_PIECES = (
    "%%", "%", "<!--", "<!-", "-->", "--", ">", "`", "``", "```", "~~~", "\n", "\n\n",
    "\n    ", "\n\t", "\n> ", "\n- ", "\n1. ", "\n  ", " ", "\t", "a", "word ", "é", "[[x]]",
)  # fmt: skip


def _reference_spans(text: str, blocks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every mark found by one regex, in text order (the scan before this pass)."""
    code = comments._code_spans(text, blocks)
    code_spans: _ReferenceCodeSpans | None = None
    spans: list[tuple[int, int]] = []
    unclosed: set[str] = set()
    pos = 0
    while (m := _MARK.search(text, pos)) is not None:
        start, mark = m.start(), m.group()
        if (end := comments._inside(start, code)) != -1:
            pos = end
        elif mark.startswith("`"):
            if code_spans is None:
                code_spans = _ReferenceCodeSpans(text)
            closed = code_spans.end(start, m.end())
            pos = closed if closed != -1 else m.end()
        else:
            close = comments._CLOSE[mark]
            found = -1 if close in unclosed else comments._find_outside(text, close, m.end(), code)
            if found == -1:
                unclosed.add(close)
                pos = m.end()
            else:
                spans.append((start, found + len(close)))
                pos = found + len(close)
    return spans


class _ReferenceCodeSpans(_CodeSpans):
    """The runs as ``finditer`` gave them."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        runs: dict[int, list[int]] = {}
        for m in re.finditer(r"`+", text):
            runs.setdefault(m.end() - m.start(), []).append(m.start())
        assert runs == self._runs
        self._runs = runs


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 80)))


def test_the_scan_finds_the_reference_s_spans_on_random_markdown() -> None:
    rng = random.Random(27)
    for _ in range(20_000):
        text = _random_text(rng)
        assert _indented_mark(text) == bool(_INDENTED_MARK.search(text)), repr(text)
        blocks = _code_blocks(text)
        assert comment_spans(text, blocks) == _reference_spans(text, blocks), repr(text)
        assert comment_spans(text, []) == _reference_spans(text, []), repr(text)


def test_the_scan_finds_the_reference_s_spans_among_code_blocks() -> None:
    # code blocks placed at random lines, marks inside and around them
    rng = random.Random(28)
    for _ in range(5_000):
        text = _random_text(rng)
        lines = text.count("\n") + 1
        cuts = sorted(rng.sample(range(lines + 2), min(4, lines + 2)))
        blocks = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
        assert comment_spans(text, blocks) == _reference_spans(text, blocks), repr(text)


@pytest.mark.parametrize(
    ("text", "indented"),
    [
        ("a\n    b %% c %%", True),
        ("a\n   \tb <!-- c -->", True),
        ("a\n   > %% c %%", True),
        ("a\n    > b\nc %% d %%", False),  # the mark on a line of no lead
        ("%%\n    x", False),
        ("    %", False),
        ("x\n  - %% y %%\n    z", False),
    ],
)
def test_an_indented_mark_is_one_on_a_line_of_four_columns_or_a_quote(
    text: str, indented: bool
) -> None:
    assert _indented_mark(text) is indented
    assert bool(_INDENTED_MARK.search(text)) is indented


class _CountedFinds(str):
    """A text that counts its searches for an opening mark."""

    finds = 0

    def find(self, sub: str, *args: int) -> int:  # type: ignore[override]
        if sub in ("%%", "<!--"):
            _CountedFinds.finds += 1
        return super().find(sub, *args)


def test_many_backtick_runs_before_a_late_mark_look_for_it_once() -> None:
    # each run before the opening mark is a mark of its own: the opening mark is found
    # again only once passed, not once a run (50,000 runs: quadratic)
    body = _CountedFinds("`a` " * 50_000 + "%% b %%")
    assert comment_spans(body, []) == [(200_000, 200_007)]
    assert _CountedFinds.finds <= 4
