"""The code names a note mentions: what a stale check matches against a file's
definitions (:mod:`rubi.knowledge.filechange`).

A name counts when it is written as code: every identifier inside a backticked span
(`` `TermScorer.top` `` gives ``TermScorer`` and ``top``; a span word holding a ``/``
or ending in a file extension is a path, not a name), and in the prose an identifier
with an underscore (``stale_files``) or a camel-case one (``NoteFiles``). Plain words
("search", "cache", nor ``log(x)`` in a formula) are never names, nor a plain lowercase
word among others in a span (`` `rubi search` ``, `` `from x import y` ``): they would
match a definition of the same name in nearly any file. Of a dotted word only the last
part counts: a module path names no definition, and the class of ``TermScorer.top``
only qualifies the method the note is about (the class counts when written alone); a
dunder (``__init__``) only after a class, since most files define one. Names are
matched only against the definitions of the note's own ``files:``, so a stray one costs
little.
"""

from __future__ import annotations

import re

__all__ = ["MIN_NAME_CHARS", "mentioned_names", "note_body"]

MIN_NAME_CHARS = 3
"""Shorter identifiers (``x``, ``id``) are left out: too many files define them."""

_SPAN = re.compile(r"`([^`\n]{1,200})`")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PLAIN = re.compile(r"[a-z]+")
_PROSE = re.compile(
    r"\b(?:[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*|_[A-Za-z0-9_]+"  # snake_case, _private
    r"|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*"  # CamelCase
    r"|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)\b"  # camelCase
)
_EXTENSIONS = frozenset(
    [
        "py",
        "pyi",
        "md",
        "txt",
        "toml",
        "json",
        "yaml",
        "yml",
        "cfg",
        "ini",
        "js",
        "jsx",
        "mjs",
        "cjs",
        "ts",
        "tsx",
        "go",
        "rs",
        "java",
        "kt",
        "rb",
        "php",
        "c",
        "h",
        "cc",
        "cpp",
        "hpp",
        "cs",
        "swift",
        "dart",
        "css",
        "scss",
        "html",
        "sh",
        "lock",
        "pickle",
        "db",
    ]
)


def note_body(text: str) -> str:
    """``text`` without its YAML frontmatter (the ``---`` block at the top, when
    closed); the whole text otherwise."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end >= 0:
            return text[end + 4 :]
    return text


def _word_names(word: str) -> list[str]:
    """The name of one code word: of a dotted one (``rubi.entry.main``,
    ``TermScorer.top``) its last part, what the note is about (the class before it
    only qualifies it); a lone dunder (``__init__``) none."""
    parts = _IDENT.findall(word.split("(", 1)[0]) or _IDENT.findall(word)
    if not parts:
        return []
    name = parts[-1]
    if len(parts) == 1 and name.startswith("__") and name.endswith("__"):
        return []
    return [name]


def _span_names(span: str) -> list[str]:
    words = span.split()
    names: list[str] = []
    for word in words:
        if "/" in word or "\\" in word:
            continue
        tail = word.rstrip(".,:;)").rsplit(".", 1)
        if len(tail) == 2 and tail[1].lower() in _EXTENSIONS and "(" not in word:
            continue  # ``stale.py``, ``README.md``
        if len(words) > 1 and _PLAIN.fullmatch(word):
            continue  # a command line's or a sentence's word: ``rubi search``
        names.extend(_word_names(word))
    return names


def mentioned_names(text: str) -> frozenset[str]:
    """The code names ``text`` (a note's markdown; frontmatter left out) mentions,
    each at least :data:`MIN_NAME_CHARS` long."""
    body = note_body(text)
    found: list[str] = []
    for m in _SPAN.finditer(body):
        found.extend(_span_names(m.group(1)))
    found.extend(
        n
        for n in _PROSE.findall(_SPAN.sub(" ", body))
        if not (n.startswith("__") and n.endswith("__"))
    )
    return frozenset(n for n in found if len(n) >= MIN_NAME_CHARS)
