"""Candidate lists vote only with evidence (rubi.search.rules): an exact name when it
is rare in the vault, the whole query or an identifier."""

from __future__ import annotations

import math

import pytest

from rubi.search.rules import NAME_MIN_IDF, identifier_like, name_idf, name_votes


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("binding.go", True),
        ("RouterGroup", True),
        ("dispatch_request", True),
        ("2-factor", True),
        ("Engineering", False),
        ("random note", False),
        ("vs code", False),
    ],
)
def test_identifiers_are_told_from_words(written: str, expected: bool) -> None:
    assert identifier_like(written) is expected


def test_a_names_rarity_sums_its_words_idf() -> None:
    idf = {"random": 4.4, "note": 1.2}
    assert name_idf(["random", "note"], idf) == pytest.approx(5.6)
    assert name_idf(["random", "random"], idf) == pytest.approx(4.4)  # counted once
    assert name_idf(["zebrafish"], idf) == math.inf  # unknown to the index: rare
    assert name_idf([], idf) == 0.0  # stop words only


def test_a_common_word_names_no_note_unless_it_is_the_whole_query() -> None:
    common, rare = NAME_MIN_IDF - 0.1, NAME_MIN_IDF
    assert not name_votes("engineering", common, "note")
    assert name_votes("engineering", common, "note", whole=True)
    assert name_votes("random note", rare, "note")
    assert name_votes("context", common, "file")  # a file's name is an identifier
    assert name_votes("RouterGroup", common, "note")
    # The threshold: as rare as a word in 1 document in 20 (IDF = log(N / df) + 1).
    assert math.isclose(NAME_MIN_IDF, 1 + math.log(20))
