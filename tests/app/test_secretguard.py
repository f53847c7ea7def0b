"""Text bound for the vault with a ``<private>`` tag never closed is refused with one
line naming the field and the line; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.app.secretguard import scrub_text
from rubi.core.errors import RubiError

from helpers import write


def test_an_unclosed_private_tag_is_refused_with_its_field_and_line() -> None:
    with pytest.raises(RubiError) as caught:
        scrub_text("first\nsecond <private> pin 4821\nthird", "body")
    message = str(caught.value)
    assert message.startswith("body line 2: <private> is never closed")
    assert "4821" not in message


def test_register_and_handoff_write_nothing_for_an_unclosed_private_tag(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    paths = app.locate(root / ".rubi")
    body = "Deploy.\n<private>the staging pin is 4821\nUse make deploy."
    with pytest.raises(RubiError, match="body line 2"):
        app.register(paths, [{"type": "note", "title": "Deploy", "body": body}])
    with pytest.raises(RubiError, match="state line 2"):
        app.save_handoff(paths, "ship", body)
    stored = [p.read_text() for p in (root / ".rubi").rglob("*.md")]
    assert not any("4821" in text for text in stored)
    assert not list((root / ".rubi" / "notes").glob("*.md"))


def test_a_closed_and_a_nested_span_are_removed_from_a_note(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    paths = app.locate(root / ".rubi")
    body = "a <private>outer <private>inner</private> pin 4821</private> b"
    done = app.register(paths, [{"type": "note", "title": "Deploy", "body": body}])
    text = (root / ".rubi" / done[0].path).read_text()
    assert "4821" not in text and "a  b" in text


def test_a_note_with_a_table_of_credentials_stores_none_of_them(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    paths = app.locate(root / ".rubi")
    body = (
        "Staging access:\n\n| name | value |\n|---|---|\n"
        "| STAGING_API_KEY | `7hG4kP9qR2sT6vW8xY1z` |\n"
        "| DB_PASSWORD | Hunter2Example |\n"
    )
    done = app.register(paths, [{"type": "how-to", "title": "Staging access", "body": body}])
    text = (root / ".rubi" / done[0].path).read_text()
    assert "7hG4kP9q" not in text and "Hunter2" not in text
    assert "| STAGING_API_KEY | `[REDACTED:secret]` |" in text
    assert [r.split(": ")[-1] for r in done[0].redacted] == ["secret", "password"]


def test_a_note_and_a_handoff_keep_no_config_password_key_or_signed_url(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root / "README.md", "# demo\n")
    app.init_project(root)
    paths = app.locate(root / ".rubi")
    key, sig = "3f9a2b7c4d1e8f0a6b5c9d2e7f1a4b8c", "4b2f6e8a1c3d5f7a9b0c2d4e6f8a1b3c" * 2
    body = (
        "Staging:\n\n```yaml\ndb:\n  password: CorrectHorseBatteryStaple\n```\n\n"
        f"The encryption key: {key}\n\n"
        f"Report: https://b.s3.amazonaws.com/r.pdf?X-Amz-Expires=60&X-Amz-Signature={sig}\n"
    )
    done = app.register(paths, [{"type": "how-to", "title": "Staging", "body": body}])
    app.save_handoff(paths, "ship", body)
    stored = "\n".join(p.read_text() for p in (root / ".rubi").rglob("*.md"))
    for secret in ("CorrectHorse", key, sig[:40]):
        assert secret not in stored
    assert [r.split(": ")[-1] for r in done[0].redacted] == ["password", "secret", "url-signature"]
    assert "https://b.s3.amazonaws.com/r.pdf?X-Amz-Expires=60" in stored
