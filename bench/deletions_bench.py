"""What deleted documents cost: ranking drift, per-query time, and the merge.

Usage::

    python bench/deletions_bench.py VAULT [--shares 0.05 0.1 0.2 0.4] [--queries 46]
        [--fresh]

VAULT is copied to a temp folder and indexed. Notes are then edited (a paragraph
appended: Whoosh replaces the document and keeps the old one, deleted) and a few
deleted or added, one ``rubi index`` run per batch, with merges switched off, until
each share of deleted documents in ``--shares`` is reached. At each share it reports:

- BM25 ms per query (median over the queries, note titles), scored with Whoosh's own
  BM25F and with :class:`rubi.index.deletions.LiveBM25F`;
- with ``--fresh``: how many top-10 lists of ``app.search`` differ from a fresh full
  build of the same files, for both scorings (a full build per share: slow on a big
  vault);
- the time of one ordinary incremental run (10 edits), and of a merge of every
  segment into one (Whoosh's OPTIMIZE, what :func:`rubi.index.deletions.merge_policy`
  does past the threshold), on a copy of the index.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.scoring import BM25F

import rubi.index.deletions as deletions
import rubi.index.searchindex as store
from rubi import app
from rubi.index.searchindex import SearchIndex
from rubi.index.writing import WRITER_LIMIT_MB


def bm25_ms(paths: Any, queries: list[str], live: bool) -> float:
    store.LiveBM25F = deletions.LiveBM25F if live else BM25F  # type: ignore[misc]
    index = SearchIndex(paths.whoosh_dir)
    index.bm25(queries[0])  # open the index
    times = []
    for q in queries:
        t = time.perf_counter()
        index.bm25(q)
        times.append((time.perf_counter() - t) * 1000)
    index.close()
    store.LiveBM25F = deletions.LiveBM25F  # type: ignore[misc]
    return statistics.median(times)


def tops(paths: Any, queries: list[str], live: bool) -> dict[str, list[str]]:
    store.LiveBM25F = deletions.LiveBM25F if live else BM25F  # type: ignore[misc]
    out = {q: [h.id for h in app.search(paths, q, refresh=False).hits] for q in queries}
    store.LiveBM25F = deletions.LiveBM25F  # type: ignore[misc]
    return out


def optimize_s(paths: Any) -> float:
    copy = Path(tempfile.mkdtemp(prefix="rubi-merge-")) / "whoosh"
    shutil.copytree(paths.whoosh_dir, copy)
    writer = windex.open_dir(str(copy)).writer(limitmb=WRITER_LIMIT_MB)
    deletions.total_stored_lengths(writer)
    t = time.perf_counter()
    writer.commit(optimize=True)
    took = time.perf_counter() - t
    shutil.rmtree(copy.parent)
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("vault", type=Path)
    parser.add_argument("--shares", type=float, nargs="+", default=[0.05, 0.1, 0.2, 0.4])
    parser.add_argument("--queries", type=int, default=46)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rubi-deletions-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(tmp / "cache")
    vault = tmp / "vault"
    shutil.copytree(args.vault, vault, ignore=shutil.ignore_patterns(".git", ".index"))
    deletions.MERGE_DELETED_SHARE = 2.0  # never: the bench merges on copies itself
    paths = app.locate(vault)
    t = time.perf_counter()
    app.index(paths, full=True)
    print(f"full index: {time.perf_counter() - t:.1f} s", flush=True)
    rng = random.Random(args.seed)
    notes = sorted(vault.rglob("*.md"))
    words = " ".join(p.read_text(errors="replace") for p in notes[:40]).split()
    queries = [p.stem for p in rng.sample(notes, min(args.queries, len(notes)))]
    batch = max(10, len(notes) // 50)

    def edit(k: int) -> None:
        live = sorted(vault.rglob("*.md"))
        for p in rng.sample(live, min(k, len(live))):
            with open(p, "a", encoding="utf-8") as fh:
                fh.write("\n\n" + " ".join(rng.sample(words, 30)) + "\n")
        if rng.random() < 0.3:
            rng.choice(live).unlink()
        if rng.random() < 0.3:
            name = f"new-{time.monotonic_ns()}.md"
            (vault / name).write_text("# New\n\n" + " ".join(rng.sample(words, 60)) + "\n")

    print(
        "| deleted share | BM25 ms/query, Whoosh | BM25 ms/query, live | "
        "top-10 differing, Whoosh | top-10 differing, live | 10-edit run s | merge s |"
    )
    print("|---|---|---|---|---|---|---|")
    for target in [0.0, *args.shares]:
        index = SearchIndex(paths.whoosh_dir)
        while index.deleted_share() < target:
            edit(batch)
            index.close()
            app.index(paths)
        share = index.deleted_share()
        index.close()
        whoosh_ms, live_ms = bm25_ms(paths, queries, False), bm25_ms(paths, queries, True)
        differ_w = differ_l = "-"
        if args.fresh:
            fresh = tmp / f"fresh-{target}"
            shutil.copytree(vault, fresh)
            fresh_paths = app.locate(fresh)
            app.index(fresh_paths, full=True)
            want = tops(fresh_paths, queries, True)
            got_w, got_l = tops(paths, queries, False), tops(paths, queries, True)
            differ_w = f"{sum(got_w[q] != want[q] for q in queries)}/{len(queries)}"
            differ_l = f"{sum(got_l[q] != want[q] for q in queries)}/{len(queries)}"
            shutil.rmtree(fresh)
        edit(10)
        t = time.perf_counter()
        app.index(paths)
        run_s = time.perf_counter() - t
        print(
            f"| {share:.3f} | {whoosh_ms:.1f} | {live_ms:.1f} | {differ_w} | {differ_l} | "
            f"{run_s:.2f} | {optimize_s(paths):.1f} |",
            flush=True,
        )
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
