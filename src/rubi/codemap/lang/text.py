"""Text helpers shared by the pattern-based parsers.

Comments are removed with one left-to-right regex that also matches string literals,
so ``"http://x"`` or ``'/* not a comment */'`` survive; every removed comment keeps
its newlines, so line numbers stay right.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

__all__ = [
    "IDENT_RE",
    "LineIndex",
    "blank_strings",
    "identifiers",
    "strip_comments",
]

_DQ = r'"(?:\\.|[^"\\\n])*"'
_SQ = r"'(?:\\.|[^'\\\n])*'"
_BT = r"`(?:\\.|[^`\\])*`"
_LINE = r"//[^\n]*"
_BLOCK = r"/\*.*?(?:\*/|\Z)"
_HASH = r"#[^\n]*"
_URL = r"url\([^)\n]*\)"
_DQ_MULTI = r'"(?:\\.|[^"\\])*"'
_SQ_MULTI = r"'(?:\\.|[^'\\])*'"
_RUST_RAW = r'\br(?P<hashes>#*)".*?"(?P=hashes)'
_RUST_CHAR = r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^\\'\n])'"

_STYLES: dict[str, re.Pattern[str]] = {
    # JS/TS/Go/Dart: //, /* */, "...", '...', `...`
    "c": re.compile("|".join((_LINE, _BLOCK, _DQ, _SQ, _BT)), re.DOTALL),
    # Rust: strings span lines, raw strings r#"..."#, and a quote is a char literal
    # ('"') or a lifetime ('a), never a string.
    "rust": re.compile("|".join((_LINE, _BLOCK, _RUST_RAW, _RUST_CHAR, _DQ_MULTI)), re.DOTALL),
    # PHP: also # comments (PHP 8 attributes #[...] go with them, harmlessly); strings
    # span lines.
    "php": re.compile("|".join((_LINE, _BLOCK, _HASH, _DQ_MULTI, _SQ_MULTI)), re.DOTALL),
    # CSS/SCSS/Less: keep url(...) whole so "//" in a URL is not a comment.
    "css": re.compile("|".join((_URL, _LINE, _BLOCK, _DQ, _SQ)), re.DOTALL),
}

IDENT_RE = re.compile(r"\b[A-Za-z_]\w*\b")


def _keep_newlines(text: str) -> str:
    return "\n" * text.count("\n")


def strip_comments(text: str, style: str = "c", *, blank_templates: bool = False) -> str:
    """Remove comments, keeping string literals and every newline.

    Args:
        text: source text.
        style: ``c`` (//, /* */, three quote kinds), ``rust``, ``php`` or ``css``.
        blank_templates: also empty JS template literals (`` `...` ``), whose text is
            often code under test, not code.

    Returns:
        The text with each comment replaced by its newlines.
    """
    pattern = _STYLES[style]

    def repl(match: re.Match[str]) -> str:
        s = match.group(0)
        if s.startswith(("//", "/*", "#")):
            return _keep_newlines(s)
        if blank_templates and s.startswith("`"):
            return "`" + _keep_newlines(s) + "`"
        return s

    return pattern.sub(repl, text)


def blank_strings(text: str, style: str = "c") -> str:
    """Remove comments and the contents of string literals (quotes kept, newlines kept)."""
    pattern = _STYLES[style]

    def repl(match: re.Match[str]) -> str:
        s = match.group(0)
        if s.startswith(("//", "/*", "#")):
            return _keep_newlines(s)
        if s.startswith("url("):
            return "url()"
        return s[0] + _keep_newlines(s) + s[-1] if len(s) > 1 else s

    return pattern.sub(repl, text)


def identifiers(text: str, exclude: Iterable[str] = ()) -> tuple[str, ...]:
    """Sorted distinct identifiers in ``text`` (already stripped of comments and strings).

    Args:
        text: code without comments and string contents.
        exclude: words to drop (the language's keywords).
    """
    found = set(IDENT_RE.findall(text))
    found.difference_update(exclude)
    return tuple(sorted(found))


class LineIndex:
    """1-based line numbers of character offsets, by binary search over newlines."""

    def __init__(self, text: str) -> None:
        self._starts = [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        """1-based line holding ``offset``."""
        return bisect.bisect_right(self._starts, offset) + 1
