"""Benchmark the MCP server as Claude Code uses it: a ``rubi serve`` subprocess over stdio.

Usage::

    python bench/mcp_bench.py TARGET [TARGET ...] [--starts 3] [--calls 50] [--cycles 200]

TARGET is a vault folder or a project with ``.rubi/``. It is copied to a temporary
folder (``register`` writes notes; ``--in-place`` skips the copy) and indexed once in
a child process, as a vault is before Claude Code starts. The server is started as
``rubi serve --project COPY`` (a plain vault folder is accepted there too) through the
MCP SDK's stdio client with the ``initialize`` handshake, as in
``tests/mcp/test_server.py``. Figures (CPU of the server process is read from psutil
when installed, else ``/proc/<pid>/stat``):

- start → initialize: wall from spawning the server to the end of the ``initialize``
  handshake, and the server's CPU seconds by then (imports, vault checks);
- start → first search answer: wall to the answer of a first ``search`` call, and the
  server's CPU by then (``--starts`` fresh servers; median and spread);
- warm search: in one running server, after three warm-up calls, ``--calls`` searches
  over note titles of the vault (drawn with ``--seed``): wall per call p50/p95 as the
  client sees it, and CPU per call = the server's CPU delta / calls;
- read: ``read`` of the first hit of each search, wall p50 and CPU per call;
- RSS over cycles: ``--cycles`` register + read cycles (one new note registered, then
  read back by its id); the server's resident memory before, after, and the growth,
  with wall and CPU per cycle.

Goals from issue 16: start → first answer ≤ 0.4 s; warm search ≤ 20 ms CPU per call;
memory flat over 1,000 register/read cycles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchproc import children_of, cpu_seconds, fmt_ms, fmt_s, pct, rss_mb, run_child
from rich.console import Console
from rich.table import Table
from scale import load_pool, pick_queries

from mcp import Client, StdioServerParameters

RUBI = str(Path(sys.executable).with_name("rubi"))
FALLBACK_QUERIES = ["configuration", "error handling", "templates", "request context", "sync"]


def text_of(result: Any) -> str:
    return "\n".join(c.text for c in result.content if hasattr(c, "text"))


def first_hit(answer: str) -> str | None:
    """The id of the first hit of a compact search answer (see ``render_compact``)."""
    line = answer.split("\n", 1)[0]
    if " — " in line:
        return line.split(" — ", 1)[1].split("  ")[0].removesuffix(".md")
    if "] " in line:
        return line.split("] ", 1)[1].strip()
    return None


def server_pid(before: set[int]) -> int:
    """The server: the child of this process that was not there before."""
    new = [p for p in children_of(os.getpid()) if p not in before]
    if len(new) != 1:
        raise RuntimeError(f"cannot tell the server process among children {new}")
    return new[0]


def vault_root(target: Path) -> Path:
    return target / ".rubi" if (target / ".rubi").is_dir() else target


def queries_for(target: Path, count: int, seed: int) -> list[str]:
    titles = [n.title for n in load_pool([vault_root(target)])]
    return pick_queries(titles, count, seed) or FALLBACK_QUERIES


async def one_start(params: StdioServerParameters, query: str) -> dict[str, float]:
    before = set(children_of(os.getpid()))
    started = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        init_wall = time.perf_counter() - started
        pid = server_pid(before)
        init_cpu = cpu_seconds(pid)
        result = await client.call_tool("search", {"query": query})
        first_wall = time.perf_counter() - started
        first_cpu = cpu_seconds(pid)
        if result.is_error:
            raise RuntimeError(f"search failed: {text_of(result)[:300]}")
    return {
        "init_wall": init_wall,
        "init_cpu": init_cpu,
        "first_wall": first_wall,
        "first_cpu": first_cpu,
    }


async def warm_and_cycles(
    params: StdioServerParameters, queries: list[str], calls: int, cycles: int
) -> dict[str, Any]:
    before = set(children_of(os.getpid()))
    out: dict[str, Any] = {}
    async with Client(params, mode="legacy") as client:
        pid = server_pid(before)
        for q in queries[:3]:
            await client.call_tool("search", {"query": q})
        search_wall: list[float] = []
        hits: list[str] = []
        cpu0 = cpu_seconds(pid)
        for i in range(calls):
            t = time.perf_counter()
            result = await client.call_tool("search", {"query": queries[i % len(queries)]})
            search_wall.append(time.perf_counter() - t)
            hit = first_hit(text_of(result))
            if hit:
                hits.append(hit)
        out["search_wall"] = search_wall
        out["search_cpu_per_call"] = (cpu_seconds(pid) - cpu0) / calls
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
    parser.add_argument("--starts", type=int, default=3, help="fresh servers to time (default 3)")
    parser.add_argument("--calls", type=int, default=50, help="warm searches (default 50)")
    parser.add_argument("--cycles", type=int, default=200, help="register+read cycles (200)")
    parser.add_argument("--queries", type=int, default=20, help="distinct queries (note titles)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--in-place", action="store_true", help="serve TARGET itself (writes!)")
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
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
                command=RUBI, args=["serve", "--project", str(copy)], env=env, cwd=str(copy)
            )
            queries = queries_for(copy, args.queries, args.seed)
            random.Random(args.seed).shuffle(queries)
            starts = [asyncio.run(one_start(params, queries[0])) for _ in range(args.starts)]
            warm = asyncio.run(warm_and_cycles(params, queries, args.calls, args.cycles))
            results[target.name] = {"index_cpu": index_cpu, "starts": starts, **warm}
            console.print(table_for(target.name, results[target.name], args))
            if not args.in_place:
                shutil.rmtree(copy, ignore_errors=True)
                shutil.rmtree(index_dir, ignore_errors=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def table_for(name: str, r: dict[str, Any], args: argparse.Namespace) -> Table:
    table = Table(title=f"rubi serve (stdio) on {name}")
    for col in ("measure", "wall", "server CPU", "goal"):
        table.add_column(col, justify="left" if col in ("measure", "goal") else "right")
    s = r["starts"]
    table.add_row(
        "start → initialize",
        fmt_s([x["init_wall"] for x in s]),
        fmt_s([x["init_cpu"] for x in s]),
        "",
    )
    table.add_row(
        "start → first search answer",
        fmt_s([x["first_wall"] for x in s]),
        fmt_s([x["first_cpu"] for x in s]),
        "≤ 0.4 s",
    )
    w = r["search_wall"]
    table.add_row(
        f"warm search ({len(w)} calls) p50 / p95",
        f"{pct(w, 50) * 1000:,.1f} / {pct(w, 95) * 1000:,.1f} ms",
        f"{r['search_cpu_per_call'] * 1000:,.1f} ms/call",
        "≤ 20 ms CPU",
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
