"""A ``claude -p`` session's rubi processes taken apart by phase: one real session
captured, then its MCP stream and its command hooks replayed into fresh processes of
one or more source trees, alternated.

Usage::

    python bench/session_phases.py PROJECT --tree base=<base>/src --tree new=src
        [--notes VAULT_FOLDER] [--rounds 6] [--claude PATH] [--plain]
        [--plain-tree NAME=SRC] [--threads] [--prepared HOME] [--keep DIR]

PROJECT is copied and prepared as ``bench/session_bench.py`` prepares its rubi case
(``rubi init``, ``--notes`` copied in, ``rubi index``; a fresh ``HOME``). One session
runs through a copy of this checkout's plugin whose ``.mcp.json`` starts ``sh -c 'tee
<stream> | rubi serve'`` and whose SessionStart and SessionEnd commands ``tee`` their
payloads: what Claude Code sent, byte for byte. Then, each round, for each tree in
turn (the order swapped every round):

- a fresh ``rubi serve`` (``PYTHONPATH`` the tree) is given the captured messages one
  by one, each request's answer read before the next is sent (as Claude Code waits for
  a hook's answer), stdin then closed; its CPU is read from ``/proc/<pid>/stat``
  (every thread, 10 ms ticks) after each answer, and in all from ``wait4``. Each
  replay gets a session id of its own, so no replay reads the state another left;
- the captured SessionStart and SessionEnd payloads are run as the cold ``rubi hook``
  processes the plugin starts (CPU from ``wait4``); SessionEnd only for a tree whose
  plugin runs the command for the payload's reason (:func:`runs_session_end`: since
  the twenty-sixth pass the server does SessionEnd's work when the session's process
  ends, counted in its exit; the capture runs the command at every end);
- the session's UserPromptSubmit, the same arguments made the hook JSON a command
  hook reads (:func:`rubi.claude.hooks.toolcall.payload_of`), run as a cold ``rubi
  hook UserPromptSubmit`` process (no server: what a recall costs a process of its
  own, beside what the server's first recall costs; its answer must be the server's);
- the floor ``python -c pass``.

With ``--plain``, every replayed process runs with ``RUBI_SEMANTIC=0`` (the dense
channel off, as ``bench/cold_recall.py --semantic 0`` measures a cold hook): the
session itself is captured as usual. With ``--plain-tree NAME=SRC``, a tree replayed
by a plain install (:mod:`plainenv`: no numpy importable, which ``RUBI_SEMANTIC=0``
is not), alternated with the others on the same prepared project; ``SRC`` must be a
path no ``--tree`` names (a symlink to the same ``src`` will do). Its answers are
expected to differ from a dense-on tree's (the dense list is missing).

With ``--threads``, each replayed server runs through a wrapper that gives every
Python thread its name as its OS thread name (``prctl(PR_SET_NAME)``, 15 bytes) and
the CPU of each thread (``/proc/<pid>/task/*/schedstat``, nanoseconds) is read just
before stdin is closed: rows ``thread main``, ``thread rubi-watch``... (a thread that
ended before is not listed; the wrapper adds a few milliseconds of imports).
With ``--prepared HOME``, PROJECT is used as it is, already initialised and indexed
with ``HOME`` as its home (derived files under ``HOME/.cache``): no copy, no index run
(a project of thousands of notes indexed once). The session and the replays write
into it (session records, state).

With ``--keep DIR``, the captured stream (``mcp.jsonl``) and the command hooks'
payloads (``SessionStart.json``, ``SessionEnd.json``) are copied into ``DIR``, to
replay them elsewhere (instruction counts under a profiler).

Printed: CPU p50 (min-max) per phase (the handshake, ``tools/list``, each hook event's
calls summed, the exit after stdin closed, the whole server; the two command hooks),
per tree, and whether every tree's answers were byte-identical in every round.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import session_bench as sb
from plainenv import plain_env

TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
RUBI = str(Path(sys.executable).parent / "rubi")


def capture_plugin(folder: Path, out: Path) -> Path:
    """A copy of this checkout's plugin files that records what Claude Code sends."""
    for name in (".claude-plugin", "hooks", "skills", "agents"):
        if (sb.ROOT / name).exists():
            shutil.copytree(sb.ROOT / name, folder / name)
    server = {"type": "stdio", "command": "sh", "args": ["-c", f"tee {out}/mcp.jsonl | rubi serve"]}
    (folder / ".mcp.json").write_text(json.dumps({"mcpServers": {"rubi": server}}))
    hooks = folder / "hooks" / "hooks.json"
    text = hooks.read_text(encoding="utf-8")
    for event in ("SessionStart", "SessionEnd"):
        text = text.replace(
            f"exec rubi hook {event}", f"tee {out}/{event}.json | rubi hook {event}"
        )
    config = json.loads(text)
    for group in config["hooks"]["SessionEnd"]:  # captured at every end, whatever the
        group.pop("matcher", None)  # plugin's matcher; each tree's is applied in replay
    hooks.write_text(json.dumps(config, indent=1), encoding="utf-8")
    return folder


def runs_session_end(src: str, payload: bytes) -> bool:
    """Whether the plugin of the tree whose sources are ``src`` (its ``hooks/hooks.json``
    beside them) runs the SessionEnd command for ``payload``'s ``reason``: a group
    without a matcher, or whose matcher matches the reason whole (the plugin's server
    does SessionEnd's work for the other reasons: ``rubi.engine.sessionend``)."""
    config = json.loads((Path(src).resolve().parent / "hooks" / "hooks.json").read_bytes())
    reason = str(json.loads(payload).get("reason") or "")
    return any(
        not group.get("matcher") or re.fullmatch(group["matcher"], reason)
        for group in config["hooks"].get("SessionEnd", [])
    )


def _renamed(text: str, session: str, fresh: str) -> str:
    """``text`` with its ``session_id`` field set to ``fresh`` (the transcript path, which
    holds the captured id too, still names the captured session's transcript)."""
    for sep in (":", ": "):
        text = text.replace(f'"session_id"{sep}"{session}"', f'"session_id"{sep}"{fresh}"')
    return text


PLAIN: dict[str, str] = {}
"""Set for every replayed process (``--plain``: ``RUBI_SEMANTIC=0``)."""


BINS: dict[str, Path] = {}
"""A tree's ``bin`` when it runs as a plain install (``--plain-tree``), by its source."""


def _rubi(src: str) -> str:
    return str(BINS[src] / "rubi") if src in BINS else RUBI


def _env(home: Path, src: str) -> dict[str, str]:
    env = sb.rubi_env(home, BINS.get(src))
    env.update(PLAIN)
    env["PYTHONPATH"] = src
    env["PYTHONHASHSEED"] = "0"
    env["CLAUDE_PLUGIN_ROOT"] = str(sb.ROOT)
    return env


def _cpu(pid: int) -> float:
    raw = Path(f"/proc/{pid}/stat").read_bytes()
    fields = raw[raw.rindex(b")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) * TICK_S


NAMED_THREADS = (
    "import ctypes, runpy, sys, threading\n"
    "libc = ctypes.CDLL(None)\n"
    "run = threading.Thread.run\n"
    "def named(self):\n"
    "    libc.prctl(15, self.name.encode()[:15], 0, 0, 0)\n"
    "    run(self)\n"
    "threading.Thread.run = named\n"
    "sys.argv = ['rubi', 'serve']\n"
    "runpy.run_module('rubi.entry', run_name='__main__')\n"
)
"""``rubi serve`` with each Python thread's name as its OS thread name (``--threads``)."""

THREADS: list[bool] = []
"""Set (``--threads``): replay through :data:`NAMED_THREADS`, CPU per thread."""


def _command(src: str) -> list[str]:
    if not THREADS:
        return [_rubi(src), "serve"]
    python = str(BINS[src] / "python") if src in BINS else sys.executable
    return [python, "-c", NAMED_THREADS]


def _threads_cpu(pid: int) -> dict[str, float]:
    """CPU seconds of each live thread of ``pid`` by its OS name (``main`` for the
    first), summed over threads of one name."""
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = "main" if task.name == str(pid) else (task / "comm").read_text().strip()
            spent = int((task / "schedstat").read_text().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
        out[f"thread {name}"] = out.get(f"thread {name}", 0.0) + spent
    return out


def replay(project: Path, home: Path, lines: list[str], src: str) -> tuple[dict[str, float], bytes]:
    """CPU by phase of a fresh ``rubi serve`` given ``lines``; its answers."""
    proc = subprocess.Popen(
        _command(src),
        cwd=project,
        env=_env(home, src),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    phases: dict[str, float] = {}
    answers = []
    seen = 0.0
    for line in lines:
        message = json.loads(line)
        proc.stdin.write(line.encode())
        proc.stdin.flush()
        if "id" not in message:
            continue
        answers.append(proc.stdout.readline())
        arguments = (message.get("params") or {}).get("arguments") or {}
        name = " ".join(filter(None, [message.get("method"), arguments.get("event")]))
        now = _cpu(proc.pid)
        phases[name] = phases.get(name, 0.0) + now - seen
        seen = now
    if THREADS:
        phases.update(_threads_cpu(proc.pid))
    proc.stdin.close()
    _pid, _status, usage = os.wait4(proc.pid, 0)
    total = usage.ru_utime + usage.ru_stime
    phases["exit"] = total - seen
    phases["server in all"] = total
    return phases, b"".join(answers)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_hook(
    project: Path, home: Path, event: str, payload: bytes, src: str
) -> tuple[float, bytes]:
    before = _children_cpu()
    run = subprocess.run(
        [_rubi(src), "hook", event],
        cwd=project,
        env=_env(home, src),
        input=payload,
        capture_output=True,
    )
    return _children_cpu() - before, run.stdout


def cold_prompt(lines: list[str]) -> bytes | None:
    """The hook JSON of the stream's first UserPromptSubmit call, as ``rubi hook
    UserPromptSubmit`` reads it on stdin (None: the session sent none)."""
    from rubi.claude.hooks.toolcall import payload_of

    for line in lines:
        arguments = (json.loads(line).get("params") or {}).get("arguments") or {}
        if arguments.get("event") == "UserPromptSubmit":
            return json.dumps(payload_of(arguments)[1], ensure_ascii=False).encode()
    return None


def _hook_text(answers: bytes) -> bytes:
    """The text of the first tool call's answer among a replay's answers (the
    handshake's and the list's have no ``content``)."""
    for line in answers.splitlines():
        content = (json.loads(line).get("result") or {}).get("content")
        if content:
            return str(content[0].get("text", "")).encode()
    return b""


def _project(
    given: Path, prepared: Path | None, notes: Path | None, work: Path
) -> tuple[Path, Path]:
    """The project to run and its ``HOME``: ``given`` as it is with ``prepared``, else
    a copy prepared in ``work`` (``rubi init``, ``notes`` copied in, ``rubi index``)."""
    if prepared is not None:
        return given.resolve(), prepared.resolve()
    project = sb.copy_project(given, work / "project" / given.name)
    home = work / "home"
    home.mkdir()
    sb.prepare_rubi(project, home, notes)
    return project, home


def print_phases(cpu: dict[str, dict[str, list[float]]]) -> None:
    """The table of CPU p50 (min-max) per phase (rows: every phase any tree has, in
    the order first seen), one column per tree."""
    print("\n| phase (CPU p50, ms; min-max) | " + " | ".join(cpu) + " |")
    print("|---|" + "---|" * len(cpu))
    keys = list(dict.fromkeys(key for phases in cpu.values() for key in phases))
    for key in keys:
        cells = []
        for phases in cpu.values():
            values: list[Any] = phases.get(key, [0.0])
            cells.append(
                f"{statistics.median(values) * 1000:.0f} "
                f"({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"
            )
        print(f"| {key} | " + " | ".join(cells) + " |")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--tree", action="append", required=True, metavar="NAME=SRC")
    parser.add_argument("--notes", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--claude", default=None)
    parser.add_argument("--plain", action="store_true", help="replay with RUBI_SEMANTIC=0")
    parser.add_argument(
        "--plain-tree",
        action="append",
        default=[],
        metavar="NAME=SRC",
        help="also replay SRC as a plain install (no numpy: bench/plainenv.py)",
    )
    parser.add_argument("--threads", action="store_true", help="CPU per named thread too")
    parser.add_argument(
        "--prepared",
        type=Path,
        default=None,
        metavar="HOME",
        help="PROJECT is indexed already with this HOME: no copy, no index run",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="copy the captured MCP stream and command-hook payloads into DIR",
    )
    return parser


def session_end(project: Path, home: Path, payload: bytes, src: str) -> tuple[float, bytes]:
    """The SessionEnd command hook of ``src``'s plugin for ``payload`` as
    :func:`command_hook` runs it, or no process (``0.0``, no output) where the plugin
    runs none for its reason (:func:`runs_session_end`: the server did the work)."""
    if not runs_session_end(src, payload):
        return 0.0, b""
    return command_hook(project, home, "SessionEnd", payload, src)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.threads:
        THREADS.append(True)
    trees = dict(spec.split("=", 1) for spec in args.tree)
    plain_trees = dict(spec.split("=", 1) for spec in args.plain_tree)
    if plain_trees and set(plain_trees.values()) & set(trees.values()):
        parser.error("--plain-tree: give a source path no --tree names (a copy or a symlink)")
    trees.update(plain_trees)
    if args.plain:
        PLAIN["RUBI_SEMANTIC"] = "0"
    with tempfile.TemporaryDirectory(prefix="rubi-session-phases-") as tmp:
        work = Path(tmp)
        if plain_trees:
            bindir = plain_env(work / "plain-python")
            BINS.update({src: bindir for src in plain_trees.values()})
        project, home = _project(args.project, args.prepared, args.notes, work)
        caught = work / "caught"
        caught.mkdir()
        plugin = capture_plugin(work / "plugin", caught)
        files = [p.relative_to(project) for p in sb.pick_files(project)]
        got = sb.one_session(sb.find_claude(args.claude), project, home, True, files, plugin=plugin)
        if not got["ok"]:
            sys.exit(f"the captured session failed: {got['error']}")
        stream = (caught / "mcp.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
        session = next(
            str(args_["session_id"])
            for args_ in (
                (json.loads(line).get("params") or {}).get("arguments") or {} for line in stream
            )
            if args_.get("session_id")
        )
        hooks = {e: (caught / f"{e}.json").read_bytes() for e in ("SessionStart", "SessionEnd")}
        if args.keep is not None:
            shutil.copytree(caught, args.keep, dirs_exist_ok=True)
        cpu: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
        differ: set[str] = set()
        runs = 0
        for i in range(args.rounds):
            answers: dict[str, list[bytes]] = {}
            for name in list(trees) if i % 2 == 0 else list(trees)[::-1]:
                runs += 1  # a session id of its own: no replay reads another's state
                fresh = f"{session[:-4]}{runs:04d}"
                lines = [_renamed(line, session, fresh) for line in stream]
                outs = []
                spent, text = command_hook(
                    project,
                    home,
                    "SessionStart",
                    _renamed(hooks["SessionStart"].decode(), session, fresh).encode(),
                    trees[name],
                )
                outs.append(text)
                phases, out = replay(project, home, lines, trees[name])
                outs.append(out.replace(fresh.encode(), session.encode()))
                phases["rubi hook SessionStart"] = spent
                payload = _renamed(hooks["SessionEnd"].decode(), session, fresh).encode()
                spent, text = session_end(project, home, payload, trees[name])
                phases["rubi hook SessionEnd"] = spent
                outs.append(text)
                runs += 1  # the cold recall under a session id of its own too
                cold = f"{session[:-4]}{runs:04d}"
                prompt = cold_prompt([_renamed(line, session, cold) for line in stream])
                if prompt is not None:
                    event = "UserPromptSubmit"
                    spent, text = command_hook(project, home, event, prompt, trees[name])
                    phases["cold rubi hook UserPromptSubmit"] = spent
                    outs.append(text)
                    if text.rstrip(b"\n") != _hook_text(out).rstrip(b"\n"):
                        differ.add("the cold recall against the server's")
                answers[name] = outs
                for key, value in phases.items():
                    cpu[name].setdefault(key, []).append(value)
            parts = ("SessionStart", "server", "SessionEnd", "cold UserPromptSubmit")
            one = next(iter(answers.values()))
            for outs in answers.values():
                differ |= {
                    parts[k] for k, (a, b) in enumerate(zip(outs, one, strict=True)) if a != b
                }
            floor = sb.pass_floor()[1]
            for name in trees:
                cpu[name].setdefault("floor python -c pass", []).append(floor)
        print(f"session: {got['requests']} API requests; {len(stream)} MCP messages captured")
        print_phases(cpu)
        print(
            "\nanswers byte-identical across trees in every round: "
            + ("yes" if not differ else "no: " + ", ".join(sorted(differ)))
            + f"; load average {os.getloadavg()[0]:.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
