"""The facade's door to the dense channel's state (:mod:`rubi.semantic`)."""

from __future__ import annotations

from rubi.core.paths import VaultPaths

__all__ = ["semantic_status"]


def semantic_status(paths: VaultPaths) -> str:
    """One line: ``on: N documents embedded (model)``, or ``off: why`` with how to
    turn it on (:func:`rubi.semantic.status.status_line`)."""
    from rubi.semantic.status import status_line

    return status_line(paths.index_dir)
