"""A ``.env`` line or a query parameter whose value holds a dot is a value, not an
attribute access, when it mixes capitals, small letters and digits; a Doppler service
token names its config."""

from __future__ import annotations

import pytest

from rubi.transcripts.privacy import redact

SECRETS = [
    ("DB_PASSWORD=Hunter2.Prod", "Hunter2.Prod"),
    ("export DB_PASSWORD=Hunter2.Prod", "Hunter2.Prod"),
    ("API_KEY=Kq9Lm4Pr9.Tu6Vx0Yz3Ab5C", "Kq9Lm4Pr9"),
    ("JWT_SECRET=abc.Kq9Lm4Pr9Tu6Vx0", "Kq9Lm4Pr9Tu6Vx0"),
    ("SENDGRID_API_KEY=SG.Kq9Lm4Pr9Tu6Vx0Yz3Ab5C.d8Ef2Gh7Ij9Kl1Mn3Op5", "Kq9Lm4Pr9Tu6Vx0"),
    ("https://acme.io/login?user=a&password=Hunter2.Prod&x=1", "Hunter2.Prod"),
    ("doppler run --token dp.st.prd.Ek9Fg2Hj7Lm4Np8Qr1St3Uv6Wx0Yz5Ab7Cd9Ef1Gh3Ij", "Ek9Fg2Hj7"),
    ("DOPPLER=dp.st.dev_eu-1.Ek9Fg2Hj7Lm4Np8Qr1St3Uv6Wx0Yz5Ab7Cd9Ef1Gh3Ij", "Ek9Fg2Hj7"),
]
ORDINARY = [
    "SECRET_KEY=settings.SECRET_KEY",
    "PASSWORD=config.db2.password",
    "token=ab.cd",
    "TOKEN_URL=auth.example.com",
    "key: Ed25519.PrivateKey | None",
    "api_key = self.settings.api_key",
]


@pytest.mark.parametrize(("text", "secret"), SECRETS)
def test_a_dotted_value_that_mixes_cases_and_digits_is_redacted(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize("text", ORDINARY)
def test_a_dotted_reference_is_kept(text: str) -> None:
    assert redact(text) == text
