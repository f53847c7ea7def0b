"""Generated pages in a team: two clones each register a note and re-index, and the
branches merge with real git without a conflict; an import added changes only the
lines about the files it joins."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codemap.codemap_helpers import git
from rubi import app
from rubi.sync.pages import MERGE_RULES

from helpers import rubi_project, write

CODE = {
    "src/shop/__init__.py": "from shop.app import create_app\n",
    "src/shop/app.py": "from shop.db import Session\ndef create_app(): ...\n",
    "src/shop/db.py": "import sqlalchemy\nclass Session: ...\n",
    "src/shop/cart.py": "from shop.db import Session\ndef add(): ...\n",
    "src/shop/util.py": "def slug(): ...\n",
    "src/shop/auth/__init__.py": "",
    "src/shop/auth/login.py": "from shop.db import Session\ndef login(): ...\n",
    "src/shop/auth/tokens.py": "import jwt\ndef issue(): ...\n",
    "src/shop/auth/perms.py": "def allowed(): ...\n",
}

ALICE = {"type": "gotcha", "title": "Session is not thread-safe", "files": ["src/shop/db.py"]}
BOB = {"type": "decision", "title": "Carts live in the session", "files": ["src/shop/cart.py"]}


def index_and_commit(clone: Path, message: str) -> None:
    app.index(app.locate(clone / ".rubi"))
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", message)


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A project whose vault and generated pages are committed."""
    root = rubi_project(tmp_path / "origin", CODE)
    index_and_commit(root, "rubi pages")
    assert (root / ".rubi" / ".gitattributes").read_text(encoding="utf-8") == MERGE_RULES
    return root


def clone(origin: Path, name: str) -> Path:
    git(origin.parent, "clone", "-q", str(origin), name)
    return origin.parent / name


def generated(root: Path) -> dict[str, str]:
    vault = root / ".rubi"
    pages = [vault / "map.md", *sorted((vault / "modules").glob("*.md"))]
    return {p.relative_to(vault).as_posix(): p.read_text(encoding="utf-8") for p in pages}


@pytest.mark.parametrize("merger", ["alice", "bob"])
def test_two_clones_registering_notes_merge_without_conflict(origin: Path, merger: str) -> None:
    alice, bob = clone(origin, "alice"), clone(origin, "bob")
    for who, item in ((alice, ALICE), (bob, BOB)):
        app.register(app.locate(who / ".rubi"), [{**item, "body": "Why."}])
        index_and_commit(who, f"note from {who.name}")
    ours, theirs = (alice, bob) if merger == "alice" else (bob, alice)
    before = generated(ours)
    assert before != generated(theirs)  # both rewrote the pages, differently
    assert "Session is not thread-safe" in generated(alice)["map.md"]
    assert "Carts live in the session" in generated(bob)["modules/shop.md"]

    git(ours, "pull", "-q", "--no-rebase", "--no-edit", str(theirs), "HEAD")
    merged = generated(ours)
    assert not any("<<<<<<<" in text or ">>>>>>>" in text for text in merged.values())
    for title in ("Session is not thread-safe", "Carts live in the session"):
        assert title in merged["map.md"] and title in merged["modules/shop.md"]

    # The next run puts the pages right; both people end with the same bytes.
    index_and_commit_if_changed(ours)
    git(theirs, "pull", "-q", "--no-rebase", "--no-edit", str(ours), "HEAD")
    app.index(app.locate(theirs / ".rubi"))
    assert generated(ours) == generated(theirs)
    assert git(theirs, "status", "--porcelain") == ""
    fresh = clone(ours, "fresh")
    app.index(app.locate(fresh / ".rubi"))
    assert generated(fresh) == generated(ours)


def index_and_commit_if_changed(root: Path) -> None:
    app.index(app.locate(root / ".rubi"))
    if git(root, "status", "--porcelain"):
        git(root, "commit", "-qam", "rubi index after merge")


def test_without_the_merge_rule_the_same_merge_conflicts(origin: Path) -> None:
    """The rule is what makes it clean: lists that grow at the same place conflict."""
    (origin / ".rubi" / ".gitattributes").unlink()
    git(origin, "commit", "-qam", "no merge rules")
    alice, bob = clone(origin, "alice"), clone(origin, "bob")
    for who, item in ((alice, ALICE), (bob, BOB)):
        app.register(app.locate(who / ".rubi"), [{**item, "body": "Why."}])
        app.index(app.locate(who / ".rubi"))
        (who / ".rubi" / ".gitattributes").unlink()  # the page write put it back
        git(who, "add", "-A")
        git(who, "commit", "-qm", f"note from {who.name}")
    with pytest.raises(subprocess.CalledProcessError) as failed:
        git(alice, "pull", "-q", "--no-rebase", "--no-edit", str(bob), "HEAD")
    assert "CONFLICT (content): Merge conflict in .rubi/map.md" in failed.value.stdout


def test_an_import_changes_only_the_lines_of_the_files_it_joins(origin: Path) -> None:
    before = generated(origin)
    write(
        origin / "src/shop/cart.py",
        "from shop.db import Session\nimport shop.util\ndef add(): ...\n",
    )
    app.index(app.locate(origin / ".rubi"))
    after = generated(origin)
    diff = git(origin, "diff", "-U0", "--", ".rubi/modules/shop.md")
    changed = [ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    assert sorted(changed) == [
        "+- `cart.py` — used by 0, imports 2",
        "+- `util.py` — used by 1, imports 0",
        "-- `cart.py` — used by 0, imports 1",
        "-- `util.py` — used by 0, imports 0",
    ]
    assert {k for k in before if before[k] != after[k]} <= {"map.md", "modules/shop.md"}


def test_rubi_init_writes_the_merge_rules(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    report = app.init_project(tmp_path / "p")
    assert ".gitattributes" in report.created
    assert (tmp_path / "p" / ".rubi" / ".gitattributes").read_text(encoding="utf-8") == MERGE_RULES


def test_a_persons_own_rules_are_kept(origin: Path) -> None:
    rules = origin / ".rubi" / ".gitattributes"
    rules.write_text("*.md text eol=lf\n", encoding="utf-8")
    (origin / ".rubi" / "map.md").unlink()
    app.index(app.locate(origin / ".rubi"))
    assert rules.read_text(encoding="utf-8") == "*.md text eol=lf\n"
