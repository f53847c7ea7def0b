"""What the relevance-floor benches read of one development question: rubi's top 10 of
notes (no refresh, no personal vault), the recall hook's block for it, where the answer
ranks and whether the recall named it. One reading shared by ``relevance_floor.py``,
``compound_floor.py``, ``qpp.py`` and ``recall_routes.py``, so their figures agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from evalset import EvalSet, Query

RECALL_TOKENS = 700
"""The recall hook's budget in the tests (``rubi.app.recall`` ``max_tokens``)."""

_RECALLED_ID = re.compile(r"\(id ([^)]+)\)")


def dev_queries(evalset: EvalSet) -> Iterator[Query]:
    """The set's development questions, in file order."""
    return (q for q in evalset.queries if q.split == "dev")


@dataclass(frozen=True)
class Searched:
    """A question's search: ``result`` (``rubi.app.search``'s), ``ranked`` its hits'
    paths, ``found`` the 1-based rank of the first relevant one (None: not in them)."""

    result: Any
    ranked: list[str]
    found: int | None


def top_notes(paths: Any, query: str, relevant: Sequence[str]) -> Searched:
    """rubi's top 10 of notes for ``query`` in the vault at ``paths``."""
    from rubi import app

    result = app.search(paths, query, top_k=10, scope="notes", refresh=False, personal=False)
    ranked = [h.path for h in result.hits]
    found = next((i + 1 for i, p in enumerate(ranked) if p in relevant), None)
    return Searched(result, ranked, found)


def recalled(paths: Any, query: str, relevant: Sequence[str]) -> tuple[str, bool]:
    """The recall hook's block for ``query`` (``""``: silent) and whether it names a
    relevant note (by id, or by id + ``.md``)."""
    from rubi import app

    block = app.recall(paths, query, max_tokens=RECALL_TOKENS) or ""
    ids = _RECALLED_ID.findall(block)
    return block, any(f"{i}.md" in relevant or i in relevant for i in ids)
