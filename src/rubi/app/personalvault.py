"""The personal vault as a vault of its own: what the MCP server serves in a folder
that has no project memory yet, and what the installer creates.

Cheap to import: it loads neither the search stack nor the transcript readers.
"""

from __future__ import annotations

from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

__all__ = ["ensure_personal_vault", "existing_personal_vault", "open_personal_vault"]


def open_personal_vault() -> VaultPaths:
    """The personal vault (``RUBI_VAULT``, default ``~/rubi-vault/personal``), created
    when missing.

    Raises:
        RubiError: it cannot be created or opened (the reason is in the message).
    """
    from rubi.knowledge.personal import personal_paths

    try:
        found = personal_paths(None, create=True)
    except OSError as exc:
        raise RubiError(f"the personal vault cannot be created ({exc.strerror or exc})") from exc
    if found is None:
        raise RubiError("the personal vault cannot be opened")
    return found


def existing_personal_vault() -> VaultPaths | None:
    """The personal vault (as :func:`open_personal_vault` finds it), or None when it
    does not exist; never creates it.

    Raises:
        VaultNotFoundError: its path is set but is not a usable folder.
    """
    from rubi.knowledge.personal import personal_paths

    return personal_paths(None)


def ensure_personal_vault() -> bool:
    """Create the personal vault unless it exists.

    Returns:
        Whether it was created.

    Raises:
        OSError: it cannot be created.
    """
    from rubi.knowledge.personal import personal_paths

    if personal_paths(None) is not None:
        return False
    personal_paths(None, create=True)
    return True
