"""A note's file that changed after the note makes it stale only when the change touches
what the note is about: a definition it names edited, removed or renamed, or, for a
note naming nothing of the file, a large rewrite. With real git, in a small repository."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codemap.codemap_helpers import git, git_init
from rubi.knowledge import staleverdict
from rubi.knowledge.filechange import (
    LARGE_CHANGE,
    changes_what_it_names,
    definitions,
    distance,
    touched,
)
from rubi.knowledge.githistory import file_at
from rubi.knowledge.mentions import mentioned_names
from rubi.knowledge.stale import NoteFiles, stale_files

from helpers import write

CTX = "src/ctx.py"
FUNCS = [f"def helper_{i}(x):\n    return x + {i}\n\n\n" for i in range(8)]
SOURCE = (
    "class AppContext:\n"
    '    """Holds the app."""\n'
    "\n"
    "    def push(self):\n"
    "        self.depth += 1\n"
    "\n"
    "    def pop(self):\n"
    "        self.depth -= 1\n"
    "\n"
    "\n" + "".join(FUNCS)
)


def commit_all(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def note_text(body: str) -> str:
    return f"---\nid: n\ntype: gotcha\nfiles: [{CTX}]\n---\n# A note\n\n{body}\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    write(root / CTX, SOURCE)
    write(root / ".rubi/notes/n.md", note_text("placeholder"))
    git_init(root, commit=True)
    return root


def flagged(root: Path, body: str, cache: Path | None = None) -> tuple[str, ...]:
    """Write the note with ``body`` and commit it, then return what makes it stale."""
    note = root / ".rubi/notes/n.md"
    if note.read_text() != note_text(body):
        write(note, note_text(body))
        commit_all(root, "the note")
    return stale_files(root, [NoteFiles("n", (CTX,), note)], cache).get("n", ())


def edit(root: Path, old: str, new: str, *, commit: bool = True) -> None:
    path = root / CTX
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    if commit:
        commit_all(root, "edit")
    else:  # saved after the note: a second later than it
        later = os.stat(root / ".rubi/notes/n.md").st_mtime_ns + 1_000_000_000
        os.utime(path, ns=(later, later))


def test_an_edit_elsewhere_in_the_file_leaves_a_note_fresh(project: Path) -> None:
    assert flagged(project, "`AppContext.pop` lowers the depth.") == ()
    edit(project, "return x + 3", "return x + 30")
    assert flagged(project, "`AppContext.pop` lowers the depth.") == ()


def test_an_edit_inside_a_named_definition_makes_it_stale(project: Path) -> None:
    assert flagged(project, "`AppContext.pop` lowers the depth.") == ()
    edit(project, "self.depth -= 1", "self.depth = max(0, self.depth - 1)")
    assert flagged(project, "`AppContext.pop` lowers the depth.") == (CTX,)


def test_a_named_definition_renamed_or_removed_makes_it_stale(project: Path) -> None:
    body = "Call `helper_5()` for five."
    assert flagged(project, body) == ()
    edit(project, "def helper_5(", "def add_five(")
    assert flagged(project, body) == (CTX,)


def test_a_class_named_alone_is_about_its_own_lines_not_its_methods(project: Path) -> None:
    body = "`AppContext` holds the app."
    assert flagged(project, body) == ()
    edit(project, "self.depth += 1", "self.depth += 2")  # a method's line
    assert flagged(project, body) == ()
    edit(project, '"""Holds the app."""', '"""Holds the app and its config."""')
    assert flagged(project, body) == (CTX,)


def test_a_note_naming_nothing_of_the_file_is_stale_after_a_large_rewrite(project: Path) -> None:
    body = "The context module keeps one stack per request."
    assert flagged(project, body) == ()
    edit(project, "return x + 3", "return x + 30")  # one line of ~40
    assert flagged(project, body) == ()
    (project / CTX).write_text("def stack():\n    return []\n")  # nearly nothing kept
    commit_all(project, "rewrite")
    assert flagged(project, body) == (CTX,)


def test_work_tree_edits_are_judged_the_same_way(project: Path) -> None:
    body = "`AppContext.pop` lowers the depth."
    assert flagged(project, body) == ()
    edit(project, "return x + 3", "return x + 30", commit=False)
    assert flagged(project, body) == ()
    edit(project, "self.depth -= 1", "self.depth -= 2", commit=False)
    assert flagged(project, body) == (CTX,)


def test_a_missing_file_is_stale_and_a_note_committed_with_the_change_fresh(
    project: Path,
) -> None:
    body = "`AppContext.pop` lowers the depth."
    assert flagged(project, body) == ()
    edit(project, "self.depth -= 1", "self.depth -= 2", commit=False)
    write(project / ".rubi/notes/n.md", note_text(body + " By two."))
    commit_all(project, "the fix and its note together")
    assert flagged(project, body + " By two.") == ()
    (project / CTX).unlink()
    assert flagged(project, body + " By two.") == (CTX,)


def test_comparisons_are_cached(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "rubi" / "stale.pickle"  # a trusted place
    cache.parent.mkdir(parents=True, exist_ok=True)
    body = "`AppContext.pop` lowers the depth."
    assert flagged(project, body, cache) == ()
    edit(project, "self.depth -= 1", "self.depth -= 2")
    assert flagged(project, body, cache) == (CTX,)

    def no_git(*args: object) -> None:
        raise AssertionError("compared again")

    monkeypatch.setattr(staleverdict, "file_at", no_git)
    assert flagged(project, body, cache) == (CTX,)


def test_mentioned_names_are_code_not_plain_words_paths_or_module_paths() -> None:
    text = (
        "---\nfiles: [src/x.py]\ntitle: stale_in_frontmatter\n---\n"
        "Run `rubi search` then `TermScorer.top` and `rubi.entry.main`; see `src/x.py` and "
        "`stale.py`. In prose stale_files() and NoteFiles count, search does not; "
        "`Foo.__init__` counts, __init__ alone does not."
    )
    assert mentioned_names(text) == {
        "top",
        "main",
        "stale_files",
        "NoteFiles",
        "__init__",
    }


def test_definitions_span_blocks_and_multi_line_signatures() -> None:
    text = (
        "LIMIT = 3\n\n\n"
        "def run(\n    a: int,\n) -> int:\n    return a\n\n\n"
        "class Box:\n    def open(self):\n        pass\n"
    )
    found = definitions(text.splitlines())
    assert found["LIMIT"] == [(0, 1)]
    assert found["run"] == [(3, 7)]
    assert found["Box"] == [(9, 12)]
    assert found["open"] == [(10, 12)]


def test_touched_distance_and_the_verdict() -> None:
    old = ["def a():", "    return 1", "", "", "def b():", "    return 2"]
    edited = [*old[:5], "    return 3"]
    assert touched(old, old) == set()
    assert touched(old, edited) == {"b"}
    assert touched(old, ["x = 1"]) == {"a", "b"}
    assert distance(old, old) == 0.0
    assert 0.0 < distance(old, old[4:] + old[:4]) < LARGE_CHANGE  # a block moved
    assert 0.0 < distance(old, edited) < LARGE_CHANGE
    assert distance(old, ["x = 1"]) == 1.0
    raw, new = "\n".join(old).encode(), "\n".join(edited).encode()
    assert changes_what_it_names({"b"}, raw, new) is True
    assert changes_what_it_names({"a"}, raw, new) is False
    assert changes_what_it_names(set(), raw, new) is False  # one line of six
    assert changes_what_it_names(set(), raw, b"x = 1\n") is True


def test_file_at_takes_only_hex_commits_and_plain_paths(project: Path) -> None:
    head = git(project, "rev-parse", "HEAD").strip()
    got = file_at(
        project,
        [(head, CTX), (head, "absent.py"), ("--output=x", CTX), (head, "a\nb"), ("HEAD", CTX)],
    )
    assert got == {(head, CTX): SOURCE.encode()}
    assert not (project / "x").exists()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_changed_file_that_is_no_longer_a_regular_file_counts_as_changed(
    project: Path, kind: str
) -> None:
    """A file committed after the note, now a folder (a submodule named without ``/``)
    or a FIFO, is not read: it counts as changed (the search goes on)."""
    body = "`AppContext.pop` lowers the depth."
    assert flagged(project, body) == ()
    edit(project, "self.depth -= 1", "self.depth = 0")
    path = project / CTX
    path.unlink()
    if kind == "folder":
        path.mkdir()
        write(path / "inner.py", "x = 1\n")
    else:
        os.mkfifo(path)
    assert flagged(project, body) == (CTX,)


def test_lines_too_costly_to_align_count_as_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of few distinct lines edited here and there is not aligned (the alignment's
    cost grows with the pairs of equal lines): None, the caller keeps it as changed; a
    local edit of the same file is still compared."""
    from rubi.knowledge import filechange

    monkeypatch.setattr(filechange, "MAX_ALIGNED_PAIRS", 1_000)
    old = ["x", "y", ""] * 100
    scattered = [("z" if i % 50 == 0 else line) for i, line in enumerate(old)]
    local = [*old[:150], "z", *old[151:]]
    as_bytes = "\n".join
    assert changes_what_it_names((), as_bytes(old).encode(), as_bytes(scattered).encode()) is None
    assert changes_what_it_names((), as_bytes(old).encode(), as_bytes(local).encode()) is False


def test_deeply_nested_blocks_cost_lines_not_lines_squared() -> None:
    """Each block's end and each line's owner come from one pass: a file nesting 2,800
    definitions (4 MB, what a file at a commit may hold) cost 6.4 s of CPU when each
    block was scanned to its end, 0.08 s in one pass."""
    import time

    old = "".join(" " * i + f"def f{i}():\n" for i in range(2_800))
    new = old.replace("def f1500(", "def g1500(")
    spans = definitions(old.splitlines())
    assert spans["f0"] == [(0, 2_800)] and spans["f2799"] == [(2_799, 2_800)]
    started = time.process_time()
    assert changes_what_it_names(["f10"], old.encode(), new.encode()) is False
    assert changes_what_it_names(["f1500"], old.encode(), new.encode()) is True
    assert time.process_time() - started < 2.0
