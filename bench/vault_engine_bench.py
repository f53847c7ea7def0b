"""``rubi search --vault V`` for a plain vault with ``rubi watch --vault V`` running
(its engine answers) against the same command answering itself, in one run: each
process's CPU and wall p50 beside the floor (``python -c pass``) and the engine's CPU
per call; then save → visible from a shell (a note written, then ``rubi search
--vault`` until it shows).

    python bench/vault_engine_bench.py VAULT [--runs 10] [--before <base>/src]
        [--query WORDS] [--saves 5]

VAULT must be indexed already (``rubi index --vault VAULT``, with this run's ``HOME``
and ``XDG_CACHE_HOME``). Cases, alternated call by call: the floor; this tree with the
watcher's engine; this tree with ``RUBI_ENGINE=0`` (what a command does when no engine
runs: it scans the vault and searches in its own process); with ``--before``, that
code, whose commands never ask an engine for a plain vault. The answers are compared
byte for byte. Save → visible: a note with a fresh word is written and searched for
until it shows, through the engine, then (with ``--before``) through the code before,
alternated; each note is removed after. The personal vault is left out; the engine
listens in a runtime folder of this run's own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

BIN = Path(sys.executable).parent
RUBI = str(BIN / "rubi")
SRC = Path(__file__).resolve().parent.parent / "src"


def _sample(cmd: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """One process: (CPU ms, wall ms, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, check=False, cwd=tempfile.gettempdir())
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if done.returncode not in (0, 3):
        raise SystemExit(f"{cmd[:3]} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return cpu, wall, done.stdout


def _proc_cpu_ms(pid: int) -> float:
    """The CPU (user + system) process ``pid`` has used so far, in ms (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _ready(vault: Path, env: dict[str, str], seconds: float) -> bool:
    """Whether the engine of ``vault`` answers a ping with ``ready`` within
    ``seconds`` (its socket found as the commands find it)."""
    sys.path.insert(0, str(SRC))
    os.environ.update(env)
    from rubi.engine.address import address_for
    from rubi.engine.protocol import PROTOCOL

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        address = address_for(str(vault))
        if address is not None and os.path.exists(address.socket):
            try:
                with socket.socket(socket.AF_UNIX) as conn:
                    conn.settimeout(5)
                    conn.connect(address.socket)
                    ping = {"rubi": "ping", "protocol": PROTOCOL}
                    conn.sendall(json.dumps(ping).encode() + b"\n")
                    if json.loads(conn.makefile("rb").readline()).get("ready"):
                        return True
            except (OSError, ValueError):
                pass
        time.sleep(0.2)
    return False


def _visible(
    vault: Path, env: dict[str, str], word: str, name: str, deadline_s: float = 60
) -> tuple[float, int]:
    """Write ``name`` holding ``word``, then search for it until it shows: (wall ms from
    the write to the answer that shows it, searches made)."""
    note = vault / f"{name}.md"
    started = time.perf_counter()
    note.write_text(f"# {name}\n\nThe {word} was saved a moment ago.\n", encoding="utf-8")
    tries = 0
    while time.perf_counter() - started < deadline_s:
        tries += 1
        _, _, out = _sample([RUBI, "search", "--vault", str(vault), word], env)
        if name.encode() in out:
            return (time.perf_counter() - started) * 1000, tries
    raise SystemExit(f"{name} not visible in {deadline_s} s")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("vault", type=Path)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--before", type=Path, default=None, help="another checkout's src")
    parser.add_argument("--query", default="sync vault devices")
    parser.add_argument("--saves", type=int, default=5)
    args = parser.parse_args()
    vault = args.vault.resolve()
    env = dict(os.environ)
    env["RUBI_VAULT"] = tempfile.mkdtemp(prefix="rubi-no-personal-")
    env["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="rt-")
    env.setdefault("PYTHONHASHSEED", "0")
    new = {**env, "PYTHONPATH": str(SRC)}
    watcher = subprocess.Popen(
        [RUBI, "watch", "--vault", str(vault)],
        env={**new, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    assert watcher.stderr is not None
    reader = threading.Thread(
        target=lambda: lines.extend(iter(watcher.stderr.readline, "")),  # type: ignore[union-attr]
        daemon=True,
    )
    reader.start()
    try:
        if not _ready(vault, new, 180):
            raise SystemExit(f"the watcher's engine never got ready: {lines[-5:]}")
        search = [RUBI, "search", "--vault", str(vault), *args.query.split()]
        cases = {
            "floor (python -c pass)": ([sys.executable, "-c", "pass"], env),
            "rubi search --vault, engine": (search, new),
            "rubi search --vault, cold (RUBI_ENGINE=0)": (search, {**new, "RUBI_ENGINE": "0"}),
        }
        if args.before is not None:
            cases["rubi search --vault, before"] = (
                search,
                {**env, "PYTHONPATH": str(args.before)},
            )
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        answers: dict[str, set[bytes]] = {name: set() for name in cases}
        engine_cpu: list[float] = []
        for cmd, case_env in cases.values():  # one unmeasured call each
            _sample(cmd, case_env)
        for _ in range(args.runs):
            for name, (cmd, case_env) in cases.items():
                host = _proc_cpu_ms(watcher.pid)
                cpu, wall, out = _sample(cmd, case_env)
                if name.endswith(", engine"):
                    engine_cpu.append(_proc_cpu_ms(watcher.pid) - host)
                samples[name].append((cpu, wall))
                answers[name].add(out)
        print(f"{vault.name}: {args.runs} runs alternated, query {args.query!r}")
        print(f"{'case':<44} {'CPU p50 ms':>10} {'wall p50 ms':>12} {'CPU min-max':>14}")
        for name, values in samples.items():
            cpus = [v[0] for v in values]
            wall = statistics.median(v[1] for v in values)
            spread = f"{min(cpus):.0f}-{max(cpus):.0f}"
            print(f"{name:<44} {statistics.median(cpus):>10.0f} {wall:>12.0f} {spread:>14}")
        print(
            f"the engine's CPU per call (the watcher's process), p50: "
            f"{statistics.median(engine_cpu):.0f} ms"
        )
        shown = [a for name, a in answers.items() if not name.startswith("floor")]
        print("answers byte-identical in every case:", len(set().union(*shown)) == 1)
        token = f"{os.getpid()}{int(time.time())}"
        routes = {"engine": new}
        if args.before is not None:
            routes["before"] = {**env, "PYTHONPATH": str(args.before)}
        seen: dict[str, list[tuple[float, int]]] = {route: [] for route in routes}
        for i in range(args.saves):
            for route, route_env in routes.items():
                name = f"benchsave{route}{i}x{token}"
                seen[route].append(_visible(vault, route_env, f"zq{route}{i}w{token}", name))
                (vault / f"{name}.md").unlink()
                time.sleep(1.0)  # the watcher applies the removal before the next save
        for route, values in seen.items():
            walls = [v[0] for v in values]
            print(
                f"save → visible, {route}: wall p50 {statistics.median(walls):.0f} ms "
                f"(min {min(walls):.0f}, max {max(walls):.0f}), searches "
                f"{[v[1] for v in values]}"
            )
        print(f"load {os.getloadavg()[0]:.1f}")
    finally:
        watcher.terminate()
        watcher.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
