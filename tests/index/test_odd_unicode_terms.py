"""Odd Unicode through every analysis chain (fourteenth pass's adversarial review): a
token that folds to nothing (a lone combining mark, which the token pattern keeps as
a word) becomes no term, never the empty term; Turkish dotted and dotless i, RTL
marks, emoji, only underscores, apostrophes and a 100,000-character token give terms,
none empty, in every chain, and the windows' term check answers for each."""

from __future__ import annotations

import pytest

from rubi.index.analysis import LANGUAGES, text_analyzer
from rubi.search.termat import holds_term

ODD = [
    "\u0301",  # a lone combining acute accent: folds to nothing
    "\u0301\u0308",
    "İSTANBUL'DA",
    "ıi",
    "i\u0307",
    "\u200fשלום\u200f",
    "👍",
    "____",
    "_\u0301_",
    "'",
    "commit'leri",
    "URLs",
    "__init__",
    "a" * 100_000,
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_chain_makes_an_empty_term_of_odd_text(lang: str) -> None:
    analyzer = text_analyzer(lang)
    for surface in ODD:
        terms = analyzer.terms_of(surface)
        assert "" not in terms, (lang, surface[:20])
        assert "" not in analyzer.terms(f"x {surface} y"), (lang, surface[:20])
        for term in terms:
            text = f"{surface} and {surface}"
            assert isinstance(holds_term(text, 0, term, analyzer.terms_of, {}), bool)
    assert analyzer.terms_of("\u0301") == ()


@pytest.mark.timeout(3)
def test_a_note_of_long_tokens_is_read_for_its_language_in_linear_time() -> None:
    """A 20,000-character token (a hash, a blob) made the dotted-name pattern rescan and
    backtrack the rest of the run at every position: 3.8 s of CPU a note, 58 s to index
    23 such notes. Now well under the bound for all five."""
    from rubi.index.language import detect_language

    for text in ("a" * 20_000, "é" * 20_000, "a_" * 10_000, "x " * 99 + "b" * 20_000, "1" * 20_000):
        assert detect_language(text) == "en"
    assert detect_language("Ver docs.example.com para más información sobre el uso") == "es"
