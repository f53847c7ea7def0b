"""In a search of notes, a plain-words question finds first the note where its words
meet within one passage, not the long page that mentions each of them somewhere; a
short question keeps BM25F's order."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.querymatch import BM25Hit
from rubi.search.notewindow import (
    MIN_SHARE,
    WINDOW_WORDS,
    NoteQuestion,
    by_note_window,
    note_question,
    note_window_share,
)
from rubi.semantic import DISABLE_ENV

from helpers import filler_notes, notes_vault

WORDS = ("header", "request", "profiling", "continuous", "attach", "server")
QUESTION = "attach a header to every request so the continuous profiling server can tie them"


def _filler(n: int) -> str:
    """A paragraph of ``n`` distinct words no question here asks about."""
    return " ".join(f"lorem{n}x{i}" for i in range(n)) + "\n"


def _scattered() -> str:
    """A long guide naming every word of the question, each in its own section far
    from the others, and more often than the short page does."""
    parts = ["# Running big tests\n"]
    for word in WORDS:
        parts.append(f"## About the {word}\n\n" + f"The {word} matters. " * 6 + "\n")
        parts.append(_filler(WINDOW_WORDS + 20))
    return "\n".join(parts)


SHORT = (
    "# instrumentHTTP\n\n"
    "Attach a header to each request so that a continuous profiling server links its "
    "profiles to the run.\n"
)


def _hit(doc: str, score: float, kind: str = "note") -> BM25Hit:
    return BM25Hit(doc, score, {}, kind, doc, doc)


def _question(*terms: str, idfs: tuple[float, ...] = ()) -> NoteQuestion:
    return NoteQuestion("en", terms, terms, idfs or tuple(1.0 for _ in terms))


def test_a_question_puts_the_note_where_its_words_meet_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DISABLE_ENV, "0")  # the text list decides, as in a plain install
    pages = {f"page{i}.md": f"# page {i}\n\n" + _filler(2000 + i) for i in range(20)}
    notes = {"guide.md": _scattered(), "instrument.md": SHORT, **pages, **filler_notes(20)}
    paths = notes_vault(tmp_path / "v", notes)
    app.index(paths)
    hits = app.search(paths, QUESTION, scope="notes", top_k=3).hits
    assert hits[0].id == "instrument"
    short = app.search(paths, "profiling header", scope="notes", top_k=3).hits
    assert short[0].id == "guide"


def test_window_share_is_the_best_window_share_of_the_idf_mass() -> None:
    asked = _question("sign", "cooki", "session")
    assert note_window_share("A signed cookie holds the session.", asked) == 1.0
    apart = "signed " + _filler(WINDOW_WORDS) + " cookie session"
    assert note_window_share(apart, asked) == 2 / 3
    weighed = _question("sign", "cooki", idfs=(3.0, 1.0))
    assert note_window_share("signed " + _filler(WINDOW_WORDS) + " cookie", weighed) == 0.75
    assert note_window_share("nothing here", _question("sign")) == 0.0
    assert note_window_share("anything", _question()) is None


def test_the_question_is_read_in_its_own_language() -> None:
    asked = note_question("wie kann ich die Anfragen protokollieren", ["de", "en"], lambda t: {})
    assert asked.lang == "de"
    assert "wie" not in asked.terms  # a German stop word, not a term
    english = note_question("how do I log the requests", ["de", "en"], lambda t: {})
    assert english.lang == "en"
    assert set(english.terms) == {"log", "request"}


def test_only_questions_of_six_to_twenty_terms_are_reordered() -> None:
    hits = [_hit("long", 1.5), _hit("short", 1.0)]
    texts = {"long": "alpha " + _filler(WINDOW_WORDS) + " beta", "short": "alpha beta"}
    few = _question("alpha", "beta")
    assert [h.id for h in by_note_window(hits, few, lambda h: texts[h.id])] == ["long", "short"]
    six = _question(
        "alpha", "beta", *(f"w{i}" for i in range(4)), idfs=(1, 1, 0.01, 0.01, 0.01, 0.01)
    )
    moved = by_note_window(hits, six, lambda h: texts[h.id])
    assert [h.id for h in moved] == ["short", "long"]


def test_an_unread_hit_keeps_its_score_and_a_code_file_is_measured_as_a_note() -> None:
    six = _question("alpha", "beta", "gamma", "delta", "omega", "sigma")
    hits = [_hit("gone", 3.0), _hit("code", 2.0, "file"), _hit("none", 1.0)]
    texts = {"gone": "", "code": "alpha = beta(gamma)\n", "none": "nothing of it"}
    out = by_note_window(hits, six, lambda h: texts[h.id])
    assert [(h.id, h.score) for h in out] == [("gone", 3.0), ("code", 1.0), ("none", MIN_SHARE)]
