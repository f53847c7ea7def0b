"""Every language is stemmed by Snowball's C build (PyStemmer): Whoosh's Python ports of
Hungarian and Swedish lost suffixes Snowball strips, and Dutch keeps the algorithm Whoosh
ported (Snowball's ``dutch_porter``), not Snowball 3's revised one."""

from __future__ import annotations

import pytest

from rubi.index.analysis import analyze


def _stem(text: str, lang: str) -> str:
    return analyze(text, lang)[0]


@pytest.mark.parametrize(
    ("lang", "inflected", "plain"),
    [
        # "from the payments" / "at payment" (a Dynamics 365 Finance page and question)
        ("hu", "kifizetésekből", "kifizetéskor"),
        ("hu", "rendszerből", "rendszer"),
        # "the number" / "number" (Business Central's Swedish docs)
        ("sv", "antalet", "antal"),
        ("sv", "företaget", "företag"),
    ],
)
def test_an_inflection_whoosh_s_port_kept_meets_its_word(
    lang: str, inflected: str, plain: str
) -> None:
    assert _stem(inflected, lang) == _stem(plain, lang)


def test_dutch_keeps_the_algorithm_whoosh_ported() -> None:
    # Snowball 3's revised Dutch stems "informatie" to "informeer" and "naar" as itself;
    # the older algorithm (Whoosh's, and ``dutch_porter``'s) gives these stems
    assert [_stem(w, "nl") for w in ("informatie", "documentatie", "toon")] == [
        "informatie",
        "documentatie",
        "ton",
    ]


def test_a_stemmed_hungarian_term_is_accent_folded() -> None:
    assert _stem("áruszállításokról", "hu") == "aruszallitas"
