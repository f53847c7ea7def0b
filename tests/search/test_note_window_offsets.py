"""The note window's share is the same however its terms' offsets are found: found
afresh, or kept from an earlier search of the same text (by its digest); a changed
note is measured anew, and the share equals the rule as first written on varied
texts (identifier parts, capitals, Unicode spaces, CJK, repeated and adjacent
terms)."""

from __future__ import annotations

import random

import pytest

from rubi.index.analysis import is_cjk, text_analyzer
from rubi.index.querymatch import BM25Hit
from rubi.search import notewindow
from rubi.search.notewindow import (
    NoteQuestion,
    by_note_window,
    note_question,
    note_window_share,
)
from rubi.search.termat import holds_term
from rubi.search.textkey import text_key


def _reference_share(text: str, question: NoteQuestion, window: int) -> float | None:
    """The share as the rule was first written (before its offsets were kept), each
    place checked afresh (:func:`rubi.search.termat.holds_term`, which the rule shares
    with the code window since the fourteenth pass)."""
    mass = question.mass
    if mass <= 0:
        return None
    analyzer = text_analyzer(question.lang)
    low = text.lower()
    found: list[tuple[int, int]] = []
    for index, (term, key) in enumerate(zip(question.terms, question.keys, strict=True)):
        cjk = is_cjk(term)
        pos = low.find(key)
        while pos >= 0:
            if cjk or holds_term(text, pos, term, analyzer.terms_of, {}):
                found.append((pos, index))
            pos = low.find(key, pos + len(key))
    found.sort()
    events: list[tuple[int, int]] = []
    word = last = 0
    for pos, index in found:
        word += len(text[last:pos].split())
        last = pos
        events.append((word, index))
    held: dict[int, int] = {}
    now = best = 0.0
    first = 0
    for at, index in events:
        while events[first][0] <= at - window:
            gone = events[first][1]
            held[gone] -= 1
            if not held[gone]:
                del held[gone]
                now -= question.idfs[gone]
            first += 1
        if index not in held:
            now += question.idfs[index]
        held[index] = held.get(index, 0) + 1
        best = max(best, now)
    return min(1.0, best / mass)


PIECES = (
    "session",
    "Session",
    "SessionMiddleware",
    "sessions",
    "sign",
    "signed",
    "design",
    "cookie",
    "cookies",
    "Cookie-jar",
    "HTTPServer",
    "server",
    "servers",
    "x",
    "the",
    "running",
    "runs",
    "Run",
    "über",
    "Über",
    "会话",
    "会话管理",
    "\u00a0",
    "\u2003",
    "\n",
    "\t",
    " ",
    "  ",
    "-",
    "_",
    "(",
    ")",
    "1st",
    "v2",
    "ünïcode",
    "naïve",
)


def _text(rng: random.Random, words: int) -> str:
    out = []
    for _ in range(words):
        out.append(rng.choice(PIECES))
        out.append(rng.choice(("", " ", " ", " ", "\n", "\u00a0", "-")))
    return "".join(out)


def _question(query: str, idf: float = 1.0) -> NoteQuestion:
    asked = note_question(query, ["en", "zh"], lambda ts: {t: idf + len(t) / 7 for t in ts})
    assert asked.terms
    return asked


QUERIES = (
    "session cookie signed server running",
    "the sessions of servers and their cookies",
    "会话管理 server",
    "über naïve design",
)


@pytest.mark.parametrize("seed", range(40))
def test_the_share_equals_the_rule_as_first_written_found_afresh_or_kept(seed: int) -> None:
    rng = random.Random(seed)
    text = _text(rng, rng.choice((3, 20, 150, 600)))
    digest = text_key(text)
    for query in QUERIES:
        asked = _question(query)
        for window in (1, 5, 120):
            want = _reference_share(text, asked, window)
            assert note_window_share(text, asked, window) == want
            assert note_window_share(text, asked, window, digest) == want  # kept now
            assert note_window_share(text, asked, window, digest) == want  # from the memo


def test_a_kept_text_is_not_searched_again_and_a_changed_one_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    notewindow._OFFSETS.clear()
    calls: list[str] = []
    real = notewindow._offsets_of

    def counted(text: str, low: str, term: str, key: str, lang: str) -> list[int]:
        calls.append(term)
        return real(text, low, term, key, lang)

    monkeypatch.setattr(notewindow, "_offsets_of", counted)
    asked = _question("signed session cookie held by the server today")
    near = "A signed session cookie is held by the server today.\n"
    apart = "A signed session " + "filler " * 200 + "cookie held by the server today.\n"
    texts = {"a": near, "b": apart}
    hits = [BM25Hit("a", 1.0, {}, "note", "a", "a"), BM25Hit("b", 2.0, {}, "note", "b", "b")]

    def order() -> list[tuple[str, float]]:
        out = by_note_window(hits, asked, lambda h: texts[h.id], lambda h: text_key(texts[h.id]))
        return [(h.id, h.score) for h in out]

    first = order()
    searched = len(calls)
    assert searched == 2 * len(asked.terms)
    assert order() == first and len(calls) == searched  # nothing searched again
    texts["b"] = near  # the note changed: its offsets are found anew, its share too
    changed = order()
    assert len(calls) == searched  # the same text as "a": its kept offsets serve
    assert changed != first and dict(changed)["b"] == pytest.approx(2.0)
    texts["b"] = "Nothing of the question here.\n"
    assert dict(order())["b"] < 2.0 * 0.5 and len(calls) > searched


def test_the_memo_keeps_at_most_its_budget_and_always_the_newest() -> None:
    from array import array

    kept = notewindow._Offsets(2 * (3 + notewindow.ENTRY_CHARGE))
    for n in range(20):
        kept.put((bytes([n]), "en", "t", "t"), array("I", [1, 2, 3]))
    assert kept.get((bytes([0]), "en", "t", "t")) is None
    assert kept.get((bytes([18]), "en", "t", "t")) == array("I", [1, 2, 3])
    assert kept.get((bytes([19]), "en", "t", "t")) == array("I", [1, 2, 3])
    assert kept._held <= 2 * (3 + notewindow.ENTRY_CHARGE)
    big = array("I", range(1000))  # larger than the whole budget: kept alone
    kept.put((b"big", "en", "t", "t"), big)
    assert kept.get((b"big", "en", "t", "t")) == big
    assert kept.get((bytes([19]), "en", "t", "t")) is None


@pytest.mark.parametrize(
    "text",
    [
        "İİİ signed session cookieServer",
        "İstanbul İzmir: the SessionCookie is signed by the server",
        "İ" * 40 + " filler " * 130 + "signedSession cookie",
    ],
)
def test_a_capital_dotted_i_shifts_no_offset(text: str) -> None:
    """``"İ".lower()`` is two characters: offsets found in the lower-cased text were
    read in the text itself (an IndexError past its end, or a part missed)."""
    from rubi.search.codewindow import question_terms, window_share

    asked = _question("signed session cookie server")
    same = text.replace("İ", "I")  # one character either way, no question term
    want = note_window_share(same, asked)
    assert want is not None and want > 0
    assert note_window_share(text, asked) == want
    assert note_window_share(text, asked, digest=text_key(text)) == want
    code = question_terms("signed session cookie server", lambda ts: dict.fromkeys(ts, 1.0))
    assert window_share(text, code) == window_share(same, code)
