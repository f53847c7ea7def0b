"""How fast the watcher makes a change searchable.

Usage::

    python bench/watch_bench.py VAULT [--saves 5] [--burst 1000]

VAULT is copied (with its ``.index/`` if any) to a temp folder. The watcher runs in a
thread with its default debounce; the script measures, with wall clocks:
- save → searchable: write a note with a new word, poll ``search`` until it finds it;
- burst: write N notes at once, time until the last one is searchable, and count the
  index runs the watcher made for them.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rubi import app
from rubi.watch import DEBOUNCE_MS, watch


def found(vault: Path, word: str, note: str) -> bool:
    hits = app.search(app.locate(vault), word, refresh=False, top_k=3).hits
    return any(h.id == note for h in hits)


def wait_for(vault: Path, word: str, note: str, timeout_s: float = 120) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout_s:
        if found(vault, word, note):
            return time.perf_counter() - start
        time.sleep(0.02)
    raise TimeoutError(f"{note} not searchable after {timeout_s} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("vault", type=Path)
    parser.add_argument("--saves", type=int, default=5)
    parser.add_argument("--burst", type=int, default=1000)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rubi-watch-bench-"))
    vault = tmp / "vault"
    shutil.copytree(args.vault, vault, ignore=shutil.ignore_patterns(".git"))
    app.index(app.locate(vault))
    runs: list[int] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=watch,
        args=(app.locate(vault),),
        kwargs={"stop_event": stop, "on_report": lambda b, r: runs.append(b.events)},
        daemon=True,
    )
    thread.start()
    while not runs:
        time.sleep(0.05)
    time.sleep(0.5)
    saves = []
    for i in range(args.saves):
        word = f"zqxbench{i}word"
        (vault / f"bench-{i}.md").write_text(f"# Bench {i}\n\n{word}\n", encoding="utf-8")
        saves.append(wait_for(vault, word, f"bench-{i}"))
    before = len(runs)
    start = time.perf_counter()
    folder = vault / "burst"
    folder.mkdir()
    for i in range(args.burst):
        (folder / f"n{i}.md").write_text(f"# N{i}\n\nburstnote{i}x\n", encoding="utf-8")
    written = time.perf_counter() - start
    last = args.burst - 1
    absorbed = wait_for(vault, f"burstnote{last}x", f"burst/n{last}") + written
    stop.set()
    thread.join(timeout=30)
    table = Table(title=f"rubi watch on {args.vault.name} (debounce {DEBOUNCE_MS} ms)")
    table.add_column("measure")
    table.add_column("result", justify="right")
    table.add_row("save → searchable, median", f"{statistics.median(saves) * 1000:,.0f} ms")
    table.add_row("save → searchable, max", f"{max(saves) * 1000:,.0f} ms")
    table.add_row(f"{args.burst}-note burst → last searchable", f"{absorbed:,.2f} s")
    table.add_row("index runs for the burst", str(len(runs) - before))
    Console().print(table)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
