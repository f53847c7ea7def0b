"""``rubi serve --http`` start → first answers, beside ``rubi serve`` over stdio.

Usage::

    python bench/http_start.py PROJECT [--starts 5] [--base CHECKOUT] [--json OUT]

PROJECT (a folder with ``.rubi/``) is copied to a temporary folder and indexed once.
Each round starts fresh servers, alternated (order reversed every other round):

- HTTP, as the README starts it: ``rubi serve --http --port P --project COPY`` with
  the bearer token ``rubi serve --show-token`` made in the run's ``HOME``; the MCP
  SDK's own client (``streamable_http_client`` over an httpx client with the
  ``Authorization`` header): a 2025-11-25 client (``Client(mode="legacy")``:
  ``initialize``) and a 2026-07-28 client (``Client(mode="auto")``:
  ``server/discover``, ``_meta`` on every request, no session). The port is polled
  (every 5 ms) until it accepts, then the client connects, lists the tools and calls
  ``search`` once. Wall from spawn to: the port accepting, the handshake (or
  discover) answered, ``tools/list``, the first search; the server's CPU seconds by
  then (``/proc``, its threads' schedstat), and the bench's own by the first search
  ("client CPU": the port poll and the SDK client, a process of its own on another
  core when one is free). The server listens before it imports its HTTP stack
  (``rubi.mcp.http_listen``): the client connects and sends while the server still
  imports, as a real client that is already running would;
- stdio, the same two eras line by line (:func:`mcp_bench.one_start`);
- the floor: ``python -c pass`` and ``python -c "import mcp"`` (wall, CPU).

``--base CHECKOUT`` starts another source tree's servers too (``CHECKOUT/src`` on
``PYTHONPATH``), alternated with this one's in the same loop, on its own copy of the
project and its own ``XDG_CACHE_HOME``, each indexed by its own tree (on one copy, a
tree whose index format differs rebuilt the index inside its first search at every
switch). Every process gets the run's own ``HOME`` and ``XDG_CACHE_HOME`` (made
here). The answers of the first search are compared across transports and eras (the
same text and ids), and the capabilities and tool lists across eras.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchproc import cpu_seconds
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_bench import ERAS, MODERN, RUBI, floors, one_start, prepare

from mcp import Client

QUERY = "how does the server answer its first search"
CONNECT_POLL_S = 0.005
TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _accepts(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _mark(out: dict[str, Any], name: str, pid: int, started: float) -> None:
    out[f"{name}_wall"] = time.perf_counter() - started
    out[f"{name}_client"] = time.process_time() - out.get("client_started", 0.0)
    # the whole process's clock ticks: a thread that ended (a warm-up) still counts,
    # which a sum over the live threads' schedstat would lose
    out[f"{name}_cpu"] = cpu_seconds(pid)


async def _client(
    port: int, token: str, era: str, pid: int, started: float, client_started: float
) -> dict[str, Any]:
    out: dict[str, Any] = {"client_started": client_started}
    url = f"http://127.0.0.1:{port}/mcp"
    mode = "auto" if era == MODERN else "legacy"
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        _mark(out, "init", pid, started)
        tools = await client.list_tools()
        _mark(out, "list", pid, started)
        result = await client.call_tool("search", {"query": QUERY})
        _mark(out, "first", pid, started)
        if result.is_error:
            raise RuntimeError(f"search failed: {result.content}")
        out["tools"] = sorted(t.name for t in tools.tools)
        out["text"] = "\n".join(c.text for c in result.content if hasattr(c, "text"))
        out["version"] = era
    return out


def http_start(
    argv: list[str], env: dict[str, str], cwd: Path, token: str, era: str
) -> dict[str, Any]:
    """Spawn ``rubi serve --http`` and time its first answers to an SDK client of ``era``."""
    port = free_port()
    started, client_started = time.perf_counter(), time.process_time()
    proc = subprocess.Popen(
        [*argv, "--http", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
    )
    out: dict[str, Any] = {"client_started": client_started}
    try:
        deadline = started + TIMEOUT_S
        while not _accepts(port):
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the server exited: {err[-500:]}")
            if time.perf_counter() > deadline:
                raise RuntimeError("the server did not listen")
            time.sleep(CONNECT_POLL_S)
        _mark(out, "listen", proc.pid, started)
        coro = _client(port, token, era, proc.pid, started, client_started)
        out.update(asyncio.run(asyncio.wait_for(coro, TIMEOUT_S)))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return out


def med(samples: list[dict[str, Any]], key: str) -> str:
    values = [s[key] for s in samples if key in s]
    if not values:
        return "-"
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def report(name: str, runs: dict[str, list[dict[str, Any]]]) -> None:
    print(f"\n{name}: median (min-max) seconds from spawn")
    keys = ("listen", "init", "list", "first")
    head = "".join(f"{k + ' wall':>20}{k + ' CPU':>20}" for k in keys)
    print(f"{'start':<22}{head}{'client CPU':>20}")
    for label, samples in runs.items():
        cells = "".join(
            f"{med(samples, k + '_wall'):>20}{med(samples, k + '_cpu'):>20}" for k in keys
        )
        client = f"{med(samples, 'first_client'):>20}" if "http" in label else ""
        print(f"{label:<22}{cells}{client}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--starts", type=int, default=5, help="rounds (5)")
    parser.add_argument("--base", type=Path, default=None, help="another checkout, alternated")
    parser.add_argument("--no-stdio", action="store_true", help="HTTP starts only")
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="rubi-http-start-"))
    home, cache = workdir / "home", workdir / "cache"
    home.mkdir()
    cache.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_CACHE_HOME=str(cache), PYTHONHASHSEED="0")
    env.pop("RUBI_HTTP_TOKEN", None)
    env["RUBI_VAULT"] = str(workdir / "no-personal-vault")
    trees = {"this": env}
    if args.base is not None:
        # its own cache and copy, indexed by itself: an index one tree cannot read
        # would otherwise be rebuilt at every switch, inside a first search
        (workdir / "base").mkdir()
        (workdir / "base-cache").mkdir()
        base_src = str(args.base.resolve() / "src")
        trees["base"] = dict(env, PYTHONPATH=base_src, XDG_CACHE_HOME=str(workdir / "base-cache"))
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        copies = {
            tree: prepare(
                args.project.resolve(), workdir / ("" if tree == "this" else tree), False, tree_env
            )[0]
            for tree, tree_env in trees.items()
        }
        token = subprocess.run(
            [RUBI, "serve", "--show-token"], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        argvs = {tree: [RUBI, "serve", "--project", str(copy)] for tree, copy in copies.items()}
        plan = [
            (tree, transport, era)
            for tree in trees
            for transport in ("http", *(() if args.no_stdio else ("stdio",)))
            for era in ERAS
        ]
        floor: list[dict[str, Any]] = []
        for i in range(args.starts):
            got = floors(env)
            floor.append({"pass_wall": got["pass"][0], "pass_cpu": got["pass"][1]})
            floor[-1].update({"mcp_wall": got["import mcp"][0], "mcp_cpu": got["import mcp"][1]})
            for tree, transport, era in plan if i % 2 == 0 else plan[::-1]:
                tree_env, argv, copy = trees[tree], argvs[tree], copies[tree]
                if transport == "http":
                    sample = http_start(argv, tree_env, copy, token, era)
                else:
                    raw = one_start(argv, tree_env, copy, QUERY, era)
                    sample = {k: v for k, v in raw.items() if not k.endswith("_ns")}
                results.setdefault(f"{tree} {transport} {era}", []).append(sample)
        report("starts", results)
        print(
            f"\nfloor: python -c pass {med(floor, 'pass_wall')} wall, {med(floor, 'pass_cpu')} CPU;"
            f" import mcp {med(floor, 'mcp_wall')} wall, {med(floor, 'mcp_cpu')} CPU"
        )
        answers = {
            tree: {
                (tuple(s["tools"]), s["text"])
                for era in ERAS
                for s in results[f"{tree} http {era}"]
            }
            for tree in trees
        }
        for tree, seen in answers.items():
            print(f"{tree}: HTTP answers alike in both eras: {len(seen) == 1}")
        if "base" in answers:
            same = answers["base"] == answers["this"]
            print(f"the same tools and first answer as the base: {same}")
        if args.json:
            args.json.write_text(json.dumps({"starts": results, "floor": floor}, indent=1))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
