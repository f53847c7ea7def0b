"""``rubi index`` ends its process without the interpreter's teardown once its report
is printed (the ``atexit`` functions still run): freeing what a run loaded object by
object cost about 0.1 s of CPU after an import edit on spring-framework. What the run
wrote is the same, and a second run finds nothing changed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import TEARDOWN_MARKS, rubi_project

_SCRIPT = (
    TEARDOWN_MARKS
    + """
sys.argv = ["rubi", *sys.argv[2:]]
from rubi.entry import main
try:
    main()
finally:  # made after the run (what is alive while it loads is frozen out of the collector)
    kept = TornDown()
    open(marks, "a", encoding="utf-8").write("returned\\n")
"""
)


def _index(project: Path, marks: Path, *args: str) -> subprocess.CompletedProcess[str]:
    marks.unlink(missing_ok=True)
    return subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(marks), "index", *args],
        capture_output=True,
        text=True,
        cwd=project,
        timeout=120,
        encoding="utf-8",
    )


def test_rubi_index_leaves_without_the_teardown(tmp_path: Path) -> None:
    project = rubi_project(
        tmp_path / "proj", {"app/main.py": "import util\n", "util.py": "X = 1\n"}
    )
    marks = tmp_path / "marks.txt"
    done = _index(project, marks)
    assert done.returncode == 0, done.stderr
    assert "Indexed" in done.stdout
    assert marks.read_text(encoding="utf-8").split() == ["atexit"]
    (project / "app" / "main.py").write_text("import util\nimport os\n", encoding="utf-8")
    done = _index(project, marks, "--json")
    assert done.returncode == 0, done.stderr
    assert '"changed": 1' in done.stdout
    assert marks.read_text(encoding="utf-8").split() == ["atexit"]
    done = _index(project, marks)
    assert done.returncode == 0, done.stderr
    assert "0 added, 0 updated, 0 deleted" in done.stdout
    assert "(0 changed" in done.stdout


def test_a_failed_index_exits_as_before(tmp_path: Path) -> None:
    marks = tmp_path / "marks.txt"
    done = _index(tmp_path, marks)  # no vault here
    assert done.returncode != 0
    assert marks.read_text(encoding="utf-8").split() == ["returned", "atexit", "teardown"]
