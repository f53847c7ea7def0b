"""The walk from a folder up to its project vault (stdlib ``os`` only: the hook client
imports it on every call).

A project vault is the first ``.rubi/`` folder at or above a folder, the folder
resolved first (symlinks, ``..``). The one walk every caller shares: the cold path
(:func:`rubi.core.paths.find_vault`), the engine's client, which must reach the
engine of the vault the cold path would use (:mod:`rubi.engine.address`), and the
engine, which checks a hook's folder with it and hands its result to the handler
(:class:`VaultWalk`), so that one hook walks once in each process.
"""

from __future__ import annotations

import os

__all__ = ["VAULT_DIRNAME", "VaultWalk", "first_vault"]

VAULT_DIRNAME = ".rubi"
"""A project vault's folder name."""


def first_vault(start: str) -> str | None:
    """``<folder>/.rubi`` for the first folder at or above ``start`` (resolved with
    :func:`os.path.realpath`) that has a ``.rubi`` folder, the ``.rubi`` itself not
    resolved (it may be a link); None when no folder up to the root has one.

    Raises:
        ValueError: ``start`` holds a NUL character.
    """
    return _up(os.path.realpath(start))


def _up(folder: str) -> str | None:
    """:func:`first_vault` from ``folder``, resolved already."""
    while True:
        candidate = os.path.join(folder, VAULT_DIRNAME)
        if os.path.isdir(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


class VaultWalk:
    """One walk (:func:`first_vault`) and where it started, handed from the process
    that walked to the code that would otherwise walk again from the same folder.

    Attributes:
        start: the folder resolved (:func:`os.path.realpath`): the walk stands for any
            folder that resolves to it.
        found: ``<folder>/.rubi`` as :func:`first_vault` found it, or None.
    """

    __slots__ = ("found", "start")

    def __init__(self, start: str, found: str | None) -> None:
        self.start = start
        self.found = found

    @classmethod
    def from_folder(cls, folder: str) -> VaultWalk:
        """Walk up from ``folder`` now.

        Raises:
            ValueError: ``folder`` holds a NUL character.
        """
        start = os.path.realpath(folder)
        return cls(start, _up(start))

    def covers(self, folder: str) -> bool:
        """Whether this walk started where a walk from ``folder`` would."""
        try:
            return os.path.realpath(folder) == self.start
        except (OSError, ValueError):
            return False

    def __repr__(self) -> str:
        return f"VaultWalk(start={self.start!r}, found={self.found!r})"
