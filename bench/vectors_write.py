"""What the dense part of an index build costs to store: every vector of an indexed
project written into a new vectors file in one :meth:`VectorStore.write`, as a full
run's sink does (the embedding itself is not timed: it does not depend on the file's
format).

Usage::

    python bench/vectors_write.py PROJECT [--runs 5]

PROJECT must be indexed with the semantic extra on. Each run writes a fresh file in a
temporary folder of the user cache (the store opens nothing outside it). Printed: CPU
and wall p50 (ms) of the write (open, one transaction, close) and the file's size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=5, help="writes (default 5)")
    args = parser.parse_args()

    from rubi import app
    from rubi.core.paths import cache_home
    from rubi.semantic.sync import vectors_file
    from rubi.semantic.vectors import open_vectors

    source = vectors_file(app.locate(args.project).index_dir)
    store = open_vectors(source, create=False)
    if store is None:
        print(f"{source}: no vectors; index PROJECT with the semantic extra on")
        return 1
    rows, _ = store.changes_since(-1)
    digests = store.digests()
    model, dims = store.meta("model") or "", int(store.meta("dims") or 0)
    store.close()
    batch = [(r.id, r.kind, digests[r.id], list(r.headings), r.vecs) for r in rows]
    cpu: list[float] = []
    wall: list[float] = []
    size = 0
    cache_home().mkdir(parents=True, exist_ok=True)
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(dir=cache_home()) as tmp:
            path = Path(tmp) / "semantic.sqlite"
            c0, w0 = time.process_time(), time.perf_counter()
            out = open_vectors(path, create=True)
            assert out is not None
            out.write(batch, (), model_id=model, dims=dims)
            out.close()
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
            size = path.stat().st_size
    print(
        f"{len(batch)} documents, {sum(len(b[4]) for b in batch) / 1e6:.1f} MB of vectors: "
        f"write p50 {statistics.median(cpu):.0f} ms CPU, {statistics.median(wall):.0f} ms wall "
        f"(runs: {', '.join(f'{c:.0f}' for c in cpu)} ms CPU); file {size / 1e6:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
