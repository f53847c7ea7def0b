"""Note file names from titles, in any script, safe on every file system."""

from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = ["MAX_SLUG_CHARS", "normalize_title", "slugify"]

MAX_SLUG_CHARS = 80
"""File names stay well under every file system's 255-byte limit (CJK is 3 bytes a
character in UTF-8)."""


def normalize_title(title: str) -> str:
    """Case-folded, accent-free, punctuation-free, single-spaced form of a title."""
    text = unicodedata.normalize("NFKD", title.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = unicodedata.normalize("NFC", text)  # Hangul and kana recompose
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def slugify(note_type: str, title: str) -> str:
    """``<type>-<title words joined by ->``: letters of every script are kept (accents
    dropped), everything else (``/``, ``..``, emoji, punctuation) becomes ``-``.

    A title with no letters or digits at all gets a short hash instead.
    """
    words = normalize_title(title).replace(" ", "-")
    if not words:
        words = hashlib.sha256(title.encode("utf-8")).hexdigest()[:8]
    slug = f"{note_type}-{words}"
    if len(slug) > MAX_SLUG_CHARS:
        slug = slug[:MAX_SLUG_CHARS].rstrip("-")
    return slug
