"""Whole Claude Code sessions with rubi and without, side by side: the real CLI
(npm ``@anthropic-ai/claude-code``) against the scripted fake Messages API of the
end-to-end tests, one prompt that reads ten files, ``claude -p``.

Usage::

    python bench/session_bench.py PROJECT [--pairs 5] [--notes VAULT_FOLDER]
        [--claude PATH] [--json OUT] [--hooks] [--breakdown] [--variant NAME=DIR ...]
        [--base DIR] [--plain] [--floor]

PROJECT is a folder of code (a checkout). It is copied twice into a temporary folder:
``bare`` (no ``.rubi/``, no ``CLAUDE.md``) and ``rubi`` (``rubi init`` then ``rubi
index``, with ``--notes``'s markdown files copied into ``.rubi/notes/`` first, for a
project with thousands of notes). The rubi session loads this checkout as a plugin
(``claude --plugin-dir <checkout>``: its ``hooks/hooks.json`` and ``.mcp.json``, so
Claude Code starts ``rubi serve`` itself, as a user who installed the plugin has it),
with ``PATH`` starting at this interpreter's ``bin`` so the hooks and the server are
this checkout's ``rubi``. Each user has a fresh ``HOME``; the index is built once
before the runs (what a second session meets: no server running, index on disk).

The two cases alternate run by run (``bare, rubi, bare, rubi, ...``), so a change of
machine load touches both alike. Per case: wall p50 and max from spawn to exit, CPU
(user + sys of ``claude`` and every child it waited for, ``rubi serve`` and the hooks
included, from ``wait4``), the requests the API received, and whether rubi's tools
reached the first request (a run where they did not is reported, not hidden). Last:
the ratio of the medians, against the goal of 1.25 (issue "first seconds"), and the
floor ``python -c pass`` from the same run.

With ``--breakdown``, each session's CPU by process (:mod:`proctree`, ``/proc``
sampled every 10 ms): Claude Code's own (node), ``rubi serve``, each ``rubi hook
EVENT``, the rest; and the bytes of the first request to the API (tools, rubi's
tools, system prompt, first message), medians per case.

With ``--variant NAME=DIR`` (repeatable), a third, fourth... case per round: the
same rubi project loaded with the plugin folder ``DIR`` instead of this checkout (a
copy with parts removed: no skills, no hooks, no MCP server...), to attribute
Claude Code's own CPU to the plugin's parts; every case alternates in each round.
With ``--base DIR`` (a base checkout's ``src`` and plugin files, e.g. from ``git
archive``), a case ``base``: the same rubi project with ``DIR`` as the plugin folder
and ``PYTHONPATH=DIR/src``, so the base code and this tree's alternate in one run. The
base has its own copy of the project and its own ``HOME`` (its own derived data, indexed
by the base code): two trees of different index or graph formats on one copy would
rebuild each other's files inside every session.
With ``--plain``, a case ``plain``: a project of its own prepared and run by a plain
install's ``rubi`` (:mod:`plainenv`: this interpreter's packages without numpy, as the
README's first command installs rubi; ``RUBI_SEMANTIC=0`` leaves numpy importable),
its own ``HOME``; the ``rubi`` case keeps the ``semantic`` extra.
With ``--floor``, a case ``floor``: the same rubi project with a plugin of rubi's shape
that does nothing (:mod:`floor_plugin`: rubi's hooks with every command ``true`` and
every ``mcp_tool`` route answered empty by a one-tool standard-library server), so
Claude Code's own CPU for having hooks and a server at all is measured in the same
rounds; ``rubi`` minus ``floor`` is what rubi's processes and answers add.

Claude Code is found at ``--claude``, ``RUBI_CLAUDE_BIN``, or the end-to-end tests'
cache (``rubi-tests/claude-code``; ``pytest tests/e2e/test_claude_code.py`` installs
it). Nothing is downloaded here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
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
from floor_plugin import make_floor_plugin  # noqa: E402
from plainenv import plain_env  # noqa: E402
from proctree import TreeSampler, reap  # noqa: E402

from e2e.fake_api import FakeMessagesAPI  # noqa: E402

GOAL = 1.25
"""With rubi at most 1.25 times the session without it (median wall)."""
SKIP = {".git", ".rubi", ".venv", "node_modules", "CLAUDE.md", "__pycache__"}


def find_claude(given: str | None) -> str:
    """The Claude Code CLI: ``given``, ``RUBI_CLAUDE_BIN``, or the tests' cache."""
    if given:
        return given
    if os.environ.get("RUBI_CLAUDE_BIN"):
        return os.environ["RUBI_CLAUDE_BIN"]
    from platformdirs import user_cache_path

    local = user_cache_path("rubi-tests", appauthor=False) / "claude-code"
    found = local / "node_modules" / ".bin" / "claude"
    if not found.exists():
        sys.exit(f"{found}: no Claude Code CLI; run the e2e tests once or pass --claude")
    return str(found)


def copy_project(src: Path, dest: Path) -> Path:
    """``src`` without version control, vault or virtualenvs."""
    shutil.copytree(src, dest, ignore=lambda _d, names: [n for n in names if n in SKIP])
    return dest


def pick_files(project: Path, count: int = 10) -> list[Path]:
    """``count`` source files of the project, the largest first but under 40 kB (a
    Read of a huge file is the guard's case, not this bench's)."""
    files = [
        p
        for p in project.rglob("*")
        if p.is_file()
        and p.suffix in {".py", ".go", ".ts", ".js", ".rs", ".java", ".md"}
        and p.stat().st_size < 40_000
        and ".rubi" not in p.parts
    ]
    files.sort(key=lambda p: (-p.stat().st_size, str(p)))
    return files[:count]


def rubi_env(home: Path, bindir: Path | None = None) -> dict[str, str]:
    """A user's environment: ``home``, and ``PATH`` starting at ``bindir`` (this
    interpreter's ``bin`` unless given: where ``rubi`` is)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE", "RUBI"))}
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / ".cache")
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    env["XDG_RUNTIME_DIR"] = str(home / "run")
    (home / "run").mkdir(mode=0o700, parents=True, exist_ok=True)
    env["PATH"] = f"{bindir or Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def prepare_rubi(
    project: Path,
    home: Path,
    notes: Path | None,
    bindir: Path | None = None,
    src: Path | None = None,
) -> None:
    """``rubi init`` and a first ``rubi index`` (with ``notes`` copied in), by the
    ``rubi`` of ``bindir`` (this interpreter's unless given) running the code of ``src``
    when given (``PYTHONPATH``)."""
    env = rubi_env(home, bindir)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    rubi = str((bindir or Path(sys.executable).parent) / "rubi")
    subprocess.run([rubi, "init"], cwd=project, env=env, check=True, capture_output=True)
    if notes is not None:
        target = project / ".rubi" / "notes" / "imported"
        for md in notes.rglob("*.md"):
            if any(part.startswith(".") for part in md.relative_to(notes).parts):
                continue
            out = target / md.relative_to(notes)
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(md, out)
    subprocess.run([rubi, "index"], cwd=project, env=env, check=True, capture_output=True)


HOOK_LINES = {
    "server": re.compile(r"Hooks: mcp_tool calling plugin:rubi:rubi/"),
    "skipped": re.compile(r"mcp_tool hook skipped .* 'plugin:rubi:rubi' not connected"),
}
"""Lines of Claude Code's debug log (``--debug``, 2.1.197) for an ``mcp_tool`` hook
called on the plugin's server, and one skipped because the server was not connected
(yet, or any more). A command hook is logged only when it prints something; the
processes follow from ``hooks/hooks.json``: one per command hook that fires."""


CONNECTED = re.compile(r"^(\S+) .*MCP server \"plugin:rubi:rubi\": Successfully connected", re.M)
FIRST_CALL = re.compile(r"^(\S+) .*Hooks: mcp_tool calling plugin:rubi:rubi/", re.M)


def _ms(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000


def hook_counts(home: Path) -> dict[str, int]:
    """How many hooks of the session in ``home`` went to the plugin's server or were
    skipped (:data:`HOOK_LINES`), from its newest debug log; ``margin_ms``: how long
    the server had been connected when the first hook called it (small: the first
    prompt's recall came close to being skipped)."""
    logs = sorted((home / ".claude" / "debug").glob("*.txt"), key=lambda p: p.stat().st_mtime)
    text = logs[-1].read_text(encoding="utf-8", errors="replace") if logs else ""
    counts = {name: len(rx.findall(text)) for name, rx in HOOK_LINES.items()}
    connected, first = CONNECTED.search(text), FIRST_CALL.search(text)
    if connected and first:
        counts["margin_ms"] = round(_ms(first[1]) - _ms(connected[1]))
    return counts


def one_session(
    claude: str,
    project: Path,
    home: Path,
    with_rubi: bool,
    files: list[Path],
    debug: bool = False,
    breakdown: bool = False,
    plugin: Path | None = None,
    src: Path | None = None,
    bindir: Path | None = None,
) -> dict[str, Any]:
    """One ``claude -p`` session; wall, CPU and what the API saw (with ``debug``, the
    hooks' routes from Claude Code's debug log, :func:`hook_counts`; with
    ``breakdown``, CPU by process, :func:`by_process`); ``plugin``: the plugin folder
    to load instead of this checkout (with ``with_rubi``); ``src``: rubi's code for
    that case (``PYTHONPATH``); ``bindir``: where its ``rubi`` is (:func:`rubi_env`)."""
    api = FakeMessagesAPI().start()
    env = rubi_env(home, bindir)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    env.update(
        {
            "ANTHROPIC_API_KEY": "sk-test-dummy",
            "ANTHROPIC_BASE_URL": api.url,
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
    )
    prompt = "Read these files READ:" + ",".join(str(project / f) for f in files)
    args = [claude, "-p", prompt, "--output-format", "json", *(["--debug"] if debug else [])]
    if with_rubi:
        args += ["--plugin-dir", str(plugin or ROOT)]
    args += ["--allowedTools", "Read"]
    start = time.perf_counter()
    try:
        child = subprocess.Popen(
            args, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        sampler = TreeSampler(child.pid).start() if breakdown else None
        status, own, kids, total = reap(child.pid)
        wall = time.perf_counter() - start
        if sampler is not None:
            sampler.stop()
        out = child.stdout.read() if child.stdout else b""
        err = child.stderr.read() if child.stderr else b""
    finally:
        api.stop()
    first = next((b for b in api.requests if b.get("tools")), {})
    tools = {str(t.get("name")) for t in first.get("tools") or []}
    ok = os.waitstatus_to_exitcode(status) == 0
    return {
        "wall": wall,
        "cpu": total,
        "procs": by_process(own, kids, sampler) if sampler is not None else {},
        "first_request": request_bytes(first),
        "requests": len(api.requests),
        # a plugin's server's tools are named mcp__plugin_<plugin>_<server>__<tool>
        "rubi_tools": any(n.startswith(("mcp__rubi__", "mcp__plugin_rubi_rubi__")) for n in tools),
        "tool_names": sorted(n for n in tools if "rubi" in n),
        "ok": ok,
        "error": "" if ok else (err or out).decode("utf-8", "replace")[-300:],
        "hooks": hook_counts(home) if debug else {},
    }


def by_process(own: float, kids: float, sampler: TreeSampler) -> dict[str, float]:
    """CPU seconds of one session by process: ``claude`` (node's own), ``rubi serve``,
    each ``rubi hook EVENT``, ``other`` (git and shells Claude Code runs itself), and
    ``unsampled`` (children's CPU no sample saw: short lives and tails)."""
    parts: dict[str, float] = {"claude": own}
    for proc in sampler.procs.values():
        words = proc.cmd.split()
        names = [Path(w).name for w in words[:4]]
        if "rubi" in names:
            at = names.index("rubi")
            name = " ".join(["rubi", *words[at + 1 : at + 3]])
        else:
            name = "other"
        parts[name] = parts.get(name, 0.0) + proc.cpu_s
    parts["unsampled"] = max(0.0, kids - sum(p.cpu_s for p in sampler.procs.values()))
    return parts


def request_bytes(body: dict[str, Any]) -> dict[str, int]:
    """Bytes (compact JSON) of a request to the API: whole, ``tools``, rubi's tools,
    ``system``, and the first user message (where Claude Code puts skills and
    instructions of servers as reminders)."""

    def size(value: Any) -> int:
        return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())

    tools = body.get("tools") or []
    messages = body.get("messages") or []
    return {
        "all": size(body),
        "tools": size(tools),
        "rubi_tools": size([t for t in tools if "rubi" in str(t.get("name"))]),
        "system": size(body.get("system") or []),
        "first_message": size(messages[0]) if messages else 0,
    }


def print_breakdown(runs: dict[str, list[dict[str, Any]]]) -> None:
    """Median CPU per process kind and the first request's bytes, per case."""
    print("\n| process (CPU p50, s) | " + " | ".join(runs) + " |")
    print("|---|" + "---|" * len(runs))
    names = sorted({n for got in runs.values() for r in got for n in r["procs"]})
    for name in names:
        cells = [
            f"{statistics.median(r['procs'].get(name, 0.0) for r in got):.3f}"
            for got in runs.values()
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for key in ("requests",):
        cells = [f"{statistics.median(r[key] for r in got):.0f}" for got in runs.values()]
        print("| API requests | " + " | ".join(cells) + " |")
    for key in ("all", "tools", "rubi_tools", "system", "first_message"):
        cells = [
            f"{statistics.median(r['first_request'][key] for r in got):.0f}"
            for got in runs.values()
        ]
        print(f"| first request bytes: {key} | " + " | ".join(cells) + " |")


def print_summary(runs: dict[str, list[dict[str, Any]]]) -> None:
    """Wall and CPU medians per case, each case's ratio to ``bare``, and the floor."""
    base = statistics.median(pass_floor()[0] for _ in range(5))
    print()
    print("| case | wall p50 (s) | wall max (s) | CPU p50 (s) | runs ok |")
    print("|---|---|---|---|---|")
    med = {}
    for case, got in runs.items():
        walls = [r["wall"] for r in got]
        cpus = [r["cpu"] for r in got]
        med[case] = (statistics.median(walls), statistics.median(cpus))
        ok = sum(1 for r in got if r["ok"])
        print(
            f"| {case} | {med[case][0]:.2f} | {max(walls):.2f} | "
            f"{med[case][1]:.2f} | {ok}/{len(got)} |"
        )
    for name in runs:
        if name not in ("bare", "rubi"):
            print(
                f"{name}: CPU {med[name][1] / med['bare'][1]:.2f}x, "
                f"wall {med[name][0] / med['bare'][0]:.2f}x without rubi"
            )
    if "floor" in med:
        share = med["rubi"][1] - med["floor"][1]
        print(
            f"rubi's own share of CPU (rubi - floor): {share:.2f} s; Claude Code's for a "
            f"plugin of this shape (floor - bare): {med['floor'][1] - med['bare'][1]:.2f} s"
        )
    ratio_wall = med["rubi"][0] / med["bare"][0]
    ratio_cpu = med["rubi"][1] / med["bare"][1]
    print(
        f"\nwith rubi / without: wall {ratio_wall:.2f}x, CPU {ratio_cpu:.2f}x "
        f"(goal <= {GOAL}x); floor python -c pass {base * 1000:.0f} ms; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def plugin_cases(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[dict[str, Path], dict[str, Path]]:
    """The extra plugin folders by case name (``--base``, then each ``--variant``) and
    the ``src`` folder of the cases that bring their own code; a bad spec ends the run
    through ``parser.error``."""
    variants: dict[str, Path] = {}
    sources: dict[str, Path] = {}
    if args.base is not None:
        if not (args.base / "src" / "rubi").is_dir():
            parser.error(f"--base {args.base}: no src/rubi there")
        variants["base"] = args.base.resolve()
        sources["base"] = args.base.resolve() / "src"
    for spec in args.variant:
        name, sep, folder = spec.partition("=")
        if (
            not sep
            or name in ("bare", "rubi", "base", "floor", "plain", "")
            or not Path(folder).is_dir()
        ):
            parser.error(f"--variant {spec!r}: NAME=DIR with DIR a plugin folder")
        variants[name] = Path(folder).resolve()
    return variants, sources


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--notes", type=Path, default=None, help="markdown to add as notes")
    parser.add_argument("--claude", default=None)
    parser.add_argument("--json", type=Path, default=None, help="write every run here")
    parser.add_argument(
        "--hooks",
        action="store_true",
        help="count each session's hooks by route from Claude Code's debug log (costs CPU)",
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="CPU by process (claude's own, rubi serve, each hook) sampled from /proc",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="also run the rubi project with the plugin folder DIR, reported as NAME",
    )
    parser.add_argument(
        "--base",
        type=Path,
        default=None,
        metavar="DIR",
        help="also run a base checkout (DIR's plugin files, PYTHONPATH=DIR/src) as case base",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="also run a plain install (no numpy: bench/plainenv.py) as case plain",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also run a do-nothing plugin of rubi's shape (bench/floor_plugin.py) as case floor",
    )
    args = parser.parse_args(argv)
    variants, sources = plugin_cases(parser, args)
    claude = find_claude(args.claude)
    with tempfile.TemporaryDirectory(prefix="rubi-session-bench-") as tmp:
        work = Path(tmp)
        bare = copy_project(args.project, work / "bare" / args.project.name)
        withr = copy_project(args.project, work / "rubi" / args.project.name)
        files = [p.relative_to(bare) for p in pick_files(bare)]
        homes = {"bare": work / "home-bare", "rubi": work / "home-rubi"}
        bins: dict[str, Path] = {}
        if args.plain:
            homes["plain"] = work / "home-plain"
            bins["plain"] = plain_env(work / "plain-python")
        for home in homes.values():
            home.mkdir()
        prepare_rubi(withr, homes["rubi"], args.notes)
        notes = sum(1 for _ in (withr / ".rubi").rglob("*.md"))
        print(f"project {args.project.name}: {len(files)} files read, {notes} notes in .rubi/")
        cases = [("bare", bare, None), ("rubi", withr, None)]
        if args.plain:
            plain = copy_project(args.project, work / "plain" / args.project.name)
            prepare_rubi(plain, homes["plain"], args.notes, bins["plain"])
            cases.append(("plain", plain, None))
        if args.floor:
            cases.append(("floor", withr, make_floor_plugin(work / "floor-plugin", ROOT)))
        if "base" in sources:
            homes["base"] = work / "home-base"
            homes["base"].mkdir()
            base_copy = copy_project(args.project, work / "base" / args.project.name)
            prepare_rubi(base_copy, homes["base"], args.notes, src=sources["base"])
        cases += [
            (name, base_copy if name == "base" else withr, plugin)
            for name, plugin in variants.items()
        ]
        runs: dict[str, list[dict[str, Any]]] = {case: [] for case, _f, _p in cases}
        for i in range(args.pairs):
            for case, folder, plugin in cases:
                home = homes[case if case in ("bare", "plain", "base") else "rubi"]
                got = one_session(
                    claude,
                    folder,
                    home,
                    case != "bare",
                    files,
                    args.hooks,
                    args.breakdown,
                    plugin,
                    sources.get(case),
                    bins.get(case),
                )
                runs[case].append(got)
                flag = "" if got["ok"] else f"  FAILED: {got['error']}"
                if got["hooks"] and case != "bare":
                    flag += "  hooks " + ", ".join(f"{k} {v}" for k, v in got["hooks"].items())
                if case != "bare" and not got["rubi_tools"]:
                    flag += "  (rubi's tools missing from the first request)"
                print(
                    f"  pair {i + 1} {case:4}: wall {got['wall']:.2f} s, "
                    f"cpu {got['cpu']:.2f} s, {got['requests']} requests{flag}",
                    flush=True,
                )
        print_summary(runs)
        if args.breakdown:
            print_breakdown(runs)
        if args.json:
            args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
