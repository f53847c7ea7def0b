"""SHA-256 hex digests without loading OpenSSL.

``hashlib`` loads ``_hashlib`` (OpenSSL): 2–3 ms of imports, paid by every hook process
that names a vault's derived-data folder or writes a file. The interpreter's built-in
``_sha256`` module gives the same digest for the cost of a C module; ``hashlib`` is the
fallback where an interpreter lacks it.
"""

from __future__ import annotations

__all__ = ["sha256_hex"]


def sha256_hex(data: bytes) -> str:
    """The SHA-256 digest of ``data`` as 64 lowercase hex digits (FIPS 180-4)."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:  # an interpreter without the built-in module
        from hashlib import sha256
    digest: str = sha256(data).hexdigest()
    return digest
