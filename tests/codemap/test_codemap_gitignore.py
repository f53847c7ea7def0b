"""The fallback ``.gitignore`` matcher (gitignore(5) semantics)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.codemap.files import skipped_by_name
from rubi.codemap.gitignore import IgnoreRules, parse_gitignore


def _rules(text: str, base: str = "") -> IgnoreRules:
    rules = IgnoreRules()
    rules.add(parse_gitignore(text, base))
    return rules


@pytest.mark.parametrize(
    ("pattern", "path", "is_dir", "ignored"),
    [
        ("*.log", "a.log", False, True),
        ("*.log", "deep/er/a.log", False, True),
        ("*.log", "a.logx", False, False),
        ("/build", "build", True, True),
        ("/build", "src/build", True, False),
        ("build/", "src/build", True, True),
        ("build/", "build", False, False),  # a file named build
        ("doc/*.txt", "doc/a.txt", False, True),
        ("doc/*.txt", "doc/x/a.txt", False, False),
        ("**/temp", "a/b/temp", True, True),
        ("a/**/z", "a/z", False, True),
        ("a/**/z", "a/b/c/z", False, True),
        ("logs/**", "logs/x/y", False, True),
        ("file?.py", "file1.py", False, True),
        ("file[0-9].py", "file7.py", False, True),
        ("file[!0-9].py", "file7.py", False, False),
        ("\\#hash", "#hash", False, True),
        ("trailing   ", "trailing", False, True),
        ("# comment", "# comment", False, False),
    ],
)
def test_patterns(pattern: str, path: str, is_dir: bool, ignored: bool) -> None:
    assert _rules(pattern).ignored(path, is_dir=is_dir) is ignored


def test_negation_and_precedence_of_deeper_files() -> None:
    rules = _rules("*.py\n!keep.py\n")
    assert rules.ignored("x.py", is_dir=False)
    assert not rules.ignored("sub/keep.py", is_dir=False)
    rules.add(parse_gitignore("keep.py\n", "sub"))
    assert rules.ignored("sub/keep.py", is_dir=False)
    assert not rules.ignored("keep.py", is_dir=False)  # sub's rules stay in sub


def test_names_skipped_before_reading() -> None:
    assert skipped_by_name("node_modules/x/index.js")
    assert skipped_by_name("a/.venv/lib/x.py")
    assert skipped_by_name("web/dist/app.js")
    assert skipped_by_name("yarn.lock") and skipped_by_name("package-lock.json")
    assert skipped_by_name("static/app.min.js")
    assert skipped_by_name("pkg/testdata/case.go")
    assert not skipped_by_name("src/distance.py")
    assert not skipped_by_name("src/build.py")  # a file named like a folder


def test_a_bad_line_is_left_out_and_the_others_apply() -> None:
    rules = _rules("*.log\n[z-a]\n!\nkeep\\\n/build/\n")
    assert rules.ignored("a.log", is_dir=False)
    assert rules.ignored("build", is_dir=True)
    assert not rules.ignored("keep", is_dir=False)


def test_walk_without_git_nests_negates_and_keeps_folder_patterns_to_folders(
    tmp_path: Path,
) -> None:
    from rubi.codemap.files import list_files

    from helpers import write

    for rel, text in {
        ".gitignore": "*.tmp\ncache/\n",
        "a.tmp": "",
        "cache/x.py": "",
        "cache.py": "",  # a file, not the folder
        "pkg/.gitignore": "!keep.tmp\n/gen/\n",
        "pkg/keep.tmp": "",
        "pkg/drop.tmp": "",
        "pkg/gen/g.py": "",
        "gen/g.py": "",  # pkg's anchored /gen/ stays in pkg
    }.items():
        write(tmp_path / rel, text)
    listing = list_files(tmp_path)
    assert not listing.used_git
    assert listing.paths == [".gitignore", "cache.py", "gen/g.py", "pkg/.gitignore", "pkg/keep.tmp"]


def test_a_listing_is_filtered_folder_by_folder_as_path_by_path() -> None:
    """``list_files`` asks each folder's rule once; it keeps what
    :func:`skipped_by_name` keeps, path by path, odd paths included."""
    from rubi.codemap.files import _not_skipped

    paths = [
        "node_modules/a.js", "a/node_modules/b.js", "x\\node_modules\\y.js",
        "./node_modules/z.js", "a\\yarn.lock", "foo\\package-lock.json", "package-lock.json",
        "a/b.min.js", "A/B.MIN.JS", "Cargo.lock", "top.py", "a//b.py", "dist/x.js",
        ".venv/lib/x.py", "vendor/a.go", "src/app.py", "src/app.py", "src/util/x.ts",
    ]  # fmt: skip
    assert _not_skipped(paths) == {p for p in paths if not skipped_by_name(p)}
    assert "src/app.py" in _not_skipped(paths) and "a/node_modules/b.js" not in _not_skipped(paths)
