"""A long-lived server's memory stays flat: register + read cycles through the MCP
tools, as an agent session makes them, do not pile up old graphs or caches.

The bound is loose (the exact figures are in ``bench/mcp_bench.py`` and
docs/benchmarks-history.md, "issue 16: MCP server"): with ``gc.freeze()`` in the
pickle loader every reloaded graph stayed alive, about 0.7 MiB per cycle on this
vault, so 150 cycles grew by ~100 MiB.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

WARM_CYCLES = 20
"""Cycles before the first reading: caches, interned strings and the allocator's
arenas settle there."""
CYCLES = 150
MAX_GROWTH_MIB = 40.0


CYCLES_SCRIPT = """
import asyncio, json, sys
from pathlib import Path
from mcp import Client
from rubi import app
from rubi.mcp.server import build_server

def rss_mib():
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")

paths = app.locate(Path(sys.argv[1]))
app.index(paths)
warm, cycles = int(sys.argv[2]), int(sys.argv[3])

async def cycle(client, i):
    note = {"type": "note", "title": f"Memory cycle {i}", "body": f"Cycle {i}."}
    done = await client.call_tool("register", {"notes": [note]})
    assert not done.is_error, done
    note_id = done.content[0].text.split()[1]
    read = await client.call_tool("read", {"ids": [note_id]})
    assert not read.is_error, read

async def main():
    async with Client(build_server(paths)) as client:
        for i in range(warm):
            await cycle(client, i)
        before = rss_mib()
        for i in range(warm, warm + cycles):
            await cycle(client, i)
        return before, rss_mib()

print(json.dumps(asyncio.run(main())))
"""
"""The cycles, run in a process of their own: a server is a process of its own, and
the test process's memory moves with what earlier tests left running in it."""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_register_read_cycles_keep_memory_flat(help_vault: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", CYCLES_SCRIPT, str(help_vault), str(WARM_CYCLES), str(CYCLES)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    before, after = json.loads(run.stdout.strip().splitlines()[-1])
    assert after - before < MAX_GROWTH_MIB, f"RSS {before:.0f} → {after:.0f} MiB"
