"""A cold ``rubi search`` (no engine), its process's CPU and wall p50, beside the
floor (``python -c pass``) and the vault's freshness check alone, in one run.

Each sample is a fresh process (the children's CPU from ``RUSAGE_CHILDREN``, so git
and other children count). With ``--before SRC`` (the ``src`` folder of another
checkout) the same search runs with that code too, the two alternated call by call,
and the answers are compared byte for byte.

    python bench/cold_search.py PROJECT [--runs 10] [--before <checkout>/src]
        [--semantic 0|1] [--query WORDS]

PROJECT must be indexed already (``rubi index`` there). Give it its own ``HOME`` and
``XDG_CACHE_HOME`` as for any bench; the personal vault is left out.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUBI = str(BIN / "rubi")
SRC = Path(__file__).resolve().parent.parent / "src"

_WALK = """
import os, sys, time
from rubi.core.paths import find_vault
from rubi.sync.freshness import files_unchanged
paths = find_vault(None)
def floor(root):
    folders = [root]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if not entry.name.startswith("."):
                        folders.append(entry.path)
                else:
                    entry.stat(follow_symlinks=False)
t0 = time.process_time()
floor(str(paths.root))
t1 = time.process_time()
same = files_unchanged(paths)
t2 = time.process_time()
print(f"{(t1 - t0) * 1000:.2f} {(t2 - t1) * 1000:.2f} {same}")
"""


def _sample(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, bytes]:
    """One process: (CPU ms, wall ms, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, check=False)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if done.returncode not in (0, 3):
        raise SystemExit(f"{cmd[:3]} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return cpu, wall, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--before", type=Path, default=None, help="another checkout's src")
    parser.add_argument("--semantic", choices=("0", "1"), default=None, help="RUBI_SEMANTIC")
    parser.add_argument("--query", default="sync vault devices")
    args = parser.parse_args()
    project = args.project.resolve()
    env = dict(os.environ)
    env["RUBI_VAULT"] = tempfile.mkdtemp(prefix="rubi-no-personal-")
    env["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="rubi-no-engine-")  # no engine there
    if args.semantic is not None:
        env["RUBI_SEMANTIC"] = args.semantic
    search = [RUBI, "search", *args.query.split()]
    cases: dict[str, tuple[list[str], dict[str, str]]] = {
        "floor (python -c pass)": ([sys.executable, "-c", "pass"], env),
        "rubi search, cold": (search, {**env, "PYTHONPATH": str(SRC)}),
        "freshness check (its process)": (
            [sys.executable, "-c", _WALK],
            {**env, "PYTHONPATH": str(SRC)},
        ),
    }
    if args.before is not None:
        cases["rubi search, cold, before"] = (search, {**env, "PYTHONPATH": str(args.before)})
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    answers: dict[str, list[bytes]] = {name: [] for name in cases}
    for cmd, case_env in cases.values():  # one unmeasured call each
        _sample(cmd, project, case_env)
    for _ in range(args.runs):
        for name, (cmd, case_env) in cases.items():
            cpu, wall, out = _sample(cmd, project, case_env)
            samples[name].append((cpu, wall))
            answers[name].append(out)
    walks = [out.decode().split() for out in answers.pop("freshness check (its process)")]
    print(f"{project.name}: {args.runs} runs, RUBI_SEMANTIC={args.semantic or 'default'}")
    for name, column in (("a scandir + stat walk (the floor)", 0), ("the freshness check", 1)):
        cpu = statistics.median(float(w[column]) for w in walks)
        print(f"  in process, CPU p50: {name} {cpu:.1f} ms")
    print(f"  the vault unchanged by the check: {sorted({w[2] for w in walks})}")
    print(f"{'case':<36} {'CPU p50 ms':>10} {'wall p50 ms':>12}")
    for name, values in samples.items():
        cpu = statistics.median(v[0] for v in values)
        wall = statistics.median(v[1] for v in values)
        print(f"{name:<36} {cpu:>10.0f} {wall:>12.0f}")
    if args.before is not None:
        same = set(answers["rubi search, cold"]) == set(answers["rubi search, cold, before"])
        print("answers byte-identical before and after:", same)
    load = os.getloadavg()[0]
    print(f"load {load:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
