"""Claude Code hooks end to end, each call a fresh process run the way ``hooks/hooks.json``
runs it: ``sh -c '<its command line>'`` in the project folder, the event's JSON on stdin.

Usage::

    python bench/hooks_bench.py PROJECT [--runs 20] [--engine serve|watch|none]
        [--transcript FILE] [--in-place] [--no-index] [--pause SECONDS] [--starting N]

PROJECT must hold a ``.rubi/`` vault. It is copied to a temporary folder (the Stop,
PreCompact and SessionEnd hooks write session records into the vault; ``--in-place``
skips the copy) and indexed once with ``rubi index`` (``--no-index``: it is already).
The command of each event is read from ``hooks/hooks.json`` (``if command -v rubi
...; then exec rubi hook EVENT; fi``; for the events the plugin sends to its server as
``mcp_tool`` calls, the same command, as ``rubi install`` writes it) and run with
``sh -c`` from the project folder with ``PATH`` starting at this interpreter's
``bin`` (so ``command -v rubi`` finds this checkout's ``rubi``) and
``CLAUDE_PROJECT_DIR`` set, as Claude Code does. All cases and the floor are
interleaved run by run, so a change of machine load touches them alike.

Each event runs twice: ``cold`` (no engine to be found: an empty runtime folder, so the
client's look for one is included) and, for the events an engine answers, ``engine``
(``rubi serve`` started for PROJECT, stdin held open and no MCP request sent, or
``rubi watch`` with ``--engine watch``; see ``docs/engine.md``).

Per case: wall p50/p95 from just before the process is spawned to its exit (as the
agent waits for it), CPU per call p50/p95 (user + sys of the shell and the ``rubi``
it ``exec``\\ s, from ``wait4``), the engine's CPU per call (mean of the host's CPU
during each call, from ``/proc``: 10 ms ticks, so only the mean means anything), and
the bytes the hook printed. Beside them:
- the tool hooks as a session meets them (:func:`payloads`): a denied whole read, a
  read that goes ahead, the PostToolUse of a read and of a search;
- ``floor``: ``python -c pass`` with the same interpreter, the cost of any Python hook
  (and ``python -S -c pass``, ``python -I -S -c pass``: without ``site``, which a
  console script cannot skip); ``× floor`` is each row's wall p50 over the first's;
- ``rubi search``: the CLI as an agent's shell tool runs it, cold and through the engine
  (``docs/engine.md``): the same bytes printed either way;
- ``UserPromptSubmit, cold, direct``: ``rubi hook UserPromptSubmit`` spawned without
  the shell (what this script measured before; the shell costs a few ms);
- ``long prompt``: a 4,000-character prompt (a pasted traceback or spec), since recall
  analyses and searches every word of the prompt;
- ``UserPromptSubmit, engine just started`` (``--starting N``): the prompt hook sent
  the moment a freshly started host's engine answers a ping, as a session's first
  prompt meets the ``rubi serve`` Claude Code has just started; beside it, how long
  the engine then took to say it had loaded everything (``ready``). A starting engine
  refuses what it has not loaded yet, so the hook answers cold (the engine's host
  competes for the CPU meanwhile); before that it waited behind the host's start.
The last line says whether rubi's modules had compiled bytecode: a wheel install
compiles it; an editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` has none, and
every hook then compiles rubi's source (measure a checkout with
``PYTHONPYCACHEPREFIX`` and ``python -m compileall`` to see what users see).

A hook fails open (exit 0, no output); a failure is logged to ``hooks.log`` in the
vault's derived-data folder, and this script reports any line added there, so a hook
that fast-fails cannot pass for a fast hook.

Why the figure this script printed before (~180 ms p50 for UserPromptSubmit) and an
end-to-end measurement (469 ms) disagree. The old script did spawn a fresh process per
call with the JSON on stdin (not in process); it skipped the ``sh -c`` line and warmed
up twice, but neither matters: in one interleaved run (flask + 76 notes, 20 calls
each) the direct spawn and ``sh -c`` cost the same CPU (322 / 320 ms p50), the first
call was not slower than the rest, and a fresh session id changed nothing. The code
of the commit that printed ~180 ms, measured in that same run, costs what today's
does (321 ms CPU p50). So the old figure was a wall time taken on a quieter machine,
with no CPU time or floor beside it to compare; the hook itself costs about 300 ms of
CPU here however it is started (python -c pass: 18 ms). What does move it: the
machine's load (wall ≈ 3× CPU at a load of 7–10 on 2 cores), the prompt (a
4,000-character prompt +85 ms CPU), and bytecode: with ``PYTHONDONTWRITEBYTECODE``
set and no ``.pyc`` for rubi (an edited checkout) +35 ms CPU per call, and with no
bytecode at all (an install that did not compile it, e.g. ``uv pip install`` without
``--compile-bytecode``, where Python may not write it) 1.3 s CPU per call. Hence this
script reports CPU beside wall and the floor in the same run, and checks ``hooks.log``
for failures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchproc import cpu_seconds, pct, run_child
from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RUBI = str(BIN / "rubi")
GOAL_MS = {
    "UserPromptSubmit": 60,
    "PreToolUse": 40,
    "PostToolUse": 40,
    "Stop": 40,
}
"""Issue 16: UserPromptSubmit ≤ 60 ms p50; the other hooks ≤ 40 ms p50."""
SHORT_PROMPT = "how do I sync my vault between two devices?"
SEARCH_WORDS = ("sync", "vault", "devices")
"""``rubi search`` as an agent runs it from its shell tool (engine and cold rows)."""


def long_prompt() -> str:
    """A 4,000-character prompt: a question with a pasted traceback and some code."""
    lines = [
        "The request handler fails after I moved the blueprint registration into the app "
        "factory. Here is the traceback and the code, can you find the cause and fix it?",
        "Traceback (most recent call last):",
    ]
    for i in range(40):
        lines.append(f'  File "/srv/app/views/module_{i}.py", line {10 + i}, in handler_{i}')
        lines.append(f"    return render_template('page_{i}.html', items=load_items(session))")
    lines.append("RuntimeError: Working outside of application context.")
    return "\n".join(lines)[:4000]


def hook_commands(hooks_file: Path) -> dict[str, str]:
    """Event → the first command line configured for it in ``hooks_file``; for an event
    the plugin sends to its server (``mcp_tool``), the command ``rubi install`` writes
    for it (the command route, which settings without the plugin run)."""
    try:
        config = json.loads(hooks_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"{hooks_file}: cannot read the hooks config ({exc})") from None
    commands: dict[str, str] = {}
    for event, groups in config.get("hooks", {}).items():
        for group in groups:
            for hook in group.get("hooks", []):
                if hook.get("type") == "command" and event not in commands:
                    commands[event] = hook["command"]
                elif hook.get("type") == "mcp_tool" and event not in commands:
                    from rubi.claude.install import hook_command

                    commands[event] = hook_command("rubi", event)
    return commands


def payloads(project: Path, transcript: Path, big_file: Path) -> dict[str, dict[str, Any]]:
    """Each event's JSON. The tool hooks: a whole read of a huge file (PreToolUse: the
    guard denies it), a read that goes ahead (PreToolUse: the guard, then the meter),
    the PostToolUse of that read (Claude Code runs none with the plugin's matcher, which
    leaves ``Read`` out; settings from an older ``rubi install`` still send it) and of
    a search (the meter)."""
    base = {"session_id": "bench-0000", "cwd": str(project), "transcript_path": str(transcript)}
    read = {"tool_name": "Read", "tool_input": {"file_path": str(big_file)}}
    small = {"tool_name": "Read", "tool_input": {"file_path": str(project / "README.md")}}
    grep = {"tool_name": "Grep", "tool_input": {"pattern": "vault"}, "tool_response": {}}
    return {
        "SessionStart": {**base, "hook_event_name": "SessionStart", "source": "startup"},
        "UserPromptSubmit": {**base, "hook_event_name": "UserPromptSubmit", "prompt": SHORT_PROMPT},
        "PreToolUse": {**base, "hook_event_name": "PreToolUse", **read},
        "PreToolUse, read that goes ahead": {**base, "hook_event_name": "PreToolUse", **small},
        "PostToolUse": {**base, "hook_event_name": "PostToolUse", **grep},
        "PostToolUse, after a read": {
            **base,
            "hook_event_name": "PostToolUse",
            **small,
            "tool_response": {},
        },
        "Stop": {
            **base,
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": "Done.",
        },
        "PreCompact": {**base, "hook_event_name": "PreCompact", "trigger": "auto"},
        "SessionEnd": {**base, "hook_event_name": "SessionEnd", "reason": "other"},
    }


def default_transcript() -> Path | None:
    shared = Path(os.environ.get("RUBI_SHARED_DATA", REPO.parent / "shared" / "data"))
    sample = shared / "transcripts" / "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"
    return sample if sample.is_file() else None


def wait_for_engine(
    socket_path: Path, proc: subprocess.Popen[bytes], timeout_s: float, ready: bool = True
) -> None:
    """Until the engine at ``socket_path`` answers a ping (with ``ready``: says it has
    loaded everything, ``rubi.engine.warmup``), or raise SystemExit."""
    from rubi.engine.protocol import PROTOCOL  # the rubi measured: the one on sys.path

    deadline = time.monotonic() + timeout_s
    ping = json.dumps({"rubi": "ping", "protocol": PROTOCOL}).encode() + b"\n"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the engine host exited ({proc.returncode})")
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(1.0)
            sock.connect(str(socket_path))
            sock.sendall(ping)
            reply = sock.recv(4096)
            if b'"ok": true' in reply and (not ready or b'"ready": false' not in reply):
                return
        time.sleep(0.1)
    raise SystemExit(f"no engine answered at {socket_path} within {timeout_s:.0f} s")


def start_engine(
    host: str, project: Path, env: dict[str, str], runtime: Path
) -> subprocess.Popen[bytes]:
    """``rubi serve`` (stdin held open, no MCP request ever sent) or ``rubi watch`` in
    ``project``, with its engine's runtime folder at ``runtime``; returns once it answers."""
    from rubi.engine.address import Address

    argv = [RUBI, "serve", "--project", str(project)] if host == "serve" else [RUBI, "watch"]
    proc = subprocess.Popen(
        argv,
        cwd=project,
        env={**env, "XDG_RUNTIME_DIR": str(runtime)},
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    vault = os.path.realpath(project / ".rubi")
    socket_path = Path(Address(vault, str(runtime / "rubi")).socket)
    wait_for_engine(socket_path, proc, 60, ready=False)
    demand_loading(project, env, runtime)
    wait_for_engine(socket_path, proc, 120)
    return proc


def demand_loading(project: Path, env: dict[str, str], runtime: Path) -> None:
    """Ask a started engine to load what the recall needs: ``rubi serve``'s engine
    loads on demand (the first request that needs the search stack is refused,
    ``warming up``, and asks for it; ``rubi.engine.warmup``), and a ping does not ask.
    One UserPromptSubmit request through the client, in a child process with the
    bench's environment: refused, it runs nothing (the child does not run it cold)."""
    code = (
        "import json, sys; from rubi.engine.client import try_engine; "
        "raw = sys.stdin.read(); try_engine('UserPromptSubmit', raw, json.loads(raw))"
    )
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": "x"})
    run_child(
        [sys.executable, "-c", code],
        stdin=raw.encode(),
        cwd=project,
        env={**env, "XDG_RUNTIME_DIR": str(runtime)},
    )


def measure_starting(
    host: str,
    project: Path,
    env: dict[str, str],
    runtime: Path,
    command: str,
    payload: bytes,
    runs: int,
) -> dict[str, list[float]]:
    """The prompt hook sent to an engine that has just started: each run starts the
    host (``rubi serve`` or ``rubi watch``), waits until its engine answers a ping (it
    serves, whatever it has loaded), runs the hook at once, then stops the host.
    ``wall``/``cpu``: the hook process (as :func:`measure`); ``ready_s``: how long the
    engine took from then on to say it had loaded everything (what a hook taken by a
    starting engine would wait behind); ``host_cpu``: the host's CPU seconds from its
    start to then (its threads together: the MCP SDK's import, the watcher's catch-up,
    the engine's loading)."""
    from rubi.engine.address import Address

    samples: dict[str, list[float]] = {
        "wall": [],
        "cpu": [],
        "out": [],
        "ready_s": [],
        "host_cpu": [],
    }
    vault = os.path.realpath(project / ".rubi")
    socket_path = Path(Address(vault, str(runtime / "rubi")).socket)
    child_env = {**env, "XDG_RUNTIME_DIR": str(runtime)}
    for _ in range(runs):
        argv = [RUBI, "serve", "--project", str(project)] if host == "serve" else [RUBI, "watch"]
        proc = subprocess.Popen(
            argv,
            cwd=project,
            env=child_env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for_engine(socket_path, proc, 60, ready=False)
            run = run_child(["sh", "-c", command], stdin=payload, cwd=project, env=child_env)
            started = time.monotonic()
            wait_for_engine(socket_path, proc, 120, ready=True)
            samples["ready_s"].append(time.monotonic() - started)
            samples["host_cpu"].append(cpu_seconds(proc.pid))
            samples["wall"].append(run.wall_s)
            samples["cpu"].append(run.cpu_s)
            samples["out"].append(len(run.stdout.encode()))
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=10)
            if proc.poll() is None:
                proc.kill()
    return samples


def bytecode_note() -> str:
    """Whether this run's rubi imports from compiled bytecode (a wheel install compiles
    it; an editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` has none)."""
    import importlib.util

    import rubi.entry

    pyc = importlib.util.cache_from_source(rubi.entry.__file__)
    state = "present" if os.path.exists(pyc) else "MISSING (each hook compiles rubi's source)"
    prefix = f", PYTHONPYCACHEPREFIX={sys.pycache_prefix}" if sys.pycache_prefix else ""
    return f"rubi bytecode: {state}{prefix}"


Case = tuple[list[str], bytes, str]
"""argv, stdin, mode (``cold``: no engine to find; ``engine``: the host's answers)."""


def build_cases(
    commands: dict[str, str], events: dict[str, dict[str, Any]], modes: tuple[str, ...]
) -> dict[str, Case]:
    """The floor, each configured event cold (and through the engine when it answers
    that event), a long prompt, and UserPromptSubmit spawned without the shell."""
    from rubi.engine.protocol import ENGINE_EVENTS

    cases: dict[str, Case] = {
        "floor: python -c pass": ([sys.executable, "-c", "pass"], b"", "cold"),
        "floor: python -S -c pass": ([sys.executable, "-S", "-c", "pass"], b"", "cold"),
        "floor: python -I -S -c pass": ([sys.executable, "-I", "-S", "-c", "pass"], b"", "cold"),
    }
    ups = events["UserPromptSubmit"]
    events = {**events, "UserPromptSubmit, long prompt": {**ups, "prompt": long_prompt()}}
    for event, payload in events.items():
        name = event.split(",")[0]
        if name not in commands:
            continue
        for mode in modes:
            if mode == "engine" and name.lower() not in ENGINE_EVENTS:
                continue
            label = event.replace(",", f", {mode},") if "," in event else f"{event}, {mode}"
            cases[label] = (["sh", "-c", commands[name]], json.dumps(payload).encode(), mode)
    cases["UserPromptSubmit, cold, direct (no sh)"] = (
        [RUBI, "hook", "UserPromptSubmit"],
        json.dumps(ups).encode(),
        "cold",
    )
    for mode in modes:  # the CLI an agent calls through its shell tool
        cases[f"rubi search, {mode}"] = ([RUBI, "search", *SEARCH_WORDS], b"", mode)
    return cases


def measure(
    cases: dict[str, Case],
    rounds: int,
    warmup: int,
    project: Path,
    env: dict[str, str],
    runtimes: dict[str, Path],
    host: subprocess.Popen[bytes] | None,
    pause_s: float = 0.0,
) -> dict[str, dict[str, list[float]]]:
    """Every case once per round, interleaved; the first ``warmup`` rounds unrecorded.
    ``engine_cpu``: the host's CPU seconds during the call (its /proc ticks, 10 ms).
    ``pause_s``: a quiet spell before each call (a session's hooks are seconds apart;
    back to back, the host's watcher and the engine's rewarm fall inside the next
    call)."""
    samples: dict[str, dict[str, list[float]]] = {
        k: {"wall": [], "cpu": [], "out": [], "engine_cpu": []} for k in cases
    }
    for n in range(rounds):
        for name, (argv, data, mode) in cases.items():
            child_env = {**env, "XDG_RUNTIME_DIR": str(runtimes[mode])}
            watched = host is not None and mode == "engine"
            if pause_s:
                time.sleep(pause_s)
            before = cpu_seconds(host.pid) if host is not None and watched else 0.0
            run = run_child(argv, stdin=data, cwd=project, env=child_env)
            after = cpu_seconds(host.pid) if host is not None and watched else 0.0
            if n < warmup:
                continue
            samples[name]["wall"].append(run.wall_s)
            samples[name]["cpu"].append(run.cpu_s)
            samples[name]["out"].append(len(run.stdout.encode()))
            samples[name]["engine_cpu"].append(after - before)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=20, help="calls per event (default 20)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured calls first (1)")
    parser.add_argument(
        "--transcript", type=Path, default=None, help="default: the 125 KB real shared sample"
    )
    parser.add_argument("--hooks", type=Path, default=REPO / "hooks" / "hooks.json")
    parser.add_argument("--in-place", action="store_true", help="run in PROJECT itself (writes)")
    parser.add_argument(
        "--engine",
        choices=("serve", "watch", "none"),
        default="serve",
        help="process that hosts the engine for the engine rows (default serve; none: cold only)",
    )
    parser.add_argument("--no-index", action="store_true", help="PROJECT is indexed already")
    parser.add_argument(
        "--pause", type=float, default=0.0, help="seconds of quiet before each call (0)"
    )
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
    parser.add_argument(
        "--starting",
        type=int,
        default=0,
        help="also run UserPromptSubmit this many times against a just-started engine (0)",
    )
    args = parser.parse_args()
    if not (args.project / ".rubi").is_dir():
        raise SystemExit(f"{args.project}: no .rubi/ folder; run `rubi init` there first")
    commands = hook_commands(args.hooks)
    tmp = Path(tempfile.mkdtemp(prefix="rubi-hooks-bench-"))
    from rubi import app

    project = args.project.resolve()
    failures = ""
    host: subprocess.Popen[bytes] | None = None
    try:
        if not args.in_place:
            project = tmp / args.project.resolve().name
            shutil.copytree(args.project, project, symlinks=True)
        env = dict(os.environ)
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
        env["CLAUDE_PROJECT_DIR"] = str(project)
        env["RUBI_VAULT"] = str(tmp / "no-personal-vault")
        # Cold rows look for an engine in an empty runtime folder (the client's cost
        # included); engine rows in the one the host's engine listens in.
        runtimes = {"cold": tmp / "run-cold", "engine": tmp / "run-engine"}
        for folder in runtimes.values():
            folder.mkdir(mode=0o700)
        if not args.no_index:
            run_child([RUBI, "index"], cwd=project, env=env)
        index_dir = app.locate(cwd=project).index_dir
        transcript = tmp / "transcript.jsonl"
        source = args.transcript or default_transcript()
        if source is not None:
            shutil.copyfile(source, transcript)
        else:
            transcript.write_text("", encoding="utf-8")
        big = tmp / "big.log"
        big.write_text("line\n" * 20_000, encoding="utf-8")
        modes = ("cold",) if args.engine == "none" else ("cold", "engine")
        cases = build_cases(commands, payloads(project, transcript, big), modes)
        if "engine" in modes:
            host = start_engine(args.engine, project, env, runtimes["engine"])
        log = index_dir / "hooks.log"
        log_before = log.stat().st_size if log.exists() else 0
        samples = measure(
            cases, args.warmup + args.runs, args.warmup, project, env, runtimes, host, args.pause
        )
        if args.starting and args.engine != "none":
            host.terminate()
            host.communicate(timeout=10)
            host = None
            ups = cases["UserPromptSubmit, engine"]
            samples["UserPromptSubmit, engine just started"] = measure_starting(
                args.engine,
                project,
                env,
                runtimes["engine"],
                commands["UserPromptSubmit"],
                ups[1],
                args.starting,
            )
        if log.exists() and log.stat().st_size > log_before:
            with open(log, encoding="utf-8", errors="replace") as fh:
                fh.seek(log_before)
                failures = fh.read()
        console = Console(width=None if sys.stdout.isatty() else 160)
        console.print(table(project.name, args, samples))
        console.print(bytecode_note())
        if failures:
            console.print("[red]hooks failed (hooks.log):[/]\n" + failures[-3000:])
        if args.json:
            args.json.write_text(json.dumps(samples, indent=1), encoding="utf-8")
        if not args.in_place:
            shutil.rmtree(index_dir, ignore_errors=True)
    finally:
        if host is not None:
            host.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                host.communicate(timeout=10)
            if host.poll() is None:
                host.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


def table(name: str, args: argparse.Namespace, samples: dict[str, dict[str, list[float]]]) -> Table:
    t = Table(
        title=f"rubi hooks end to end (sh -c from hooks.json, fresh process each), {name}, "
        f"{args.runs} calls each, engine host: {args.engine}, load {os.getloadavg()[0]:.1f}"
    )
    columns = ("hook", "wall p50", "wall p95", "CPU p50", "CPU p95", "engine CPU", "out bytes")
    for col in (*columns, "× floor", "goal p50"):
        t.add_column(col, justify="left" if col == "hook" else "right")
    floor = samples.get("floor: python -c pass", {}).get("wall") or [0.0]
    floor_s = pct(floor, 50)
    for case, s in samples.items():
        event = case.split(",")[0]
        goal = GOAL_MS.get(event)
        engine_cpu = (
            sum(s.get("engine_cpu", [])) / len(s["engine_cpu"]) if s.get("engine_cpu") else 0.0
        )
        ready = s.get("ready_s")
        t.add_row(
            case,
            f"{pct(s['wall'], 50) * 1000:,.0f} ms",
            f"{pct(s['wall'], 95) * 1000:,.0f} ms",
            f"{pct(s['cpu'], 50) * 1000:,.0f} ms",
            f"{pct(s['cpu'], 95) * 1000:,.0f} ms",
            f"{engine_cpu * 1000:,.1f} ms"
            if ", engine" in case and not ready
            else (
                f"ready +{pct(ready, 50):.1f} s, host {pct(s['host_cpu'], 50):.2f} s CPU"
                if ready
                else ""
            ),
            f"{pct(s['out'], 50):,.0f}",
            f"{pct(s['wall'], 50) / floor_s:,.1f}×" if floor_s else "",
            f"{goal} ms" if goal and case.count(",") == 1 else "",
        )
    return t


if __name__ == "__main__":
    raise SystemExit(main())
