"""Title keys and note file names, in any script, safe on every file system."""

from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = ["MAX_SLUG_BYTES", "fold_latin_accents", "normalize_title", "slugify", "title_key"]

MAX_SLUG_BYTES = 150
"""UTF-8 bytes of a file name stem: with ``.md`` and the temporary-file affixes of an
atomic write it stays under every file system's 255-byte limit (a CJK character is 3
bytes, ``𠮷`` 4)."""

_SOFT_PUNCTUATION = re.compile(r"[\s.,;:?!'\"`()\[\]{}/\\|_\-–—…]+")
"""Separators that do not change what a title means (``!`` alone, as in ``!=``, does)."""


def fold_latin_accents(text: str) -> str:
    """Drop accents from Latin letters only (``configurações`` → ``configuracoes``).

    Other scripts keep their marks: Japanese voicing (``ガ`` ≠ ``カ``) and Cyrillic
    ``й`` ≠ ``и`` are different letters, not accented ones.
    """
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch) and out and "a" <= out[-1].lower() <= "z":
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def title_key(title: str) -> str:
    """The key under which two titles are the same title: lower case, Latin accents
    folded, spacing and soft punctuation ignored, every other character kept
    (``C++`` ≠ ``C``, ``!=`` ≠ ``==``, ``🚀`` ≠ ``🔥``)."""
    text = fold_latin_accents(title.lower())
    key = " ".join(_SOFT_PUNCTUATION.sub(" ", text).split())
    if key:
        return key
    return " ".join(title.split())  # only separators ("../..", "/"): the title itself


def normalize_title(title: str) -> str:
    """Lower-case, Latin-accent-free words of a title, every non-word character a
    space (for file names)."""
    text = fold_latin_accents(title.lower())
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def slugify(note_type: str, title: str) -> str:
    """``<type>-<title words joined by ->``: letters of every script are kept (Latin
    accents dropped), everything else (``/``, ``..``, emoji, punctuation) becomes
    ``-``; at most :data:`MAX_SLUG_BYTES` bytes.

    A title with no letters or digits at all gets a short hash instead.
    """
    words = normalize_title(title).replace(" ", "-")
    if not words:
        words = hashlib.sha256(title.encode("utf-8")).hexdigest()[:8]
    slug = f"{note_type}-{words}"
    if len(slug.encode("utf-8")) > MAX_SLUG_BYTES:
        cut = slug.encode("utf-8")[:MAX_SLUG_BYTES].decode("utf-8", errors="ignore")
        slug = cut.rstrip("-")
    return slug
