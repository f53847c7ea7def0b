"""Redact secrets from text before it touches disk (captured conversations, records).

Each secret becomes ``[REDACTED:<kind>]``; everything else is kept byte for byte.
Detection keys on formats and names, never on "looks random" alone, so hashes, UUIDs,
lockfile integrity strings, base64 images and ordinary code stay as they are:

1. Tokens with a known shape: cloud and SaaS keys with fixed prefixes (AWS, GitHub,
   GitLab, Slack, Stripe, OpenAI, Anthropic, Hugging Face, npm, PyPI, SendGrid,
   Twilio, Google, Azure, Shopify, Vault and more), JWTs, webhook URLs with their
   secret path, PEM private keys (also cut short, also base64-encoded as in
   Kubernetes secrets), ``<private>…</private>`` spans.
2. Secrets in a known place: passwords in URLs, ``Authorization`` headers, cookies,
   ``curl -u``, ``mysql -p…``, ``sshpass -p``, ``--password``-style flags, Azure
   SAS ``sig=``, ``.netrc`` lines, a 40-character AWS secret next to its key id.
3. ``name = value`` pairs (``.env``, YAML, JSON, code, headers, connection strings)
   whose name is a secret name (:func:`secret_name`: ``AWS_SECRET_ACCESS_KEY``,
   ``apiKey``, ``X-API-Key``; not ``password_hash``, ``max_tokens``, ``author``,
   ``secretKeyRef``) and whose value is a literal, not code (``os.environ[…]``,
   ``get_token()``, ``self.token``, type hints, ``$VAR``, ``{{ var }}``, ``null``).

Speed: every pattern starts with a literal (the regex engine then skips ahead at C
speed) or runs only when a cheap substring test says it can match, and compiles on
first use, so a 20,000-character turn costs about 2 ms. Time is linear in the text
even when it is built to make a pattern rescan a line from every position.

The token formats follow the vendors' documentation and the rule sets of gitleaks and
detect-secrets; docs/privacy.md gives the corpus figures and why rubi keeps its own
table instead of depending on detect-secrets.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import re
import sys
from collections.abc import Callable, Iterator

__all__ = ["CUT_MARGIN", "REDACTED", "redact", "redact_cut", "secret_name", "secret_spans"]

REDACTED = "[REDACTED:{kind}]"

CUT_MARGIN = 16_384
"""Characters past a cut that :func:`redact_cut` still reads. A secret that starts
before the cut and ends past this margin would be longer than 16 KB; the only such
ones (PEM keys) are recognised without their end, and an open ``<private>`` span is
closed at the cut."""

Span = tuple[int, int, str]
"""``(start, end, kind)`` of a secret in a text (character offsets)."""


class _Rx:
    """A regular expression compiled on first use: a hook process pays only for the
    patterns its text can match (compiling all of them costs ~10 ms)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def flags(self) -> int:
        return self._flags

    @property
    def groups(self) -> int:
        return self.rx.groups

    def finditer(
        self, text: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.rx.finditer(text, pos, endpos)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.rx.match(text, pos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.rx.search(text, pos, endpos)

    def split(self, text: str) -> list[str]:
        return self.rx.split(text)


_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

# -- 1. tokens with a known shape --------------------------------------------------------

_TokenRule = tuple[str, _Rx, tuple[str, ...], bool, str, int]
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
    return kind, _Rx(pattern, flags), gates, bounded, back, most


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


def _private_spans(text: str, low: str) -> Iterator[Span]:
    """``<private>…</private>`` (any case): each opening tag with the next closing one."""
    start = low.find("<private>")
    while start >= 0:
        end = low.find("</private>", start + 9)
        if end < 0:
            return  # no closing tag: none of the later openings can close either
        yield start, end + 10, "private"
        start = low.find("<private>", end + 10)


def _token_spans(text: str, low: str) -> Iterator[Span]:
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
            if bounded and start > 0 and text[start - 1] in _WORD:
                continue
            yield start, m.end(), kind


_PEM_B64 = _Rx(r"LS0tLS1CRUdJTi[A-Za-z0-9+/=]+")
"""Base64 of ``-----BEGIN`` (a PEM block inside a Kubernetes secret or kubeconfig)."""


def _pem_b64_spans(text: str, low: str) -> Iterator[Span]:
    for m in _PEM_B64.finditer(text):
        head = m.group(0)[:96]
        try:
            decoded = base64.b64decode(head[: len(head) // 4 * 4])
        except (binascii.Error, ValueError):
            continue
        if b"PRIVATE KEY" in decoded:
            yield m.start(), m.end(), "private-key"


# -- values: literal or not ----------------------------------------------------------------

_REFERENCE = _Rx(
    r"^(?:\$|%[A-Za-z_]|\{|<|\[|\*{3,}|x{3,}$|X{3,}$|\.{3}|…|process\.env|os\.environ)"
)
_MASK = _Rx(r"^[^A-Za-z0-9]*(?:\*{3,}|•{3,}|x{3,}|X{3,})[^A-Za-z0-9]*$")
_PLACEHOLDER = _Rx(
    r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|(?i:your[\w\-]*|changeme|change[\-_]me|"
    r"replace[\-_]?me|todo|tbd|fixme|placeholder|redacted|secret|password|passwd|pass|pw|"
    r"pwd|token|dummy|example|test|none|null))$"
)


def _is_reference(value: str) -> bool:
    """A value that only stands for a secret: ``$VAR``, ``${VAR}``, ``%VAR%``,
    ``{{ var }}``, ``<token>``, ``***``, ``YOUR_API_KEY``, ``changeme``, ``pass``."""
    v = value.strip("\"'`")
    return not v or bool(_REFERENCE.match(v) or _MASK.match(v) or _PLACEHOLDER.match(v))


_TOKEN_CHARS = _Rx(r"^[A-Za-z0-9+/=_\-.~:@!#$%^&*]+$")
_WORDS = _Rx(r"^[A-Za-z]+(?:[-_.][A-Za-z]+)+$")
"""Words joined by dashes or dots (``Proxy-Authorization``): a name, not a key."""
_CAMEL = _Rx(r"^[A-Za-z]?[a-z]+(?:[A-Z][a-z]+)*$")
_RANDOM_TOKEN = _Rx(
    r"^(?=[A-Za-z0-9+/=_\-.~]*[0-9])(?=[A-Za-z0-9+/=_\-.~]*[A-Z])(?=[A-Za-z0-9+/=_\-.~]*[a-z])"
    r"[A-Za-z0-9+/=_\-.~]{16,}$"
)


def _random_token(value: str) -> bool:
    """16+ token characters with a digit, a capital and a small letter."""
    return bool(_RANDOM_TOKEN.match(value))


def _credential_like(value: str, min_len: int) -> bool:
    """Random-looking: token characters only, long enough, not just a word."""
    if len(value) < min_len or not _TOKEN_CHARS.match(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    has_symbol = any(not c.isalnum() and c != "_" for c in value)
    if has_digit and (has_upper or has_lower):
        return True
    if has_symbol and (has_upper or has_lower) and len(value) >= 12:
        return not _WORDS.match(value)
    return has_upper and has_lower and len(value) >= 16 and not _CAMEL.match(value)


def _password_like(value: str) -> bool:
    """A password said in prose: 4+ token characters with a digit and a letter, or
    capitals, small letters and a symbol (not a word and its punctuation)."""
    if len(value) < 4 or not _TOKEN_CHARS.match(value):
        return False
    upper = any(c.isupper() for c in value)
    lower = any(c.islower() for c in value)
    if any(c.isdigit() for c in value):
        return upper or lower
    return upper and lower and any(not c.isalnum() for c in value)


def _path_like(value: str) -> bool:
    return value.startswith(("/", "~", "./", "../", "@"))


# -- 2. secrets in a known place ---------------------------------------------------------

_URL_PASSWORD = _Rx(r"://[^\s:/@?#\"'<>\[\]]*:([^\s@/\"'<>]{1,256})@")
_AUTH_HEADER = _Rx(
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<scheme>(?:bearer|basic|token|digest|apikey|api-key|sso-key|key|negotiate|ntlm|hmac)"
    r"[ \t]+)?(?P<value>[^\s\"',;]{8,})"
)
_BEARER = _Rx(r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/\-]{16,}=*)")
_COOKIE = _Rx(r"(?i)(?<!set-)\bcookie[ \t]*:[ \t]*([^\r\n\"']+)")
_SET_COOKIE = _Rx(r"(?i)\bset-cookie[ \t]*:[ \t]*[^=;\s]+=([^;\s\"']+)")
_COOKIE_FLAG = _Rx(r"(?<![\w-])(?:-b|--cookie)[ \t]+[\"']?([^\"'\s]*=[^\"'\s]*)")
_COOKIE_PAIR = _Rx(r"([^=;\s]+)=([^;\s]+)")
_QUOTED_OR_WORD = r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|(?!-)([^\s\"']+))"
_COMMAND_FLAGS: list[tuple[tuple[str, ...], _Rx, _Rx]] = [
    (
        ("mysql", "mariadb", "mycli"),
        _Rx(r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump|mycli)\b"),
        _Rx(r"[ \t]-p(?:\"([^\"\n]+)\"|'([^'\n]+)'|([^\s\"']+))"),
    ),
    (
        ("sshpass", "login"),
        _Rx(r"\b(?:sshpass|docker[ \t]+login|podman[ \t]+login|helm[ \t]+registry[ \t]+login)\b"),
        _Rx(rf"[ \t](?:-p|--password)(?:[ \t]+|=){_QUOTED_OR_WORD}"),
    ),
    (("redis-cli",), _Rx(r"\bredis-cli\b"), _Rx(rf"[ \t]-a[ \t]+{_QUOTED_OR_WORD}")),
    (
        ("curl", "wget", "http", "xh"),
        _Rx(r"\b(?:curl|wget|https?|xh|httpie)\b"),
        _Rx(r"[ \t]-(?:u|-user|U|-proxy-user|a|-auth)(?:[ \t]+|=)?[\"']?[^\s:\"']*:([^\s\"']+)"),
    ),
]
"""``(gates, command, flag)``: on a line with ``command`` (found through one of the
``gates``), the password that ``flag`` gives after it: ``mysql -pPW``, ``sshpass -p
PW``, ``docker login -p PW``, ``redis-cli -a PW``, ``curl -u user:PW``."""


def _lines_with(low: str, gates: tuple[str, ...]) -> list[tuple[int, int]]:
    """``(start, end)`` of each line holding one of ``gates``, each line once."""
    lines: set[tuple[int, int]] = set()
    for gate in gates:
        i = low.find(gate)
        while i >= 0:
            start = low.rfind("\n", 0, i) + 1
            end = low.find("\n", i)
            end = len(low) if end < 0 else end
            lines.add((start, end))
            i = low.find(gate, end)
    return sorted(lines)


def _command_flag_spans(text: str, low: str) -> Iterator[Span]:
    for gates, command, flag in _COMMAND_FLAGS:
        for start, end in _lines_with(low, gates):
            m = command.search(text, start, end)
            if m is None:
                continue
            for f in flag.finditer(text, m.end(), end):
                g = next(g for g in range(1, flag.groups + 1) if f.group(g))
                if not _is_reference(f.group(g)):
                    yield f.start(g), f.end(g), "password"


_AUTH_PAIR = _Rx(
    r"\bauth[ \t]*=[ \t]*(?:\(|\[|\w*Auth\()[ \t]*([\"'])[^\"'\n]*\1[ \t]*,[ \t]*"
    r"(?:\"([^\"\n]+)\"|'([^'\n]+)')"
)
"""``auth=("user", "password")``, ``auth=HTTPBasicAuth("user", "password")``."""
_OPENSSL_PASS = _Rx(r"-pass(?:in|out)?[ \t]+pass:(\S+)")
_NETRC = _Rx(r"(?i)\bmachine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S+)")
_SAS_SIG = _Rx(r"(?i)[?&;]sig=([A-Za-z0-9%+/=]{16,})")
_FLAG = _Rx(
    r"-(?<![\w-]-)-?(?:[A-Za-z0-9]+-)*"
    r"(?i:password|passwd|pass|passphrase|secret|token|api-key|apikey|auth-token|"
    r"access-token|client-secret|secret-key|access-key|account-key|private-key|storepass|"
    r"keypass)"
    rf"(?:[ \t]+|=){_QUOTED_OR_WORD}"
)


def _group_spans(
    pattern: _Rx, kind: str, text: str, gate: tuple[str, ...] = (), low: str = ""
) -> Iterator[Span]:
    """The first non-empty group of each match, unless it only stands for a secret.
    Runs only when one of ``gate`` occurs in ``low`` (no gate: always)."""
    if gate and not any(g in low for g in gate):
        return
    for m in pattern.finditer(text):
        for g in range(1, pattern.groups + 1):
            value = m.group(g)
            if value:
                if not _is_reference(value):
                    yield m.start(g), m.end(g), kind
                break


def _header_spans(text: str, low: str) -> Iterator[Span]:
    """Values of HTTP credential headers: Authorization, Bearer tokens, cookies."""
    if "authorization" in low:
        for m in _AUTH_HEADER.finditer(text):
            value = m.group("value")
            if _is_reference(value) or any(c in value for c in "([{") or _DOTTED.match(value):
                continue  # code: authorization = self.headers.get("authorization")
            if not m.group("scheme") and _IDENT.match(value):
                continue  # a variable or a word
            yield m.start("value"), m.end("value"), "authorization"
    if "bearer" in low:
        for m in _BEARER.finditer(text):
            if any(c.isdigit() for c in m.group(1)):
                yield m.start(1), m.end(1), "bearer"
    if "cookie" in low or "-b " in low:
        for pattern in (_COOKIE, _COOKIE_FLAG):
            for m in pattern.finditer(text):
                base = m.start(1)
                for pair in _COOKIE_PAIR.finditer(m.group(1)):
                    if not _is_reference(pair.group(2)):
                        yield base + pair.start(2), base + pair.end(2), "cookie"
        yield from _group_spans(_SET_COOKIE, "cookie", text)


def _known_place_spans(text: str, low: str) -> Iterator[Span]:
    yield from _group_spans(_URL_PASSWORD, "url-password", text)
    yield from _header_spans(text, low)
    yield from _command_flag_spans(text, low)
    yield from _group_spans(_OPENSSL_PASS, "password", text, ("pass:",), low)
    if "auth" in low:
        for m in _AUTH_PAIR.finditer(text):
            g = 2 if m.group(2) else 3
            if not _is_reference(m.group(g)):
                yield m.start(g), m.end(g), "password"
    yield from _group_spans(_NETRC, "password", text, ("machine",), low)
    yield from _group_spans(_SAS_SIG, "azure-sas", text, ("sig=",), low)
    for m in _FLAG.finditer(text):
        g = next(g for g in (1, 2, 3) if m.group(g))
        value = m.group(g)
        if _is_reference(value) or _path_like(value) or (g == 3 and _IDENT.match(value)):
            continue  # `--password $PW`, `--private-key ~/.ssh/id`, `--password option`
        yield m.start(g), m.end(g), "password"


_AWS_SECRET = _Rx(
    r"(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]{0,39}[A-Z])(?=[A-Za-z0-9+/]{0,39}[a-z])"
    r"(?=[A-Za-z0-9+/]{0,39}[0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])"
)
_AWS_ANCHOR = _Rx(
    r"A[SK]IA[0-9A-Z]{16}(?![A-Za-z0-9])|(?i:aws.{0,60}secret|secret[ _\-]?access[ _\-]?key)"
)
AWS_CONTEXT_CHARS = 300
"""A bare 40-character string is an AWS secret key only this close to a key id or to
the words "secret access key" (alone it could be anything)."""


def _aws_secret_spans(text: str, low: str) -> Iterator[Span]:
    if not ("secret" in low or "akia" in low or "asia" in low):
        return
    anchors = [m.start() for m in _AWS_ANCHOR.finditer(text)]
    if not anchors:
        return
    for m in _AWS_SECRET.finditer(text):
        i = bisect.bisect_left(anchors, m.start() - AWS_CONTEXT_CHARS)
        if i < len(anchors) and anchors[i] <= m.start() + AWS_CONTEXT_CHARS:
            yield m.start(), m.end(), "aws-secret"


# -- 3. name = value ---------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PASSWORD_WORDS = frozenset(
    {"password", "passwd", "passphrase", "pwd", "pass", "passcode", "storepass", "keypass"}
)
_SECRET_WORDS = _PASSWORD_WORDS | _words(
    """secret token apikey secretkey accesskey privatekey authtoken accesstoken
    credential credentials creds auth"""
)
_SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey")
_KEY_QUALIFIERS = _words(
    """api access private secret session signing account master encryption client app
    application storage shared consumer subscription license auth webhook admin
    deploy ingest sas hmac jwt server write rest live cipher crypto decryption"""
)
_META_LAST = _words(
    """url uri urls endpoint file files path paths dir folder name names field fields
    header headers label type types length len count timeout ttl expiry expires
    expiration exp lifetime age id ids hash hashed hasher env var prefix suffix
    pattern regex re enabled enable disabled required mode algorithm algorithms alg
    algo kind prompt message msg hint help policy ref format size limit min max
    class provider service store manager version location source scope scopes usage
    rotation valid validator validation strength reset changed at date time method
    attr attribute param params option options flag flags sock socket port host user
    username email days hours minutes seconds secs ms bytes chars attempts retries
    rounds iterations cost bits level input widget form column col index idx lookup
    cache callback handler fn func function cls schema model table rule rules check
    text title placeholder description desc doc docs example sample template style
    color icon display visible hidden show status state event events error errors
    exception updated created issued expired stdin stdout command cmd script key
    keys end start hdr begin settings setting config period usages"""
)
"""A last word that makes the name describe something about a secret, not hold one
(``password_hash``, ``token_url``, ``secretKeyRef``)."""
_META_FIRST = _words(
    """max min num n is has use should require requires total no skip allow enable
    disable show hide validate check get"""
)

_NAME_SPLIT = _Rx(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _name_words(name: str) -> list[str]:
    return [w.lower() for w in _NAME_SPLIT.split(name) if w]


def secret_name(name: str) -> str | None:
    """Whether ``name`` names a value that holds a secret.

    Args:
        name: a key, variable, flag or header name (``DB_PASSWORD``, ``apiKey``,
            ``X-API-Key``, ``spring.datasource.password``).

    Returns:
        ``"password"`` for password-like names (any literal counts), ``"secret"`` for
        other secret names (the value must look random), None for other names
        (``password_hash``, ``max_tokens``, ``author``, ``token_url``).
    """
    words = _name_words(name)
    if not words or (words[0] in _META_FIRST and len(words) > 1):
        return None
    found: str | None = None
    for i, w in enumerate(words):
        if w in ("pass", "pwd"):  # also a Python keyword and a shell variable
            found = found or "secret"
        elif w in _PASSWORD_WORDS or w.endswith(("password", "passwd", "passphrase")):
            found = "password"
        elif (
            w in _SECRET_WORDS
            or w.endswith(_SECRET_SUFFIXES)
            or (w == "key" and i > 0 and words[i - 1] in _KEY_QUALIFIERS)
        ):
            found = found or "secret"
    if found is None:
        return None
    last = words[-1]
    qualified_key = last == "key" and len(words) > 1 and words[-2] in _KEY_QUALIFIERS
    if last in _META_LAST and not qualified_key:
        return None
    return found


_KV_HEAD = _Rx(
    r"(?<![\w.\-/$%])(?P<q>[\"']?)"
    r"(?P<name>[A-Za-z_][\w.\-]{0,80}?)(?P=q)(?P<gap>[ \t]*)(?P<sep>:=|=>|[:=])[ \t]*"
)
_KV_VALUE = _Rx(
    r"[bruBRU]{0,2}\"(?:[^\"\\\n]|\\.){0,4096}\"|[bruBRU]{0,2}'(?:[^'\\\n]|\\.){0,4096}'"
    r"|[^\s\"'`,;&)\]}>]+"
)
"""A value: a quoted string (up to 4 KB, on one line) or a run without spaces."""
_HINTS = ("pass", "pwd", "secret", "token", "key", "auth", "cred")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_NUMBER = _Rx(r"^[+-]?[0-9][0-9_.,]*(?:[eE][+-]?[0-9]+)?[A-Za-z]{0,3}$")
_LITERALS = _words(
    """true false yes no on off null none nil undefined nan required optional empty
    string str int bool bytes any"""
)
_DOTTED = _Rx(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$")
_IDENT = _Rx(r"^[A-Za-z_][A-Za-z_]*$")
_IDENT_DIGITS = _Rx(r"^[A-Za-z_]\w*$")
_TYPE_WITH_DIGITS = _Rx(r"^(?:U?[Ii]nt|[Ff]loat|[Bb]ytes|Base)\d+\w*$")


def _hint_starts(text: str, low: str) -> list[int]:
    """Where the names holding a secret word start (each once, in order)."""
    starts: set[int] = set()
    for hint in _HINTS:
        i = low.find(hint)
        while i >= 0:
            j, limit = i, max(0, i - 80)
            while j > limit and text[j - 1] in _NAME_CHARS:
                j -= 1
            while j < i and not (text[j].isalpha() or text[j] == "_"):
                j += 1
            starts.add(j)
            i = low.find(hint, i + len(hint))
    return sorted(starts)


def _is_quoted(value: str) -> bool:
    return value[:1] in "\"'" or (value[:1] in "bruBRU" and value[1:2] in "\"'")


def _quoted_secret(body: str, strength: str, name: str) -> bool:
    """:func:`_secret_value` for a quoted value; ``body`` is inside the quotes."""
    if not body or _is_reference(body) or "{" in body:
        return False
    words = _name_words(body)
    if words and words == _name_words(name)[-len(words) :]:
        return False  # a label: "password" for PASSWORD_FIELD
    if (body.startswith(("http://", "https://")) and "@" not in body) or _path_like(body):
        return False
    if strength == "password":
        return len(body) >= 3
    return _credential_like(body, 8)


def _secret_value(value: str, strength: str, style: str, name: str, after: str = "") -> bool:
    """Whether ``value`` (as written after the separator) is a literal secret.

    Args:
        value: the value, quotes included when it was quoted.
        strength: ``"password"`` (any literal of 3+ characters) or ``"secret"`` (must
            look random).
        style: ``"env"`` for ``NAME=value`` of an upper-case name without spaces (a
            ``.env`` line, a shell assignment: bare words are literals); ``"param"``
            for ``name=value`` in a query or connection string (words with digits are
            literals); ``"assign"`` for ``name = value``, ``name := value`` and
            keyword arguments (bare identifiers are variables); ``"colon"`` for YAML,
            JSON, headers and type hints (bare words are type names, words with digits
            are literals).
        name: the name (a value that repeats it, ``PASSWORD_FIELD = "password"``, is
            a label).
        after: the rest of the line after the value, stripped.
    """
    if _is_quoted(value):
        return _quoted_secret(value.lstrip("bruBRU")[1:-1], strength, name)
    v = value
    if _is_reference(v) or v.lower() in _LITERALS:
        return False
    if _NUMBER.match(v) and not (strength == "password" and v.isdigit() and len(v) >= 6):
        return False
    if any(c in v for c in "([{") or _DOTTED.match(v) or _path_like(v):
        return False
    if v.startswith(("http://", "https://")):
        return False
    if style == "env":
        return len(v) >= 3
    if _IDENT.match(v):
        return False  # a variable or a type name
    if _IDENT_DIGITS.match(v) and (style == "assign" or _TYPE_WITH_DIGITS.match(v)):
        return False
    if _IDENT_DIGITS.match(v) and style == "colon" and after[:1] in ("|", "=", ",", ")", "]", ";"):
        return False  # a type hint goes on: `key: Ed25519PrivateKey | None`
    if strength == "password":
        return len(v) >= 4 and bool(_TOKEN_CHARS.match(v))
    return _credential_like(v, 8)


def _kv_spans(text: str, low: str) -> Iterator[Span]:
    covered = 0  # the values read so far: a hint inside one is not a name (linear time)
    for pos in _hint_starts(text, low):
        if pos < covered:
            continue
        at = pos - 1 if pos > 0 and text[pos - 1] in "\"'" else pos
        head = _KV_HEAD.match(text, at)
        if head is None and at < pos:  # a quote that opens a value, not the name: 'x-api-key: …'
            at = pos
            head = _KV_HEAD.match(text, at)
        if head is None:
            continue
        name, sep = head.group("name"), head.group("sep")
        strength = secret_name(name)
        if strength is None:
            continue
        if sep == ":" and head.group("gap") and not head.group("q"):
            continue  # `pass :meth:` is prose; YAML and headers have no space there
        m = _KV_VALUE.match(text, head.end())
        if m is None:
            continue
        covered = m.end()
        span = _kv_value_span(text, at, head, m, strength)
        if span is not None:
            covered = max(covered, span[1])
            yield span


def _kv_value_span(
    text: str, at: int, head: re.Match[str], m: re.Match[str], strength: str
) -> Span | None:
    """The span of the value ``m`` after the name ``head``, or None when it is no secret."""
    name, sep, value = head.group("name"), head.group("sep"), m.group(0)
    spaced = head.group("gap") or head.group(0)[-1:] in (" ", "\t")
    if sep == "=" and not spaced and not head.group("q"):
        if text[m.end() : m.end() + 1] in (",", ")"):
            style = "assign"  # a keyword argument: f(password=pw)
        elif name.upper() == name:
            style = "env"
        elif _IDENT.match(value) and text[at - 1 : at] not in ("?", "&", ";"):
            style = "assign"  # f(a=1,\n   secret=secret)
        else:
            style = "param"
    elif sep in ("=", ":=", "=>"):
        style = "assign"
    else:
        style = "colon"
    after = text[m.end() : m.end() + 64].split("\n", 1)[0].strip()
    if not _secret_value(value, strength, style, name, after):
        return None
    start, end = m.start(), m.end()
    if _is_quoted(value):
        return start + len(value) - len(value.lstrip("bruBRU")) + 1, end - 1, strength
    if style in ("env", "colon"):
        # the value of a line that the name starts runs to the end of the line (minus a
        # comment): `password: abc,def` is one value
        line_start = text.rfind("\n", max(0, at - 200), at) + 1
        before = text[line_start:at].strip()
        if (line_start > 0 or at < 200) and before in ("", "-", "export"):
            line_end = text.find("\n", end)
            rest = text[end : len(text) if line_end < 0 else line_end]
            end += len(re.split(r"[ \t]+#", rest, maxsplit=1)[0].rstrip())
    return start, end, strength


_PROSE = _Rx(
    r"(?i:password|passwd|passphrase|pwd|secret|token|api[ _\-]?key|key|credentials?)"
    r"(?P<verb>[ \t]+(?:is|was|is now|=|:|->|=>))?[ \t]+[\"'`]?([^\s\"'`]{4,})"
)


def _prose_spans(text: str, low: str) -> Iterator[Span]:
    """``my password is hunter2``, ``api key SK…``: a secret word, maybe a verb, then
    a value that looks like a credential."""
    for hint in ("pass", "pwd", "secret", "token", "key", "api", "cred"):
        i = low.find(hint)
        while i >= 0:
            if i == 0 or text[i - 1] not in _WORD:
                m = _PROSE.match(text, i)
                if m is not None:
                    span = _prose_value(m)
                    if span is not None:
                        yield span
            i = low.find(hint, i + len(hint))


def _prose_value(m: re.Match[str]) -> Span | None:
    word = m.group(0).split()[0].lower()
    value = m.group(2).rstrip(".,;:!?)")
    if _is_reference(value) or any(c in value for c in "([{") or _DOTTED.match(value):
        return None
    if word.startswith("pass") or word == "pwd":
        ok = (bool(m.group("verb")) and _password_like(value)) or _random_token(value)
    else:
        ok = _random_token(value)
    return (m.start(2), m.start(2) + len(value), "secret") if ok else None


# -- the filter ------------------------------------------------------------------------

_FINDERS: list[Callable[[str, str], Iterator[Span]]] = [
    _token_spans,
    _private_spans,
    _pem_b64_spans,
    _known_place_spans,
    _aws_secret_spans,
    _kv_spans,
    _prose_spans,
]


def secret_spans(text: str) -> list[Span]:
    """The secrets in ``text``, merged where they overlap or touch.

    Args:
        text: any text (a prompt, an answer, a command).

    Returns:
        ``(start, end, kind)`` spans in order, not overlapping; the kind of a merged
        span is that of its earliest part.
    """
    low = text.lower()
    found = sorted(s for finder in _FINDERS for s in finder(text, low) if s[1] > s[0])
    merged: list[Span] = []
    for start, end, kind in found:
        if merged and start <= merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], end), last[2])
        else:
            merged.append((start, end, kind))
    return merged


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``.

    Args:
        text: any text (a prompt, an answer, a command).

    Returns:
        The redacted text; the very same string when nothing matched.
    """
    spans = secret_spans(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        out.append(REDACTED.format(kind=kind))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact_cut(text: str, limit: int, *, collapse: bool = False, more: str = "\n[…cut]") -> str:
    """Redact, then cut to ``limit`` characters: a cut never leaves part of a secret.

    Only the first ``limit + CUT_MARGIN`` characters are read (see
    :data:`CUT_MARGIN`), so a huge paste costs no more than a large one.

    Args:
        text: the text to store.
        limit: characters kept (of the redacted, collapsed text), ``more`` excluded.
        collapse: squeeze each run of whitespace into one space (after redacting, so
            multi-line secrets are still recognised).
        more: appended when something was cut.

    Returns:
        At most ``limit`` characters plus ``more``; a cut falls before a
        ``[REDACTED:…]`` mark, never inside one.
    """
    window = text[: limit + CUT_MARGIN]
    shortened = len(window) < len(text)
    if shortened:
        low = window.lower()
        opened = low.rfind("<private>")
        if opened > low.rfind("</private>"):  # a private span runs past the window
            window = window[:opened] + REDACTED.format(kind="private")
    out = redact(window)
    if collapse:
        out = " ".join(out.split())
    if not shortened and len(out) <= limit:
        return out
    out = out[:limit]
    mark = out.rfind("[REDACTED:")
    if mark >= 0 and "]" not in out[mark:]:
        out = out[:mark]  # never half a mark
    return out.rstrip() + more
