"""Secrets with a known shape (detector 1 of :mod:`rubi.transcripts.privacy`): vendor
token formats, JWTs, webhook URLs, PEM private keys, ``<private>`` spans."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubi.transcripts.privacy.gitleaks import GITLEAKS_TOKENS
from rubi.transcripts.privacy.patterns import IGNORE_CASE, WORD, Rx, Span, TokenRule, token_rule

__all__ = ["pem_b64_spans", "private_spans", "token_spans"]

# -- 1. tokens with a known shape --------------------------------------------------------

_HEX = "0123456789abcdef"
_B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_NE = r"(?![A-Za-z0-9_])"  # token end
_NE_DASH = r"(?![A-Za-z0-9_\-])"

_TOKENS: list[TokenRule] = [
    token_rule(
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
    token_rule(
        "aws-session-token",
        r"(?:IQoJb3JpZ2luX2Vj|F[wQ]oGZXIvYXdzE)[A-Za-z0-9+/=]{20,}",
        gates=("IQoJb3JpZ2luX2Vj", "oGZXIvYXdzE"),
    ),
    token_rule("github-token", rf"gh[pousr]_[A-Za-z0-9]{{36,255}}{_NE}"),
    token_rule("github-token", rf"github_pat_[A-Za-z0-9_]{{22,255}}{_NE}"),
    token_rule("gitlab-token", r"gl(?:pat|ptt|dt|rt|cbt|ft|imt|soat|oas)-[A-Za-z0-9_\-.]{20,}"),
    token_rule("slack-token", r"xox(?:[abposre]|e\.xox[a-z])-[A-Za-z0-9\-]{10,}"),
    token_rule("slack-token", r"xapp-[A-Za-z0-9\-]{10,}"),
    token_rule(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
        bounded=False,
    ),
    token_rule(
        "discord-webhook",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d+)?/webhooks/"
        r"\d+/[A-Za-z0-9_\-]+",
        gates=("discord",),
        bounded=False,
    ),
    token_rule(
        "discord-token",
        rf"[MNO](?=[A-Za-z0-9_\-]{{0,26}}[0-9])[A-Za-z0-9_\-]{{23,27}}\.[A-Za-z0-9_\-]{{6}}"
        rf"\.[A-Za-z0-9_\-]{{27,40}}{_NE_DASH}",
        gates=("M", "N", "O"),
    ),
    token_rule("anthropic-key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    token_rule(
        "openai-key",
        r"sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_\-]{0,255}[0-9])[A-Za-z0-9_\-]{20,}",
    ),
    token_rule(
        "stripe-key",
        rf"[sr]k_(?:live|test)_[A-Za-z0-9]{{16,}}{_NE}",
        gates=("k_live_", "k_test_"),
    ),
    token_rule("stripe-webhook-secret", r"whsec_[A-Za-z0-9+/=]{24,}"),
    token_rule(
        "huggingface-token",
        rf"(?:hf_|api_org_)(?=[A-Za-z0-9]{{0,255}}[A-Z])(?=[A-Za-z0-9]{{0,255}}[a-z])"
        rf"[A-Za-z0-9]{{30,}}{_NE}",
        gates=("hf_", "api_org_"),
    ),
    token_rule("google-key", rf"AIza[0-9A-Za-z_\-]{{35}}{_NE_DASH}"),
    token_rule("google-oauth-token", r"ya29\.[0-9A-Za-z_\-]{20,}"),
    token_rule("google-client-secret", r"GOCSPX-[0-9A-Za-z_\-]{20,}"),
    token_rule("npm-token", rf"npm_[A-Za-z0-9]{{36}}{_NE}"),
    token_rule("pypi-token", r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBp)[A-Za-z0-9_\-]{50,}"),
    token_rule("sendgrid-key", rf"SG\.[A-Za-z0-9_\-]{{22}}\.[A-Za-z0-9_\-]{{43}}{_NE_DASH}"),
    token_rule("twilio-key", rf"SK[0-9a-fA-F]{{32}}{_NE}"),
    token_rule("mailgun-key", rf"key-[0-9a-f]{{32}}{_NE}"),
    token_rule("mailchimp-key", rf"-us(?<=[0-9a-f]{{32}}-us)[0-9]{{1,2}}{_NE}", back=_HEX, most=32),
    token_rule("shopify-token", rf"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{{32}}{_NE}"),
    token_rule("digitalocean-token", rf"do[opr]_v1_[a-f0-9]{{64}}{_NE}"),
    token_rule(
        "telegram-token",
        rf":AA(?<=[0-9]{{8}}:AA)[A-Za-z0-9_\-]{{33}}{_NE_DASH}",
        back="0123456789",
        most=10,
    ),
    token_rule("vault-token", r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    token_rule("databricks-token", rf"dapi[a-f0-9]{{32}}(?:-[0-9])?{_NE}"),
    token_rule("linear-key", rf"lin_(?:api|oauth)_[A-Za-z0-9]{{40}}{_NE}"),
    token_rule(
        "notion-token",
        rf"(?:secret_[A-Za-z0-9]{{43}}|ntn_[A-Za-z0-9]{{40,}}){_NE}",
        gates=("secret_", "ntn_"),
    ),
    token_rule("age-secret-key", rf"AGE-SECRET-KEY-1[0-9A-Z]{{58}}{_NE}"),
    token_rule("grafana-token", r"gl(?:sa|c)_[A-Za-z0-9_=+/\-]{32,}"),
    token_rule("sentry-token", r"sntr[ysu]_[A-Za-z0-9_=+/\-]{40,}"),
    token_rule(
        "sentry-dsn-key",  # https://<32 hex>@o1.ingest.sentry.io/2: the key before the @
        r"@(?<=[0-9a-f]{32}@)(?=[A-Za-z0-9.\-]*sentry)",
        gates=("sentry",),
        back=_HEX,
        most=32,
    ),
    token_rule(
        "twilio-auth-token",  # Client('AC<sid>', '<token>'): the token beside its account
        rf"AC[0-9a-f]{{32}}['\"]\s*,\s*['\"][0-9a-f]{{32}}{_NE}",
    ),
    token_rule(
        "password-hash",  # crypt(3) hashes of htpasswd, shadow and bcrypt: crackable
        r"\$(?:apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}"
        r"|2[aby]\$[0-9]{2}\$[./0-9A-Za-z]{53}"
        r"|[56]\$(?:rounds=[0-9]+\$)?[./0-9A-Za-z]{1,16}\$[./0-9A-Za-z]{43,86})",
        gates=("$apr1$", "$2a$", "$2b$", "$2y$", "$5$", "$6$"),
        bounded=False,
    ),
    token_rule("postman-key", rf"PMAK-[a-f0-9]{{24}}-[a-f0-9]{{34}}{_NE}"),
    token_rule("atlassian-token", r"ATATT3[A-Za-z0-9_\-=]{100,}"),
    token_rule(
        "doppler-token",
        # a service token names its config: dp.st.prd.<token>
        rf"dp\.(?:pt|st(?:\.[a-z0-9_\-]{{1,60}})?|sa|ct|scim|audit)\.[A-Za-z0-9]{{40,}}{_NE}",
    ),
    token_rule("square-token", r"sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,}"),
    token_rule(
        "azure-client-secret",
        r"Q~(?<=[A-Za-z0-9_~.\-]{3}[0-9]Q~)[A-Za-z0-9_~.\-]{31,34}",
        back=_B64URL + "~.",
        most=4,
    ),
    token_rule("groq-key", rf"gsk_[A-Za-z0-9]{{40,}}{_NE}"),
    token_rule("replicate-token", rf"r8_[A-Za-z0-9]{{37}}{_NE}"),
    token_rule("mapbox-token", r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"),
    token_rule(
        "tailscale-key",
        rf"tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{{6,}}-[A-Za-z0-9]{{20,}}{_NE}",
    ),
    token_rule("okta-token", rf"SSWS[ \t]+00[A-Za-z0-9_\-]{{40}}{_NE_DASH}"),
    token_rule("discord-token", rf"mfa\.[A-Za-z0-9_\-]{{80,90}}{_NE_DASH}"),
    token_rule("jwt", r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),
    token_rule(
        "private-key",
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"(?=.{0,300}?[A-Za-z0-9+/]{16})"  # a key body follows (not a mere mention)
        r"(?:.{0,20000}?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"|(?:[A-Za-z0-9+/=:,.\- \t\r\n]|\\[nr])*)",  # cut short: the body as far as it goes
        bounded=False,
        flags=re.S,
    ),
    token_rule(
        "private-key",  # PuTTY's .ppk: the lines after Private-Lines, and their MAC
        r"Private-Lines:[ \t]*[0-9]{1,3}[ \t]*\r?\n"
        r"(?:[ \t]*[A-Za-z0-9+/=]{4,128}[ \t]*(?:\r?\n|\Z)){1,128}"
        r"(?:Private-MAC:[ \t]*[0-9a-fA-F]{20,128})?",
    ),
]


_ALL_TOKENS = _TOKENS + GITLEAKS_TOKENS


_PRIVATE_TAG = Rx(r"</?private>")
"""An opening or closing ``<private>`` tag (matched in the lowercased text)."""


def private_spans(text: str, low: str) -> Iterator[Span]:
    """``<private>…</private>`` (any case), outermost spans only: a nested span ends
    with the closing tag that matches its outermost opening, and a span never closed
    runs to the end of the text. A tag written as code (`` `<private>` ``) is text
    about the tag, not a tag; a closing tag with nothing open is ignored."""
    if "<private>" not in low:
        return
    depth, start = 0, 0
    for m in _PRIVATE_TAG.rx.finditer(low):
        at, end = m.start(), m.end()
        if at > 0 and low[at - 1] == "`" and low[end : end + 1] == "`":
            continue
        if low[at + 1] != "/":
            if depth == 0:
                start = at
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                yield start, end, "private"
    if depth > 0:
        yield start, len(text), "private"


def token_spans(text: str, low: str) -> Iterator[Span]:
    for kind, pattern, gates, bounded, back, most in _ALL_TOKENS:
        if gates:
            haystack = low if int(pattern.flags) & IGNORE_CASE else text
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
        import base64  # only for such a run: every recall hook redacts its prompt
        import binascii

        head = m.group(0)[:96]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4])
        except (binascii.Error, ValueError):
            continue
        if b"PRIVATE KEY" in decoded:
            yield m.start(), m.end(), "private-key"
