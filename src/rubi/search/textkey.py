"""What the search's memos key a file's text by: a digest, so no memo keeps the text
itself, and a search that reads a file digests it once for every memo
(:attr:`rubi.search.hittext.FileText.digest`)."""

from __future__ import annotations

try:  # the interpreter's built-in BLAKE2b: the same digest as ``hashlib.blake2b``
    from _blake2 import blake2b as _blake2b  # without OpenSSL's ``_hashlib`` (1.5–2 ms)
except ImportError:  # an interpreter without the built-in module
    from hashlib import blake2b as _blake2b

__all__ = ["text_key"]


def text_key(text: str) -> bytes:
    """``text``'s BLAKE2b digest (16 bytes) of its UTF-8 (lone surrogates kept):
    the key of its layout (:class:`rubi.search.layout.Layouts`) and, with its title, of
    its near-duplicate fingerprint (:func:`rubi.search.duplicates.body_of`)."""
    return _blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
