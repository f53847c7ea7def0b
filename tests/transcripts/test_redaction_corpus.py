"""The redaction corpus through the filter: every secret goes, ordinary text stays byte
for byte, and a cut never leaves part of a secret."""

from __future__ import annotations

import time
from typing import Any

import pytest

from rubi.transcripts.privacy import CUT_MARGIN, redact, redact_cut, secret_name, secret_spans
from transcripts.redaction_corpus import (
    ORDINARY,
    SECRETS,
    collapse,
    leaks,
    pieces,
    sample_id,
    straddle,
)


def test_the_corpus_is_large_and_varied() -> None:
    assert len(SECRETS) >= 120 and len(ORDINARY) >= 100
    assert len({s["kind"] for s in SECRETS}) >= 100
    assert all(pieces(s) for s in SECRETS), "every secret sample names what must go"
    assert all(pieces(s)[0] in s["text"] for s in SECRETS)


@pytest.mark.parametrize("sample", SECRETS, ids=sample_id)
def test_every_secret_is_redacted(sample: dict[str, Any]) -> None:
    out = redact(sample["text"])
    assert leaks(sample, out) == [], out
    assert "[REDACTED:" in out


@pytest.mark.parametrize("sample", ORDINARY, ids=sample_id)
def test_ordinary_text_is_byte_identical(sample: dict[str, Any]) -> None:
    assert secret_spans(sample["text"]) == []
    assert redact(sample["text"]) == sample["text"]


@pytest.mark.parametrize("sample", SECRETS, ids=sample_id)
@pytest.mark.parametrize(("limit", "collapsed"), [(300, True), (200, True), (20_000, False)])
def test_a_cut_through_a_secret_leaves_nothing_of_it(
    sample: dict[str, Any], limit: int, collapsed: bool
) -> None:
    piece = pieces(sample)[0]
    text = straddle(sample["text"], piece, limit, collapsed=collapsed)
    head = (collapse(text) if collapsed else text)[:limit]
    assert piece[: min(len(piece) // 4, 16)] in head and piece not in head  # cut through it
    out = redact_cut(text, limit, collapse=collapsed)
    assert leaks(sample, out) == [], out[-400:]
    assert len(out) <= limit + len("\n[…cut]")


@pytest.mark.parametrize("sample", ORDINARY, ids=sample_id)
def test_ordinary_text_is_cut_exactly_as_without_redaction(sample: dict[str, Any]) -> None:
    text = "lorem " * 40 + sample["text"]
    plain = collapse(text)
    expected = plain if len(plain) <= 300 else plain[:300].rstrip() + "…"
    assert redact_cut(text, 300, collapse=True, more="…") == expected


def test_redact_cut_keeps_short_text_and_marks_a_cut() -> None:
    assert redact_cut("  hello\n\nworld ", 100) == "  hello\n\nworld "
    assert redact_cut("  hello\n\nworld ", 100, collapse=True) == "hello world"
    assert redact_cut("a" * 50, 10) == "a" * 10 + "\n[…cut]"


def test_a_cut_never_splits_a_mark() -> None:
    text = "x" * 290 + " password: hunter2secret and more text after it"
    out = redact_cut(text, 300, more="…")
    assert "hunter2" not in out and out.endswith("…")
    assert "[REDACTED" not in out or "[REDACTED:password]" in out


def test_a_private_span_longer_than_the_margin_is_closed_at_the_cut() -> None:
    text = "note <private>" + "my home address " * (CUT_MARGIN // 8) + "</private> end"
    out = redact_cut(text, 100)
    assert "home address" not in out and "[REDACTED:private]" in out


def test_a_pem_key_cut_before_its_end_is_redacted() -> None:
    body = "\n".join("MIIEowIBAAKCAQEAx" + "AbCdEf0123" * 4 + str(i) for i in range(40))
    text = "-----BEGIN RSA PRIVATE KEY-----\n" + body + "\n-----END RSA PRIVATE KEY-----"
    assert "MIIEowIBAAKCAQEAx" not in redact(text[: len(text) // 2])


@pytest.mark.timeout(10)
def test_a_huge_paste_costs_no_more_than_its_window() -> None:
    text = "token: abc123def456ghi789 " + "lorem ipsum " * 1_000_000  # 12 MB
    started = time.perf_counter()
    out = redact_cut(text, 20_000)
    assert time.perf_counter() - started < 2.0
    assert "abc123def456ghi789" not in out and len(out) <= 20_010


ADVERSARIAL = {
    "mysql": "mysql " * 6000,
    "sshpass": "sshpass " * 4500,
    "docker login": "docker login " * 2800,
    "redis-cli": "redis-cli " * 3600,
    "curl -u": "curl -u a:b " * 3000,
    "sk-": "sk-" * 12_000,
    "hf_": "hf_" + "a" * 36_000,
    "<private>": "<private>" * 4000,
    "token=": "token=" * 6000,
    "token_url=": "token_url=" * 3600,
    "quoted": '"token": "' + "a" * 36_000,
    "quotes": '"token": "a' * 3000,
    "eyJ": "eyJ" * 12_000,
    "BEGIN": "-----BEGIN RSA PRIVATE KEY-----" * 1100,
    "aws context": ("secret access key " + "A1b2" * 10 + " ") * 600,
    "prose": "password is " * 3000,
    "yaml documents": ("---\n" + "password: Hunter\n" * 150) * 16,
    "ini sections": "[s]\npassword = Hunter\n" * 1800,
    "signatures": "?X-Amz-Signature=" * 2200,
    "ppk": "Private-Lines: 1\n" * 2200,
    "named keys": "encryption key: " * 2200,
}


@pytest.mark.timeout(3)
@pytest.mark.parametrize("text", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_adversarial_text_takes_linear_time(text: str) -> None:
    """36,000 characters built to make a pattern rescan the rest of the line at every
    position (mysql, sshpass, sk-, <private>, token= took 1-13 s before the guards;
    now under 0.2 s): a quadratic pass times out."""
    redact_cut(text, 20_000)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("DB_PASSWORD", "password"),
        ("PGPASSWORD", "password"),
        ("spring.datasource.password", "password"),
        ("AWS_SECRET_ACCESS_KEY", "secret"),
        ("apiKey", "secret"),
        ("X-API-Key", "secret"),
        ("client_secret", "secret"),
        ("_authToken", "secret"),
        ("AccountKey", "secret"),
        ("max_tokens", None),
        ("input_tokens", None),
        ("password_hash", None),
        ("token_url", None),
        ("secretKeyRef", None),
        ("author", None),
        ("Authorization", None),
        ("primary_key", None),
        ("AccessKeyId", None),
        ("private_key_id", "secret"),
        ("privateKeyId", "secret"),
        ("public_key_id", None),
        ("key_id", None),
        ("SharedAccessKeyName", None),
        ("POSTGRES_PASSWORD_FILE", None),
    ],
)
def test_secret_names(name: str, expected: str | None) -> None:
    assert secret_name(name) == expected
