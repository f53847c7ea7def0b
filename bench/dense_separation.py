"""Whether the dense list can vote in an indexed vault: its votes on the vault's own
titles, per script (:func:`rubi.search.densevote.measure_separation`), the verdict
each script gets (:mod:`rubi.semantic.separation`) and the CPU the measurement costs.

    python bench/dense_separation.py PROJECT [--store]

PROJECT must be indexed with the semantic extra on. Give it its own ``HOME`` and
``XDG_CACHE_HOME`` as for any bench. ``--store`` writes the figure as an index run
does (``semantic.vote``); without it nothing is written.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rubi import app
from rubi.search.densevote import measure_separation
from rubi.semantic.separation import MIN_SAMPLED, Separation, write_separation
from rubi.semantic.sync import vectors_file
from rubi.semantic.vectors import open_vectors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--store", action="store_true", help="write semantic.vote")
    args = parser.parse_args()
    paths = app.locate(
        args.project / ".rubi" if (args.project / ".rubi").is_dir() else args.project
    )
    path = vectors_file(paths.index_dir)
    store = open_vectors(path, create=False)
    if store is None:
        raise SystemExit(f"{path}: no vectors; index with the semantic extra on first")
    try:
        model, token = store.meta("model") or "", store.token() or ""
        ids = [i for i, kind in store.kinds().items() if kind == "note"]
    finally:
        store.close()
    start = time.process_time()
    tallies = measure_separation(path, ids)
    cpu = time.process_time() - start
    found = Separation(model, token, len(ids), tallies)
    print(f"{len(ids)} notes embedded ({model}); measured in {cpu:.2f} s CPU")
    print(f"{'script':10} {'sampled':>7} {'voted':>6} {'right':>6}  verdict")
    for name, t in sorted(tallies.items()):
        verdict = "votes" if found.votes_for(name) else "left out"
        if t.sampled < MIN_SAMPLED:
            verdict = "per query (too few titles)"
        print(f"{name:10} {t.sampled:7d} {t.voted:6d} {t.found:6d}  {verdict}")
    if args.store:
        write_separation(paths.index_dir, found)
        print("stored")


if __name__ == "__main__":
    main()
