"""A cold UserPromptSubmit hook (no engine) with this checkout's code and another's,
alternated call by call, beside the floor (``python -c pass``), in one run.

Each sample is a fresh process that runs the console script's ``main`` as
``rubi hook UserPromptSubmit`` with the hook's JSON on stdin (the children's CPU from
``RUSAGE_CHILDREN``; wall around the call). The prompts take turns (the same prompt
for both trees in a round), the trees' order flips every round, and each prompt's
output is compared byte for byte across the trees.

    python bench/cold_recall.py PROJECT --before <checkout>/src [--runs 12]
        [--semantic 0|1] [--prompt TEXT ...] [--before-cache DIR]

``--before-cache``: the other tree's ``XDG_CACHE_HOME`` (a copy of the cache as that
tree's code wrote it: a derived file whose bytes changed is read by each tree as its
own writer made it); both trees read the environment's otherwise.

PROJECT must be indexed already (``rubi index`` there), by code whose index format
both trees read. Give it its own ``HOME`` and ``XDG_CACHE_HOME`` as for any bench.
Printed: CPU and wall p50 (ms) per tree and for the floor, the ratio to the floor,
the median of the two trees' CPU difference round by round (the same prompt, the same
moment's load: steadier than the difference of the medians on a busy machine) with its
quartiles, whether every prompt printed the same bytes in both trees, and the load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PROMPTS = (
    "how do I sync my vault between two devices?",
    "how does the recall hook search the graph snapshot and the vault index?",
    "why did we pick sqlite for the store",
)
HOOK = (
    "import sys; from rubi.entry import main; "
    "sys.argv = ['rubi', 'hook', 'UserPromptSubmit']; main()"
)


def _child(
    cmd: list[str], cwd: Path, env: dict[str, str], data: bytes | None
) -> tuple[subprocess.CompletedProcess[bytes], float, float]:
    """Run ``cmd``; its result, CPU (ms, user + system) and wall (ms)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, input=data, cwd=cwd, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return done, cpu * 1000, wall * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--before", type=Path, required=True, help="the other tree's src")
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--semantic", choices=("0", "1"), default=None)
    parser.add_argument("--prompt", action="append", default=None)
    parser.add_argument("--before-cache", type=Path, default=None)
    args = parser.parse_args()
    project = args.project.resolve()
    prompts = args.prompt or list(PROMPTS)
    trees = {"before": str(args.before.resolve()), "after": str(SRC)}
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base_env["RUBI_ENGINE"] = "0"
    if args.semantic is not None:
        base_env["RUBI_SEMANTIC"] = args.semantic
    cpu: dict[str, list[float]] = {name: [] for name in (*trees, "floor")}
    wall: dict[str, list[float]] = {name: [] for name in (*trees, "floor")}
    outputs: dict[int, set[str]] = {}
    loads = []
    for i in range(args.runs):
        order = list(trees) if i % 2 == 0 else list(trees)[::-1]
        payload = {
            "hook_event_name": "UserPromptSubmit",
            "prompt": prompts[i % len(prompts)],
            "cwd": str(project),
            "session_id": f"bench-{i}",
            "transcript_path": "",
        }
        for name in order:
            env = {**base_env, "PYTHONPATH": trees[name]}
            if name == "before" and args.before_cache is not None:
                env["XDG_CACHE_HOME"] = str(args.before_cache.resolve())
            data = json.dumps(payload).encode()
            done, c, w = _child([sys.executable, "-c", HOOK], project, env, data)
            if done.returncode != 0:
                sys.exit(f"{name}: the hook failed: {done.stderr.decode()[-500:]}")
            outputs.setdefault(i % len(prompts), set()).add(hashlib.sha256(done.stdout).hexdigest())
            cpu[name].append(c)
            wall[name].append(w)
        _, c, w = _child([sys.executable, "-c", "pass"], project, base_env, None)
        cpu["floor"].append(c)
        wall["floor"].append(w)
        loads.append(os.getloadavg()[0])
    floor = statistics.median(cpu["floor"])
    for name in (*trees, "floor"):
        c, w = statistics.median(cpu[name]), statistics.median(wall[name])
        print(f"{name:7} CPU p50 {c:6.1f} ms ({c / floor:4.1f}x floor), wall p50 {w:6.0f} ms")
    diffs = sorted(b - a for b, a in zip(cpu["before"], cpu["after"], strict=True))
    q1, _, q3 = statistics.quantiles(diffs, n=4) if len(diffs) > 1 else (diffs * 3)
    print(
        f"before - after, round by round: CPU p50 {statistics.median(diffs):5.1f} ms"
        f" (quartiles {q1:.1f} to {q3:.1f}; after faster in {sum(d > 0 for d in diffs)}"
        f" of {len(diffs)} rounds)"
    )
    same = all(len(found) == 1 for found in outputs.values())
    print(f"same bytes in both trees for every prompt: {same}")
    print(f"load {min(loads):.1f}-{max(loads):.1f}")


if __name__ == "__main__":
    main()
