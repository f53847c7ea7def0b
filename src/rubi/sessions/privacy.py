"""Redact secrets from text before it touches disk (captured conversations).

Patterns for the formats people paste: cloud and SaaS keys with known prefixes, bearer
tokens, JWTs, PEM private keys, passwords in URLs, ``NAME=secret`` lines of ``.env``
files and YAML/JSON ``password: ...`` values, and ``<private>…</private>`` spans. Each
match becomes ``[REDACTED:<kind>]``. Hashes, UUIDs, base64 images and ordinary code are
left alone: patterns key on prefixes and names, not on "looks random".
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["REDACTED", "redact"]

REDACTED = "[REDACTED:{kind}]"

_SECRET_NAME = (
    r"(?:[A-Za-z0-9_]*?(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|"
    r"PRIVATE_?KEY|CLIENT_?SECRET|AUTH|CREDENTIALS?|SESSION_?KEY|SIGNING_?KEY)[A-Za-z0-9_]*)"
)

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("private", re.compile(r"<private>.*?</private>", re.S | re.I)),
    (
        "private-key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9 ]+ )?PRIVATE KEY(?: BLOCK)?-----.*?"
            r"-----END (?:[A-Z0-9 ]+ )?PRIVATE KEY(?: BLOCK)?-----",
            re.S,
        ),
    ),
    ("aws-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    (
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b"),
    ),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}\b")),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b")),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/]+")),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}\b")),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}\b")),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b")),
    ("google-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
    ("pypi-token", re.compile(r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}\b")),
    ("sendgrid-key", re.compile(r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b")),
    ("twilio-key", re.compile(r"\bSK[0-9a-fA-F]{32}\b")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\b")),
    (
        "bearer",
        re.compile(
            r"(?i)\b((?:authorization\s*[:=]\s*)?(?:bearer|token|basic)\s+)"
            r"[A-Za-z0-9._~+/\-]{16,}=*"
        ),
    ),
    (
        "url-password",
        re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/@]*:)([^\s@/]{1,200})(@)"),
    ),
    (
        "assignment",
        re.compile(
            rf"(?im)^(\s*(?:export\s+)?[\"']?{_SECRET_NAME}[\"']?\s*[:=]\s*)"
            r"(?![\s\"']*(?:\[REDACTED|\$\{|\$[A-Z_]|<|https?://|null\b|none\b|true\b|"
            r"false\b|\*+\s*$))"
            r"([\"']?)([^\s\"'#][^\"'\n]*?)\2(\s*(?:#.*)?)$"
        ),
    ),
    (
        "password",
        re.compile(
            r"(?i)(\b(?:password|passwd|passphrase|pwd)\s*[:=]\s*)"
            r"(?![^\s]*[(\[])"  # an expression (os.environ[...], getpass()) is code
            r"([^\s\[$<{\"'][^\s]{3,})"
        ),
    ),
    (
        "named-secret",
        re.compile(
            rf"(?i)(\b{_SECRET_NAME}\s*[:=]\s*[\"']?)"
            r"(?![\s\"']*(?:\[REDACTED|\$\{|\$[A-Z_]|<|https?://))"
            r"([A-Za-z0-9+/_\-.~]{12,})"
        ),
    ),
    (
        "password",
        re.compile(r"(?i)(\b(?:password|passwd|passphrase)\s+(?:is|was)\s+)([^\s\[$<{]{4,})"),
    ),
    (
        "inline-secret",
        re.compile(rf"(?i)([\"']{_SECRET_NAME}[\"']\s*:\s*[\"'])([^\"'\n]{{6,}})([\"'])"),
    ),
]


_KEEP: dict[str, tuple[int, int]] = {
    "bearer": (1, 0),
    "url-password": (1, 3),
    "assignment": (1, 4),
    "password": (1, 0),
    "inline-secret": (1, 3),
    "named-secret": (1, 0),
}
"""Per kind, the groups kept before and after the mark (0: none)."""


def _replacement(kind: str) -> Callable[[re.Match[str]], str]:
    mark = REDACTED.format(kind=kind)
    before, after = _KEEP.get(kind, (0, 0))

    def replace(m: re.Match[str]) -> str:
        head = (m.group(before) or "") if before else ""
        tail = (m.group(after) or "") if after else ""
        return head + mark + tail

    return replace


_RULES = [(pattern, _replacement(kind)) for kind, pattern in _PATTERNS]


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``.

    Args:
        text: any text (a prompt, an answer, a command).

    Returns:
        The redacted text; unchanged when nothing matched.
    """
    for pattern, replace in _RULES:
        text = pattern.sub(replace, text)
    return text
