"""A long-lived server's memory stays flat: register + read cycles through the MCP
tools, as an agent session makes them, do not pile up old graphs or caches.

The bound is loose (the exact figures are in ``bench/mcp_bench.py`` and
docs/benchmarks-history.md, "issue 16: MCP server"): with ``gc.freeze()`` in the
pickle loader every reloaded graph stayed alive, about 0.7 MiB per cycle on this
vault, so 150 cycles grew by ~100 MiB.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from mcp import Client
from rubi import app
from rubi.mcp.server import build_server

WARM_CYCLES = 20
"""Cycles before the first reading: caches, interned strings and the allocator's
arenas settle there."""
CYCLES = 150
MAX_GROWTH_MIB = 40.0


def rss_mib() -> float:
    """This process's resident memory (Linux ``/proc``)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_register_read_cycles_keep_memory_flat(help_vault: Path) -> None:
    paths = app.locate(help_vault)
    app.index(paths)

    async def cycle(client: Client, i: int) -> None:
        note = {"type": "note", "title": f"Memory cycle {i}", "body": f"Cycle {i}."}
        done = await client.call_tool("register", {"notes": [note]})
        assert not done.is_error
        note_id = done.content[0].text.split()[1]  # type: ignore[union-attr]
        read = await client.call_tool("read", {"ids": [note_id]})
        assert not read.is_error

    async def main() -> tuple[float, float]:
        async with Client(build_server(paths)) as client:
            for i in range(WARM_CYCLES):
                await cycle(client, i)
            before = rss_mib()
            for i in range(WARM_CYCLES, WARM_CYCLES + CYCLES):
                await cycle(client, i)
            return before, rss_mib()

    before, after = asyncio.run(main())
    assert after - before < MAX_GROWTH_MIB, f"RSS {before:.0f} → {after:.0f} MiB"
