"""Dump what indexing and searching answer, to diff before and after a change that must
not change behaviour (a refactoring of the update core or of PageRank).

For each vault given: a copy is indexed in full, searched, then changed (a note edited
with a new link, one added, one deleted) and indexed again, then changed once more
through a watcher's path list, each time searched again. For the code project given (a
git repository holding Python files, copied): ``.rubi/`` is made, the project indexed,
its map pages dumped; then a code file changes shape, another keeps its shape, one is
deleted, and one more change goes through a watcher's code path list, each step's
report, map pages and answers dumped. Every index report is dumped but its seconds.

Usage::

    python bench/sync_answers.py --vault <vault> [--vault <vault>] --code <repo> > dump.txt

Run it under a fresh ``HOME`` and ``XDG_CACHE_HOME``; diff two dumps byte for byte.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

NOTE_QUERIES = (
    "embed files",
    "canvas",
    "sync settings",
    "community plugins",
    "daily notes",
    "templates",
    "internal links",
    "aliases",
    "tags",
    "graph view",
    "properties",
    "publish",
    "search operators",
    "backlinks",
    "workspace layout",
    "hotkeys",
    "themes css snippets",
    "vault folder",
    "attachments",
    "markdown formatting",
    "callouts",
    "mobile app",
    "bookmarks",
    "command palette",
    "file recovery",
    "outline headings",
    "slides presentation",
    "web clipper",
    "Aliases",
    "how do I link to a heading",
)
CODE_QUERIES = (
    "scan vault",
    "resolve links",
    "import graph",
    "symbols of a python file",
    "frontmatter",
    "wikilinks",
    "headings",
    "block rules",
    "conflicts",
    "module rank",
    "parse markdown",
    "obsidian settings",
    "limits of a note",
    "incremental map",
    "VaultListing",
)


def _report(label: str, report: object) -> None:
    from dataclasses import asdict

    fields = {k: v for k, v in asdict(report).items() if k != "seconds"}  # type: ignore[call-overload]
    print(f"== report {label}: {fields!r}")


def _answers(paths: object, queries: tuple[str, ...], label: str, scope: str = "all") -> None:
    from rubi import app

    for query in queries:
        result = app.search(paths, query, top_k=10, scope=scope)  # type: ignore[arg-type]
        print(f"== search {label} {scope} {query!r}: {result.candidates} {result.relevant}")
        for hit in result.hits:
            print(f"  {hit.id} | {hit.kind} | {hit.score!r} | {hit.why} | {hit.stale}")


def _links(paths: object, ids: list[str], label: str) -> None:
    from rubi import app

    for ref in ids:
        try:
            out = [(v.id, v.kind) for v in app.links(paths, ref)]  # type: ignore[arg-type]
            back = [(v.id, v.kind) for v in app.backlinks(paths, ref)]  # type: ignore[arg-type]
        except Exception as exc:  # an id a step deleted
            print(f"== links {label} {ref}: {type(exc).__name__}")
            continue
        print(f"== links {label} {ref}: {out!r} <- {back!r}")


def _pages(project: Path, label: str) -> None:
    vault = project / ".rubi"
    for page in sorted(vault.rglob("*.md")):
        rel = page.relative_to(vault).as_posix()
        if rel.startswith("notes/") or rel.startswith("handoffs/"):
            continue
        print(f"== page {label} {rel}")
        print(page.read_text(encoding="utf-8"))


def _vault(source: Path, work: Path) -> None:
    from rubi import app
    from rubi.sync import index_vault

    copy = work / source.name
    shutil.copytree(source, copy)
    paths = app.locate(copy)
    _report("full", app.index(paths, full=True))
    _answers(paths, NOTE_QUERIES, "full")
    notes = sorted(p for p in copy.rglob("*.md") if ".obsidian" not in p.parts)
    first, second, third = notes[0], notes[len(notes) // 2], notes[-1]
    ids = [p.relative_to(copy).with_suffix("").as_posix() for p in (first, second, third)]
    with first.open("a", encoding="utf-8") as f:
        f.write(f"\n\nSee [[{ids[2]}]] and [[a new note]] about callouts and canvas.\n")
    (copy / "a new note.md").write_text(
        "---\ntags: [fresh]\n---\n# A new note\n\nCanvas callouts, linked to [[" + ids[1] + "]].\n",
        encoding="utf-8",
    )
    second.unlink()
    _report("incremental", app.index(paths))
    _answers(paths, NOTE_QUERIES[:10], "incremental")
    _links(paths, [*ids, "a new note"], "incremental")
    with third.open("a", encoding="utf-8") as f:
        f.write("\n\nWorkspace hotkeys and [[a new note]].\n")
    _report("watched", index_vault(paths, changed_paths=[third.relative_to(copy).as_posix()]))
    _answers(paths, NOTE_QUERIES[10:20], "watched")
    _links(paths, [ids[2], "a new note"], "watched")


def _code(source: Path, work: Path) -> None:
    from rubi import app
    from rubi.sync import index_vault

    project = work / "project"
    shutil.copytree(source, project, symlinks=True)
    app.init_project(project)
    paths = app.locate(project / ".rubi")
    _report("code first", app.index(paths))
    _pages(project, "code first")
    _answers(paths, CODE_QUERIES, "code first")
    files = sorted(p for p in project.rglob("*.py") if ".git" not in p.parts)
    reshape, keep, gone = files[3], files[len(files) // 2], files[-2]
    with reshape.open("a", encoding="utf-8") as f:
        f.write("\n\nimport json\n\n\ndef freshly_added_helper(x):\n    return json.dumps(x)\n")
    _report("code reshaped", app.index(paths))
    _pages(project, "code reshaped")
    _answers(paths, CODE_QUERIES, "code reshaped", scope="code")
    with keep.open("a", encoding="utf-8") as f:
        f.write("\n# a comment about wikilinks and headings\n")
    _report("code kept shape", app.index(paths))
    _answers(paths, CODE_QUERIES[:8], "code kept shape")
    decision = project / ".rubi" / "notes" / "scan-decision.md"
    target = files[1].relative_to(project).as_posix()
    decision.write_text(
        f"---\ntype: decision\nstatus: active\nfiles: [{target}]\n---\n# Scan once\n\n"
        "The vault is scanned once per run.\n",
        encoding="utf-8",
    )
    _report("code note listed", app.index(paths))
    _pages(project, "code note listed")
    _answers(paths, CODE_QUERIES[:8], "code note listed")
    gone.unlink()
    _report("code deleted", app.index(paths))
    _pages(project, "code deleted")
    _answers(paths, CODE_QUERIES[8:], "code deleted")
    with files[0].open("a", encoding="utf-8") as f:
        f.write(
            "\n\nfrom pathlib import Path\n\n\ndef watched_helper() -> Path:\n    return Path()\n"
        )
    note = project / ".rubi" / "notes" / "watched.md"
    note.write_text("# Watched\n\nAbout [[map]] and resolve links.\n", encoding="utf-8")
    changed_code = [files[0].relative_to(project).as_posix()]
    report = index_vault(paths, changed_paths=["notes/watched.md"], changed_code=changed_code)
    _report("code watched", report)
    _pages(project, "code watched")
    _answers(paths, CODE_QUERIES, "code watched")
    _report("code full", app.index(paths, full=True))
    _pages(project, "code full")
    _answers(paths, CODE_QUERIES[:5], "code full")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", action="append", type=Path, default=[])
    parser.add_argument("--code", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for vault in args.vault:
            _vault(vault.resolve(), work)
        if args.code is not None:
            _code(args.code.resolve(), work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
