"""Merge the project's hits with the personal vault's: project first, personal by share.

Each vault is searched on its own (:func:`rubi.search.engine.search_index`), so a hit's
score is its fused RRF score within its own vault: a rank-based strength on the same
scale in both (the same lists, the same ``k``). Fusing the two lists by rank position
alone made a small personal vault's best match (rank 1 among ten notes) the equal of the
project's best (rank 1 among thousands), and a blog draft about Hugo templates came
first for "how are templates rendered". The rules here:

- a personal hit counts :data:`PERSONAL_WEIGHT` of its score, so it ranks below project
  hits of similar strength (a personal note the query names, in the text, name and
  graph lists, still outranks a project hit found by one list only);
- at most :data:`PERSONAL_SHARE` of ``top_k`` slots (at least one) go to personal hits,
  unless the project has too few hits to fill the rest;
- ties go to the project.

The hits keep their ids (``personal:`` prefixed by the caller); a personal hit's score
is its weighted score, so scores stay in the order shown.
"""

from __future__ import annotations

import dataclasses
import math

from rubi.search.hits import Hit, SearchResult

__all__ = ["PERSONAL_SHARE", "PERSONAL_WEIGHT", "merge_personal", "personal_slots"]

PERSONAL_WEIGHT = 0.5
"""A personal hit's score counts half: a project hit in one list at rank r outranks a
personal hit in two lists at any rank up to about r (``1/(60+r)`` against
``0.5 · 1.7/(60+r)``)."""
PERSONAL_SHARE = 0.25
"""Share of ``top_k`` the personal vault may take when the project fills the rest."""


def personal_slots(top_k: int, project_hits: int) -> int:
    """How many personal hits may be shown among ``top_k``: the share (at least one), or
    every slot the project's ``project_hits`` leave free, whichever is more."""
    share = max(1, math.floor(top_k * PERSONAL_SHARE))
    return max(share, top_k - project_hits)


def _weighted(hit: Hit) -> Hit:
    return dataclasses.replace(hit, score=round(hit.score * PERSONAL_WEIGHT, 6))


def merge_personal(project: SearchResult, personal: SearchResult, top_k: int) -> SearchResult:
    """The project's and the personal vault's results as one list of at most ``top_k``
    hits, by the rules of the module docstring.

    Args:
        project: the project vault's result (ranked, scores within it).
        personal: the personal vault's result (ranked, ids already prefixed).
        top_k: hits at most (≥ 1).

    Returns:
        A :class:`SearchResult` with ``project``'s query and terms and both candidate
        counts summed.
    """
    mine = [_weighted(h) for h in personal.hits]
    mine.sort(key=lambda h: -h.score)
    mine = mine[: personal_slots(top_k, len(project.hits))]
    tagged = [(h.score, 0, i, h) for i, h in enumerate(project.hits)]
    tagged += [(h.score, 1, i, h) for i, h in enumerate(mine)]
    tagged.sort(key=lambda t: (-t[0], t[1], t[2]))
    hits = [t[3] for t in tagged[:top_k]]
    return SearchResult(
        project.query,
        project.terms,
        hits,
        project.candidates + personal.candidates,
        coverage=max(project.coverage, personal.coverage),
        cjk=project.cjk,
        named=project.named + personal.named,
        relevant=project.relevant or personal.relevant,
        significance=max(project.significance, personal.significance),
    )
