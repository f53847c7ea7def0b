"""``<private>`` spans: nested spans end with their outermost closing tag, an unclosed
span hides the rest of a captured text, a tag written as code is text."""

from __future__ import annotations

import pytest

from rubi.transcripts.privacy import redact
from rubi.transcripts.privacy.vaulttext import scrub, unclosed_private


def test_a_nested_span_ends_with_its_outermost_closing_tag() -> None:
    text = "a <private>outer <private>inner pin 4821</private> still outer card 4111</private> b"
    assert redact(text) == "a [REDACTED:private] b"
    out, found = scrub(text)
    assert out == "a  b" and [f.kind for f in found] == ["private"]


def test_nesting_in_any_case_and_across_lines() -> None:
    text = "x\n<PRIVATE>\none <Private>two</private>\nthree ssn 078-05-1120\n</PRIVATE>\ny"
    assert redact(text) == "x\n[REDACTED:private]\ny"


def test_an_unclosed_span_hides_the_rest_of_a_captured_text() -> None:
    text = "deploy notes <private> the admin pin is 4821\nand the card 4111"
    assert redact(text) == "deploy notes [REDACTED:private]"
    assert unclosed_private(text) == 1
    assert unclosed_private("a\nb\n<private>c") == 3


def test_a_stray_closing_tag_is_ignored() -> None:
    text = "done </private> then <private>pin 4821</private> end"
    assert redact(text) == "done </private> then [REDACTED:private] end"
    assert unclosed_private(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "a `<private>` span is removed without a mark",
        "wrap it: `<private>` … `</private>`",
    ],
)
def test_a_tag_written_as_code_is_text(text: str) -> None:
    assert redact(text) == text
    assert unclosed_private(text) is None


def test_many_openings_cost_linear_time() -> None:
    import time

    text = "<private>" * 50_000 + "x" + "</private>" * 50_000
    began = time.perf_counter()
    assert redact(text) == "[REDACTED:private]"
    assert time.perf_counter() - began < 2
