"""The analyzer's fast path (a table of the terms each word becomes) gives what the
Whoosh filter chain gives, token for token, and the index field built on it gives the
postings Whoosh's own ``TEXT`` field would."""

from __future__ import annotations

import pickle
from collections import Counter
from pathlib import Path

import pytest
from whoosh.fields import TEXT

from rubi.index import analysis
from rubi.index.analysis import LANGUAGES, TermAnalyzer, _whoosh_chain, text_analyzer
from rubi.index.textfield import TermText

from helpers import VAULTS, require_data

SAMPLES = [
    "",
    "C++ and C# and F# bindings; c++x stays a word",
    "HTTPServer parse_v2 parseWikiLinks FOO_BAR fooBar app.py os.path it's",
    "naïve résumé café Straße ÄÖÜ İstanbul",
    "東京都庁 日本語テキスト 한국어 mixed漢字words",
    "диске книги كتاب الكتب",
    "the a of is to 1 2 x y router routing handlers recovery battery",
    "Não é uma questão de você estar também nos dados",
    "tabs\tand\nnewlines — dashes – and “quotes” ’apostrophes’",
    "org.springframework.util.StringUtils getBeanFactory setBeanFactory XMLHttpRequest2",
    "naïveÉtat étatCivil the_the of.the İstanbulCafé API로 HTTPクライアント",
]


def _chain_terms(text: str, lang: str) -> list[str]:
    return [t.text for t in _whoosh_chain(lang)(text, mode="index")]


def _corpus() -> list[str]:
    root = require_data(VAULTS / "obsidian-help-en")
    texts = [p.read_text(encoding="utf-8") for p in sorted(Path(root).rglob("*.md"))]
    return SAMPLES + texts[:150]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_terms_equal_the_filter_chain(lang: str) -> None:
    fresh = TermAnalyzer(lang)
    for text in _corpus():
        expected = _chain_terms(text, lang)
        assert fresh.terms(text) == expected
        assert fresh.term_counts(text) == dict(Counter(expected))
        assert fresh.terms(text) == expected  # now from the table


def test_a_word_of_many_parts_gives_the_chain_s_terms() -> None:
    """A camelCase identifier of 10,000 parts and more (a hostile note's one long word): the
    whole word's term, then each part's, as the chain yields them; the parts are
    gathered in a list (a tuple grown part by part was quadratic: its cost is measured
    by ``bench/hostile_notes.py --shape camel``, not here)."""
    word = "fooBar" * 10_000 + "Running"
    fresh = TermAnalyzer("en")
    expected = _chain_terms(word, "en")
    assert fresh.terms(word) == expected
    assert fresh.terms(word) == expected  # from the table
    assert len(expected) > 10_000  # the word, then its parts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_called_as_a_whoosh_analyzer_it_is_the_chain(lang: str) -> None:
    text = SAMPLES[2]
    got = [(t.text, t.pos) for t in text_analyzer(lang)(text, positions=True)]
    want = [(t.text, t.pos) for t in _whoosh_chain(lang)(text, positions=True)]
    assert got == want


@pytest.mark.parametrize("lang", ["en", "code", "fr"])
def test_a_new_word_of_known_parts_stems_only_itself(lang: str) -> None:
    """A word's parts are learned once: a new name of known parts runs the chain's
    end (its stop words and stemmer) for the name whole and its new parts only."""
    fresh = TermAnalyzer(lang)
    end = fresh._filters[-1]
    seen: list[str] = []
    terms = end.terms
    end.terms = lambda word: seen.append(word) or terms(word)
    fresh.terms("getBeanFactory")
    seen.clear()
    text = "org.springframework.beans.BeanFactory setBeanFactory"
    assert fresh.terms(text) == _chain_terms(text, lang)
    whole = ["org.springframework.beans.beanfactory", "setbeanfactory"]
    assert sorted(seen) == sorted([*whole, "org", "springframework", "beans", "set"])


def test_the_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "TERM_CACHE_SIZE", 5)
    fresh = TermAnalyzer("en")
    words = " ".join(f"word{i}" for i in range(40))
    assert fresh.terms(words) == _chain_terms(words, "en")
    assert len(fresh._table) <= 5


def test_pickles_as_its_language_without_the_table() -> None:
    shared = text_analyzer("code")
    shared.terms("a table full of words " * 20)
    data = pickle.dumps(shared)
    assert len(data) < 200
    assert pickle.loads(data) is shared


@pytest.mark.parametrize("lang", LANGUAGES)
def test_field_postings_equal_whoosh_text(lang: str) -> None:
    ours = TermText(text_analyzer(lang))
    stock = TEXT(analyzer=_whoosh_chain(lang), phrase=False)
    for text in _corpus()[:40]:
        assert sorted(ours.index(text)) == sorted(stock.index(text))


def test_the_word_finder_is_the_tokenizers_own_compiled_pattern() -> None:
    """The fast path's word finder and Whoosh's tokenizer use one compiled pattern (the
    character classes of the token pattern are compiled once per process, not twice)."""
    analyzer = text_analyzer("fr")
    tokenizer = analyzer._chain.items[0]
    assert analyzer._findall.__self__ is tokenizer.expression


@pytest.mark.parametrize("lang", ["en", "code", "de", "tr"])
def test_a_query_s_terms_put_no_whoosh_chain_together(lang: str) -> None:
    """A query's terms in a chain (``terms_of``, what every chain of a many-language
    index gives a cold recall) need the chain's last filter only: Whoosh's filters are
    put together when a text is first run through them, with that same filter, and
    the terms are the chain's."""
    fresh = TermAnalyzer(lang)
    words = ["routing", "straße", "café", "the", "leri", "диске", "東京"]
    got = [fresh.terms_of(w) for w in words]
    assert fresh._whoosh is None
    assert fresh._filters[-1] is fresh._language
    assert got == [tuple(_chain_terms(w, lang)) for w in words]


def test_one_analyzer_per_chain_however_it_is_asked_for() -> None:
    """``text_analyzer()`` is English's analyzer, not a cache key of its own: with all
    the chains asked for, the default made a 20th key, and an index of every language
    evicted one analyzer (and the words it had learned) per call in turn (a warm long
    recall made all 19 anew each time)."""
    first = [text_analyzer(lang) for lang in LANGUAGES]
    assert text_analyzer() is text_analyzer("en")
    again = [text_analyzer(lang) for lang in LANGUAGES]
    assert all(a is b for a, b in zip(first, again, strict=True))
