"""The vault's ``README.md``, rubi's own help note: an older rubi's copy upgraded by
``rubi init``, an edited one named by ``rubi doctor``.

The template's README carries ``status: help`` so recall never injects it
(:data:`rubi.app.recall.SKIPPED_STATUSES`). A vault made by an older ``rubi init``
keeps the README it got then, unmarked, and recall injected it for prompts the vault
had nothing on. ``init`` never overwrites a file, with one exception: a README
byte-identical to one an earlier rubi shipped (its SHA-256 in :data:`PAST_READMES`)
is nobody's writing and is replaced, atomically, by the current template. One the
user edited is never touched; ``doctor`` names it, with the line to add.

The upgrade lives in ``init``, not ``index``: ``init`` is the command that writes the
template, a person runs it and reads its output; ``index`` runs from hooks, the
watcher and the MCP server, where a file changing in the user's git tree would be a
surprise nobody saw announced.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from rubi.core.model import ScanWarning
from rubi.core.paths import VaultPaths

__all__ = ["PAST_READMES", "README", "readme_problem", "upgrade_readme"]

README = "README.md"
"""The vault-relative name of rubi's help note."""

PAST_READMES = frozenset(
    {
        # 127d539f: the first vault template (installed from the registry name, an in-vault .index/)
        "ac52e6094cf185299cc57ca60270f9f3dcd030275bce3fe2b8e5c9f74a6659eb",
        # 2e243bc5: the install from a checkout, the index in the cache, map.md, sessions/
        "e49ddfdeacae1ef382a5d4ed0bf8811e43c785f9fbe6723990b74864e286d66e",
    }
)
"""SHA-256 of every ``vault-template/README.md`` an earlier rubi shipped (each
version in git history but the current one), of its bytes with CRLF line ends read as
LF (a git checkout with ``core.autocrlf`` gives a Windows user CRLF). When the
template changes, its previous digest joins this set (a test compares it with the
history)."""

_MAX_README = 64 * 1024
"""More than any README rubi shipped: a larger file is the user's and is not read."""


def digest(data: bytes) -> str:
    """The SHA-256 (hex) :data:`PAST_READMES` holds for a README's bytes."""
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def upgrade_readme(vault: Path, template: bytes) -> bool:
    """Replace ``vault``'s README with ``template`` when an older rubi wrote it
    unchanged; anything else (missing, edited, a symlink, not a regular file, the
    current template) is left as it is.

    The replacement is atomic and conditional: the README must still hold the bytes
    read right before the rename (:func:`rubi.core.atomic.atomic_write_bytes` with
    ``expect``), so an editor's save in between is kept.

    Returns:
        True when the README was replaced.
    """
    from rubi.core.atomic import ChangedMeanwhile, atomic_write_bytes

    path = vault / README
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with path.open("rb") as file:
            old = file.read(_MAX_README + 1)
    except OSError:
        return False
    if len(old) > _MAX_README or digest(old) not in PAST_READMES:
        return False
    try:
        atomic_write_bytes(path, template, expect=old)
    except ChangedMeanwhile:
        return False
    return True


_HELP_MARKS = ("# Project memory", "kept by rubi")
"""What every README rubi shipped says: its title and who keeps the folder."""


def readme_problem(paths: VaultPaths) -> ScanWarning | None:
    """For ``rubi doctor``: the vault's README when it is rubi's help without
    ``status: help`` (recall injects it as knowledge), with what to do: ``rubi init``
    for an older rubi's unchanged copy, the line to add for an edited one. None when
    there is no README, it is marked, or it is not rubi's help (a user's own README
    may hold real knowledge: no rule guesses by the file name alone)."""
    from rubi.core.safeio import UnsafeFileError, allowed_root, read_bytes
    from rubi.markdown.parse import parse_note

    allowed, where = allowed_root(paths.root, paths.project_root)
    try:
        got = read_bytes(allowed, paths.root / README, limit=_MAX_README, where=where)
    except (OSError, UnsafeFileError):
        return None
    if got.truncated:
        return None
    text = got.data.decode("utf-8", errors="replace")
    if parse_note(text, README).status == "help":
        return None
    if digest(got.data) in PAST_READMES:
        return ScanWarning(
            README,
            "an older rubi's help, not marked `status: help`, so recall injects it: "
            "`rubi init` replaces it with the current one",
        )
    if not all(mark in text for mark in _HELP_MARKS):
        return None
    add = (
        "add the line `status: help` to its frontmatter"
        if text.lstrip("\ufeff").startswith("---")
        else "add `---`, `status: help`, `---` as its first three lines"
    )
    return ScanWarning(
        README,
        f"rubi's help, edited (so `rubi init` leaves it) and not marked `status: help`, "
        f"so recall injects it: {add}",
    )
