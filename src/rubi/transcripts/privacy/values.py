"""Whether a value is a literal secret or code, a reference, a mask or a placeholder
(shared by the detectors of :mod:`rubi.transcripts.privacy`)."""

from __future__ import annotations

from rubi.transcripts.privacy.patterns import Rx

__all__ = [
    "DOTTED",
    "IDENT",
    "TOKEN_CHARS",
    "credential_like",
    "is_reference",
    "password_like",
    "path_like",
    "random_token",
]

# -- values: literal or not ----------------------------------------------------------------

_REFERENCE = Rx(
    r"^(?:\$|%[A-Za-z_]\w*%|%[-#0 +]*[0-9.]*[sdifrxXeEgGc](?![A-Za-z0-9])|%[({]|\{|<|\[|\*{3,}"
    r"|x{3,}$|X{3,}$|\.{3}|…|process\.env|os\.environ)"
)
"""A reference, not a value: ``$VAR``, ``%VAR%`` (not ``%aB3…``, a password may start
with ``%``), a ``%s`` format field, ``{{ var }}``, ``<token>``, ``[…]``, masks."""
_MASK = Rx(r"^[^A-Za-z0-9]*(?:\*{3,}|•{3,}|x{3,}|X{3,})[^A-Za-z0-9]*$")
_ELIDED = Rx(r"^[A-Za-z0-9+/=_\-]{3,12}(?:\.{3}|…)[A-Za-z0-9+/=_\-]{2,12}$")
"""A value shown by its ends only, at most 12 characters either side of an ellipsis
(``eyJ0eX...8WQ``, ``sk-abc…xyz``: how documentation shows a sample token; 3 or more
characters before it, 2 or more after, so ``hunter2...`` is still a password): what is
left cannot be used, so it is not reported or redacted as a secret."""
_PLACEHOLDER = Rx(
    r"^(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|(?i:your[\w\-]*|changeme|change[\-_]me|"
    r"replace[\-_]?me|todo|tbd|fixme|placeholder|redacted|secret|password|passwd|pass|pw|"
    r"pwd|token|dummy|example|test|none|null|value))$"
)


def is_reference(value: str) -> bool:
    """A value that only stands for a secret: ``$VAR``, ``${VAR}``, ``%VAR%``, ``%s``,
    ``{{ var }}``, ``<token>``, ``***``, ``YOUR_API_KEY``, ``changeme``, ``pass``, a
    value elided to its ends (``eyJ0eX...8WQ``)."""
    v = value.strip("\"'`")
    return not v or bool(
        _REFERENCE.match(v) or _MASK.match(v) or _PLACEHOLDER.match(v) or _ELIDED.match(v)
    )


TOKEN_CHARS = Rx(r"^[A-Za-z0-9+/=_\-.~:@!#$%^&*]+$")
_WORDS = Rx(r"^[:@#]?[A-Za-z]+(?:[-_.][A-Za-z]+)+$")
"""Words joined by dashes or dots (``Proxy-Authorization``), maybe after a sigil
(``:date_medium``, ``@some-user``): a name, not a key."""
_CAMEL = Rx(r"^[A-Za-z]?[a-z]+(?:[A-Z][a-z]+)*$")
_RANDOM_TOKEN = Rx(
    r"^(?=[A-Za-z0-9+/=_\-.~]*[0-9])(?=[A-Za-z0-9+/=_\-.~]*[A-Z])(?=[A-Za-z0-9+/=_\-.~]*[a-z])"
    r"[A-Za-z0-9+/=_\-.~]{16,}$"
)


def random_token(value: str) -> bool:
    """16+ token characters with a digit, a capital and a small letter."""
    return bool(_RANDOM_TOKEN.match(value))


def credential_like(value: str, min_len: int) -> bool:
    """Random-looking: token characters only, long enough, not just a word."""
    if len(value) < min_len or not TOKEN_CHARS.match(value):
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


def password_like(value: str) -> bool:
    """A password said in prose: 4+ token characters with a digit and a letter, or
    capitals, small letters and a symbol (not a word and its punctuation)."""
    if len(value) < 4 or not TOKEN_CHARS.match(value):
        return False
    upper = any(c.isupper() for c in value)
    lower = any(c.islower() for c in value)
    if any(c.isdigit() for c in value):
        return upper or lower
    return upper and lower and any(not c.isalnum() for c in value)


def path_like(value: str) -> bool:
    return value.startswith(("/", "~", "./", "../", "@"))


DOTTED = Rx(r"^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$")
IDENT = Rx(r"^[A-Za-z_][A-Za-z_]*$")
