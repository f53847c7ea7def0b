"""Text values from untrusted places (MCP arguments, CLI options, JSON files, hook
JSON) checked before rubi writes them into a note or a reply.

The companion of :mod:`rubi.core.safepaths`: pure string work, nothing read or written.
Three rules hold for every value rubi writes into a note:

- it is Unicode text: no lone surrogate (``"\\ud800"`` cannot be encoded as UTF-8, so
  the write or the reply would fail half-way), no NUL byte and no other control
  character (a NUL makes rubi call its own note binary; ESC sequences rewrite the
  terminal that prints it);
- a one-line value (a title, an alias, a handoff step) cannot add lines, so it can
  never add a heading, a frontmatter key or a ``## Links`` entry;
- a link target is written inside ``[[...]]``, so it may not hold the characters that
  end or split a wikilink (``[ ] | # ^``).

Each check raises :class:`UnsafeTextError` naming the argument and what to do.
"""

from __future__ import annotations

import re

from rubi.core.errors import RubiError

__all__ = [
    "BIDI_CONTROLS",
    "LINK_FORBIDDEN",
    "UnsafeTextError",
    "check_text",
    "has_lone_surrogate",
    "link_target",
    "one_line",
    "replace_surrogates",
    "terminal_text",
]

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
"""A code point of the UTF-16 surrogate range: Python keeps them in a ``str`` (from a
JSON ``\\ud800`` escape or ``surrogateescape`` decoding of a non-UTF-8 file name or
argument), but they are not characters and UTF-8 cannot encode them."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
"""C0 and C1 control characters and DEL; tab, line feed and carriage return are text."""

LINK_FORBIDDEN = frozenset("[]|#^")
"""Characters a wikilink target cannot carry: ``]]`` ends the link, ``|`` starts its
alias, ``#`` a heading and ``^`` a block reference (Obsidian refuses them in file names
for the same reason)."""


class UnsafeTextError(RubiError):
    """A text value from input is not plain Unicode text, or would change the structure
    of the note it is written into."""


BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
"""The bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO, LRI,
RLI, FSI, PDI), as a regular-expression character range: shown raw, they reorder the
text after them, so a file name or a command reads as another ("Trojan Source",
CVE-2021-42574; Unicode UAX #9)."""

_TERMINAL_CONTROL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]|\r(?!\n)")
"""What a terminal acts on rather than shows: C0 controls but tab and line feed (ESC
starts colour, cursor, title, hyperlink and clipboard sequences; BEL ends some), DEL,
C1 controls (U+009B is a CSI of its own), a carriage return that is not part of a
line break (it returns over the text before it) and the bidirectional controls
(:data:`BIDI_CONTROLS`, which reorder what follows)."""


def terminal_text(text: str) -> str:
    """``text`` with every character a terminal would act on (:data:`_TERMINAL_CONTROL`)
    shown as its escape (``\\x1b``, ``\\r``, ``\\u202e``), for human output of text
    that arrived with a clone (a note's title or body, a file name): ``rubi search`` or
    ``rubi read`` in a terminal never runs an escape sequence a note holds, nor shows
    its text reordered."""
    return _TERMINAL_CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def has_lone_surrogate(text: str) -> bool:
    """True when ``text`` holds a code point of the surrogate range (not encodable)."""
    return _LONE_SURROGATE.search(text) is not None


def replace_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so it encodes as UTF-8.

    For text rubi sends out (a reply naming a file whose name was not UTF-8); input is
    refused instead (:func:`check_text`).
    """
    if not has_lone_surrogate(text):
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


def _describe(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def check_text(value: str, what: str) -> str:
    """``value`` unchanged when it is plain Unicode text (line breaks and tabs allowed).

    Args:
        value: the text as given.
        what: how the message names it (``notes[0].body``, ``--goal`` ...).

    Raises:
        UnsafeTextError: a lone surrogate, a NUL byte or another control character.
    """
    bad = _LONE_SURROGATE.search(value)
    if bad is not None:
        raise UnsafeTextError(
            f"{what}: holds a lone surrogate ({_describe(bad.group())}), which is not a "
            "Unicode character; send valid UTF-8 text"
        )
    bad = _CONTROL.search(value)
    if bad is not None:
        name = (
            "a NUL byte" if bad.group() == "\x00" else f"control character {_describe(bad.group())}"
        )
        raise UnsafeTextError(f"{what}: holds {name}; send plain text")
    return value


def one_line(value: str, what: str) -> str:
    """``value`` checked (:func:`check_text`) and folded to one line: every run of
    whitespace, line breaks included (also U+2028/U+2029 and U+0085), becomes one
    space, ends trimmed.

    Raises:
        UnsafeTextError: as :func:`check_text`.
    """
    return " ".join(check_text(value, what).split())


def link_target(value: str, what: str) -> str:
    """A link target (note id, title or alias) safe to write as ``[[value]]``: one
    line, trimmed, without :data:`LINK_FORBIDDEN` characters.

    Raises:
        UnsafeTextError: a line break, a control character, a lone surrogate, or one of
            ``[ ] | # ^``.
    """
    check_text(value, what)
    if any(ch in value for ch in "\r\n\u2028\u2029\x85"):
        raise UnsafeTextError(f"{what}: a link target is one line; give a note's id or title")
    bad = sorted(LINK_FORBIDDEN.intersection(value))
    if bad:
        raise UnsafeTextError(
            f"{what}: {value!r} holds {' '.join(bad)}, which a [[wikilink]] cannot carry; "
            "give the note's id (its file name) instead"
        )
    return " ".join(value.split())
