"""How two names of notes are compared: folded and with their white space collapsed.

Split from :mod:`rubi.vault.resolve` (which re-exports both functions): a search
compares the names a query gives with the names the graph keeps, and needs these two
functions only, not the link resolver, its records and its imports (about 0.7 ms of a
cold recall hook's CPU).
"""

from __future__ import annotations

import unicodedata

__all__ = ["fold", "normalize_name"]


def fold(text: str) -> str:
    """``text`` case-folded and in Unicode NFC: ``Résumé`` composed (NFC) or
    decomposed (NFD, as macOS file systems give names) both fold to ``résumé``."""
    if text.isascii():
        return text.casefold()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).casefold())


def normalize_name(name: str) -> str:
    """Folded (:func:`fold`), whitespace-collapsed form used for every name comparison."""
    return " ".join(fold(name).split())
