"""Capture each query's candidate lists, to re-fuse them offline.

Usage::

    python bench/capture_lists.py OUT.jsonl -- <bench/retrieval_eval.py arguments>

Runs :mod:`retrieval_eval` unchanged (pass ``--systems rubi-semantic``) and writes one
JSON line per search of the engine: the query, each list (text with its BM25F
scores, names, graph, dense with its cosines), the dense list's weight and the
median cosine it was measured against, every listed node's path (what the
evaluation's ``relevant`` names). Offline fusion of these lists is how
``docs/benchmarks-history.md`` ("issue 28: the dense list's vote") chose what to build; the
rules chosen were then measured by full ``retrieval_eval.py`` runs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv: list[str]) -> int:
    """Patch the engine's list builders to record, then run the evaluation."""
    out_path = Path(argv[0])
    rest = argv[argv.index("--") + 1 :] if "--" in argv else argv[1:]
    import rubi.search.engine as engine
    import rubi.semantic.dense as sem

    state: dict[str, Any] = {}
    out = out_path.open("w", encoding="utf-8")
    real_ranked = sem.DenseIndex.ranked
    real_dense_list = engine.dense_list
    real_fuse = engine.fuse

    def ranked(self: Any, *args: Any, **kwargs: Any) -> Any:
        found = real_ranked(self, *args, **kwargs)
        state["median"] = found.median
        return found

    def dense_list(dense: Any, query: str, *args: Any, **kwargs: Any) -> Any:
        state["query"] = query
        state["median"] = None
        return real_dense_list(dense, query, *args, **kwargs)

    def fuse(g: Any, cands: Any, tests_wanted: bool) -> Any:
        ids = {h.id for h in cands.bm25} | {m.id for m in cands.names}
        ids |= set(cands.graph) | {m.id for m in cands.dense}
        row = {
            "query": state.get("query"),
            "bm25": [[h.id, h.score] for h in cands.bm25],
            "names": [m.id for m in cands.names],
            "graph": list(cands.graph),
            "dense": [[m.id, m.score] for m in cands.dense],
            "dense_weight": cands.dense_weight,
            "median": state.get("median"),
            "paths": {i: str(g.nodes[i].get("path", i)) for i in ids},
        }
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
        out.flush()
        return real_fuse(g, cands, tests_wanted)

    sem.DenseIndex.ranked = ranked  # type: ignore[method-assign]
    engine.dense_list = dense_list  # type: ignore[assignment]
    engine.fuse = fuse  # type: ignore[assignment]
    import retrieval_eval

    try:
        return retrieval_eval.main(rest)
    finally:
        out.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
