"""Edit → searchable through a bare ``rubi serve`` in its first seconds (issue 29).

Usage::

    python bench/serve_edit_bench.py PROJECT --starts 5 [--at 0.5 1 2 5 10 20]
        [--behind] [--base BASE_SRC] [--poll 0.25] [--deadline 30]

PROJECT is a folder with ``.rubi/`` (``rubi init``), indexed here once with its own
``HOME`` and ``XDG_CACHE_HOME`` in a scratch folder; before each start the project and
its cache are restored from that copy at the same paths (the index is keyed by the
project's path). Each start spawns a bare ``rubi serve`` in the project (as Claude
Code's plugin does), speaks MCP 2025-11-25 line by line (``initialize``,
``tools/list``, one first ``search``), then at each ``--at`` second after the spawn
adds a function with a new word to a code file and a new word to a note, and searches
every ``--poll`` seconds for each word not found yet until a hit's path is the edited
file, or ``--deadline`` seconds after its edit (then counted as missed). ``--behind``:
a code file and a note are edited before the spawn (an index behind at start; their
words are searched from the first search on). ``--base``: another source tree's
``src``, alternated with this tree's, start by start. Printed: per edit time, edit →
searchable wall (s) for code and note, each start's figure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchproc import Lines, end_on_eof

HERE = Path(__file__).resolve().parent
RUBI = str(Path(sys.executable).with_name("rubi"))
INIT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "b", "version": "1"},
}
CODE_FILE = "src/click/_compat.py"
NOTE_DIR = ".rubi/notes"


def _env(work: Path, src: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HOME=str(work / "home"),
        XDG_CACHE_HOME=str(work / "cache"),
        PYTHONHASHSEED="0",
        PYTHONPATH=str(src),
    )
    return env


class Client:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.proc, self.lines, self.rid = proc, Lines(proc.stdout.fileno()), 0

    def ask(self, method: str, params: Any = None) -> Any:
        self.rid += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.rid, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        deadline = time.monotonic() + 120
        while True:
            line = self.lines.line(max(0.0, deadline - time.monotonic()))
            if not line:
                raise RuntimeError(f"no answer to {method}")
            answer = json.loads(line)
            if answer.get("id") == self.rid:
                return answer.get("result")

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def finds(self, word: str, hit: str) -> bool:
        """Whether a search for ``word`` answers ``hit`` (an id) with the word shown."""
        result = self.ask("tools/call", {"name": "search", "arguments": {"query": word}})
        found = result.get("structuredContent") or {}
        return hit in found.get("ids", []) and word in str(found.get("text", ""))


def _edit(project: Path, tag: str) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """Append a function named by a new word to the code file, write a note with
    another; the (word, path the hit must name, kind) of each."""
    letters = "".join(chr(ord("a") + int(c)) if c.isdigit() else "p" for c in tag)
    code_word, note_word = f"zqcode{letters}", f"zqnote{letters}"
    with open(project / CODE_FILE, "a", encoding="utf-8") as f:
        f.write(f"\n\ndef {code_word}_handler() -> None:\n    return None\n")
    note = f"edit-{tag}.md"
    (project / NOTE_DIR / note).write_text(
        f"---\ntitle: Edit {tag}\n---\n# Edit {tag}\n\nThe {note_word} setting.\n", encoding="utf-8"
    )
    return (code_word, CODE_FILE, "code"), (note_word, f"notes/edit-{tag}", "note")


def one_start(
    work: Path, src: Path, at: list[float], behind: bool, poll: float, deadline: float
) -> dict[str, Any]:
    project, cache = work / "proj", work / "cache"
    for target, saved in ((project, work / "proto"), (cache, work / "proto-cache")):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(saved, target, symlinks=True)
    pending: list[tuple[str, str, str, float, float]] = []  # word, path, kind, at, edited
    if behind:
        pending += [(*w, -1.0, 0.0) for w in _edit(project, "pre")]
    started = time.monotonic()
    proc = subprocess.Popen(
        [RUBI, "serve"],
        cwd=project,
        env=_env(work, src),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    found: dict[tuple[str, float], float | None] = {}
    try:
        client = Client(proc)
        client.ask("initialize", INIT)
        client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        client.ask("tools/list")
        client.finds("command line options", "")
        first = time.monotonic() - started
        times = list(at)
        while times or pending:
            now = time.monotonic() - started
            while times and times[0] <= now:
                t = times.pop(0)
                pending += [
                    (*w, t, time.monotonic() - started)
                    for w in _edit(project, str(t).replace(".", "_"))
                ]
            for item in list(pending):
                word, path, kind, t, edited = item
                now = time.monotonic() - started
                if client.finds(word, path):
                    found[(kind, t)] = time.monotonic() - started - edited
                    pending.remove(item)
                elif now - edited > deadline:
                    found[(kind, t)] = None
                    pending.remove(item)
            next_edit = (times[0] if times else float("inf")) - (time.monotonic() - started)
            time.sleep(max(0.0, min(poll, next_edit)))
    finally:
        end_on_eof(proc)
    return {"first": first, "found": found}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("project", type=Path)
    parser.add_argument("--work", type=Path, required=True, help="a scratch folder (emptied)")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--at", type=float, nargs="+", default=[0.5, 1, 2, 5, 10, 20])
    parser.add_argument("--behind", action="store_true")
    parser.add_argument("--base", type=Path, help="another tree's src, alternated")
    parser.add_argument("--poll", type=float, default=0.25)
    parser.add_argument("--deadline", type=float, default=30.0)
    args = parser.parse_args()
    work: Path = args.work
    shutil.rmtree(work, ignore_errors=True)
    (work / "home").mkdir(parents=True)
    shutil.copytree(
        args.project, work / "proj", symlinks=True, ignore=shutil.ignore_patterns(".git")
    )
    here = HERE.parent / "src"
    env = _env(work, here)
    for argv in ([RUBI, "init"], [RUBI, "index"]):
        if not (work / "proj" / ".rubi").is_dir() or argv[1] == "index":
            subprocess.run(argv, cwd=work / "proj", env=env, check=True, capture_output=True)
    shutil.copytree(work / "proj", work / "proto", symlinks=True)
    shutil.copytree(work / "cache", work / "proto-cache", symlinks=True)
    trees = [("new", here)] + ([("base", args.base)] if args.base else [])
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    for i in range(args.starts):
        for name, src in trees if i % 2 == 0 else trees[::-1]:
            r = one_start(work, src, args.at, args.behind, args.poll, args.deadline)
            runs[name].append(r)
            print(
                name,
                f"first {r['first']:.2f}",
                {f"{k}@{t}": v and round(v, 2) for (k, t), v in r["found"].items()},
                flush=True,
            )
    print(f"load {os.getloadavg()[0]:.1f}")
    for name, rs in runs.items():
        print(
            f"== {name}: start → first search "
            f"{statistics.median(r['first'] for r in rs):.2f} s (median)"
        )
        for key in sorted({k for r in rs for k in r["found"]}, key=lambda k: (k[0], k[1])):
            vals = [r["found"].get(key) for r in rs]
            seen = sorted(v for v in vals if v is not None)
            missed = sum(v is None for v in vals)
            med = f"{statistics.median(seen):.2f}" if seen else "-"
            print(
                f"  {key[0]:4} edit at {key[1]:>5}: median {med} s, "
                f"max {max(seen) if seen else 0:.2f}, missed {missed}/{len(vals)}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
