"""What each part of a cold recall costs: the imports and each derived-data load, one
after the other in a fresh process set up as a cold hook is (``rubi.entry._one_shot``:
no cyclic collector, one BLAS thread, the one-shot search settings), CPU per part.

Usage::

    python bench/cold_parts.py PROJECT [--runs 7] [--prompt TEXT]

PROJECT must be indexed (``rubi init && rubi index``); the parts are measured on its
vault as it is (nothing is written but the hook-free reads). Each round runs
``python -c pass`` (the floor) and one child that times, with ``time.process_time``:

- ``hook entry``: ``rubi.entry``, the engine client and the hook handlers (what every
  hook imports; ``dataclasses`` with ``inspect`` deferred, as a hook imports it, on a
  tree with :mod:`rubi.core.dataclassimport`; the regular expressions from their kept
  code on a tree with :mod:`rubi.core.regexcode`);
- ``one-shot settings``: :func:`rubi.app.searching.one_search` (the facade package);
- ``numpy`` (the dense channel's arithmetic; only when the channel is on: without the
  ``semantic`` extra or with ``RUBI_SEMANTIC=0`` nothing imports it), ``whoosh`` (as
  ``rubi.index`` imports it, with its reading stack on a tree without
  :mod:`rubi.index.segmentfiles`), ``networkx`` (only on a tree whose search stack still
  imports it: one without ``rubi.graph.frozen``), then rubi's own search stack;
- ``graph``: the graph as the search opens it (``rubi.app.searching._graph``): the flat
  graph (``graph.flat``, :mod:`rubi.graph.flat`) when it holds the store's generation,
  opened without the vault sync (:mod:`rubi.sync.oneshot`), else through the vault
  sync (its modules' imports counted here), which reads the graph snapshot, replays the
  store's journal into it and writes the flat graph again; on a tree without
  ``_graph``, always through the vault sync;
- ``vectors``: the dense index opened (on demand: the documents' rows);
- ``first recall``: :func:`rubi.app.recall` itself (BM25F, names, the graph walk, the
  dense list, fusion, snippets).

Printed: each part's CPU p50 (ms) over the rounds, the sum, the child's whole CPU from
``wait4`` (interpreter start and exit included), and the floor's, from the same rounds.
Which heavy modules the child ended up with is printed below.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

PROMPT = "how does the recall hook search the graph snapshot and the vault index?"
_WHOOSH_READING = ("whoosh.index", "whoosh.reading", "whoosh.codec.whoosh3", "whoosh.analysis")
HEAVY = ("networkx", "numpy", "whoosh", "asyncio", "urllib.request", "markdown_it", "yaml")


def child(project: Path, prompt: str) -> None:
    """Time each part in this fresh process and report them (ms, in order), then leave
    as a short cold hook does (``os._exit``, no teardown). Only ``os``, ``sys`` and
    ``pathlib`` are imported before the first part (the interpreter's ``site`` imports
    them anyway)."""
    import gc
    import importlib
    import importlib.util
    import time

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    gc.disable()
    parts: dict[str, float] = {}

    def step(name: str, fn: Callable[[], object]) -> object:
        start = time.process_time()
        value = fn()
        parts[name] = (time.process_time() - start) * 1000
        return value

    def imports(*names: str) -> None:
        for name in names:
            importlib.import_module(name)

    def entry() -> None:
        imports("rubi.entry")
        if importlib.util.find_spec("rubi.core.dataclassimport") is not None:
            from rubi.core.dataclassimport import import_dataclasses

            import_dataclasses()  # as ``rubi.entry`` does for a hook, before the rest
        if importlib.util.find_spec("rubi.core.regexcode") is not None:
            from rubi.core.regexcode import install

            install()  # the patterns' kept code, as ``rubi.entry`` does for a hook
        imports("rubi.engine.client", "rubi.claude.hooks.entry", "rubi.claude.hooks.recall")

    step("hook entry (rubi.entry, engine client, hook handlers)", entry)
    from rubi.app.searching import one_search

    step("one-shot settings (rubi.app facade)", one_search)
    from rubi import semantic

    if semantic.enabled():  # the plain install's shape (or RUBI_SEMANTIC=0): no numpy
        step("numpy", lambda: imports("numpy"))
    # A tree with rubi.index.segmentfiles reads the index without Whoosh's reading stack
    # (looked for as a file: find_spec of a submodule would import rubi.index first).
    import rubi

    own_reader = Path(rubi.__file__).parent / "index" / "segmentfiles.py"
    reading = () if own_reader.is_file() else _WHOOSH_READING
    step("whoosh (as rubi.index imports it)", lambda: imports("rubi.index", *reading))
    if importlib.util.find_spec("rubi.graph.frozen") is None:
        step("networkx (imported by the search stack)", lambda: imports("networkx"))
    step(
        "rubi search stack (engine, index, dense, flags)",
        lambda: imports(
            "rubi.claude.hooks.recall",
            "rubi.search.engine",
            "rubi.app.recall",
            "rubi.index.warm",
            "rubi.semantic.dense",
            "rubi.app.flags",
            "rubi.graph.snapshot",
        ),
    )
    from rubi.app import locate, recall, searching
    from rubi.index.warm import index_at
    from rubi.semantic.dense import dense_index_for

    paths = locate(cwd=project)

    def graph() -> None:
        if hasattr(searching, "_graph"):  # the search's own way (a current flat graph)
            opened = searching._graph(paths)
        else:  # a tree from before it: always through the vault sync
            from rubi.sync import reading_graph

            opened = reading_graph(paths)
        with opened:
            pass

    step("graph (the vault sync's modules when used; flat file, or snapshot + replay)", graph)
    step("Whoosh index opened", lambda: index_at(paths.whoosh_dir))
    step("vectors (dense index, on demand)", lambda: dense_index_for(paths.index_dir))
    step("first recall (search, fusion, snippets)", lambda: recall(paths, prompt, max_tokens=700))
    modules = [m for m in HEAVY if m in sys.modules]
    from benchproc import report_result

    report_result({"parts": parts, "modules": modules})
    sys.stdout.flush()
    os._exit(0)


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        child(Path(sys.argv[2]), sys.argv[3])
    import argparse
    import json
    import statistics

    from benchproc import run_child

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--prompt", default=PROMPT)
    args = parser.parse_args()
    project = args.project.resolve()
    if not (project / ".rubi").is_dir():
        raise SystemExit(f"{project}: no .rubi/ folder; run `rubi init && rubi index` there")
    me = [sys.executable, str(Path(__file__).resolve()), "--child", str(project), args.prompt]
    parts: dict[str, list[float]] = {}
    whole: list[float] = []
    floor: list[float] = []
    modules: list[str] = []
    for _ in range(args.runs):
        floor.append(run_child([sys.executable, "-c", "pass"]).cpu_s * 1000)
        run = run_child(me, cwd=project)
        whole.append(run.cpu_s * 1000)
        for name, ms in run.result["parts"].items():
            parts.setdefault(name, []).append(ms)
        modules = run.result["modules"]
    width = max(len(n) for n in parts)
    print(f"cold recall parts, {project.name}, CPU p50 of {args.runs} fresh processes (ms)")
    for name, values in parts.items():
        print(f"  {name:<{width}}  {statistics.median(values):7.1f}")
    total = sum(statistics.median(v) for v in parts.values())
    print(f"  {'sum of the parts':<{width}}  {total:7.1f}")
    print(
        f"  {'whole child (wait4: start, parts, report)':<{width}}  {statistics.median(whole):7.1f}"
    )
    print(f"  {'floor: python -c pass':<{width}}  {statistics.median(floor):7.1f}")
    print("heavy modules loaded: " + (", ".join(modules) or "none"))
    print(json.dumps({"load": os.getloadavg()[0]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
