"""Benchmark the spine of rubi: full and incremental indexing, search, import time.

A script, not a test. It copies a vault (any Obsidian vault; the reference run uses the
public Obsidian Help repository, github.com/obsidianmd/obsidian-help) into a temporary
folder, so the original is never touched, and prints rich tables:

- full index: wall time and peak RSS (``ru_maxrss`` of a fresh child process, read
  with ``os.wait4``; the RSS after ``import rubi.app`` is shown for reference), and the
  size of ``.index/`` on disk;
- incremental index: nothing changed, one note's mtime touched, one note edited;
- in-process search: p50/p95 with ``refresh=False`` (pure search) and ``refresh=True``
  (plus the freshness check every surface runs);
- ``rubi search --json`` as a separate process, end to end;
- ``python -X importtime`` of the search path: total and the heaviest packages.

Usage::

    .venv/bin/python bench/spine_bench.py --vault /tmp/obsidian-help
    RUBI_BENCH_VAULT=/tmp/obsidian-help .venv/bin/python bench/spine_bench.py --markdown

``--profile DIR`` also writes cProfile stats of the full index and of one search.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import platform
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

import rubi
from rubi import app
from rubi.sync import notes_for

QUESTIONS = (
    "how do I sync my vault between devices",
    "how to embed an image in a note",
    "what happens to links when I rename a file",
    "how can I publish my notes as a website",
    "como sincronizar minhas notas entre dispositivos",
    "como criar um link para um cabeçalho",
    "cómo cambio el tema de Obsidian",
    "wie erstelle ich eine Vorlage",
    "ノートを別のフォルダに移動する方法",
    "как восстановить удалённую заметку",
)
"""Natural-language questions (English, Portuguese, Spanish, German, Japanese, Russian)."""

_FULL_INDEX_CHILD = """
import json, resource, sys, time
t0 = time.perf_counter()
import rubi
from rubi import app
t1 = time.perf_counter()
base_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
paths = app.locate(sys.argv[1])
prof = None
if sys.argv[2]:
    import cProfile
    prof = cProfile.Profile()
    prof.enable()
report = app.index(paths, full=True)
if prof is not None:
    prof.disable()
    prof.dump_stats(sys.argv[2])
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "index_s": t2 - t1, "base_kb": base_kb,
                  "notes": report.added, "warnings": len(report.warnings)}))
"""

_CLI_SEARCH_CHILD = (
    "import sys; from rubi.cli.main import main; "
    "sys.argv = ['rubi', 'search', sys.argv[2], '--vault', sys.argv[1], '--json']; main()"
)


# -- helpers ------------------------------------------------------------------------
def pct(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.1f} MiB"


GNU_TIME = shutil.which("time") if sys.platform.startswith("linux") else None
"""GNU time, for the peak RSS of child processes (see :func:`run_child`)."""
_RSS_TAG = "RUBI_MAXRSS_KB="


def run_child(argv: list[str], stdout_path: Path | None = None) -> tuple[float, int, str]:
    """Run ``argv``; return (wall seconds, peak RSS in KiB, stdout text).

    Peak RSS comes from GNU ``time`` when it is installed: Linux carries a parent's
    RSS high-water mark into a forked child's ``ru_maxrss`` (preserved across exec),
    so ``os.wait4`` on a child of this large benchmark process reports at least this
    process's own peak. ``time`` is a small process, so its child starts clean.
    Without it, ``os.wait4``'s figure is returned (an upper bound).
    """
    if GNU_TIME:
        argv = [GNU_TIME, "-f", f"{_RSS_TAG}%M", *argv]
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as out,
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
    ):
        started = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
        err.seek(0)
        err_text = err.read()
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {proc.returncode}: {err_text.strip()[-500:]}")
    if stdout_path:
        stdout_path.write_text(text, encoding="utf-8")
    peak_kb = int(usage.ru_maxrss)
    for line in reversed(err_text.splitlines()):
        if line.startswith(_RSS_TAG):
            peak_kb = int(line[len(_RSS_TAG) :])
            break
    return wall, peak_kb, text


def machine() -> dict[str, str]:
    """The code measured (version, git HEAD), CPU count, memory, CPU model, Python."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
                break
    except OSError:
        pass
    repo = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        code = f"{head}{' + uncommitted changes in src/' if dirty else ''}"
    except (OSError, subprocess.CalledProcessError):
        code = "unknown"
    return {
        "rubi": f"{rubi.__version__} at {code}",
        "nproc": str(os.cpu_count()),
        "memory": mem,
        "cpu": cpu,
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "os": platform.platform(),
    }


def dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build_queries(paths: Any, n: int, seed: int) -> list[str]:
    """``n`` queries: real titles and headings, round-robin over top-level folders
    (languages in Obsidian Help), plus :data:`QUESTIONS`."""
    notes = notes_for(paths)
    by_lang: dict[str, list[str]] = defaultdict(list)
    for note_id, note in notes.items():
        lang = note_id.split("/", 1)[0] if "/" in note_id else "(root)"
        by_lang[lang].append(note.title)
        by_lang[lang].extend(h.text for h in note.headings if len(h.text) >= 4)
    rng = random.Random(seed)
    pools = {lang: rng.sample(items, len(items)) for lang, items in sorted(by_lang.items())}
    wanted = max(0, n - len(QUESTIONS))
    picked: list[str] = []
    while len(picked) < wanted and any(pools.values()):
        for pool in pools.values():
            if pool and len(picked) < wanted:
                text = re.sub(r"[`*_\[\]#]", " ", pool.pop()).strip()
                if text and text not in picked:
                    picked.append(text)
    out = picked + list(QUESTIONS)
    rng.shuffle(out)
    return out[:n] if n >= len(QUESTIONS) else out


def time_calls(fn: Callable[[str], object], queries: Sequence[str]) -> list[float]:
    times = []
    for q in queries:
        started = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - started)
    return times


def importtime(argv: list[str]) -> tuple[float, dict[str, float]]:
    """Run ``argv`` under ``-X importtime``; return (total s, self s per top package)."""
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    per_pkg: dict[str, float] = defaultdict(float)
    total = 0.0
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s+(\S+)", line)
        if m:
            self_s = int(m.group(1)) / 1e6
            total += self_s
            per_pkg[m.group(2).split(".")[0]] += self_s
    return total, dict(per_pkg)


def median_importtime(argv: list[str], runs: int) -> tuple[float, dict[str, float]]:
    results = sorted((importtime(argv) for _ in range(runs)), key=lambda r: r[0])
    return results[len(results) // 2]


# -- the benchmark ------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--vault",
        type=Path,
        default=os.environ.get("RUBI_BENCH_VAULT"),
        help="vault root to copy and index (default: $RUBI_BENCH_VAULT)",
    )
    parser.add_argument("--queries", type=int, default=60, help="in-process queries (>= 10)")
    parser.add_argument("--cli-runs", type=int, default=20, help="`rubi search` processes")
    parser.add_argument("--import-runs", type=int, default=5, help="importtime runs (median)")
    parser.add_argument("--seed", type=int, default=1, help="query sampling seed")
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--profile", type=Path, help="write cProfile stats into this folder")
    parser.add_argument("--keep", action="store_true", help="keep the temporary vault copy")
    args = parser.parse_args(argv)
    if args.vault is None or not Path(args.vault).is_dir():
        parser.error("--vault PATH (or $RUBI_BENCH_VAULT) must name an existing folder")
    if args.queries < 10:
        parser.error("--queries must be at least 10")

    console = Console(width=140, highlight=False)
    style = box.MARKDOWN if args.markdown else box.SIMPLE_HEAD
    rubi_exe = Path(sys.executable).with_name("rubi")
    tmp = Path(tempfile.mkdtemp(prefix="rubi-bench-"))
    try:
        vault = tmp / "vault"
        console.print(f"copying {args.vault} → {vault}", style="dim")
        shutil.copytree(
            args.vault, vault, symlinks=True, ignore=shutil.ignore_patterns(".git", ".index")
        )
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        paths = app.locate(vault)
        rows: list[tuple[str, str, str]] = []

        # full index, fresh process
        prof_out = str((args.profile / "index_full.prof").resolve()) if args.profile else ""
        console.print("full index (fresh process) …", style="dim")
        wall, peak_kb, out = run_child(
            [sys.executable, "-c", _FULL_INDEX_CHILD, str(vault), prof_out]
        )
        child = json.loads(out)
        notes = child["notes"]
        rows.append(
            (
                "full index, wall (`app.index(full=True)`)",
                ms(child["index_s"]),
                f"{notes:,} notes, {child['warnings']} warnings; process {wall:.1f} s",
            )
        )
        rows.append(
            (
                "full index, peak RSS (ru_maxrss)",
                mib(peak_kb * 1024),
                f"{mib(child['base_kb'] * 1024)} after `import rubi.app`",
            )
        )
        sizes = {
            p.name: dir_bytes(p) if p.is_dir() else p.stat().st_size
            for p in paths.index_dir.iterdir()
        }
        rows.append(
            (
                "index size on disk (.index/)",
                mib(sum(sizes.values())),
                ", ".join(f"{k} {mib(v)}" for k, v in sorted(sizes.items()) if v),
            )
        )

        # incremental
        noop = [app.index(paths).seconds for _ in range(5)]
        rows.append(
            (
                "re-index, nothing changed (median of 5)",
                ms(statistics.median(noop)),
                f"min {ms(min(noop))}, max {ms(max(noop))}",
            )
        )
        state = sorted(notes_for(paths))
        target = vault / (state[len(state) // 2] + ".md")
        touched = []
        for i in range(3):
            st = target.stat()
            os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000 * (i + 1)))
            touched.append(app.index(paths).seconds)
        rows.append(
            (
                "re-index, one note's mtime touched (median of 3)",
                ms(statistics.median(touched)),
                "content hash unchanged: no rewrite",
            )
        )
        edits = []
        for i in range(3):
            with open(target, "a", encoding="utf-8") as fh:
                fh.write(f"\n\nBenchmark edit {i}: zephyrine.\n")
            rep = app.index(paths)
            assert rep.updated == 1, rep
            edits.append(rep.seconds)
        rows.append(
            (
                "re-index, one note edited (median of 3)",
                ms(statistics.median(edits)),
                f"Whoosh update + graph rebuild; {target.relative_to(vault).as_posix()}",
            )
        )

        # in-process search
        queries = build_queries(paths, args.queries, args.seed)
        app.search(paths, "warm up", refresh=False)
        pure = time_calls(lambda q: app.search(paths, q, refresh=False), queries)
        fresh = time_calls(lambda q: app.search(paths, q, refresh=True), queries)
        for label, t in (("refresh=False", pure), ("refresh=True", fresh)):
            rows.append(
                (
                    f"search in process, {label}, p50 / p95",
                    f"{ms(pct(t, 50))} / {ms(pct(t, 95))}",
                    f"{len(t)} queries, max {ms(max(t))}",
                )
            )
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(app.search, paths, QUESTIONS[0], refresh=False)
            prof.dump_stats(str(args.profile / "search.prof"))
            prof = cProfile.Profile()
            prof.runcall(app.search, paths, QUESTIONS[0], refresh=True)
            prof.dump_stats(str(args.profile / "search_refresh.prof"))

        # CLI end to end
        cli_q = queries[: args.cli_runs]
        run_child([str(rubi_exe), "search", "warm up", "--vault", str(vault), "--json"])
        cli = [
            run_child([str(rubi_exe), "search", q, "--vault", str(vault), "--json"]) for q in cli_q
        ]
        cli_t = [c[0] for c in cli]
        rows.append(
            (
                "`rubi search --json` process, p50 / p95",
                f"{ms(pct(cli_t, 50))} / {ms(pct(cli_t, 95))}",
                f"{len(cli_t)} runs; peak RSS {mib(max(c[1] for c in cli) * 1024)}",
            )
        )
        base = [run_child([sys.executable, "-c", "pass"])[0] for _ in range(5)]
        rows.append(
            ("`python -c pass` (interpreter floor), median", ms(statistics.median(base)), "")
        )

        # import time
        lib_total, lib_pkgs = median_importtime(
            [sys.executable, "-X", "importtime", "-c", "import rubi.app, rubi.search.engine"],
            args.import_runs,
        )
        cli_total, cli_pkgs = median_importtime(
            [sys.executable, "-X", "importtime", "-c", _CLI_SEARCH_CHILD, str(vault), "sync"],
            args.import_runs,
        )

        info = machine()
        mtable = Table(title="Machine", box=style, show_header=True)
        mtable.add_column("key")
        mtable.add_column("value")
        for k, v in info.items():
            mtable.add_row(k, v)
        console.print(mtable)

        table = Table(title=f"Spine: {args.vault} ({notes:,} notes)", box=style)
        table.add_column("measure")
        table.add_column("result", justify="right")
        table.add_column("notes")
        for row in rows:
            table.add_row(*row)
        console.print(table)

        itable = Table(
            title="Import time (-X importtime, self time summed per package, "
            f"median of {args.import_runs})",
            box=style,
        )
        itable.add_column("#", justify="right")
        itable.add_column("import rubi.app, rubi.search.engine")
        itable.add_column("ms", justify="right")
        itable.add_column("rubi search (CLI path)")
        itable.add_column("ms", justify="right")
        top_lib = sorted(lib_pkgs.items(), key=lambda kv: -kv[1])[:8]
        top_cli = sorted(cli_pkgs.items(), key=lambda kv: -kv[1])[:8]
        itable.add_row(
            "", "**total**", f"{lib_total * 1000:.0f}", "**total**", f"{cli_total * 1000:.0f}"
        )
        for i, ((ln, lt), (cn, ct)) in enumerate(zip(top_lib, top_cli, strict=False), 1):
            itable.add_row(str(i), ln, f"{lt * 1000:.0f}", cn, f"{ct * 1000:.0f}")
        console.print(itable)
        if args.profile:
            for name in ("index_full", "search", "search_refresh"):
                with open(args.profile / f"{name}.txt", "w", encoding="utf-8") as fh:
                    stats = pstats.Stats(str(args.profile / f"{name}.prof"), stream=fh)
                    stats.sort_stats("cumulative").print_stats(40)
                    stats.sort_stats("tottime").print_stats(30)
            console.print(f"profiles written to {args.profile}", style="dim")
    finally:
        if args.keep:
            console.print(f"kept {tmp}", style="dim")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
