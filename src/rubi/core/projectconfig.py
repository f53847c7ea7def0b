"""The vault's ``config.toml``, read as a project's file: it may have arrived by ``git
clone``, so it is read through :mod:`rubi.core.safeio` and never trusted to name a
path outside the project (those settings come from the user config only).

Read by the hook thresholds (:mod:`rubi.claude.hooksettings`), the personal vault's
lookup (:mod:`rubi.knowledge.personal`) and ``rubi doctor``."""

from __future__ import annotations

from pathlib import Path

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_CONFIG_BYTES", "read_config"]

MAX_CONFIG_BYTES = 256_000
"""A ``config.toml`` larger than this is not a config file (the template's is under
2 kB); it is not read, and the defaults hold."""


def read_config(
    vault_root: Path, project_root: Path | None = None
) -> tuple[dict[str, Any], str | None]:
    """The vault's ``config.toml`` as a table, and what is wrong with it.

    Read through :mod:`rubi.core.safeio`: a regular file inside the project (or the vault
    when ``project_root`` is None), at most :data:`MAX_CONFIG_BYTES`.

    Returns:
        ``(table, None)``; ``({}, None)`` when there is no file; ``({}, problem)`` when
        it is refused (a symlink that leads out, a FIFO or device), too large, not
        TOML or unreadable: ``problem`` says so in a few words and what to do.
    """
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_bytes

    allowed, where = allowed_root(vault_root, project_root)
    try:
        got = read_bytes(
            allowed,
            vault_root / "config.toml",
            limit=MAX_CONFIG_BYTES,
            label="config.toml",
            where=where,
        )
    except FileNotFoundError:
        return {}, None
    except UnsafeFileError as exc:
        return {}, exc.reason
    except OSError as exc:
        return {}, f"cannot be read ({exc.strerror}); check its permissions"
    if got.truncated:
        return {}, (
            f"larger than {MAX_CONFIG_BYTES // 1000} kB; rubi does not read it: "
            "a config is a few lines, fix it"
        )
    import tomllib  # only for a file: it loads typing (3 ms a hook)

    try:
        return tomllib.loads(got.data.decode("utf-8")), None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, f"not valid TOML ({exc}); rubi uses its defaults until it is fixed"
