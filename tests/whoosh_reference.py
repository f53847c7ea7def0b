"""Whoosh's own BM25F search, as ``SearchIndex.bm25`` ran it before it scored term at a
time: the reference its hits and scores must equal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.query import Or, Term

from rubi.index.deletions import LiveBM25F
from rubi.index.store import BM25_B, BM25_K1


def whoosh_bm25(
    directory: Path,
    clauses: list[tuple[str, str, float]],
    *,
    limit: int = 50,
    kind: str | None = None,
    exclude_status: tuple[str, ...] = (),
    weighting: Any = None,
) -> list[tuple[str, float, dict[str, tuple[str, ...]]]]:
    """``(id, score, matched terms per field)`` of Whoosh's search for the disjunction of
    ``clauses`` (field, text, boost), best first, equal scores in id order."""
    subqueries = [Term(f, t, boost=b) for f, t, b in clauses]
    query: Any = Or(subqueries)
    query.matcher_type = Or.ARRAY_MATCHER
    allow = Term("kind", kind) if kind else None
    statuses = [Term("status", s) for s in exclude_status]
    mask = (Or(statuses) if len(statuses) > 1 else statuses[0]) if statuses else None
    ix = windex.open_dir(str(directory))
    model = weighting if weighting is not None else LiveBM25F(B=BM25_B, K1=BM25_K1)
    with ix.searcher(weighting=model) as searcher:
        results = searcher.search(query, limit=limit, filter=allow, mask=mask, optimize=False)
        found = [(hit.docnum, float(hit.score), hit.fields()["id"]) for hit in results]
        found.sort(key=lambda f: (-f[1], f[2]))
        reader = searcher.reader()
        out = []
        for docnum, score, doc_id in found:
            matched: dict[str, set[str]] = {}
            for sub in subqueries:
                if (sub.fieldname, sub.text) not in reader:
                    continue
                if docnum in set(reader.postings(sub.fieldname, sub.text).all_ids()):
                    matched.setdefault(sub.fieldname, set()).add(sub.text)
            out.append((doc_id, score, {f: tuple(sorted(ts)) for f, ts in matched.items()}))
    ix.close()
    return out
