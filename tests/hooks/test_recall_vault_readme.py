"""Recall never injects the vault's README: it is rubi's own page about the folder
(from ``rubi init``'s template), not knowledge of the project. In a fresh project it is
the only note, so a prompt about git, installing or notes got it as "related"."""

from __future__ import annotations

from pathlib import Path

from hooks.hookhelpers import base, hook
from rubi import app

from helpers import rubi_project, write

PROMPTS = ["where does git ignore the build folder", "open the project memory in obsidian"]


def _context(root: Path, prompt: str) -> str:
    out = hook("UserPromptSubmit", base(root, "UserPromptSubmit", prompt=prompt))
    return "" if out is None else str(out["hookSpecificOutput"]["additionalContext"])


def test_recall_leaves_the_vault_readme_out(tmp_path: Path) -> None:
    root = rubi_project(tmp_path / "p", {"app/build.py": "def build_folder(): ...\n"})
    app.index(app.locate(root / ".rubi"))
    for prompt in PROMPTS:
        assert "(id README)" not in _context(root, prompt)
    # it is still a note that search finds
    hits = app.search(app.locate(root / ".rubi"), "project memory obsidian", scope="notes").hits
    assert "README" in [h.id for h in hits]
    # and a knowledge note on the same words is recalled
    write(
        root / ".rubi" / "notes" / "gotcha-git-ignores-the-build-folder.md",
        "---\ntype: gotcha\n---\n# Git ignores the build folder\n\n"
        "The build folder is in .gitignore, so git never sees generated files.\n",
    )
    app.index(app.locate(root / ".rubi"))
    assert "gotcha-git-ignores-the-build-folder" in _context(root, PROMPTS[0])
