"""A search of captured sessions ranks turns, not files: the turns of the best session
candidates compete with one another, and each session's hit shows its turns that rank
among the result's best.

A session record holds a whole conversation, dozens of topics, so the file that
matches a question's words most often (many weak matches across its turns) is not
the one holding the turn that answers it. Each turn of the first
:data:`POOL_FACTOR` ``× top_k`` session candidates is scored as a passage
(:mod:`rubi.search.passages`: the query's words weighted by their IDF, saturated, its
length against the file's average turn; plus :data:`TURN_CONTEXT` of what its
better neighbouring turn scores on the words it lacks,
:func:`rubi.search.passages.in_context`), and ranked
by Reciprocal Rank Fusion (Cormack et al. 2009, ``k =`` :data:`TURN_RRF_K`) of two
ranks: its session's in the search's fused list, and its own among every turn of the
pool by that score. Each
session's hit then takes the place of its best turn; its passages are its turns among
the first ``top_k`` of that ranking (its best turn alone when none is), best first;
of two turns the fusion ties, the one with the higher score comes first.
A reader going down the hits reads the best turns of the whole result first, whereas
a file's own ranking gave its first hit three turns before the second hit's best one.

Measured with ``bench/locomo.py`` (five development conversations, 999 questions,
turn unit, dense channel off): R@5/R@10 58.3/65.0 with files ranked as by the fused
list and up to three turns a hit, 59.3/69.3 with turns ranked so (dense channel on:
59.0/65.5 and 61.2/70.8); flat in ``k``, the pool and the turns a session brings.
``docs/benchmarks-history.md``, "issue 28: stubs, duplicates and LoCoMo", gives the table of
what was tried. Scoring each turn with its neighbours as context (:data:`TURN_CONTEXT`)
then gave 61.7/71.6 ("issue 28: conversations (LoCoMo), fourteenth pass").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rubi.search.hits import Passage

__all__ = [
    "POOL_FACTOR",
    "TURN_CONTEXT",
    "TURN_DENSE_WEIGHT",
    "TURN_RRF_K",
    "RankedSession",
    "rank_turns",
]

POOL_FACTOR = 2
"""Session candidates whose turns compete: this many times ``top_k``."""
TURN_CONTEXT = 0.25
"""A turn's score gains this share of what its better neighbouring turn (the one
before or after it in its session) scores on the query words the turn lacks. LoCoMo,
five development conversations, turn unit, plain: R@10 69.3 alone; 70.8 / 71.7 /
71.9 / 68.0 at 0.15 / 0.25 / 0.5 / 1.0 (at 1.0 a neighbour's words outweigh the
turn's own); above the turn alone on each of the five at 0.25."""
TURN_DENSE_WEIGHT = 0.5
"""With the dense channel on, a third rank joins the fusion with this weight: the
turn's among the pool's turns by its text's cosine with the query (the static model
tells turns apart where it finds every session of one conversation alike, and finds
the turn that says the question in other words). LoCoMo, five development
conversations, turn unit: R@10 71.7 without, 75.4 at 0.5, 75.0 at 1.0; above the
words alone on each of the five."""
TURN_RRF_K = 10
"""RRF's ``k`` for a turn's two ranks (its session's, its own): small, so that a
session's first place and a turn's first place both count, as the top of each list is
what is known well."""


@dataclass(frozen=True, slots=True)
class RankedSession:
    """One session's hit: its id, its best turn's fused score, and the turns it shows
    (best first; never empty unless the file has no turns)."""

    id: str
    score: float
    turns: tuple[Passage, ...]


def rank_turns(
    sessions: Sequence[str],
    turns_of: Callable[[str], Sequence[Passage]],
    top_k: int,
    closeness: Callable[[Sequence[str]], list[float]] | None = None,
) -> list[RankedSession]:
    """The sessions of ``sessions`` (best first, the pool) ranked by their best turn.

    Args:
        sessions: session ids in the fused list's order.
        turns_of: a session's turns, every one scored (:attr:`Passage.score`, higher
            better), in any order; () when its file cannot be read.
        top_k: hits wanted; also how many turns of the whole ranking are shown.
        closeness: each text's cosine with the query (the dense channel), None when
            it is off; with it each turn's rank by its text's cosine joins the fusion
            with weight :data:`TURN_DENSE_WEIGHT`.

    Returns:
        At most ``top_k`` sessions, in the order of their best turns (ties: the turn
        with the higher score); then sessions without turns, if places are left.
    """
    scored: list[tuple[int, Passage]] = [
        (rank, turn) for rank, sid in enumerate(sessions) for turn in turns_of(sid)
    ]
    by_score = sorted(range(len(scored)), key=lambda i: (-scored[i][1].score, scored[i][0], i))
    own = {i: r for r, i in enumerate(by_score)}
    fused = {
        i: 1.0 / (TURN_RRF_K + scored[i][0] + 1) + 1.0 / (TURN_RRF_K + own[i] + 1)
        for i in range(len(scored))
    }
    if closeness is not None and scored:
        cosines = closeness([turn.text for _, turn in scored])
        by_cosine = sorted(range(len(scored)), key=lambda i: (-cosines[i], i))
        for r, i in enumerate(by_cosine):
            fused[i] += TURN_DENSE_WEIGHT / (TURN_RRF_K + r + 1)
    order = sorted(range(len(scored)), key=lambda i: (-fused[i], own[i]))
    shown: dict[int, list[Passage]] = {}
    best: dict[int, tuple[float, Passage]] = {}  # session rank → its best turn, in order
    for place, i in enumerate(order):
        rank, turn = scored[i]
        if rank not in best:
            best[rank] = (fused[i], turn)
        if place < top_k:
            shown.setdefault(rank, []).append(turn)
    out = [
        RankedSession(sessions[r], score, tuple(shown.get(r, [turn])))
        for r, (score, turn) in list(best.items())[:top_k]
    ]
    unread = [sid for r, sid in enumerate(sessions) if r not in best]
    out += [RankedSession(sid, 0.0, ()) for sid in unread[: max(top_k - len(out), 0)]]
    return out
