"""The query's word map (:func:`rubi.index.queryanalysis.word_map`) keeps each word's
share by (word, chains): the same map as every word analysed afresh, merged in the
query's word order, and a word met before is not analysed again."""

from __future__ import annotations

import random

import pytest

import rubi.index.queryanalysis as queryanalysis
from rubi.index.analysis import analyze, identifier_parts, is_cjk, languages_in_use
from rubi.index.queryanalysis import word_map

WORDS = [
    "routing",
    "router",
    "routes",
    "HttpServer",
    "http",
    "server",
    "dispatch_request",
    "request",
    "requests",
    "Obsidian's",
    "(notes)",
    "notes,",
    "note",
    "daily",
    "Dailies",
    "同期する",
    "設定の同期",
    "CMSの",
    "synchronisation",
    "synchronise",
    "Sync",
    "I",
    "how",
    "the",
    "die",
    "Einstellungen",
    "paramètres",
    "2022",
    "v1.2",
    "x",
]


def first_written(text: str, langs: list[str] | None = None) -> tuple[dict[str, str], set[str]]:
    """The map as first written: every word analysed afresh in every chain (``langs``:
    the chains in use, by default :func:`languages_in_use`'s)."""
    langs = languages_in_use() if langs is None else langs
    out: dict[str, str] = {}
    pieces: set[str] = set()
    words = dict.fromkeys(raw.strip(".,;:!?\"'()") for raw in text.split())
    for word in words:
        parts = identifier_parts(word)
        if len(parts) > 1:
            pieces.update(p.lower() for p in parts)
        for lang in ("en", *(lang for lang in langs if lang != "en")):
            for part in parts:
                for term in analyze(part, lang):
                    out.setdefault(term, term if is_cjk(term) else part.lower())
            for term in analyze(word, lang):
                out.setdefault(term, term if is_cjk(term) else word.lower())
    return out, pieces


@pytest.mark.parametrize("seed", range(8))
def test_the_map_equals_every_word_analysed_afresh(seed: int) -> None:
    rng = random.Random(seed)
    queryanalysis._WORDS.clear()
    for _ in range(60):  # the memo filled in every order: words met before and not
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))
        got = word_map(text)
        want = first_written(text)
        assert got == want
        assert list(got[0].items()) == list(want[0].items())  # the same order too


def test_which_word_names_a_term_follows_the_query_order() -> None:
    queryanalysis._WORDS.clear()
    assert word_map("routing router")[0] == first_written("routing router")[0]
    assert word_map("router routing")[0] == first_written("router routing")[0]
    assert word_map("routing router")[0]["rout"] == "routing"
    assert word_map("router routing")[0]["rout"] == "router"


def test_a_word_met_before_is_not_analysed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    queryanalysis._WORDS.clear()
    calls: list[str] = []

    def counting(text: str, lang: str = "en") -> list[str]:
        calls.append(text)
        return analyze(text, lang)

    monkeypatch.setattr(queryanalysis, "analyze", counting)
    first = word_map("how do I sync my HttpServer settings")
    assert calls
    calls.clear()
    again = word_map("sync settings how HttpServer")
    assert not calls  # every word kept
    assert again == first_written("sync settings how HttpServer")
    word_map("sync quokka")
    assert set(calls) == {"quokka"}  # only the new word
    assert first == first_written("how do I sync my HttpServer settings")


def test_other_chains_analyse_the_word_again(monkeypatch: pytest.MonkeyPatch) -> None:
    queryanalysis._WORDS.clear()
    word_map("synchronisation")
    calls: list[tuple[str, str]] = []

    def counting(text: str, lang: str = "en") -> list[str]:
        calls.append((text, lang))
        return analyze(text, lang)

    monkeypatch.setattr(queryanalysis, "analyze", counting)
    fewer = ["en", "fr"]
    monkeypatch.setattr(queryanalysis, "languages_in_use", lambda: fewer)
    got = word_map("synchronisation")
    assert {lang for _, lang in calls} == {"en", "fr"}
    assert got == first_written("synchronisation", fewer)
    assert word_map("synchronisation") == got and len(calls) == 4  # kept for these chains


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    queryanalysis._WORDS.clear()
    monkeypatch.setattr(queryanalysis, "WORD_MEMO", 5)
    for i in range(40):
        text = f"word{i} other{i} note"
        assert word_map(text) == first_written(text)
        assert len(queryanalysis._WORDS) <= 5
