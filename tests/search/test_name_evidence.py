"""A note's name votes only with evidence that the question is about it: rare in the
vault and most of the question, or written as a name (an identifier, a code span, the
whole query). A command page named by one word of a long task question does not come
first, and its why-line says what the name was weighed on."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.search.hits import Why
from rubi.search.reweighting import (
    NAME_MIN_IDF,
    NAME_MIN_SHARE,
    in_code_span,
    name_evidence,
    name_share,
    name_votes,
)
from rubi.vault.resolve import normalize_name

from helpers import filler_notes, notes_vault

IDF = {"log": 4.5, "follow": 2.0, "end": 1.5, "grows": 3.0, "random": 4.4, "note": 1.2}


def test_a_names_share_is_its_part_of_the_questions_idf_mass() -> None:
    asked = ["follow", "end", "log", "grows"]
    assert name_share(["log"], asked, IDF) == pytest.approx(4.5 / 11.0)
    assert name_share(["random", "note"], ["random", "note"], IDF) == pytest.approx(1.0)
    assert name_share(["log", "log"], ["log", "grows"], IDF) == pytest.approx(4.5 / 7.5)
    assert name_share(["random"], ["follow"], IDF) == 0.0  # not a word of the question
    assert name_share(["log"], [], IDF) == 1.0  # nothing else to be about


def test_a_rare_name_votes_only_when_it_is_most_of_the_question() -> None:
    rare = NAME_MIN_IDF
    assert not name_votes("log", rare, "note", share=NAME_MIN_SHARE - 0.01)
    assert name_votes("random note", rare, "note", share=NAME_MIN_SHARE)
    assert not name_votes("random note", rare - 0.1, "note", share=1.0)  # common word
    # Written as a name, or the whole query, or a file: no share needed.
    assert name_votes("`log`", rare - 1, "note", share=0.1)
    assert name_votes("log", rare - 1, "note", whole=True, share=0.1)
    assert name_votes("log.txt", rare - 1, "note", share=0.1)
    assert name_votes("log", rare - 1, "file", share=0.1)


def test_a_code_span_holding_the_whole_name_is_written_as_a_name() -> None:
    assert in_code_span("log", ["show me `log` usage"], normalize_name)
    assert in_code_span("random note", ["open `Random  Note`"], normalize_name)
    assert not in_code_span("log", ["run `git log -p`"], normalize_name)  # part of a span
    assert not in_code_span("log", ["the log grows"], normalize_name)


def test_the_evidence_names_the_test_that_failed() -> None:
    assert (
        name_evidence(3, NAME_MIN_IDF + 1, 0.8, True) == "rare: in 3 documents, 80% of the question"
    )
    assert (
        name_evidence(312, NAME_MIN_IDF - 1, 0.8, False)
        == "not counted: common word, in 312 documents"
    )
    assert name_evidence(40, NAME_MIN_IDF + 1, 0.18, False) == ("not counted: 18% of the question")


def _command_pages() -> dict[str, str]:
    """A vault of one page per command (as tldr-pages are): ``log`` reads system logs,
    ``tail`` follows a growing file; 80 other pages, one of them mentioning logs."""
    notes = {
        "log.md": "# log\n\nView and stream the unified system log.\n\n- `log show`\n",
        "tail.md": "# tail\n\nDisplay the last lines of a file.\n\n"
        "- Show the last 10 lines: `tail path/to/file`\n"
        "- Keep showing new lines as the file grows: `tail -f path/to/file`\n",
        **filler_notes(80),
    }
    notes["cmd0.md"] = "# cmd0\n\nCommand number 0 copies folders. It writes a log of each run.\n"
    return notes


@pytest.mark.timeout(60)
def test_a_page_named_by_one_word_of_a_task_question_is_not_put_first(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", _command_pages())
    result = app.search(paths, "how do I see the last lines of a log as it grows", top_k=5)
    assert result.hits[0].id == "tail"
    log = next(h for h in result.hits if h.id == "log")
    named = log.reasons[0]
    assert named.kind == "named" and named.evidence.startswith("not counted: ")
    assert named.evidence.endswith("% of the question")
    assert result.named == 0  # a name that did not vote is not evidence for the floor


@pytest.mark.timeout(60)
def test_a_name_asked_alone_or_in_a_code_span_still_votes(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", _command_pages())
    alone = app.search(paths, "log", top_k=5)
    assert alone.hits[0].id == "log" and alone.hits[0].reasons[0] == Why("named", "log")
    spanned = app.search(paths, "how do I see the last lines of `log` as it grows", top_k=5)
    assert spanned.hits[0].id == "log" and spanned.named == 1
