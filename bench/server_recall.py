"""The session's first recall answered inside ``rubi serve`` against the same recall in
a cold ``rubi hook UserPromptSubmit`` process, with the floor ``python -c pass``.

Usage::

    python bench/server_recall.py PROJECT [--runs 7] [--prompt TEXT]

PROJECT is an indexed project (``rubi init && rubi index``). Each round, in this order:
the floor; a cold hook process (the prompt's JSON on stdin, the console script as
Claude Code runs it; CPU from ``wait4``); a fresh ``rubi serve`` (started in PROJECT,
as the plugin's ``.mcp.json`` starts it) given the 2025-11-25 handshake and
``tools/list``, then, after a pause, the plugin's ``hook`` tool call for that prompt and
one for a second prompt (each prompt also run by a cold process, to compare the
answers' bytes). The server's CPU is read per thread from
``/proc/<pid>/task/*/schedstat`` (nanoseconds) around each call, so its start and its
background work before the call are not counted; a thread started during the call
counts whole. Printed: CPU and wall p50 (min–max) per part, and whether every server
answer was the cold process's bytes.

``--cold-model`` drops the semantic model's token table (``vectors.npy`` of the rubi
measured) from the page cache (``posix_fadvise`` ``DONTNEED``, that file only) before
each cold process and each server: the first session after the file left memory.

The ``rubi`` beside this interpreter is run, with this process's environment:
set ``PYTHONPATH`` to the source tree to measure, ``HOME`` and ``XDG_CACHE_HOME`` to
the ones the project was indexed with.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchproc import fmt_ms, pass_floor, run_child, thread_cpu_delta_s, thread_cpu_ns

RUBI = str(Path(sys.executable).with_name("rubi"))
PROMPT = "when do the login tokens expire? the session drops at midnight"
SECOND = "which notes say how the cache server is restarted"
HANDSHAKE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "server-recall-bench", "version": "1"},
}


def _send(pipe: IO[str], message: dict[str, Any]) -> None:
    pipe.write(json.dumps(message) + "\n")
    pipe.flush()


def _hook_call(n: int, project: Path, prompt: str) -> dict[str, Any]:
    arguments = {"event": "UserPromptSubmit", "cwd": str(project), "prompt": prompt}
    params = {"name": "hook", "arguments": {**arguments, "session_id": "bench"}}
    return {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}


def evict_model() -> None:
    """Drop the model's token table of the rubi measured from the page cache."""
    import os

    from rubi.semantic.encoder import weights_dir

    fd = os.open(weights_dir() / "vectors.npy", os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def served(project: Path, prompts: list[str], pause_s: float) -> list[tuple[float, float, str]]:
    """(CPU s, wall s, answer text) of each prompt's hook call in one fresh server."""
    proc = subprocess.Popen(
        [RUBI, "serve"], cwd=project, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    out: list[tuple[float, float, str]] = []
    try:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE}
        _send(proc.stdin, init)
        proc.stdout.readline()
        _send(proc.stdin, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc.stdin, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        proc.stdout.readline()
        time.sleep(pause_s)
        for n, prompt in enumerate(prompts, start=3):
            before, t0 = thread_cpu_ns(proc.pid), time.perf_counter()
            _send(proc.stdin, _hook_call(n, project, prompt))
            reply = json.loads(proc.stdout.readline())
            wall = time.perf_counter() - t0
            cpu = thread_cpu_delta_s(before, thread_cpu_ns(proc.pid))
            result = reply.get("result") or {}
            if result.get("isError") or not result.get("content"):
                raise RuntimeError(f"the hook call failed: {reply}")
            out.append((cpu, wall, result["content"][0]["text"]))
    finally:
        proc.stdin.close()
        proc.wait(15)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("project", type=Path)
    parser.add_argument("--runs", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--prompt", default=PROMPT)
    parser.add_argument("--second", default=SECOND, help="the second prompt")
    parser.add_argument("--pause", type=float, default=0.5, help="s between list and call")
    parser.add_argument(
        "--cold-model", action="store_true", help="the model's table out of the page cache"
    )
    args = parser.parse_args()
    project = args.project.resolve()

    def hook_json(prompt: str) -> bytes:
        payload = {"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": prompt}
        return json.dumps(payload).encode()

    keys = ("floor", "floor wall", "cold", "cold wall", "first", "first wall", "second")
    rows: dict[str, list[float]] = {k: [] for k in keys}
    same = 0
    for _ in range(args.runs):
        wall, cpu = pass_floor()
        rows["floor"].append(cpu)
        rows["floor wall"].append(wall)
        colds = []
        for p in (args.prompt, args.second):
            if args.cold_model:
                evict_model()
            hook = [RUBI, "hook", "UserPromptSubmit"]
            colds.append(run_child(hook, stdin=hook_json(p), cwd=project))
        rows["cold"].append(colds[0].cpu_s)
        rows["cold wall"].append(colds[0].wall_s)
        if args.cold_model:
            evict_model()
        answers = served(project, [args.prompt, args.second], args.pause)
        rows["first"].append(answers[0][0])
        rows["first wall"].append(answers[0][1])
        rows["second"].append(answers[1][0])
        same += all(a[2] == c.stdout for a, c in zip(answers, colds, strict=True))
        print(f"cold {colds[0].cpu_s * 1000:.0f} ms, server first recall", end=" ")
        print(f"{answers[0][0] * 1000:.0f} ms, second {answers[1][0] * 1000:.0f} ms", flush=True)
    labels = {
        "floor": "floor `python -c pass`",
        "cold": "cold `rubi hook UserPromptSubmit` process (all of it)",
        "first": "server: first recall (hook tool call)",
        "second": "server: second recall",
    }
    for key, label in labels.items():
        walls = rows.get(f"{key} wall")
        tail = f", wall {fmt_ms(walls)}" if walls else ""
        print(f"{label}: CPU {fmt_ms(rows[key])}{tail}")
    print(f"rounds whose two server answers were the cold processes' bytes: {same}/{args.runs}")


if __name__ == "__main__":
    main()
