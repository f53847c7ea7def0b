"""A sample token shown by its ends only (``eyJ0eX...8WQ``: how documentation elides
one) is not a secret; a value with more than a few characters on either side of the
ellipsis, or none after it, still is."""

from __future__ import annotations

import pytest

from rubi.transcripts.privacy import redact

ELIDED = [
    '    "access_token": "eyJ0eX...8WQ"',
    "api_key = sk-abc…xyz",
    "Authorization token: ghp_ab...Yz",
]
SECRETS = [
    ("password: hunter2...", "hunter2"),
    ('password = "p@ss...word1"', "word1"),
    ("token: abcdefghijklmnopqrstuv...", "abcdefghijklmnopqrstuv"),
    ("secret: 3f9a8b7c6d5e4f3a2b1c...9d8e7f", "3f9a8b7c6d5e4f3a2b1c"),
]


@pytest.mark.parametrize("text", ELIDED)
def test_an_elided_sample_is_left_alone(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_value_that_keeps_too_much_is_still_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert "[REDACTED:" in out and secret not in out
