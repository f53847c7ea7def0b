"""Several processes register into one vault at once: nothing lost, nothing twice."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rubi.core.paths import VaultPaths
from rubi.markdown import parse_note

WORKER = """
import sys
from rubi import app
vault = app.locate(sys.argv[1])
worker, count = int(sys.argv[2]), int(sys.argv[3])
for i in range(count):
    shared = i % 5  # five titles every worker writes to: merges under contention
    app.register(vault, [
        {"type": "note", "title": f"Worker {worker} item {i}", "body": f"own-{worker}-{i}"},
        {"type": "gotcha", "title": f"Shared topic {shared}", "body": f"shared-{worker}-{i}"},
    ])
"""


@pytest.mark.slow
def test_parallel_registers_lose_nothing(vault: VaultPaths) -> None:
    workers, count = 4, 25
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(vault.root), str(w), str(count)],
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    texts = {}
    for path in sorted((vault.root / "notes").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        parse_note(text, path.name)  # strict: every file parses
        texts[path.name] = text
    everything = "\n".join(texts.values())
    assert len(texts) == workers * count + 5
    for w in range(workers):
        for i in range(count):
            assert everything.count(f"own-{w}-{i}\n") == 1
            assert everything.count(f"shared-{w}-{i}\n") == 1
