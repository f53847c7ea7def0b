"""The first session in a fresh clone of a project whose ``.rubi/`` is committed: the
vault and its map page are there, the index (in the user's cache folder) is not.

Usage::

    python bench/first_session.py PROJECT [--rounds 2] [--routes hook,plugin,install]
        [--base DIR] [--claude PATH] [--wait 240] [--json OUT]

PROJECT is a git checkout with a committed ``.rubi/``. Each run clones it afresh
(``git clone -q``) and gets a fresh ``HOME`` and cache folder. Routes:

- ``hook``: ``rubi hook SessionStart`` by hand (a startup payload);
- ``plugin``: one ``claude -p`` with this checkout as the plugin (``--plugin-dir``:
  its hooks and ``rubi serve``), against the end-to-end tests' fake Messages API;
- ``install``: ``rubi install`` in the clone, then one ``claude -p``.

Per run: the hook's (or the session's) wall and CPU (``wait4``: the process and every
child it waited for, the plugin's server and the hooks included), whether the first
request to the API carries the map (``Project memory (rubi, .rubi/map.md)``), the
seconds from the start until the index is ready (index store and graph on disk and
no ``rubi index --first-only`` alive), and that detached run's CPU (its ``/proc``
figures, sampled every 50 ms until it ends: what ``wait4`` never sees, since the
hook does not wait for it). With ``--base DIR`` (``git archive`` of the base tree),
a case ``base`` runs the same routes with ``PYTHONPATH=DIR/src`` and ``DIR`` as the
plugin folder, alternating with this tree run by run. ``python -c pass`` is the
floor, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchproc import pass_floor  # noqa: E402
from proctree import reap  # noqa: E402
from session_bench import find_claude, rubi_env  # noqa: E402

from e2e.fake_api import FakeMessagesAPI  # noqa: E402

MAP_MARK = "Project memory (rubi, .rubi/map.md)"
"""What SessionStart's context starts with when it gives the map."""
TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")


def builders(clone: Path) -> dict[int, float]:
    """``{pid: CPU seconds}`` of the ``rubi index --first-only`` processes working in
    ``clone`` (``/proc``: their command line and folder)."""
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            if b"--first-only" not in cmd or Path(os.readlink(entry / "cwd")) != clone:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry.name)] = (int(fields[11]) + int(fields[12])) * TICK_S
    return found


def indexed(home: Path) -> bool:
    """Whether the one index folder under ``home``'s cache has its store and graph."""
    for folder in (home / ".cache" / "rubi" / "indexes").glob("*"):
        if (folder / "store.sqlite").exists() and (folder / "graph.pickle").exists():
            return True
    return False


def follow_build(
    clone: Path, home: Path, began: float, wait_s: float
) -> tuple[float | None, float]:
    """Seconds from ``began`` until the index is ready (None: not within ``wait_s``)
    and the detached builders' CPU (each one's last sample)."""
    cpu: dict[int, float] = {}
    deadline = began + wait_s
    while time.perf_counter() < deadline:
        alive = builders(clone)
        cpu.update(alive)
        if not alive and indexed(home):
            return time.perf_counter() - began, sum(cpu.values())
        time.sleep(0.05)
    return None, sum(cpu.values())


def env_for(home: Path, src: Path | None) -> dict[str, str]:
    env = rubi_env(home)
    env["RUBI_ENGINE"] = "0"
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def run_hook(clone: Path, home: Path, src: Path | None) -> dict[str, Any]:
    payload = {
        "session_id": "first-session",
        "transcript_path": str(home / "t.jsonl"),
        "cwd": str(clone),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    rubi = str(Path(sys.executable).parent / "rubi")
    began = time.perf_counter()
    child = subprocess.Popen(
        [rubi, "hook", "SessionStart"],
        cwd=clone,
        env=env_for(home, src),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(payload).encode())
    child.stdin.close()
    out = child.stdout.read()
    _status, _own, _kids, cpu = reap(child.pid)
    wall = time.perf_counter() - began
    ready, build_cpu = follow_build(clone, home, began, ARGS.wait)
    return {
        "wall": wall,
        "cpu": cpu,
        "map": MAP_MARK in out.decode("utf-8", "replace"),
        "ready": ready,
        "build_cpu": build_cpu,
    }


def run_claude(
    clone: Path, home: Path, src: Path | None, plugin: Path | None, claude: str
) -> dict[str, Any]:
    env = env_for(home, src)
    if plugin is None:  # the `rubi install` route
        rubi = str(Path(sys.executable).parent / "rubi")
        subprocess.run([rubi, "install"], cwd=clone, env=env, check=True, capture_output=True)
    api = FakeMessagesAPI().start()
    env.update(
        {
            "ANTHROPIC_API_KEY": "sk-test-dummy",
            "ANTHROPIC_BASE_URL": api.url,
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
    )
    args = [claude, "-p", "say hello", "--output-format", "json"]
    if plugin is not None:
        args += ["--plugin-dir", str(plugin)]
    began = time.perf_counter()
    try:
        child = subprocess.Popen(
            args, cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        _status, _own, _kids, cpu = reap(child.pid)
        wall = time.perf_counter() - began
    finally:
        api.stop()
    first = next((b for b in api.requests if b.get("messages")), {})
    ready, build_cpu = follow_build(clone, home, began, ARGS.wait)
    return {
        "wall": wall,
        "cpu": cpu,
        "map": MAP_MARK in json.dumps(first.get("messages")),
        "ready": ready,
        "build_cpu": build_cpu,
    }


def one_run(case: str, route: str, src: Path | None, plugin: Path, claude: str) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix=f"first-{case}-{route}-"))
    try:
        clone = work / "clone"
        subprocess.run(["git", "clone", "-q", str(ARGS.project), str(clone)], check=True)
        home = work / "home"
        home.mkdir()
        if route == "hook":
            got = run_hook(clone, home, src)
        else:
            got = run_claude(clone, home, src, plugin if route == "plugin" else None, claude)
        # a build still running (the base's server, killed with its session, left none)
        for pid in builders(clone):
            os.kill(pid, 15)
        return {"case": case, "route": route, **got}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("project", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--routes", default="hook,plugin,install")
    parser.add_argument("--base", type=Path, default=None)
    parser.add_argument("--claude", default=None)
    parser.add_argument("--wait", type=float, default=240.0, help="seconds to wait for the index")
    parser.add_argument("--json", type=Path, default=None)
    global ARGS
    ARGS = parser.parse_args()
    ARGS.project = ARGS.project.resolve()
    routes = ARGS.routes.split(",")
    claude = find_claude(ARGS.claude) if set(routes) - {"hook"} else ""
    cases: list[tuple[str, Path | None, Path]] = [("new", None, ROOT)]
    if ARGS.base is not None:
        cases.insert(0, ("base", ARGS.base.resolve() / "src", ARGS.base.resolve()))
    runs = []
    for _ in range(ARGS.rounds):
        for route in routes:
            for case, src, plugin in cases:
                floor = pass_floor()
                got = one_run(case, route, src, plugin, claude)
                got["floor_wall"], got["floor_cpu"] = floor
                got["load"] = os.getloadavg()[0]
                runs.append(got)
                ready = "never" if got["ready"] is None else f"{got['ready']:.1f} s"
                print(
                    f"{case:4} {route:7} wall {got['wall']:6.2f} s  cpu {got['cpu']:6.2f} s  "
                    f"map {'yes' if got['map'] else 'NO '}  index ready {ready:>7}  "
                    f"detached build cpu {got['build_cpu']:5.2f} s  "
                    f"(floor {floor[0]:.2f} s / {floor[1]:.2f} s cpu, load {got['load']:.1f})",
                    flush=True,
                )
    if ARGS.json is not None:
        ARGS.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    return 0


ARGS: argparse.Namespace

if __name__ == "__main__":
    sys.exit(main())
