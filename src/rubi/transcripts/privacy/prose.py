"""Secrets named in prose: ``my password is hunter2``, ``api key SK…`` (detector 3 of
:mod:`rubi.transcripts.privacy`, beside the ``name = value`` pairs of
:mod:`.secretnames`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubi.transcripts.privacy.patterns import WORD, Rx, Span
from rubi.transcripts.privacy.secretnames import KEY_QUALIFIERS
from rubi.transcripts.privacy.values import DOTTED, is_reference, password_like, random_token

__all__ = ["prose_spans"]

_PROSE = Rx(
    r"(?i:password|passwd|passphrase|pwd|secret|token|api[ _\-]?key|key|credentials?)"
    r"(?P<verb>:(?=[ \t])|[ \t]+(?:is|was|is now|=|:|->|=>))?[ \t]+[\"'`]?([^\s\"'`]{4,})"
)
_HEX_SECRET = Rx(r"^(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{32,}$")
"""128 bits or more in hexadecimal, digits and letters: how encryption keys, HMAC
secrets and many API tokens are written (``encryption key: 3f9a…``)."""
_QUALIFIERS = KEY_QUALIFIERS | frozenset(
    ["aes", "des", "hmac", "bearer", "refresh", "oauth", "pat", "personal", "gpg"]
)
"""A word before ``key``, ``token`` or ``secret`` that makes the phrase name one
credential (``encryption key``, ``auth token``; not ``cache key``, ``the token``)."""


def _word_before(text: str, i: int) -> str:
    """The word before offset ``i`` (over spaces and tabs), lower case."""
    j = i
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    k = j
    while k > 0 and text[k - 1] in WORD:
        k -= 1
    return text[k:j].lower()


def prose_spans(text: str, low: str) -> Iterator[Span]:
    """``my password is hunter2``, ``api key SK…``, ``encryption key: 3f9a…``,
    ``Twilio auth token 0d4c…``: a secret word, maybe a verb, then a value that looks
    like a credential."""
    for hint in ("pass", "pwd", "secret", "token", "key", "api", "cred"):
        i = low.find(hint)
        while i >= 0:
            if i == 0 or text[i - 1] not in WORD:
                m = _PROSE.match(text, i)
                if m is not None:
                    span = _prose_value(m, _word_before(text, i) in _QUALIFIERS)
                    if span is not None:
                        yield span
            i = low.find(hint, i + len(hint))


def _prose_value(m: re.Match[str], qualified: bool) -> Span | None:
    """The value's span when it is a credential. ``qualified``: the phrase names one
    credential (``encryption key``), so a hexadecimal key needs no verb after it."""
    word = m.group(0).split()[0].lower().rstrip(":")
    verb = m.group("verb") or ""
    value = m.group(2).rstrip(".,;:!?)")
    if is_reference(value) or any(c in value for c in "([{") or DOTTED.match(value):
        return None
    password = word.startswith("pass") or word == "pwd"
    if verb == ":" and (password or (word == "key" and not qualified)):
        return None  # `password: x` is a pair (secretnames); `key: …` labels an item
    if password:
        ok = (bool(verb) and password_like(value)) or random_token(value)
    else:
        hex_ok = (qualified or (bool(verb) and word != "key")) and bool(_HEX_SECRET.match(value))
        ok = random_token(value) or hex_ok
    return (m.start(2), m.start(2) + len(value), "secret") if ok else None
