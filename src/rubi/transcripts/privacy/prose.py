"""Secrets named in prose: ``my password is hunter2``, ``api key SK…`` (detector 3 of
:mod:`rubi.transcripts.privacy`, beside the ``name = value`` pairs of
:mod:`.secretnames`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubi.transcripts.privacy.patterns import WORD, Rx, Span
from rubi.transcripts.privacy.values import DOTTED, is_reference, password_like, random_token

__all__ = ["prose_spans"]

_PROSE = Rx(
    r"(?i:password|passwd|passphrase|pwd|secret|token|api[ _\-]?key|key|credentials?)"
    r"(?P<verb>[ \t]+(?:is|was|is now|=|:|->|=>))?[ \t]+[\"'`]?([^\s\"'`]{4,})"
)


def prose_spans(text: str, low: str) -> Iterator[Span]:
    """``my password is hunter2``, ``api key SK…``: a secret word, maybe a verb, then
    a value that looks like a credential."""
    for hint in ("pass", "pwd", "secret", "token", "key", "api", "cred"):
        i = low.find(hint)
        while i >= 0:
            if i == 0 or text[i - 1] not in WORD:
                m = _PROSE.match(text, i)
                if m is not None:
                    span = _prose_value(m)
                    if span is not None:
                        yield span
            i = low.find(hint, i + len(hint))


def _prose_value(m: re.Match[str]) -> Span | None:
    word = m.group(0).split()[0].lower()
    value = m.group(2).rstrip(".,;:!?)")
    if is_reference(value) or any(c in value for c in "([{") or DOTTED.match(value):
        return None
    if word.startswith("pass") or word == "pwd":
        ok = (bool(m.group("verb")) and password_like(value)) or random_token(value)
    else:
        ok = random_token(value)
    return (m.start(2), m.start(2) + len(value), "secret") if ok else None
