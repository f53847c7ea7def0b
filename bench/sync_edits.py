"""Time a watcher's index runs in one session: a note the map pages list retitled (the
pages change) alternating with a note's body edited (nothing but its text changes: the
floor), 24 runs on a copy of a git repository holding code.

Usage::

    python bench/sync_edits.py <repo>

Run it under a fresh ``HOME`` and ``XDG_CACHE_HOME``. Prints wall and CPU milliseconds
per run, for each kind of edit.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

RUNS = 24


def main(argv: list[str]) -> int:
    from rubi import app
    from rubi.sync import index_vault

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(argv[0], project, symlinks=True)
        app.init_project(project)
        paths = app.locate(project / ".rubi")
        app.index(paths)
        code = sorted(p for p in project.rglob("*.py") if ".git" not in p.parts)
        target = code[1].relative_to(project).as_posix()
        listed = project / ".rubi" / "notes" / "listed.md"
        plain = project / ".rubi" / "notes" / "plain.md"
        plain.write_text("# Plain\n\nbody\n", encoding="utf-8")
        listed.write_text(f"---\ntype: decision\nfiles: [{target}]\n---\n# T0\n", encoding="utf-8")
        app.index(paths)
        spent = {"retitled": [0.0, 0.0], "body edited (floor)": [0.0, 0.0]}
        for i in range(RUNS):
            if i % 2:
                kind = "retitled"
                text = f"---\ntype: decision\nfiles: [{target}]\n---\n# Title {i}\n"
                listed.write_text(text, encoding="utf-8")
            else:
                kind = "body edited (floor)"
                plain.write_text(f"# Plain\n\nbody {i}\n", encoding="utf-8")
            wall, cpu = time.perf_counter(), time.process_time()
            index_vault(paths, verify=False)
            spent[kind][0] += time.perf_counter() - wall
            spent[kind][1] += time.process_time() - cpu
        for kind, (wall_s, cpu_s) in spent.items():
            n = RUNS // 2
            print(f"{kind}: {wall_s / n * 1e3:.1f} ms wall, {cpu_s / n * 1e3:.1f} ms CPU per run")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
