"""Benchmark the MCP server as Claude Code uses it: a ``rubi serve`` subprocess over stdio.

Usage::

    python bench/mcp_bench.py TARGET [TARGET ...] [--starts 3] [--calls 50] [--cycles 200]

TARGET is a vault folder or a project with ``.rubi/``. It is copied to a temporary
folder (``register`` writes notes; ``--in-place`` skips the copy) and indexed once in
a child process, as a vault is before Claude Code starts. The server is started as
``rubi serve --project COPY`` (``--vault COPY`` for a plain vault folder) through the
MCP SDK's stdio client with the ``initialize`` handshake, as in
``tests/mcp/test_server.py``. Figures (CPU of the server process is read from psutil
when installed, else ``/proc/<pid>/stat``):

- start → first answers, in both MCP eras: ``--starts`` fresh servers per era,
  alternated, each spoken to line by line without the SDK client in between, the
  first tool call sent right after ``tools/list`` (the worst case: Claude Code's
  first call comes after the model's first answer). A 2025-11-25 client as Claude
  Code does (``initialize``, ``notifications/initialized``, ``tools/list``, then one
  ``tools/call`` of ``search``); a 2026-07-28 client (``server/discover``,
  ``tools/list``, ``tools/call``, each with the ``_meta`` envelope, no handshake).
  Wall from spawning the server to each answer, and the server's CPU seconds by
  then (clock ticks, 10 ms; and, to ``tools/list`` and the first search, the
  nanoseconds of its live threads' schedstat, fine enough for a change of a few
  milliseconds). Interleaved with the floor: ``python -c pass`` and ``python -c "import
  mcp"`` (the SDK alone) run as children (wall, CPU from ``wait4``) in the same loop;
  with ``--hold S``, each of those connections stays open until S seconds after the
  spawn and the server's CPU by then is recorded, and one more start per round (a
  2025-11-25 client that lists the tools and calls none, as in a session whose model
  never uses them) gives the same figure without a search: what a server's start
  costs the machine, asked for or not. ``--base CHECKOUT`` starts the servers of
  another source tree (``CHECKOUT/src`` on ``PYTHONPATH``, its own ``XDG_CACHE_HOME``
  indexed by its own code first) too, alternated with this one's in the same loop (a
  before/after on one machine load). ``--bare`` starts a
  project's servers as Claude Code's plugin does (a bare ``rubi serve`` run in the
  project). ``--starts-only`` stops there;
- warm search: in one running server, after three warm-up calls and once the server
  is idle (its start-up work done: :func:`settle`), ``--calls`` searches
  over ``--queries`` distinct note titles of the vault (drawn with ``--seed``; each
  query once when ``--calls`` ≤ ``--queries``): wall per call p50/p95 as the client
  sees it, the server's CPU per call p50 and mean (the schedstat of its threads,
  nanoseconds; the clock-tick total / calls beside it), and the server's resident
  memory before and after them; ``--wait S`` idles S seconds more first (25: the
  server's unasked work done: the warm-up search, its watcher listening); ``--answers``
  writes each query's answer (its ``structuredContent``), so two runs can be
  compared byte for byte;
- first minute: a fresh server searched with the same queries right after its
  handshake (no warm-up calls, no waiting for it to settle), the same figures, and its
  memory before and after; then its answers compared with the warm server's to the
  same queries (:mod:`answerdiff`; the warm server answers the ones its ``--calls``
  did not ask untimed, after its timed searches, before its cycles): how many differ
  and, for each, what (the ids, the JSON's other fields, the text's changed lines),
  in the output and in ``--json`` (``first_minute_vs_warm``); ``--first-pauses S``
  idles the first minute's client S seconds after every 10 calls, so the server's
  unasked work (the catch-up at its first idle spell, the warm-up search after 20 s)
  runs between and beside its searches;
- read: ``read`` of the first hit of each search, wall p50 and CPU per call;
- the warm server's whole session: its CPU seconds from its start to its last answer
  (the waits and whatever it did unasked included) and its resident memory then;
- RSS over cycles: ``--cycles`` register + read cycles (one new note registered, then
  read back by its id); the server's resident memory before, after, and the growth,
  with wall and CPU per cycle.

Goals: start → ``tools/list`` and start → first search answer ≤ 0.4 s on a quiet
machine, for both eras; warm search ≤ 20 ms CPU per call over ≥ 60 distinct queries;
memory flat over 1,000 register/read cycles.

Bytecode: with ``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__`` in the source
tree, every start compiles rubi afresh. To measure what an installed rubi costs (pip
compiles at install, any other install on first run), compile first
(``python -m compileall -q SRC``) or set ``PYTHONPYCACHEPREFIX`` to a warm folder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from answerdiff import Comparison, compare_answers
from benchproc import (
    Lines,
    children_of,
    cpu_seconds,
    end_on_eof,
    fmt_ms,
    fmt_s,
    pct,
    rss_mb,
    run_child,
    thread_cpu_delta_s,
    thread_cpu_ns,
)
from rich.console import Console
from rich.table import Table
from scale import load_pool, pick_queries

from mcp import Client, StdioServerParameters

RUBI = str(Path(sys.executable).with_name("rubi"))
FALLBACK_QUERIES = ["configuration", "error handling", "templates", "request context", "sync"]
WARMUP_QUERIES = ("warm up the server", "first question", "another question")
"""Asked before the timed searches (never among them)."""


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if hasattr(c, "text"))


def first_hit(structured: Any) -> str | None:
    """The id of a search answer's first hit: ``ids[0]`` of its structured content
    (the tool's ``outputSchema``). Not parsed from the text: a file name holds any
    characters (obsidian-hub's ``2021-11-20  Live Preview Updates.md`` has two spaces,
    which the text parser once cut at, so its reads failed)."""
    ids = structured.get("ids") if isinstance(structured, dict) else None
    return str(ids[0]) if isinstance(ids, list) and ids else None


def server_pid(before: set[int]) -> int:
    """The server: the child of this process that was not there before."""
    new = [p for p in children_of(os.getpid()) if p not in before]
    if len(new) != 1:
        raise RuntimeError(f"cannot tell the server process among children {new}")
    return new[0]


def vault_root(target: Path) -> Path:
    return target / ".rubi" if (target / ".rubi").is_dir() else target


def start_argv(target: Path, bare: bool) -> list[str]:
    """The command the starts run: ``rubi`` with :func:`serve_args`, or with ``bare``
    and a project, a bare ``rubi serve`` (run in the project: as Claude Code's plugin
    and a project's ``.mcp.json`` start it, without click, the collector paused)."""
    if bare and (target / ".rubi").is_dir():
        return [RUBI, "serve"]
    return [RUBI, *serve_args(target)]


def serve_args(target: Path) -> list[str]:
    """``rubi serve`` for a project (its ``.rubi/``) or a plain vault folder."""
    if (target / ".rubi").is_dir():
        return ["serve", "--project", str(target)]
    return ["serve", "--vault", str(target)]


def queries_for(target: Path, count: int, seed: int, questions: Path | None = None) -> list[str]:
    """``count`` titles drawn with ``seed``, and the lines of ``questions`` (one query
    a line, ``#`` a comment) beside them."""
    titles = [n.title for n in load_pool([vault_root(target)])]
    found = pick_queries(titles, count, seed) or FALLBACK_QUERIES
    if questions is not None:
        lines = questions.read_text(encoding="utf-8").splitlines()
        found = [*found, *(q for s in lines if (q := s.strip()) and not q.startswith("#"))]
    return found


CLIENT = {"name": "mcp-bench", "version": "1"}
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT}
MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": CLIENT,
    "io.modelcontextprotocol/clientCapabilities": {},
}
ERAS = ("2025-11-25", MODERN)
"""The handshake era's latest revision and the stateless one."""
ANSWER_TIMEOUT_S = 300.0


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    stdin.write(json.dumps(message).encode("utf-8") + b"\n")
    stdin.flush()


def _answer(lines: Lines, rid: int) -> dict[str, Any]:
    """The server's answer to request ``rid`` (notifications before it skipped)."""
    deadline = time.monotonic() + ANSWER_TIMEOUT_S
    while True:
        line = lines.line(max(0.0, deadline - time.monotonic()))
        if line is None:
            raise RuntimeError(f"no answer to request {rid} within {ANSWER_TIMEOUT_S} s")
        if not line:
            raise RuntimeError(f"the server exited before answering request {rid}")
        message: dict[str, Any] = json.loads(line)
        if message.get("id") == rid:
            if "error" in message:
                raise RuntimeError(f"request {rid}: {message['error']}")
            return message


def _ask(
    proc: subprocess.Popen[bytes], lines: Lines, rid: int, method: str, params: Any, era: str
) -> Any:
    """Send request ``rid`` in ``era`` (the envelope in ``_meta`` for 2026-07-28) and
    return its result (read from ``lines``, the server's output)."""
    assert proc.stdin is not None
    if era == MODERN:
        params = {**(params or {}), "_meta": ENVELOPE}
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params:
        message["params"] = params
    _send(proc.stdin, message)
    return _answer(lines, rid)["result"]


def one_start(
    argv: list[str],
    env: dict[str, str],
    cwd: Path,
    query: str | None,
    era: str,
    hold_s: float = 0.0,
) -> dict[str, float]:
    """Spawn the server and time its first answers to a client of ``era`` (wall from
    spawn, server CPU); no search when ``query`` is None (a session whose model never
    calls a tool). With ``hold_s``, keep the connection open until that many seconds
    after spawning and record the server's CPU by then (``hold_cpu``: what its start
    costs the machine, asked for or not)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines = Lines(proc.stdout.fileno())  # read through nothing else
    out: dict[str, float] = {}
    try:
        if era == MODERN:
            _ask(proc, lines, 0, "server/discover", None, era)
        else:
            _ask(proc, lines, 0, "initialize", {**INIT, "protocolVersion": era}, era)
        out["init_wall"], out["init_cpu"] = time.perf_counter() - started, cpu_seconds(proc.pid)
        out["init_cpu_ns"] = thread_cpu_delta_s({}, thread_cpu_ns(proc.pid))
        if era != MODERN:
            _send(proc.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = _ask(proc, lines, 1, "tools/list", None, era)["tools"]
        out["list_wall"], out["list_cpu"] = time.perf_counter() - started, cpu_seconds(proc.pid)
        out["list_cpu_ns"] = thread_cpu_delta_s({}, thread_cpu_ns(proc.pid))
        out["tools"] = len(tools)
        if query is not None:
            call = {"name": "search", "arguments": {"query": query}}
            result = _ask(proc, lines, 2, "tools/call", call, era)
            out["first_wall"] = time.perf_counter() - started
            out["first_cpu"] = cpu_seconds(proc.pid)
            out["first_cpu_ns"] = thread_cpu_delta_s({}, thread_cpu_ns(proc.pid))
            if result.get("isError"):
                raise RuntimeError(f"search failed: {json.dumps(result)[:300]}")
        if hold_s > 0:
            time.sleep(max(0.0, hold_s - (time.perf_counter() - started)))
            out["hold_cpu"] = cpu_seconds(proc.pid)
    finally:
        end_on_eof(proc)
    return out


def floors(env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """Wall and CPU seconds of ``python -c pass`` and of importing the MCP SDK."""
    return {
        name: (run.wall_s, run.cpu_s)
        for name, code in (("pass", "pass"), ("import mcp", "import mcp"))
        for run in [run_child([sys.executable, "-c", code], env=env)]
    }


SETTLE_IDLE_CPU_S = 0.01
"""The server is settled once it used less CPU than this over :data:`SETTLE_STEP_S`."""
SETTLE_STEP_S = 0.5
SETTLE_MAX_S = 30.0


async def settle(pid: int) -> float:
    """Wait until the server is idle (its start-up work, such as the SDK's import after
    the first calls were answered, is done); the seconds waited."""
    started = time.perf_counter()
    cpu = cpu_seconds(pid)
    while time.perf_counter() - started < SETTLE_MAX_S:
        await asyncio.sleep(SETTLE_STEP_S)
        now = cpu_seconds(pid)
        if now - cpu < SETTLE_IDLE_CPU_S:
            break
        cpu = now
    return time.perf_counter() - started


async def timed_searches(
    client: Client, pid: int, queries: list[str], calls: int, pauses: float = 0.0
) -> dict[str, Any]:
    """``calls`` searches over ``queries``: wall per call, the server's CPU per call
    (its threads' schedstat, :func:`thread_cpu_ns`; the tick-based total beside it as
    a check), its resident memory before and after, each query's answer. ``pauses``:
    seconds the client idles after every :data:`PAUSE_EVERY` calls (not in the
    figures of any call)."""
    wall: list[float] = []
    cpu: list[float] = []
    hits: list[str] = []
    answers: dict[str, Any] = {}
    rss0 = rss_mb(pid)
    cpu0 = cpu_seconds(pid)
    for i in range(calls):
        query = queries[i % len(queries)]
        if pauses > 0 and i and i % PAUSE_EVERY == 0:
            await asyncio.sleep(pauses)
        ticks = thread_cpu_ns(pid)
        t = time.perf_counter()
        result = await client.call_tool("search", {"query": query})
        wall.append(time.perf_counter() - t)
        cpu.append(thread_cpu_delta_s(ticks, thread_cpu_ns(pid)))
        answers[query] = result.structured_content or text_of(result)
        hit = first_hit(result.structured_content)
        if hit:
            hits.append(hit)
    return {
        "search_wall": wall,
        "search_cpu": cpu,
        "search_cpu_per_call": (cpu_seconds(pid) - cpu0) / calls,
        "search_rss": [rss0, rss_mb(pid)],
        "search_distinct": len(set(queries[i % len(queries)] for i in range(calls))),
        "hits": hits,
        "answers": answers,
    }


PAUSE_EVERY = 10
"""With ``--first-pauses S``, the first minute's client idles S seconds after every
this many calls."""


async def first_minute(
    params: StdioServerParameters, queries: list[str], pauses: float = 0.0
) -> dict[str, Any]:
    """A fresh server searched right after its handshake, without warm-up calls or
    waiting for it to settle: what a session's first minute pays (the answers'
    memory and start-up work included). ``pauses``: see :func:`timed_searches`."""
    before = set(children_of(os.getpid()))
    started = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        pid = server_pid(before)
        out = await timed_searches(client, pid, queries, len(queries), pauses)
        out["elapsed_s"] = time.perf_counter() - started
    return out


async def untimed_answers(
    client: Client, pid: int, queries: list[str]
) -> tuple[dict[str, Any], float]:
    """Each query's answer, untimed (the first minute's queries the timed searches did
    not ask, for the comparison), and the server CPU seconds they took."""
    cpu0 = cpu_seconds(pid)
    answers: dict[str, Any] = {}
    for query in queries:
        result = await client.call_tool("search", {"query": query})
        answers[query] = result.structured_content or text_of(result)
    return answers, cpu_seconds(pid) - cpu0


async def warm_and_cycles(
    params: StdioServerParameters,
    queries: list[str],
    calls: int,
    cycles: int,
    wait_s: float = 0.0,
    also: list[str] | None = None,
) -> dict[str, Any]:
    """The warm searches, reads and cycles in one server; ``also``: queries it answers
    untimed after the timed searches (before the cycles change the vault) when they
    did not ask them (``also_answers``; their CPU left out of ``session_cpu_s``)."""
    before = set(children_of(os.getpid()))
    out: dict[str, Any] = {}
    async with Client(params, mode="legacy") as client:
        pid = server_pid(before)
        for q in WARMUP_QUERIES:
            await client.call_tool("search", {"query": q})
        out["settle_s"] = await settle(pid)
        if wait_s > 0:  # past the server's first idle spell: its unasked work done
            await asyncio.sleep(wait_s)
            out["settle_s"] += wait_s + await settle(pid)
        out.update(await timed_searches(client, pid, queries, calls))
        rest = [q for q in also or () if q not in out["answers"]]
        out["also_answers"], also_cpu = await untimed_answers(client, pid, rest)
        hits = out.pop("hits")
        read_wall: list[float] = []
        read_errors = 0
        cpu0 = cpu_seconds(pid)
        for hit in hits:
            t = time.perf_counter()
            read = await client.call_tool("read", {"ids": [hit]})
            read_wall.append(time.perf_counter() - t)
            read_errors += bool(read.is_error)
        out["read_wall"] = read_wall
        out["read_errors"] = read_errors
        out["read_cpu_per_call"] = (cpu_seconds(pid) - cpu0) / len(hits) if hits else float("nan")
        rss = [rss_mb(pid)]
        cycle_wall: list[float] = []
        cpu0 = cpu_seconds(pid)
        every = max(1, cycles // 10)
        for i in range(cycles):
            t = time.perf_counter()
            note = {"type": "note", "title": f"Bench cycle {i}", "body": f"Cycle {i} of the bench."}
            answer = text_of(await client.call_tool("register", {"notes": [note]}))
            parts = answer.split()
            if len(parts) < 2:
                raise RuntimeError(f"register answered {answer!r}")
            read = await client.call_tool("read", {"ids": [parts[1]]})
            if read.is_error:
                raise RuntimeError(f"read {parts[1]}: {text_of(read)[:200]}")
            cycle_wall.append(time.perf_counter() - t)
            if (i + 1) % every == 0:
                rss.append(rss_mb(pid))
        out["cycle_wall"] = cycle_wall
        out["cycle_cpu"] = (cpu_seconds(pid) - cpu0) / cycles if cycles else float("nan")
        out["rss"] = rss
        # start → its last answer, waits included (the untimed answers left out)
        out["session_cpu_s"] = cpu_seconds(pid) - also_cpu
        out["session_rss"] = rss_mb(pid)
    return out


def prepare(target: Path, workdir: Path, in_place: bool, env: dict[str, str]) -> tuple[Path, float]:
    """The folder to serve (a copy unless ``in_place``), indexed; and the index CPU s."""
    if in_place:
        copy = target
    else:
        copy = workdir / target.name
        shutil.copytree(target, copy, symlinks=True)
        for p in [copy, *copy.rglob("*")]:
            if not p.is_symlink():
                p.chmod(p.stat().st_mode | 0o200)
    run = run_child([RUBI, "index", "--vault", str(vault_root(copy))], cwd=copy, env=env)
    return copy, run.cpu_s


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("targets", nargs="+", type=Path)
    parser.add_argument("--starts", type=int, default=5, help="fresh servers per era (5)")
    parser.add_argument("--calls", type=int, default=60, help="warm searches (default 60)")
    parser.add_argument("--cycles", type=int, default=200, help="register+read cycles (200)")
    parser.add_argument("--queries", type=int, default=60, help="distinct queries (titles; 60)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--in-place", action="store_true", help="serve TARGET itself (writes!)")
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
    parser.add_argument(
        "--hold",
        type=float,
        default=0.0,
        help="keep each start's connection this many seconds and read the server's CPU"
        " then; adds starts without a search (a 2025-11-25 client listing tools only)",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=None,
        help="a source checkout (its src/ on PYTHONPATH) whose servers start alternated"
        " with this one's, for a before/after in one run",
    )
    parser.add_argument(
        "--bare",
        action="store_true",
        help="start a project's servers as Claude Code's plugin does (a bare `rubi serve`"
        " in the project: no click, the collector paused), not `rubi serve --project`",
    )
    parser.add_argument(
        "--starts-only",
        action="store_true",
        help="time the starts only (no first-minute, warm or cycle runs)",
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=0.0,
        help="seconds the warm server waits idle after its warm-up calls (25: past its"
        " first idle spell, so its watcher listens and the MCP SDK is built)",
    )
    parser.add_argument(
        "--questions",
        type=Path,
        default=None,
        help="a file of more queries, one a line ('#' a comment), shuffled in with the"
        " titles (bench/warm_questions.txt: 60 questions of 6-20 words)",
    )
    parser.add_argument(
        "--first-pauses",
        type=float,
        default=0.0,
        help="seconds the first minute's client idles after every 10 calls (2.1: just"
        " past the server's idle spell, so its catch-up and, after 20 s, its warm-up"
        " search start while the next calls arrive; the answers compared as always)",
    )
    parser.add_argument(
        "--answers",
        type=Path,
        default=None,
        help="write each warm query's answer (structuredContent) here, to compare runs",
    )
    args = parser.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 150)
    workdir = Path(tempfile.mkdtemp(prefix="rubi-mcp-bench-"))
    env = dict(os.environ, RUBI_VAULT=str(workdir / "no-personal-vault"))
    results: dict[str, Any] = {}
    from rubi import app

    try:
        for target in args.targets:
            if not target.is_dir():
                raise SystemExit(f"{target}: not a folder; pass a vault or a project folder")
            target = target.resolve()
            copy, index_cpu = prepare(target, workdir, args.in_place, env)
            index_dir = app.locate(vault_root(copy)).index_dir
            params = StdioServerParameters(
                command=RUBI, args=serve_args(copy), env=env, cwd=str(copy)
            )
            queries = queries_for(copy, args.queries, args.seed, args.questions)
            random.Random(args.seed).shuffle(queries)
            argv = start_argv(copy, args.bare)
            starts: dict[str, list[dict[str, float]]] = {era: [] for era in ERAS}
            quiet: list[dict[str, float]] = []
            floor = []
            base: dict[str, Any] = {"starts": {era: [] for era in ERAS}, "quiet": []}
            base_env = None
            if args.base:
                # its own derived data, indexed by its own code: two trees of different
                # index or graph formats on one cache rebuild each other's files
                cache = workdir / f"base-cache-{target.name}"
                base_env = dict(env, PYTHONPATH=str(args.base / "src"), XDG_CACHE_HOME=str(cache))
                run_child([RUBI, "index", "--vault", str(vault_root(copy))], cwd=copy, env=base_env)
            for i in range(args.starts):
                floor.append(floors(env))
                query = queries[i % len(queries)]
                trees = [(env, starts, quiet)]
                if base_env is not None:
                    trees.append((base_env, base["starts"], base["quiet"]))
                for tree_env, tree_starts, tree_quiet in trees if i % 2 == 0 else trees[::-1]:
                    for era in ERAS if i % 2 == 0 else ERAS[::-1]:
                        tree_starts[era].append(
                            one_start(argv, tree_env, copy, query, era, args.hold)
                        )
                    if args.hold > 0:
                        tree_quiet.append(one_start(argv, tree_env, copy, None, ERAS[0], args.hold))
            if base_env is not None:
                base["floors"] = floor
                results[f"{target.name} (base)"] = base
                console.print(starts_table(f"{target.name}, base {args.base}", base, args))
            if args.starts_only:
                results[target.name] = {"starts": starts, "quiet": quiet, "floors": floor}
                console.print(starts_table(target.name, results[target.name], args))
                continue
            early = asyncio.run(first_minute(params, queries, args.first_pauses))
            early.pop("hits")
            early_answers = early.pop("answers")
            warm = asyncio.run(
                warm_and_cycles(
                    params, queries, args.calls, args.cycles, args.wait, also=list(early_answers)
                )
            )
            answers = warm.pop("answers")
            same = compare_answers(early_answers, {**warm.pop("also_answers"), **answers})
            report_comparison(console, same)
            if args.answers:
                args.answers.write_text(
                    json.dumps(answers, indent=1, ensure_ascii=False, sort_keys=True),
                    encoding="utf-8",
                )
            results[target.name] = {
                "index_cpu": index_cpu,
                "starts": starts,
                "quiet": quiet,
                "floors": floor,
                "first_minute": early,
                "first_minute_vs_warm": {
                    "compared": same.compared,
                    "not_compared": len(same.only_first) + len(same.only_second),
                    "differ": same.differ,
                },
                **warm,
            }
            console.print(table_for(target.name, results[target.name], args))
            if not args.in_place:
                shutil.rmtree(copy, ignore_errors=True)
                shutil.rmtree(index_dir, ignore_errors=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def report_comparison(console: Console, same: Comparison) -> None:
    """Say how many of the first minute's answers differ from the warm server's, and,
    for each that does, what: ids, the JSON's other fields, the text's changed lines
    (:mod:`answerdiff`)."""
    colour = "red" if same.differ else "green"
    console.print(f"[{colour}]{same.summary()}[/{colour}]")
    for query, lines in same.differ.items():
        console.print(f"  {query!r}", style="red", markup=False, highlight=False)
        for line in lines:
            console.print(f"    {line}", markup=False, highlight=False)


def starts_table(name: str, r: dict[str, Any], args: argparse.Namespace) -> Table:
    """The table of the starts alone (``--starts-only``)."""
    table = Table(title=f"rubi serve (stdio) on {name}: starts")
    for col in ("measure", "wall", "server CPU", "goal"):
        table.add_column(col, justify="left" if col in ("measure", "goal") else "right")
    _start_rows(table, r, args)
    return table


def _start_rows(table: Table, r: dict[str, Any], args: argparse.Namespace) -> None:
    """The rows of the starts, the servers' CPU over ``--hold`` seconds and the floors."""
    for era, s in r["starts"].items():
        for key, label, goal in (
            ("init", "initialize" if era != MODERN else "server/discover", ""),
            ("list", "tools/list", "≤ 0.4 s"),
            ("first", "first search", "≤ 0.4 s"),
        ):
            table.add_row(
                f"{era}: start → {label} answered",
                fmt_s([x[f"{key}_wall"] for x in s]),
                fmt_s([x[f"{key}_cpu"] for x in s]),
                goal,
            )
        fine = [x["first_cpu_ns"] for x in s if x.get("first_cpu_ns")]
        if fine:  # the live threads' schedstat: nanoseconds, where the ticks count 10 ms
            listed = [x["list_cpu_ns"] for x in s if x.get("first_cpu_ns")]
            table.add_row(
                f"{era}: server CPU to tools/list / first search (schedstat)",
                "",
                f"{fmt_ms(listed)} / {fmt_ms(fine)}",
                "",
            )
    if args.hold > 0:
        for label, runs in (
            *(
                (f"{era}: server CPU {args.hold:g} s after start, one search", s)
                for era, s in r["starts"].items()
            ),
            (f"{ERAS[0]}: server CPU {args.hold:g} s after start, no search", r.get("quiet", [])),
        ):
            table.add_row(label, "", fmt_s([x["hold_cpu"] for x in runs]), "")
    for name in ("pass", "import mcp"):
        f = [x[name] for x in r.get("floors", ())]
        table.add_row(
            f"floor: python -c {name!r}",
            fmt_s([w for w, _ in f]),
            f"{fmt_s([c for _, c in f])} ({fmt_ms([c for _, c in f])})",
            "",
        )


def table_for(name: str, r: dict[str, Any], args: argparse.Namespace) -> Table:
    table = Table(title=f"rubi serve (stdio) on {name}")
    for col in ("measure", "wall", "server CPU", "goal"):
        table.add_column(col, justify="left" if col in ("measure", "goal") else "right")
    _start_rows(table, r, args)
    for label, part in (("warm search", r), ("first minute", r["first_minute"])):
        w, c = part["search_wall"], part["search_cpu"]
        table.add_row(
            f"{label} ({len(w)} calls, {part['search_distinct']} distinct) p50 / p95",
            f"{pct(w, 50) * 1000:,.1f} / {pct(w, 95) * 1000:,.1f} ms",
            f"p50 {pct(c, 50) * 1000:,.1f}, mean {statistics.fmean(c) * 1000:,.1f} ms"
            f" (ticks: {part['search_cpu_per_call'] * 1000:,.1f})",
            "≤ 20 ms CPU",
        )
    fm = r["first_minute"]
    table.add_row(
        "first minute: start → last of its searches",
        fmt_s([fm["elapsed_s"]]),
        "",
        "",
    )
    before, after = fm["search_rss"]
    table.add_row(
        "server RSS over the first minute's searches",
        f"{before:,.0f} → {after:,.0f} MiB (+{after - before:,.0f})",
        "",
        "",
    )
    table.add_row("server settled after the warm-up calls", fmt_s([r["settle_s"]]), "", "")
    before, after = r["search_rss"]
    table.add_row(
        "server RSS over the warm searches",
        f"{before:,.0f} → {after:,.0f} MiB (+{after - before:,.0f})",
        "",
        "",
    )
    table.add_row(
        "warm server's whole session (start → its last answer; RSS then)",
        f"{r['session_rss']:,.0f} MiB",
        f"{r['session_cpu_s']:,.2f} s",
        "",
    )
    rw = r["read_wall"]
    errors = f", {r['read_errors']} failed" if r.get("read_errors") else ""
    table.add_row(
        f"read ({len(rw)} calls{errors}) p50",
        f"{pct(rw, 50) * 1000:,.1f} ms" if rw else "—",
        f"{r['read_cpu_per_call'] * 1000:,.1f} ms/call",
        "",
    )
    rss = r["rss"]
    cw = r["cycle_wall"]
    if cw:
        table.add_row(
            f"register + read cycle ({len(cw)})",
            fmt_ms([statistics.median(cw)]) + f" p50, p95 {pct(cw, 95) * 1000:,.0f} ms",
            f"{r['cycle_cpu'] * 1000:,.1f} ms/cycle",
            "",
        )
    table.add_row(
        f"server RSS over {args.cycles} cycles",
        f"{rss[0]:,.0f} → {rss[-1]:,.0f} MiB (+{rss[-1] - rss[0]:,.0f}, max {max(rss):,.0f})",
        "",
        "flat",
    )
    table.add_row("index of the copy (rubi index)", "", fmt_s([r["index_cpu"]]), "")
    return table


if __name__ == "__main__":
    raise SystemExit(main())
