"""What an import edit costs the graph, the map pages and the graph snapshot.

Usage::

    python bench/code_graph_bench.py REPO [--file PATH] [--repeat 5] [--profile OUT]

REPO is a git work tree with a project vault, indexed (``rubi init . && rubi index``).
The script reads the session's code map and graph, then builds the map again with an
import of another repository file added to ``--file`` (``build_code_map`` with the
previous map, as a run does; the file is restored at the end) and times, in this
process, alternately moving old → new and new → old so every repeat is a real change:

- **graph, rebuilt**: the code nodes removed and added again, as ``set_code_map`` did
  before the graph moved them (``LiveGraph._rebuild_code_map``);
- **graph, moved**: ``LiveGraph.set_code_map`` (the diff, :mod:`rubi.graph.codediff`);
- **pages**: ``write_map_pages`` into a copy of the vault's pages (the map and the
  module pages rendered, read and compared; the changed ones written);
- **snapshot**: ``save_snapshot`` of the graph to a temporary file.

CPU (``time.process_time``) and wall per step, medians over ``--repeat``;
``python -c pass`` is timed in the same run as the floor of a cold process.
``--profile OUT``: cProfile the moved graph and the pages into ``OUT`` (pstats).
"""

from __future__ import annotations

import argparse
import cProfile
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from benchproc import pass_floor

from rubi import app
from rubi.codemap import CodeMap, build_code_map
from rubi.graph.snapshot import save_snapshot
from rubi.sync.pages import note_refs, write_map_pages
from rubi.sync.vaultsync import VaultSync

DEFAULT_FILE = "spring-core/src/main/java/org/springframework/aot/AotDetector.java"
DEFAULT_IMPORT = "import org.springframework.util.ClassUtils;\n"
"""An import of a repository file AotDetector.java does not import yet."""
_PACKAGE = re.compile(r"^package [\w.]+;\n", re.MULTILINE)


def _timed(step: Callable[[], object]) -> tuple[float, float]:
    c0, t0 = time.process_time(), time.perf_counter()
    step()
    return time.process_time() - c0, time.perf_counter() - t0


def _edited_map(repo: Path, rel: str, line: str, old: CodeMap, cache: Path) -> CodeMap:
    """The map with ``line`` added after ``rel``'s package line (restored after)."""
    target = repo / rel
    original = target.read_bytes()
    text = original.decode("utf-8")
    match = _PACKAGE.search(text)
    at = match.end() if match else 0
    try:
        target.write_text(text[:at] + "\n" + line + text[at:], encoding="utf-8")
        return build_code_map(repo, cache, previous=old)
    finally:
        target.write_bytes(original)


def run(repo: Path, rel: str, line: str, repeat: int, profile: cProfile.Profile | None) -> None:
    vault = app.locate(cwd=repo)
    session = VaultSync(vault)
    old = session.code_map()
    assert old is not None, "no code map: run `rubi index` first"
    live = session._graph(session._open(create=False))
    new = _edited_map(repo, rel, line, old, vault.codemap_cache)
    edges = set(new.edges) ^ set(old.edges)
    print(f"files {len(new.files)}, modules {len(new.modules)}, edges changed {len(edges)}")
    notes = note_refs(session.notes())
    pages = Path(tempfile.mkdtemp(prefix="rubi-pages-"))
    shutil.copytree(vault.root, pages / ".rubi")
    target = pages / ".rubi"
    times: dict[str, list[tuple[float, float]]] = {}

    def add(name: str, figures: tuple[float, float]) -> None:
        times.setdefault(name, []).append(figures)

    maps = [new, old]
    snap = pages / "graph.pickle"
    try:
        live.set_code_map(old, previous=old)
        write_map_pages(target, old, notes)
        for i in range(repeat * 2):
            to, back = maps[i % 2], maps[(i + 1) % 2]
            add("graph, rebuilt", _timed(partial(live._rebuild_code_map, to)))
            live._rebuild_code_map(back)  # holds back: the move below is back → to
            if profile is not None:
                profile.enable()
            add("graph, moved", _timed(partial(live.set_code_map, to)))
            add("pages", _timed(partial(write_map_pages, target, to, notes)))
            if profile is not None:
                profile.disable()
            add("snapshot", _timed(partial(save_snapshot, snap, live, 0)))
            wall, cpu = pass_floor()
            add("floor: python -c pass", (cpu, wall))
    finally:
        shutil.rmtree(pages)
    print("| step | CPU p50 | wall p50 | CPU min–max |")
    print("|---|---|---|---|")
    for name, figures in times.items():
        cpu = [c for c, _ in figures]
        wall = [w for _, w in figures]
        print(
            f"| {name} | {statistics.median(cpu):.3f} s | {statistics.median(wall):.3f} s "
            f"| {min(cpu):.3f}–{max(cpu):.3f} s |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--file", default=DEFAULT_FILE)
    parser.add_argument("--import-line", default=DEFAULT_IMPORT)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    run(args.repo.resolve(), args.file, args.import_line, args.repeat, profile)
    if profile is not None:
        profile.dump_stats(str(args.profile))


if __name__ == "__main__":
    main()
