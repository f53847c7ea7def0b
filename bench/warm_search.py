"""Warm search and recall in one long-lived process: what the resident engine pays per
call once everything is loaded.

Usage::

    python bench/warm_search.py VAULT [--queries 40] [--repeat 5] [--seed 16]
        [--depths 5,20] [--dump rankings.json] [--compare rankings.json] [--profile]
        [--changes] [--resident]

VAULT is a vault folder, or a project with ``.rubi/`` (searched with its code, as
``rubi serve`` opens it); it is indexed first if it never was (``app.search`` does
that). The process then
warms up (one search, one recall) and times, ``--repeat`` times each:

- ``search``: ``app.search(refresh=False, top_k=10)`` over ``--queries`` note titles
  drawn with ``--seed`` (as ``bench/scale.py`` draws them) and the plain questions of
  :data:`QUESTIONS`;
- ``search + rendering, MCP``: what the MCP ``search`` tool runs for the same queries:
  ``app.search(top_k=20)`` and ``app.render_search`` within the default 1,500 tokens
  (each shown hit's file read and cut into passages);
- ``MCP search, top N`` for each N of ``--depths``: the same at N hits
  (``app.search(top_k=N)`` and ``app.search_answer``, the text and data the tool
  returns), to compare with a peer that answers at another depth;
- ``recall, short``: ``app.recall`` (the UserPromptSubmit hook's answer) of each
  question; ``recall, long``: the 4,000-character prompt of ``bench/hooks_bench.py``;
- with ``--tool``, only the MCP ``search`` tool's body (:func:`rubi.mcp.calls.search`)
  once per query, each new to the process, after the server's warm-up and with the
  vault marked watched, as a running server meets distinct queries (``--profile``: a
  cProfile of it; ``--dump``/``--compare`` its answers);
- with ``--changes``, ``… after a change``: the same recalls, each right after a note
  was written to ``VAULT/bench-turns/`` and indexed (``app.index``), as in a session
  whose Stop hook records every turn: what a recall pays for a new index generation.
  The notes are removed and the vault indexed again at the end.
- with ``--resident``, all of it at the server's collector pace
  (:func:`rubi.core.collector.resident_collector`: young collections less often, and
  what each full collection leaves frozen); without it, CPython's default.

Per case: CPU p50/mean/p95 (``time.process_time``, this process only) beside wall
p50/p95;
the machine may be loaded, so CPU is the figure to compare. ``--dump`` writes every
query's ranked hit ids and scores, every rendered MCP answer and every recall block
to a JSON file; ``--compare`` checks them against such a file (a speed change must not
move a ranking or a byte of an answer): it prints each difference and exits 1 when
there is one. ``--profile``
prints a cProfile of one pass of the searches instead of timing.

``RUBI_VAULT`` is set to a missing folder unless already set, so no personal vault
takes part; NumPy gets one BLAS thread, as in ``rubi serve``
(:func:`rubi.mcp.startup.one_blas_thread`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

QUESTIONS = (
    "daily notes template",
    "how to embed a file",
    "callouts",
    "sync my vault across devices",
    "keyboard shortcuts for links",
    "how do I sync my vault between two devices?",
    "colored boxes for warnings and tips inside a note",
    "see which notes point to the note I am reading",
    "write math equations in a note",
    "publish my notes as a website",
)
"""Plain questions (some from issue 17), searched and recalled beside the titles."""


def long_prompt() -> str:
    """The 4,000-character prompt of ``bench/hooks_bench.py``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from hooks_bench import long_prompt as hooks_long_prompt

    return hooks_long_prompt()


def pick_titles(paths: Any, count: int, seed: int) -> list[str]:
    """``count`` note titles of the vault at ``paths`` drawn with ``seed``
    (``bench/scale.py``'s rule)."""
    from rubi.sync import graph_for

    g = graph_for(paths).graph
    titles = [str(a.get("title", "")) for _, a in g.nodes(data=True) if a.get("kind") == "note"]
    usable = sorted(
        {t.strip() for t in titles if 2 <= len(t.strip()) <= 80 and re.search(r"\w\w", t)}
    )
    return random.Random(seed).sample(usable, min(count, len(usable)))


def query_list(paths: Any, args: argparse.Namespace) -> list[str]:
    """The titles, :data:`QUESTIONS` and the ``--questions`` file's, or that file's
    alone (``--only-questions``)."""
    asked = read_questions(args.questions) if args.questions else []
    if args.only_questions:
        return asked
    return [*pick_titles(paths, args.queries, args.seed), *QUESTIONS, *asked]


def read_questions(path: Path) -> list[str]:
    """The queries of ``path``: one a line, blank lines and ``#`` comments skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [s for line in lines if (s := line.strip()) and not s.startswith("#")]


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall s, CPU s, value) of one call."""
    w, c = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - w, time.process_time() - c, value


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("vault", type=Path)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--changes", action="store_true", help="also recall after changes")
    parser.add_argument(
        "--depths", default="", help="MCP search also at these hit counts (as 5,20)"
    )
    parser.add_argument(
        "--questions",
        type=Path,
        help="a file of more queries, one a line ('#' starts a comment), searched after"
        " the titles and QUESTIONS (bench/warm_questions.txt: 60 questions of 6-20 words)",
    )
    parser.add_argument(
        "--only-questions", action="store_true", help="search the --questions file's alone"
    )
    parser.add_argument(
        "--resident",
        action="store_true",
        help="the server's collector (rubi.core.collector.resident_collector) from the start",
    )
    parser.add_argument(
        "--tool",
        action="store_true",
        help="time only the MCP search tool's body (rubi.mcp.calls.search), each query once"
        " and new to the process, as a running server meets distinct queries",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    os.environ.setdefault("RUBI_VAULT", str(args.vault / "nonexistent-personal-vault"))
    depths = [int(d) for d in args.depths.split(",") if d.strip()]
    as_a_server(args.resident)

    from rubi import app
    from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS
    from rubi.mcp.calls import SEARCH_TOP_K

    # a project (its .rubi/ and its code, as `rubi serve --project` opens it), else a vault
    rubi_dir = args.vault / ".rubi"
    paths = app.locate(cwd=args.vault) if rubi_dir.is_dir() else app.locate(args.vault)
    app.search(paths, "warm up", refresh=False)
    queries = query_list(paths, args)
    prompts = {**{q: q for q in QUESTIONS}, "long prompt": long_prompt()}

    def search(q: str) -> Any:
        return app.search(paths, q, refresh=False, top_k=10)

    def recall(p: str) -> str | None:
        return app.recall(paths, p, max_tokens=700)

    def answer(q: str) -> str:  # the MCP search tool's work (rubi.mcp.tools)
        found = app.search(paths, q, refresh=False, top_k=SEARCH_TOP_K)
        return app.render_search(found, DEFAULT_BUDGET_TOKENS, open_hint="read(ids)")

    recall(QUESTIONS[0])
    if args.tool:
        return tool_only(paths, queries, args)
    if args.profile:
        return profile_searches(queries, search)

    samples: dict[str, dict[str, list[float]]] = {}

    def add(case: str, wall: float, cpu: float) -> None:
        entry = samples.setdefault(case, {"wall": [], "cpu": []})
        entry["wall"].append(wall)
        entry["cpu"].append(cpu)

    rankings = run_cases(queries, prompts, args.repeat, (search, answer, recall), add)
    for depth in depths:
        for _ in range(args.repeat):
            for q in queries:
                wall, cpu, got = timed(lambda q=q, depth=depth: mcp_answer(paths, q, depth))
                add(f"MCP search, top {depth}", wall, cpu)
                text, data = got
                rankings.setdefault("mcp", {})[f"{depth} {q}"] = [text, data]

    if args.changes:
        after_changes(paths, args.vault / "bench-turns", prompts, args.repeat, add)

    notes = len(pick_titles(paths, 10**9, 0))
    print(f"{args.vault}: {notes} titled notes; {len(queries)} queries x {args.repeat}")
    print(
        f"{'case':<32}{'CPU p50':>10}{'CPU mean':>10}{'CPU p95':>10}"
        f"{'wall p50':>10}{'wall p95':>10}{'n':>6}"
    )
    for case, s in samples.items():
        c, w = [x * 1000 for x in s["cpu"]], [x * 1000 for x in s["wall"]]
        print(
            f"{case:<32}{statistics.median(c):>8.1f}ms{statistics.fmean(c):>8.1f}ms"
            f"{pct(c, 0.95):>8.1f}ms{statistics.median(w):>8.1f}ms{pct(w, 0.95):>8.1f}ms"
            f"{len(c):>6}"
        )
    if args.dump:
        args.dump.write_text(json.dumps(rankings, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.compare:
        return compare(json.loads(args.compare.read_text(encoding="utf-8")), rankings)
    return 0


def as_a_server(resident: bool) -> None:
    """One BLAS thread as in ``rubi serve``, and with ``resident`` its collector pace."""
    from rubi.mcp.startup import one_blas_thread

    one_blas_thread()
    if resident:
        from rubi.core.collector import resident_collector

        resident_collector()  # as rubi.mcp.server.serve before it serves


def profile_searches(queries: list[str], search: Callable[[str], Any]) -> int:
    """``--profile``: a cProfile of one pass of the searches, by own time."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    for q in queries:
        search(q)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    return 0


def tool_only(paths: Any, queries: list[str], args: argparse.Namespace) -> int:
    """``--tool``: the MCP ``search`` tool's body (:func:`rubi.mcp.calls.search`: the
    ranked hits at its depth, the answer's text and data) once for each query, each
    new to the process, as a server meets distinct queries: CPU p50/mean, peak RSS,
    ``--profile`` a cProfile instead; ``--dump``/``--compare`` its answers."""
    import resource

    from rubi.mcp.calls import search as tool_search
    from rubi.mcp.startup import warm_vault
    from rubi.sync.run import vault_sync_for

    warm_vault(paths)  # as the server warms up
    vault_sync_for(paths).watched = True  # as its watcher: no scan of the vault per call
    answers: dict[str, Any] = {}
    cpu: list[float] = []
    prof = None
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    for q in queries:
        _, used, got = timed(lambda q=q: tool_search(paths, q))
        cpu.append(used * 1000)
        answers[q] = [got.text, got.data]
    if prof is not None:
        import pstats

        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(60)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"MCP search tool, {len(queries)} distinct queries: CPU p50"
        f" {statistics.median(cpu):.1f} ms, mean {statistics.fmean(cpu):.1f} ms;"
        f" peak RSS {peak:.0f} MiB"
    )
    rankings = {"mcp": answers}
    if args.dump:
        args.dump.write_text(json.dumps(rankings, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.compare:
        return compare(json.loads(args.compare.read_text(encoding="utf-8")), rankings)
    return 0


def mcp_answer(paths: Any, query: str, depth: int) -> Any:
    """What the MCP ``search`` tool does (:func:`rubi.mcp.calls.search`), at ``depth``
    hits instead of :data:`rubi.mcp.calls.SEARCH_TOP_K`: the text and the data."""
    from rubi import app
    from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS

    found = app.search(paths, query, refresh=False, top_k=depth)
    return app.search_answer(found, DEFAULT_BUDGET_TOKENS, open_hint="read(ids)")


def run_cases(
    queries: list[str],
    prompts: dict[str, str],
    repeat: int,
    calls: tuple[Callable[[str], Any], Callable[[str], str], Callable[[str], str | None]],
    add: Callable[[str, float, float], None],
) -> dict[str, Any]:
    """Time the searches, the MCP answers and the recalls ``repeat`` times (module
    docstring); returns what ``--dump`` writes."""
    search, answer, recall = calls
    rankings: dict[str, Any] = {"search": {}, "rendered": {}, "recall": {}}
    for _ in range(repeat):
        for q in queries:
            wall, cpu, result = timed(lambda q=q: search(q))
            add("search", wall, cpu)
            rankings["search"][q] = [[h.id, h.score] for h in result.hits]
        for q in queries:
            wall, cpu, text = timed(lambda q=q: answer(q))
            add("search + rendering, MCP", wall, cpu)
            rankings["rendered"][q] = text
        for name, p in prompts.items():
            wall, cpu, block = timed(lambda p=p: recall(p))
            add("recall, long" if name == "long prompt" else "recall, short", wall, cpu)
            rankings["recall"][name] = block
    return rankings


def after_changes(
    paths: Any,
    folder: Path,
    prompts: dict[str, str],
    repeat: int,
    add: Callable[[str, float, float], None],
) -> None:
    """Time each recall right after a new note was indexed (module docstring)."""
    import shutil

    from rubi import app

    folder.mkdir(exist_ok=True)
    try:
        for r in range(repeat):
            for n, (name, prompt) in enumerate(prompts.items()):
                text = f"# Bench turn {r}-{n}\n\nWe talked about sync and templates.\n"
                (folder / f"turn-{r}-{n}.md").write_text(text, encoding="utf-8")
                app.index(paths)
                wall, cpu, _ = timed(lambda p=prompt: app.recall(paths, p, max_tokens=700))
                size = "long" if name == "long prompt" else "short"
                add(f"recall, {size}, after a change", wall, cpu)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        app.index(paths)


def compare(old: dict[str, Any], new: dict[str, Any]) -> int:
    """Print every query whose ranking or recall block differs; 1 when any does."""
    differ = 0
    for part in ("search", "rendered", "recall", "mcp"):
        for key, was in old.get(part, {}).items():
            now = new.get(part, {}).get(key)
            if now is None:
                continue
            if part == "search":
                same = [i for i, _ in was] == [i for i, _ in now] and all(
                    abs(a[1] - b[1]) <= 1e-6 * max(1.0, abs(a[1]))
                    for a, b in zip(was, now, strict=True)
                )
            else:
                same = was == now
            if not same:
                differ += 1
                print(f"DIFF {part} {key!r}:\n  was {was}\n  now {now}")
    print(f"compare: {differ} differences")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
