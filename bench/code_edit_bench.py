"""How fast the watcher makes a code edit searchable in a large repository.

Usage::

    python bench/code_edit_bench.py REPO [--file PATH] [--edits 10] [--profile OUT]

REPO is a git work tree with a project vault (``rubi init . && rubi index`` done; the
script runs ``app.index`` first when it is not). The watcher (:func:`rubi.watch.watch`,
what ``rubi watch`` and ``rubi serve`` run) runs in a thread of this process, on the
real file system with its default debounce, after its catch-up run. Each change is
made in the work tree and undone at the end (files restored, the new file removed),
then the watcher applies the undo too. For each change:

- **searchable (wall)**: from the write until a search (``refresh=False``, as a
  resident engine answers) finds the new word in the file, or no longer finds the
  deleted file's word; the main thread waits for the watcher's report before it
  searches, so it does not compete with the watcher for the interpreter (one search
  is made before the first change: a process's first search opens the index);
- **applied (wall)**: from the write to the watcher's report (the file event, the
  debounce and the apply);
- **watcher CPU**: this process's CPU (every thread; the main thread is blocked) plus
  its finished children's (``git ls-files``) from the write to the watcher's report;
- **apply CPU**: the watcher thread's own CPU in ``app.apply_changes`` for the batch.

A first row gives the wall and CPU from the catch-up's report until the session holds
the code map's memory and the modules the first batches import are loaded (both in a
background thread after the catch-up); the edits start after it.

The changes: a comment appended to one file (``--file``, default a small Java file in
spring-core), an import added to it (the map re-resolved), the import removed again
(the second shape-changing edit of the session), a new file, a deleted file, then
``--edits`` comment edits in a row (p50 and max). ``python -c pass`` is timed in
the same run as the floor of a cold process. ``--profile OUT``: cProfile the
watcher's ``apply`` of every batch into ``OUT`` (pstats), the figures then include
the profiler's overhead.
"""

from __future__ import annotations

import argparse
import cProfile
import re
import resource
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchproc import pass_floor

from rubi import app, watch
from rubi.core.paths import VaultPaths

DEFAULT_FILE = "spring-core/src/main/java/org/springframework/aot/AotDetector.java"
"""A small Java file of spring-framework (the repository of issue 16)."""

IMPORT_LINE = "import java.util.concurrent.atomic.AtomicLong;\n"
_PACKAGE = re.compile(r"^package [\w.]+;\n", re.MULTILINE)


def _joined(thread: threading.Thread, deadline: float) -> bool:
    """Wait for ``thread`` until ``deadline`` (``time.perf_counter``); False when it
    had not started yet (``threading.enumerate`` lists a thread being started)."""
    try:
        thread.join(max(deadline - time.perf_counter(), 0.0))
    except RuntimeError:
        return time.perf_counter() >= deadline
    return True


def _cpu() -> float:
    """CPU seconds of this process (all threads) and its waited-for children."""
    own = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + kids.ru_utime + kids.ru_stime


@dataclass
class Row:
    """One measured change."""

    what: str
    wall_s: float
    applied_s: float
    cpu_s: float
    apply_cpu_s: float
    batches: int


@dataclass
class Bench:
    """The watcher thread and what it reported."""

    vault: VaultPaths
    profile: cProfile.Profile | None = None
    remembered: tuple[float, float] | None = None
    reports: list[tuple[float, float, float]] = field(default_factory=list)
    """(CPU at the report, the apply's thread CPU, wall clock at the report) per batch."""
    cond: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> tuple[threading.Thread, threading.Event]:
        original = watch._apply

        def timed_apply(vault: VaultPaths, batch: watch.Batch) -> app.IndexReport:
            c0 = time.thread_time()
            if self.profile is not None:
                self.profile.enable()
            try:
                return original(vault, batch)
            finally:
                if self.profile is not None:
                    self.profile.disable()
                self._last_apply = time.thread_time() - c0

        self._last_apply = 0.0
        watch._apply = timed_apply  # the bench's probe

        def on_report(batch: watch.Batch, report: app.IndexReport) -> None:
            with self.cond:
                self.reports.append((_cpu(), self._last_apply, time.perf_counter()))
                self.cond.notify_all()

        stop = threading.Event()
        thread = threading.Thread(
            target=watch.watch,
            args=(self.vault,),
            kwargs={"stop_event": stop, "on_report": on_report},
            daemon=True,
            name="rubi-watch",
        )
        thread.start()
        self.wait_reports(1, 3600)
        self.remembered = self._wait_memory()
        time.sleep(0.5)  # subscribed
        return thread, stop

    def _wait_memory(self) -> tuple[float, float] | None:
        """(wall, CPU) from the catch-up's report until the session holds the code
        map's memory, made in the background (None: this rubi makes none)."""
        from rubi.sync import vault_sync_for

        session = vault_sync_for(self.vault)
        if not hasattr(session, "code_memory_held"):
            return None
        cpu0, _, t0 = self.reports[0]
        deadline = time.perf_counter() + 120
        while not session.code_memory_held and time.perf_counter() < deadline:
            time.sleep(0.01)
        for thread in threading.enumerate():  # and what it imports ahead after it
            if thread.name == "rubi-prepare":
                while not _joined(thread, deadline):
                    time.sleep(0.01)  # listed while it was still being started
        return time.perf_counter() - t0, _cpu() - cpu0

    def wait_reports(self, count: int, timeout_s: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: len(self.reports) >= count, timeout_s)

    def settle(self, quiet_s: float = 0.6) -> None:
        """Wait until no batch came for ``quiet_s`` (a late event of a change)."""
        while True:
            seen = len(self.reports)
            time.sleep(quiet_s)
            if len(self.reports) == seen:
                return


def found(vault: VaultPaths, word: str, path: str) -> bool:
    result = app.search(vault, word, refresh=False, top_k=5)
    return any(h.id == path for h in result.hits)


def measure(
    bench: Bench, what: str, change: Callable[[], None], word: str, path: str, present: bool
) -> Row:
    """Make ``change``, wait for the watcher's report, then search until ``word`` is
    found in ``path`` (``present``) or no longer found."""
    bench.settle()
    seen = len(bench.reports)
    cpu0 = _cpu()
    t0 = time.perf_counter()
    change()
    if not bench.wait_reports(seen + 1, 120):
        raise TimeoutError(f"{what}: no watcher report in 120 s")
    while found(bench.vault, word, path) != present:
        if time.perf_counter() - t0 > 120:
            raise TimeoutError(f"{what}: {word!r} not {'found' if present else 'gone'}")
        bench.wait_reports(len(bench.reports) + 1, 0.05)
    wall = time.perf_counter() - t0
    cpu_at, apply_cpu, at = bench.reports[seen]
    return Row(what, wall, at - t0, cpu_at - cpu0, apply_cpu, len(bench.reports) - seen)


def run(repo: Path, rel: str, edits: int, profile: cProfile.Profile | None) -> list[Row]:
    vault = app.locate(cwd=repo)
    if not vault.store_file.exists():
        print("indexing first ...", file=sys.stderr)
        app.index(vault)
    target = repo / rel
    original = target.read_bytes()
    victim_rel = _victim(repo, rel)
    victim = repo / victim_rel
    victim_bytes = victim.read_bytes()
    victim_word = _a_word(victim_bytes)
    new_rel = str(Path(rel).with_name("ZqxBenchAdded.java"))
    new_file = repo / new_rel
    bench = Bench(vault, profile)
    rows: list[Row] = []
    thread, stop = bench.start()
    if bench.remembered is not None:
        wall, cpu = bench.remembered
        rows.append(Row("memory after the catch-up (background)", wall, wall, cpu, 0.0, 0))
    found(vault, "warmup", rel)  # this process's first search opens the index: not an edit's cost
    try:

        def append(text: str) -> Callable[[], None]:
            def go() -> None:
                with target.open("a", encoding="utf-8") as fh:
                    fh.write(text)

            return go

        word = "zqxcommentaword"
        rows.append(measure(bench, "comment appended", append(f"// {word}\n"), word, rel, True))

        def add_import() -> None:
            text = target.read_text(encoding="utf-8")
            end = _PACKAGE.search(text)
            if end is None:
                raise SystemExit(f"{rel}: no package line")
            cut = end.end()
            target.write_text(f"{text[:cut]}\n{IMPORT_LINE}// zqximportword\n{text[cut:]}", "utf-8")

        rows.append(measure(bench, "import added", add_import, "zqximportword", rel, True))

        def remove_import() -> None:
            text = target.read_text(encoding="utf-8")
            target.write_text(text.replace(f"\n{IMPORT_LINE}// zqximportword\n", ""), "utf-8")

        # The second edit that changes the file's shape: a resident session has
        # what the first one resolved from (rubi.codemap.incremental).
        rows.append(measure(bench, "import removed", remove_import, "zqximportword", rel, False))
        match = _PACKAGE.search(original.decode("utf-8"))
        package = match.group(0).strip().rstrip(";") if match else "package zqx"

        def add_file() -> None:
            new_file.write_text(
                f"{package};\n\n/** zqxnewfileword */\npublic class ZqxBenchAdded {{\n}}\n",
                encoding="utf-8",
            )

        rows.append(measure(bench, "new file", add_file, "zqxnewfileword", new_rel, True))
        rows.append(measure(bench, "file deleted", victim.unlink, victim_word, victim_rel, False))
        for n in range(edits):
            word = f"zqxedit{chr(ord('a') + n % 26)}{chr(ord('a') + n // 26)}word"
            rows.append(measure(bench, "comment edit", append(f"// {word}\n"), word, rel, True))
    finally:
        target.write_bytes(original)
        victim.write_bytes(victim_bytes)
        new_file.unlink(missing_ok=True)
        bench.settle(1.5)
        stop.set()
        thread.join(timeout=60)
    return rows


def _victim(repo: Path, rel: str) -> str:
    """A Java file near ``rel`` to delete: the first other one by name that declares a
    type, in its folder or below."""
    folder = (repo / rel).parent
    for path in sorted(folder.rglob("*.java")):
        other = path.name != Path(rel).name and not path.name.startswith("Zqx")
        if other and _TYPE.search(path.read_text(encoding="utf-8", errors="replace")):
            return path.relative_to(repo).as_posix()
    raise SystemExit(f"{folder}: no other Java file to delete")


_TYPE = re.compile(r"\b(?:class|interface|enum|record)\s+([A-Z]\w{5,})")


def _a_word(data: bytes) -> str:
    """The file's first declared type name: a word the search finds in it."""
    match = _TYPE.search(data.decode("utf-8", "replace"))
    if match is None:
        raise SystemExit("no type name in the file to delete")
    return match.group(1)


def _fmt(rows: list[Row], floor: tuple[float, float]) -> str:
    out = [
        "| change | searchable (wall) | applied (wall) | watcher CPU | apply CPU "
        "(watcher thread) | batches |",
        "|---|---|---|---|---|---|",
    ]
    for row in rows:
        if row.what == "comment edit":
            continue
        out.append(
            f"| {row.what} | {row.wall_s:.2f} s | {row.applied_s:.2f} s | {row.cpu_s:.2f} s | "
            f"{row.apply_cpu_s:.2f} s | {row.batches} |"
        )
    edits = [r for r in rows if r.what == "comment edit"]
    if edits:
        walls = [r.wall_s for r in edits]
        applied = [r.applied_s for r in edits]
        cpus = [r.cpu_s for r in edits]
        applies = [r.apply_cpu_s for r in edits]
        out.append(
            f"| {len(edits)} comment edits in a row, p50 (max) | "
            f"{statistics.median(walls):.2f} s ({max(walls):.2f}) | "
            f"{statistics.median(applied):.2f} s ({max(applied):.2f}) | "
            f"{statistics.median(cpus):.2f} s ({max(cpus):.2f}) | "
            f"{statistics.median(applies):.2f} s ({max(applies):.2f}) | "
            f"{sum(r.batches for r in edits)} |"
        )
    out.append(f"| `python -c pass` (cold floor) | {floor[0]:.2f} s | | {floor[1]:.2f} s | | |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("repo", type=Path)
    parser.add_argument("--file", default=DEFAULT_FILE, help="the file to edit, repo-relative")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--profile", type=Path, help="write a cProfile of the applies here")
    args = parser.parse_args()
    repo: Path = args.repo.resolve()
    profile = cProfile.Profile() if args.profile else None
    floor = pass_floor()
    rows = run(repo, args.file, args.edits, profile)
    floor2 = pass_floor()
    print(_fmt(rows, min(floor, floor2)))
    if profile is not None:
        profile.dump_stats(str(args.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
