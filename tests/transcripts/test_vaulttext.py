"""Text bound for the vault: secrets marked, ``<private>`` spans removed, each secret
reported by its line and kind; marks already written are no secrets."""

from __future__ import annotations

from rubi.transcripts.privacy.vaulttext import Found, find_secrets, scrub
from transcripts.redaction_corpus import SECRETS


def test_each_secret_is_marked_and_reported_by_line_and_kind() -> None:
    text = "intro\n\nexport AWS_ACCESS_KEY_ID=AKIAFAKE0EXAMPLE0KEY\nDB_PASSWORD=hunter2x\n"
    out, found = scrub(text)
    assert out == (
        "intro\n\nexport AWS_ACCESS_KEY_ID=[REDACTED:aws-key]\nDB_PASSWORD=[REDACTED:password]\n"
    )
    assert found == [Found(3, "aws-key"), Found(4, "password")]
    assert find_secrets(text) == found


def test_a_private_span_goes_without_a_mark() -> None:
    out, found = scrub("a\n<private>line one\nline two</private> b <PRIVATE>c</PRIVATE>")
    assert out == "a\n b "
    assert found == [Found(2, "private"), Found(3, "private")]


def test_text_without_secrets_is_returned_as_is() -> None:
    text = "uuid 3f2b8c1e-9d4a-4e6b-8f0c-2a1b3c4d5e6f and password_hash = bcrypt(pw)"
    out, found = scrub(text)
    assert out is text and found == []


def test_scrubbed_text_holds_no_secret_any_more() -> None:
    """What rubi wrote is not reported again (doctor on a scrubbed vault is clean)."""
    for sample in SECRETS:
        out, found = scrub(sample["text"])
        assert found, sample["kind"]
        assert find_secrets(out) == [], (sample["kind"], out)
