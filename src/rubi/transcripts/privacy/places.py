"""Secrets in a known place (detector 2 of :mod:`rubi.transcripts.privacy`): URL
passwords, ``Authorization`` headers, cookies, command-line flags, ``.netrc``, SAS
signatures and presigned URLs' signatures, an AWS secret beside its key id."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from rubi.transcripts.privacy.patterns import Rx, Span
from rubi.transcripts.privacy.values import DOTTED, IDENT, is_reference, path_like

__all__ = ["aws_secret_spans", "known_place_spans"]

# -- 2. secrets in a known place ---------------------------------------------------------

_URL_PASSWORD = Rx(r"://[^\s:/@?#\"'<>\[\]]*:([^\s@/\"'<>]{1,256})@")
_AUTH_HEADER = Rx(
    r"(?i)\b(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<scheme>(?:bearer|basic|token|digest|apikey|api-key|sso-key|key|negotiate|ntlm|hmac|ssws|bot)"
    r"[ \t]+)?(?P<value>[^\s\"',;]{8,})"
)
_BEARER = Rx(r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/\-]{16,}=*)")
_COOKIE = Rx(r"(?i)(?<!set-)\bcookie[\"']?[ \t]*:[ \t]*[\"']?([^\r\n\"']+)")
_SET_COOKIE = Rx(r"(?i)\bset-cookie[\"']?[ \t]*:[ \t]*[\"']?[^=;\s]+=\"?([^;\s\"']+)")
_COOKIE_FLAG = Rx(r"(?<![\w-])(?:-b|--cookie)[ \t]+[\"']?([^\"'\s]*=[^\"'\s]*)")
_COOKIE_PAIR = Rx(r"([^=;\s]+)=([^;\s]+)")
_QUOTED_OR_WORD = r"(?:\"([^\"\n]+)\"|'([^'\n]+)'|(?!-)([^\s\"']+))"
_COMMAND_FLAGS: list[tuple[tuple[str, ...], Rx, Rx]] = [
    (
        ("mysql", "mariadb", "mycli"),
        Rx(r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump|mycli)\b"),
        Rx(r"[ \t]-p(?:\"([^\"\n]+)\"|'([^'\n]+)'|([^\s\"']+))"),
    ),
    (
        ("sshpass", "login"),
        Rx(r"\b(?:sshpass|docker[ \t]+login|podman[ \t]+login|helm[ \t]+registry[ \t]+login)\b"),
        Rx(rf"[ \t](?:-p|--password)(?:[ \t]+|=){_QUOTED_OR_WORD}"),
    ),
    (("redis-cli",), Rx(r"\bredis-cli\b"), Rx(rf"[ \t]-a[ \t]+{_QUOTED_OR_WORD}")),
    (
        ("curl", "wget", "http", "xh"),
        Rx(r"\b(?:curl|wget|https?|xh|httpie)\b"),
        Rx(r"[ \t]-(?:u|-user|U|-proxy-user|a|-auth)(?:[ \t]+|=)?[\"']?[^\s:\"']*:([^\s\"']+)"),
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


def _unwrapped(value: str) -> str:
    """``value`` without the Markdown and punctuation a command written in prose ends
    with (``mysql -pPW``,`` → ``PW``); "" when nothing with a letter or digit is left."""
    value = value.rstrip("`'\",.;:)")
    return value if any(c.isalnum() for c in value) else ""


def _command_flag_spans(text: str, low: str) -> Iterator[Span]:
    for gates, command, flag in _COMMAND_FLAGS:
        for start, end in _lines_with(low, gates):
            m = command.search(text, start, end)
            if m is None:
                continue
            for f in flag.finditer(text, m.end(), end):
                g = next(g for g in range(1, flag.groups + 1) if f.group(g))
                value = _unwrapped(f.group(g))
                if value and not is_reference(value):
                    yield f.start(g), f.start(g) + len(value), "password"


_AUTH_PAIR = Rx(
    r"\bauth[ \t]*=[ \t]*(?:\(|\[|\w*Auth\()[ \t]*([\"'])[^\"'\n]*\1[ \t]*,[ \t]*"
    r"(?:\"([^\"\n]+)\"|'([^'\n]+)')"
)
"""``auth=("user", "password")``, ``auth=HTTPBasicAuth("user", "password")``."""
_OPENSSL_PASS = Rx(r"-pass(?:in|out)?[ \t]+pass:(\S+)")
_NETRC = Rx(r"(?i)\bmachine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S+)")
_SAS_SIG = Rx(r"(?i)[?&;]sig=([A-Za-z0-9%+/=]{16,})")
_URL_SIGNATURE = Rx(
    r"(?i)[?&;](?:[a-z0-9]+[-_.])*signature=(?=[A-Za-z0-9%+/=_~.\-]{0,1024}[0-9])"
    r"([A-Za-z0-9%+/=_~.\-]{16,1024})"
)
"""The signature of a presigned URL: S3's ``X-Amz-Signature``, Google Cloud Storage's
``X-Goog-Signature``, CloudFront's and older S3 and OSS URLs' ``Signature``: whoever
holds the URL holds the access it grants until it expires."""
_FLAG = Rx(
    r"-(?<![\w-]-)-?(?:[A-Za-z0-9]+-)*"
    r"(?i:password|passwd|pass|passphrase|secret|token|api-key|apikey|auth-token|"
    r"access-token|client-secret|secret-key|access-key|account-key|private-key|storepass|"
    r"keypass)"
    rf"(?:[ \t]+|=){_QUOTED_OR_WORD}"
)

_SWITCH_WORDS = frozenset({"ask", "prompt", "no", "show", "print", "skip", "without"})
"""A flag with one of these words is a switch, not a flag that takes the secret:
``--ask-become-pass site.yml``, ``--sftp-ask-password public/``, ``--no-password db``:
the word after it is the command's next argument."""


def _switch(flag: str) -> bool:
    """Whether ``flag`` (``--sftp-ask-password``) only turns something on or off."""
    return not _SWITCH_WORDS.isdisjoint(flag.lower().lstrip("-").split("-"))


def _group_spans(
    pattern: Rx, kind: str, text: str, gate: tuple[str, ...] = (), low: str = ""
) -> Iterator[Span]:
    """The first non-empty group of each match, unless it only stands for a secret.
    Runs only when one of ``gate`` occurs in ``low`` (no gate: always)."""
    if gate and not any(g in low for g in gate):
        return
    for m in pattern.finditer(text):
        for g in range(1, pattern.groups + 1):
            value = m.group(g)
            if value:
                if not is_reference(value):
                    yield m.start(g), m.end(g), kind
                break


def _cookie_value(value: str) -> bool:
    """Whether a cookie's value may hold a session: not a reference, and not a short
    word (``theme=dark``, ``foo=bar``; session ids are long or hold digits)."""
    if is_reference(value):
        return False
    return len(value) >= 8 or not value.isalpha()


def _cookie_spans(text: str) -> Iterator[Span]:
    """Values of ``Cookie:`` and ``Set-Cookie:`` headers and ``curl -b``."""
    for pattern in (_COOKIE, _COOKIE_FLAG):
        for m in pattern.finditer(text):
            base = m.start(1)
            for pair in _COOKIE_PAIR.finditer(m.group(1)):
                if _cookie_value(pair.group(2)):
                    yield base + pair.start(2), base + pair.end(2), "cookie"
    for m in _SET_COOKIE.finditer(text):
        if _cookie_value(m.group(1)):
            yield m.start(1), m.end(1), "cookie"


def _header_spans(text: str, low: str) -> Iterator[Span]:
    """Values of HTTP credential headers: Authorization, Bearer tokens, cookies."""
    if "authorization" in low:
        for m in _AUTH_HEADER.finditer(text):
            value = m.group("value")
            if is_reference(value) or any(c in value for c in "([{") or DOTTED.match(value):
                continue  # code: authorization = self.headers.get("authorization")
            if not m.group("scheme") and IDENT.match(value):
                continue  # a variable or a word
            yield m.start("value"), m.end("value"), "authorization"
    if "bearer" in low:
        for m in _BEARER.finditer(text):
            if any(c.isdigit() for c in m.group(1)):
                yield m.start(1), m.end(1), "bearer"
    if "cookie" in low or "-b " in low:
        yield from _cookie_spans(text)


def known_place_spans(text: str, low: str) -> Iterator[Span]:
    yield from _group_spans(_URL_PASSWORD, "url-password", text)
    yield from _header_spans(text, low)
    yield from _command_flag_spans(text, low)
    yield from _group_spans(_OPENSSL_PASS, "password", text, ("pass:",), low)
    if "auth" in low:
        for m in _AUTH_PAIR.finditer(text):
            g = 2 if m.group(2) else 3
            if not is_reference(m.group(g)):
                yield m.start(g), m.end(g), "password"
    yield from _group_spans(_NETRC, "password", text, ("machine",), low)
    yield from _group_spans(_SAS_SIG, "azure-sas", text, ("sig=",), low)
    yield from _group_spans(_URL_SIGNATURE, "url-signature", text, ("signature=",), low)
    for m in _FLAG.finditer(text):
        g = next(g for g in (1, 2, 3) if m.group(g))
        value = m.group(g) if g < 3 else _unwrapped(m.group(g))
        if not value or is_reference(value) or path_like(value) or (g == 3 and IDENT.match(value)):
            continue  # `--password $PW`, `--private-key ~/.ssh/id`, `--password option`
        flag = text[m.start() : m.start(g)].rstrip(" \t\"'")
        if not flag.endswith("=") and _switch(flag):
            continue  # `--ask-become-pass site.yml`: the next argument, not a password
        yield m.start(g), m.start(g) + len(value), "password"


_AWS_SECRET = Rx(
    r"(?<![A-Za-z0-9+/=])(?=[A-Za-z0-9+/]{0,39}[A-Z])(?=[A-Za-z0-9+/]{0,39}[a-z])"
    r"(?=[A-Za-z0-9+/]{0,39}[0-9+/])[A-Za-z0-9+/]{40}(?![A-Za-z0-9+/=])"
)
_AWS_ANCHOR = Rx(
    r"A[SK]IA[0-9A-Z]{16}(?![A-Za-z0-9])|(?i:aws.{0,60}secret|secret[ _\-]?access[ _\-]?key)"
)
AWS_CONTEXT_CHARS = 300
"""A bare 40-character string is an AWS secret key only this close to a key id or to
the words "secret access key" (alone it could be anything)."""


def aws_secret_spans(text: str, low: str) -> Iterator[Span]:
    if not ("secret" in low or "akia" in low or "asia" in low):
        return
    anchors = [m.start() for m in _AWS_ANCHOR.finditer(text)]
    if not anchors:
        return
    for m in _AWS_SECRET.finditer(text):
        i = bisect.bisect_left(anchors, m.start() - AWS_CONTEXT_CHARS)
        if i < len(anchors) and anchors[i] <= m.start() + AWS_CONTEXT_CHARS:
            yield m.start(), m.end(), "aws-secret"
