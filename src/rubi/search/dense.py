"""List 4 of the hybrid search: documents close in meaning to the query
(:mod:`rubi.semantic`), for the words a question shares with no note.

Off (an empty list) when the ``semantic`` extra is not installed, ``RUBI_SEMANTIC=0``,
or the vault has no vectors yet; a failure to read the vectors is logged and treated
the same, so a search never fails because of this channel.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rubi.semantic.dense import DenseIndex, DenseMatch

__all__ = ["DENSE_LIMIT", "DENSE_MIN_SCORE", "dense_list"]

log = logging.getLogger(__name__)

DENSE_LIMIT = 50
"""Candidates the dense list contributes to the fusion."""

DENSE_MIN_SCORE = 0.4
"""A document less similar than this is not close in meaning, however few are closer.
Without a floor the list always brought 50 candidates, so a word no note has
(``zebrafish``) still returned notes. Set from queries about nothing in the vault
(made-up and off-topic words on obsidian-help-en: best scores 0.08–0.50, most under
0.36), not from the question sets the channel is measured on."""


def dense_list(
    dense: DenseIndex | None,
    query: str,
    terms: Sequence[str],
    eligible: Callable[[str], bool],
) -> list[DenseMatch]:
    """The eligible documents closest to the query and terms, best first (at most
    :data:`DENSE_LIMIT`); [] when ``dense`` is None."""
    if dense is None:
        return []
    from rubi.core.storage import UntrustedCacheError
    from rubi.semantic.dense import query_vector

    try:
        found = dense.rank(query_vector(query, terms), eligible, DENSE_LIMIT)
    except (OSError, ValueError, ImportError, sqlite3.Error, UntrustedCacheError) as exc:
        log.warning("semantic channel skipped: %s", exc)
        return []
    return [m for m in found if m.score >= DENSE_MIN_SCORE]
