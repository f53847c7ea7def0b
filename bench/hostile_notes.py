"""What one hostile note costs: ``rubi index --full`` plus one search, per shape.

Usage::

    python bench/hostile_notes.py [--shape NAME ...] [--timeout 120] [--keep]

Each shape is one note written into a fresh temp vault (beside two ordinary notes),
then ``rubi index --full --vault V`` and ``rubi search --vault V WORD`` run as child
processes (engine off, HOME and caches in the temp folder). Per shape it reports the
CPU seconds (user + sys, both children), the wall seconds and the larger of the two
peak RSS, beside a floor measured in the same run: a plain note of prose of the same
size. The goal: no shape over 10 s CPU or 1 GB RSS.

Shapes (sizes are what is written to disk; rubi reads at most the first 1 MB):

- ``big-100mb``: a 100 MB note of prose (only its first 1 MB is read);
- ``headings``: 1e6 ``#`` heading lines (cut to 1 MB when read);
- ``links``: 1e5 unresolved ``[[wikilinks]]``, ``tags``: 1e5 distinct ``#tags``;
- ``words``: 130,000 distinct words; ``wide-heading``: one H1 (the title) of 100,000
  distinct words;
- ``aliases``: 1e5 aliases in frontmatter (past the frontmatter budget, so indexed
  from its body), ``aliases-fit``: 5,000 (within it);
- ``nest-list``/``nest-quote``: lists and block quotes 10,000 deep;
- ``emphasis``: ``*a **b`` repeated (an emphasis bomb);
- ``camel``: a 1 MB camelCase identifier with no spaces;
- ``combining``: a letter followed by 100,000 combining marks;
- ``frontmatter``: 60 kB of frontmatter (just within its budget);
- ``long-target``: wikilinks with 100 kB targets;
- ``comment-fences``: 20,000 fenced code blocks, an Obsidian ``%% %%`` comment after
  each; ``comment-unclosed``: 100,000 ``<!--`` never closed (the comment scanner's
  hostile shapes, twenty-sixth pass); ``html-tags``: 100,000 ``<a name="...`` tags
  never closed, and ``html-table``: a ``<ul><li>`` table of 50,000 cells (the tags a
  note's language no longer counts, twenty-seventh pass).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchproc import ChildRun, run_child

MB = 1_000_000
WORD = "zebrafish"
"""The search word; every shape holds it once, near its start."""


def _prose(size: int) -> str:
    line = "The quick brown fox jumps over the lazy dog near the riverbank today.\n"
    return (line * (size // len(line) + 1))[:size]


def _big() -> str:
    return f"# Big\n\n{WORD}\n\n" + _prose(100 * MB)


def _headings() -> str:
    return f"{WORD}\n\n" + "".join(f"# H{i}\n" for i in range(1_000_000))


def _links() -> str:
    lines = (" ".join(f"[[m{i:x}{j}]]" for j in range(10)) for i in range(10_000))
    return f"{WORD}\n\n" + "\n".join(lines) + "\n"


def _tags() -> str:
    return f"{WORD}\n\n" + " ".join(f"#t{i}" for i in range(100_000))


def _words() -> str:
    lines = (" ".join(f"w{i * 10 + j}" for j in range(10)) for i in range(13_000))
    return f"{WORD}\n\n" + "\n".join(lines) + "\n"


def _wide_heading() -> str:
    return f"# {' '.join(f'h{i}' for i in range(100_000))}\n\n{WORD}\n"


def _aliases() -> str:
    many = "".join(f"  - alias {i}\n" for i in range(100_000))
    return f"---\naliases:\n{many}---\n{WORD}\n"


def _aliases_fit() -> str:
    many = "".join(f"  - a{i}\n" for i in range(5_000))
    return f"---\naliases:\n{many}---\n{WORD}\n"


def _nest_list() -> str:
    return f"{WORD}\n\n" + "- " * 10_000 + "item\n"


def _nest_quote() -> str:
    return f"{WORD}\n\n" + ">" * 10_000 + " deep\n"


def _emphasis() -> str:
    return f"{WORD}\n\n" + "*a **b " * 100_000 + "\n"


def _camel() -> str:
    return f"{WORD}\n\n" + "fooBar" * (MB // 6 - 100) + "\n"


def _combining() -> str:
    return f"{WORD}\n\n" + "a" + "\u0301" * 100_000 + "\n"


def _frontmatter() -> str:
    lines = "".join(f"key{i}: value number {i}\n" for i in range(2_400))
    return f"---\n{lines}---\n{WORD}\n"


def _long_target() -> str:
    return f"{WORD}\n\n" + "\n\n".join(f"[[{'x' * 100_000}{i}]]" for i in range(9)) + "\n"


def _comment_fences() -> str:
    return f"{WORD}\n\n" + "```\nx\n```\n%% a %%\n" * 20_000


def _comment_unclosed() -> str:
    return f"{WORD}\n\n" + "<!-- " * 100_000 + "\n"


def _html_tags() -> str:
    return f"{WORD}\n\n" + "".join(f'<a name="s{i} x\n' for i in range(100_000))


def _html_table() -> str:
    cells = "".join(f"<li>c{i} <b>b</b></li>" for i in range(50_000))
    return f"{WORD}\n\n<ul>{cells}</ul>\n"


SHAPES: dict[str, Callable[[], str]] = {
    "big-100mb": _big,
    "headings": _headings,
    "links": _links,
    "tags": _tags,
    "words": _words,
    "wide-heading": _wide_heading,
    "aliases": _aliases,
    "aliases-fit": _aliases_fit,
    "nest-list": _nest_list,
    "nest-quote": _nest_quote,
    "emphasis": _emphasis,
    "camel": _camel,
    "combining": _combining,
    "frontmatter": _frontmatter,
    "long-target": _long_target,
    "comment-fences": _comment_fences,
    "comment-unclosed": _comment_unclosed,
    "html-tags": _html_tags,
    "html-table": _html_table,
}


_CHILD = (
    "import atexit, sys\n"
    "from benchproc import peak_rss_mb\n"
    "atexit.register(lambda: sys.stderr.write(f'BENCH-PEAK-RSS-MB {peak_rss_mb()}\\n'))\n"
    "from rubi.entry import main\n"
    "main()\n"
)
"""A rubi command that writes its own peak RSS (``VmHWM``) to stderr at exit: the
``ru_maxrss`` of a child may be its parent's peak (see :mod:`benchproc`)."""
RSS_PREFIX = "BENCH-PEAK-RSS-MB "


def _peak_mb(run: ChildRun) -> float:
    for line in run.stderr.splitlines():
        if line.startswith(RSS_PREFIX):
            return float(line[len(RSS_PREFIX) :])
    return run.maxrss_mb


def _run(text: str, tmp: Path, name: str, timeout_s: float) -> tuple[list[ChildRun], str]:
    vault = tmp / name / "vault"
    home = tmp / name / "home"
    vault.mkdir(parents=True)
    home.mkdir()
    (vault / "plain one.md").write_text("# Plain one\n\nSee [[plain two]].\n", encoding="utf-8")
    (vault / "plain two.md").write_text("# Plain two\n\nA short note.\n", encoding="utf-8")
    (vault / f"{name}.md").write_text(text, encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]
        ),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "RUBI_ENGINE": "0",
    }
    env.pop("RUBI_VAULT", None)
    rubi = [sys.executable, "-c", _CHILD]
    runs = [
        run_child([*rubi, "index", "--full", "--vault", str(vault)], env=env, timeout_s=timeout_s),
        run_child([*rubi, "search", "--vault", str(vault), WORD], env=env, timeout_s=timeout_s),
    ]
    warnings = [line for line in runs[0].stderr.splitlines() if f"{name}.md" in line]
    return runs, (warnings[0][:110] if warnings else "")


def _cells(runs: list[ChildRun]) -> tuple[float, float, float]:
    return (
        sum(r.cpu_s for r in runs),
        sum(r.wall_s for r in runs),
        max(_peak_mb(r) for r in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per command")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="hostile-notes-"))
    print("| shape | size | CPU s | wall s | peak RSS MB | floor CPU s | floor RSS MB | warning |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    try:
        for name in args.shape or list(SHAPES):
            text = SHAPES[name]()
            size = len(text.encode("utf-8"))
            try:
                runs, warning = _run(text, tmp, name, args.timeout)
                cpu, wall, rss = _cells(runs)
                cells = f"{cpu:.2f} | {wall:.2f} | {rss:.0f}"
            except RuntimeError as exc:
                cells, warning = "— | — | —", str(exc).splitlines()[0][:110]
            floor_runs, _ = _run(_prose(min(size, MB)), tmp, name + "-floor", args.timeout)
            fcpu, _, frss = _cells(floor_runs)
            warning = warning.replace("|", "\\|")
            print(
                f"| {name} | {size / MB:.2f} MB | {cells} | {fcpu:.2f} | {frss:.0f} | {warning} |",
                flush=True,
            )
            shutil.rmtree(tmp / name, ignore_errors=True)
            shutil.rmtree(tmp / (name + "-floor"), ignore_errors=True)
    finally:
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
