"""A note read again is blanked from the comments' places kept the first time
(rubi.search.showntext): the same text and digest as shown_text makes, without
looking for its comments again; a changed note is a new key."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.markdown import comments
from rubi.search import showntext
from rubi.search.hittext import FileText
from rubi.search.showntext import ShownTexts
from rubi.search.textkey import text_key

from helpers import write

NOTE = (
    "---\ntags: [a]\n---\n# Plugins %% a heading's comment %%\n\n"
    "Sync your vault. <!-- left out\nover two lines -->\n\n"
    "```\n%% code, not a comment %%\n```\n\n`%% a code span %%` and %% inline %% words.\n"
)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every text whose comments are looked for."""
    asked: list[str] = []
    found = comments.text_comment_spans

    def spans(text: str) -> list[tuple[int, int]]:
        asked.append(text)
        return found(text)

    monkeypatch.setattr(showntext, "text_comment_spans", spans)
    return asked


@pytest.mark.parametrize(
    "text",
    [
        NOTE,
        NOTE.replace("---\ntags: [a]\n---\n", ""),
        "---\nnote: '%% in the frontmatter %%'\n---\nbody %% gone %% kept\n",
        "%% never closed\ntext\n",
        "no mark at all\n",
        "<!--\n" * 3 + "-->" + " é ünïcode %%x%%\n",
    ],
)
def test_kept_places_blank_the_same_text(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    memo = ShownTexts(8)
    asked = _counting(monkeypatch)
    first = memo.shown(text)
    again = memo.shown(text)
    want = comments.shown_text(text)
    assert first[0] == again[0] == want
    if comments.has_comment_mark(text):
        assert first[1] == again[1] == text_key(want)
        assert len(asked) == 1  # the second read took the places kept
    else:
        assert first == (text, None) and not asked and len(memo) == 0


def test_a_file_read_again_takes_its_places_from_the_memo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    note = write(tmp_path / "a.md", NOTE)
    monkeypatch.setattr(showntext, "shown_of", ShownTexts(8).shown)
    asked = _counting(monkeypatch)
    texts = [FileText(tmp_path, note, markdown=True) for _ in range(2)]
    assert [t.text for t in texts] == [comments.shown_text(NOTE)] * 2
    assert [t.digest for t in texts] == [text_key(texts[0].text)] * 2
    assert len(asked) == 1
    write(note, NOTE.replace("inline", "changed"))  # a changed note: a new key
    changed = FileText(tmp_path, note, markdown=True)
    assert "changed" not in changed.text and "words." in changed.text
    assert changed.digest == text_key(changed.text) and len(asked) == 2


def test_a_text_whose_marks_hide_nothing_is_digested_once(monkeypatch: pytest.MonkeyPatch) -> None:
    digested: list[str] = []
    monkeypatch.setattr(showntext, "text_key", lambda t: digested.append(t) or text_key(t))
    text = "a %% never closed\n"
    assert ShownTexts(8).shown(text) == (text, text_key(text))
    assert digested == [text]


def test_the_memo_keeps_the_most_recent_texts() -> None:
    memo = ShownTexts(2)
    for n in range(3):
        memo.shown(f"note {n} %% comment %%")
    assert len(memo) == 2
    memo.clear()
    assert len(memo) == 0
