"""Secrets with a known shape (detector 1 of :mod:`rubi.sessions.privacy`): vendor
token formats, JWTs, webhook URLs, PEM private keys, ``<private>`` spans."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from rubi.sessions.privacy.patterns import WORD, Rx, Span

__all__ = ["pem_b64_spans", "private_spans", "token_spans"]

# -- 1. tokens with a known shape --------------------------------------------------------

_TokenRule = tuple[str, Rx, tuple[str, ...], bool, str, int]
"""``(kind, pattern, gates, bounded, back_chars, back_max)``: the pattern runs only
when one of ``gates`` occurs in the text (in its lower-case copy for a
case-insensitive pattern); a match must not follow a word character when
``bounded``; the span reaches back over up to ``back_max`` characters of
``back_chars`` (for formats whose literal part is in the middle)."""

_META = frozenset("\\[](){}.?*+|^$")


def _tok(
    kind: str,
    pattern: str,
    *,
    gates: tuple[str, ...] = (),
    bounded: bool = True,
    back: str = "",
    most: int = 0,
    flags: int = 0,
) -> _TokenRule:
    literal = ""  # the literal the pattern starts with
    for c in pattern:
        if c in _META:
            break
        literal += c
    if not gates and literal:
        gates = (literal.lower() if flags & re.I else literal,)
    if bounded and not most:
        # not inside a word, checked right after the literal: a position in the middle
        # of a long run fails at once (linear time on adversarial text)
        guard = f"(?<![A-Za-z0-9_]{re.escape(literal)})" if literal else "(?<![A-Za-z0-9_])"
        pattern = literal + guard + pattern[len(literal) :]
    return kind, Rx(pattern, flags), gates, bounded, back, most


_HEX = "0123456789abcdef"
_B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_NE = r"(?![A-Za-z0-9_])"  # token end
_NE_DASH = r"(?![A-Za-z0-9_\-])"

_TOKENS: list[_TokenRule] = [
    _tok(
        "aws-key",
        rf"A(?:KIA|SIA|BIA|CCA|GPA|IDA|ROA|IPA|NPA|NVA|PKA)[0-9A-Z]{{16}}{_NE}",
        gates=(
            "AKIA",
            "ASIA",
            "ABIA",
            "ACCA",
            "AGPA",
            "AIDA",
            "AROA",
            "AIPA",
            "ANPA",
            "ANVA",
            "APKA",
        ),
    ),
    _tok(
        "aws-session-token",
        r"(?:IQoJb3JpZ2luX2Vj|F[wQ]oGZXIvYXdzE)[A-Za-z0-9+/=]{20,}",
        gates=("IQoJb3JpZ2luX2Vj", "oGZXIvYXdzE"),
    ),
    _tok("github-token", rf"gh[pousr]_[A-Za-z0-9]{{36,255}}{_NE}"),
    _tok("github-token", rf"github_pat_[A-Za-z0-9_]{{22,255}}{_NE}"),
    _tok("gitlab-token", r"gl(?:pat|ptt|dt|rt|cbt|ft|imt|soat|oas)-[A-Za-z0-9_\-.]{20,}"),
    _tok("slack-token", r"xox(?:[abposre]|e\.xox[a-z])-[A-Za-z0-9\-]{10,}"),
    _tok("slack-token", r"xapp-[A-Za-z0-9\-]{10,}"),
    _tok(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
        bounded=False,
    ),
    _tok(
        "discord-webhook",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d+)?/webhooks/"
        r"\d+/[A-Za-z0-9_\-]+",
        gates=("discord",),
        bounded=False,
    ),
    _tok(
        "discord-token",
        rf"[MNO](?=[A-Za-z0-9_\-]{{0,26}}[0-9])[A-Za-z0-9_\-]{{23,27}}\.[A-Za-z0-9_\-]{{6}}"
        rf"\.[A-Za-z0-9_\-]{{27,40}}{_NE_DASH}",
        gates=("M", "N", "O"),
    ),
    _tok("anthropic-key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    _tok(
        "openai-key",
        r"sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_\-]{0,255}[0-9])[A-Za-z0-9_\-]{20,}",
    ),
    _tok(
        "stripe-key",
        rf"[sr]k_(?:live|test)_[A-Za-z0-9]{{16,}}{_NE}",
        gates=("k_live_", "k_test_"),
    ),
    _tok("stripe-webhook-secret", r"whsec_[A-Za-z0-9+/=]{24,}"),
    _tok(
        "huggingface-token",
        rf"(?:hf_|api_org_)(?=[A-Za-z0-9]{{0,255}}[A-Z])(?=[A-Za-z0-9]{{0,255}}[a-z])"
        rf"[A-Za-z0-9]{{30,}}{_NE}",
        gates=("hf_", "api_org_"),
    ),
    _tok("google-key", rf"AIza[0-9A-Za-z_\-]{{35}}{_NE_DASH}"),
    _tok("google-oauth-token", r"ya29\.[0-9A-Za-z_\-]{20,}"),
    _tok("google-client-secret", r"GOCSPX-[0-9A-Za-z_\-]{20,}"),
    _tok("npm-token", rf"npm_[A-Za-z0-9]{{36}}{_NE}"),
    _tok("pypi-token", r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBp)[A-Za-z0-9_\-]{50,}"),
    _tok("sendgrid-key", rf"SG\.[A-Za-z0-9_\-]{{22}}\.[A-Za-z0-9_\-]{{43}}{_NE_DASH}"),
    _tok("twilio-key", rf"SK[0-9a-fA-F]{{32}}{_NE}"),
    _tok("mailgun-key", rf"key-[0-9a-f]{{32}}{_NE}"),
    _tok("mailchimp-key", rf"-us(?<=[0-9a-f]{{32}}-us)[0-9]{{1,2}}{_NE}", back=_HEX, most=32),
    _tok("shopify-token", rf"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{{32}}{_NE}"),
    _tok("digitalocean-token", rf"do[opr]_v1_[a-f0-9]{{64}}{_NE}"),
    _tok(
        "telegram-token",
        rf":AA(?<=[0-9]{{8}}:AA)[A-Za-z0-9_\-]{{33}}{_NE_DASH}",
        back="0123456789",
        most=10,
    ),
    _tok("vault-token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    _tok("databricks-token", rf"dapi[a-f0-9]{{32}}(?:-[0-9])?{_NE}"),
    _tok("linear-key", rf"lin_(?:api|oauth)_[A-Za-z0-9]{{40}}{_NE}"),
    _tok(
        "notion-token",
        rf"(?:secret_[A-Za-z0-9]{{43}}|ntn_[A-Za-z0-9]{{40,}}){_NE}",
        gates=("secret_", "ntn_"),
    ),
    _tok("age-secret-key", rf"AGE-SECRET-KEY-1[0-9A-Z]{{58}}{_NE}"),
    _tok("grafana-token", r"gl(?:sa|c)_[A-Za-z0-9_=+/\-]{32,}"),
    _tok("sentry-token", r"sntr[ysu]_[A-Za-z0-9_=+/\-]{40,}"),
    _tok("postman-key", rf"PMAK-[a-f0-9]{{24}}-[a-f0-9]{{34}}{_NE}"),
    _tok("atlassian-token", r"ATATT3[A-Za-z0-9_\-=]{100,}"),
    _tok("doppler-token", rf"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{{40,}}{_NE}"),
    _tok("square-token", r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,}"),
    _tok(
        "azure-client-secret",
        r"Q~(?<=[A-Za-z0-9_~.\-]{3}[0-9]Q~)[A-Za-z0-9_~.\-]{31,34}",
        back=_B64URL + "~.",
        most=4,
    ),
    _tok("groq-key", rf"gsk_[A-Za-z0-9]{{40,}}{_NE}"),
    _tok("replicate-token", rf"r8_[A-Za-z0-9]{{37}}{_NE}"),
    _tok("mapbox-token", r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"),
    _tok("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),
    _tok(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"(?=.{0,300}?[A-Za-z0-9+/]{16})"  # a key body follows (not a mere mention)
        r"(?:.{0,20000}?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"|(?:[A-Za-z0-9+/=:,.\- \t\r\n]|\\[nr])*)",  # cut short: the body as far as it goes
        bounded=False,
        flags=re.S,
    ),
]


def private_spans(text: str, low: str) -> Iterator[Span]:
    """``<private>…</private>`` (any case): each opening tag with the next closing one."""
    start = low.find("<private>")
    while start >= 0:
        end = low.find("</private>", start + 9)
        if end < 0:
            return  # no closing tag: none of the later openings can close either
        yield start, end + 10, "private"
        start = low.find("<private>", end + 10)


def token_spans(text: str, low: str) -> Iterator[Span]:
    for kind, pattern, gates, bounded, back, most in _TOKENS:
        if gates:
            haystack = low if pattern.flags & re.I else text
            if not any(g in haystack for g in gates):
                continue
        for m in pattern.finditer(text):
            start = m.start()
            if most:
                limit = max(0, start - most)
                while start > limit and text[start - 1] in back:
                    start -= 1
            if bounded and start > 0 and text[start - 1] in WORD:
                continue
            yield start, m.end(), kind


_PEM_B64 = Rx(r"LS0tLS1CRUdJTi[A-Za-z0-9+/=]+")
"""Base64 of ``-----BEGIN`` (a PEM block inside a Kubernetes secret or kubeconfig)."""


def pem_b64_spans(text: str, low: str) -> Iterator[Span]:
    for m in _PEM_B64.finditer(text):
        head = m.group(0)[:96]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4])
        except (binascii.Error, ValueError):
            continue
        if b"PRIVATE KEY" in decoded:
            yield m.start(), m.end(), "private-key"
