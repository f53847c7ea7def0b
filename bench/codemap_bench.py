"""Benchmark the code map on real repositories.

For each repository: a first run (empty cache), a second run on the unchanged
repository, and a run after editing one file (a comment appended to its most central
file, restored afterwards); wall time and peak RSS of each run (each in a fresh
process), files mapped, and the size of the rendered map.md in tokens.

Usage::

    .venv/bin/python bench/codemap_bench.py /tmp/repos/flask /tmp/repos/hono ...

Prints a markdown table (the one in docs/benchmarks-history.md, section "Code map").
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMENT = {
    ".py": "# bench\n",
    ".rs": "// bench\n",
    ".go": "// bench\n",
    ".java": "// bench\n",
    ".ts": "// bench\n",
    ".tsx": "// bench\n",
    ".js": "// bench\n",
}


def _child(repo: Path, cache: Path) -> None:
    """One measured run in this process; prints its figures as JSON."""
    from rubi.codemap import build_code_map, render_map
    from rubi.core.tokens import estimate_tokens

    started = time.perf_counter()
    code_map = build_code_map(repo, cache)
    elapsed = time.perf_counter() - started
    text = render_map(code_map, [], None)
    figures = {
        "seconds": round(elapsed, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "listed": code_map.stats.listed,
        "mapped": code_map.stats.mapped,
        "parsed": code_map.stats.parsed,
        "reused": code_map.stats.reused,
        "edges": len(code_map.edges),
        "modules": len(code_map.modules),
        "warnings": len(code_map.warnings),
        "map_tokens": estimate_tokens(text),
        "top": code_map.ranked_files()[0] if code_map.files else "",
    }
    print(json.dumps(figures))


def _run(repo: Path, cache: Path) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--child", str(repo), "--cache", str(cache)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def bench(repo: Path) -> dict[str, dict[str, object]]:
    """First, unchanged and one-edit runs of one repository."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "codemap.json"
        first = _run(repo, cache)
        second = _run(repo, cache)
        target = repo / str(first["top"])
        original = target.read_bytes()
        try:
            target.write_bytes(original + COMMENT.get(target.suffix, "// bench\n").encode())
            edited = _run(repo, cache)
        finally:
            target.write_bytes(original)
    return {"first": first, "unchanged": second, "one edit": edited}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="*", type=Path)
    parser.add_argument("--child", type=Path)
    parser.add_argument("--cache", type=Path)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.cache)
        return
    print(
        "| repository | files listed / mapped | run | time (s) | peak RSS (MB) | parsed |"
        " map.md tokens |"
    )
    print("|---|---|---|---|---|---|---|")
    for repo in args.repos:
        runs = bench(repo)
        for label, fig in runs.items():
            print(
                f"| {repo.name} | {fig['listed']} / {fig['mapped']} | {label} | {fig['seconds']}"
                f" | {fig['peak_rss_mb']} | {fig['parsed']} | {fig['map_tokens']} |"
            )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
