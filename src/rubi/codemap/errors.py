"""Errors of the code map a user can cause."""

from __future__ import annotations

from rubi.core.errors import RubiError

__all__ = ["CodeMapError", "CuratedSummaryError"]


class CodeMapError(RubiError):
    """The repository cannot be mapped at all (the folder is missing, not a folder)."""


class CuratedSummaryError(RubiError):
    """A page's curated summary markers are broken, so regenerating it would lose text.

    Attributes:
        path: the page, as the caller named it.
        reason: what is wrong and what to do.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
