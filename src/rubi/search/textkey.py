"""What the search's memos key a file's text by: a digest, so no memo keeps the text
itself, and a search that reads a file digests it once for every memo
(:attr:`rubi.search.hittext.FileText.digest`)."""

from __future__ import annotations

import hashlib

__all__ = ["text_key"]


def text_key(text: str) -> bytes:
    """``text``'s BLAKE2b digest (16 bytes) of its UTF-8 (lone surrogates kept):
    the key of its layout (:class:`rubi.search.layout.Layouts`) and, with its title, of
    its near-duplicate fingerprint (:func:`rubi.search.duplicates.body_of`)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
