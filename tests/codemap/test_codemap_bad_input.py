"""Bad input: each problem is a warning naming the file; the rest is mapped."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from codemap.codemap_helpers import git, git_init, write_files
from rubi.codemap import CodeMapError, build_code_map
from rubi.codemap import scan as scan_module
from rubi.codemap.files import MAX_FILE_BYTES
from rubi.core.safeio import FileBytes

GOOD = {"app.py": "import util\n", "util.py": "X = 1\n"}


def _messages(code_map_warnings: list[object]) -> dict[str, str]:
    return {w.path: w.message for w in code_map_warnings}  # type: ignore[attr-defined]


def test_broken_files_are_reported_and_the_rest_mapped(make_repo: Callable[..., Path]) -> None:
    root = make_repo(
        {
            **GOOD,
            "broken.py": "def oops(:\n",
            "binary.py": b"import os\x00\x00\xff",
            "latin1.ts": "export const caf\u00e9 = 1\n".encode("latin-1"),
            "cookie.py": "# -*- coding: latin-1 -*-\nname = 'caf\u00e9'\n".encode("latin-1"),
            "big.js": b"x" * (MAX_FILE_BYTES + 1),
            "bundle.js": ("var a=1;" * 2000).encode(),
            "min/app.min.js": "var a=1;",
            "node_modules/dep/index.js": "module.exports = 1",
            "dist/out.js": "export {}",
            "package-lock.json": "{}",
        }
    )
    code_map = build_code_map(root)
    messages = _messages(code_map.warnings)
    assert messages["broken.py"].startswith("syntax error at line 1")
    assert messages["binary.py"] == "contains NUL bytes (binary); skipped"
    assert messages["latin1.ts"].startswith("is not valid UTF-8 (byte 16)")
    assert "cookie.py" not in messages  # PEP 263 cookie honoured
    assert messages["big.js"].startswith("is 4.0 MB, over the 4 MB limit")
    assert messages["bundle.js"].startswith("looks minified")
    assert set(messages) == {"broken.py", "binary.py", "latin1.ts", "big.js", "bundle.js"}
    assert sorted(code_map.files) == ["app.py", "broken.py", "cookie.py", "latin1.ts", "util.py"]
    assert ("app.py", "util.py") in code_map.edges
    assert [s.name for s in code_map.files["latin1.ts"].symbols] == ["caf"]  # U+FFFD cut
    assert code_map.stats.skipped == 3  # binary, too big, minified


def test_symlinks_and_loops(make_repo: Callable[..., Path]) -> None:
    root = make_repo(GOOD, use_git=False)
    (root / "link.py").symlink_to(root / "util.py")
    (root / "dangling.py").symlink_to(root / "nowhere.py")
    (root / "pkg").mkdir()
    (root / "pkg" / "loop").symlink_to(root)  # a folder loop
    (root / "pkg" / "mod.py").write_text("from util import X\n", encoding="utf-8")
    for use_git in (False, True):
        if use_git:
            git_init(root)
        code_map = build_code_map(root)
        messages = _messages(code_map.warnings)
        assert messages["link.py"].startswith("is a symbolic link; skipped")
        assert messages["dangling.py"].startswith("is a symbolic link; skipped")
        assert sorted(code_map.files) == ["app.py", "pkg/mod.py", "util.py"]
        assert code_map.stats.used_git is use_git


def test_no_git_walk_honours_gitignore(make_repo: Callable[..., Path]) -> None:
    root = make_repo(
        {
            **GOOD,
            ".gitignore": "# build output\n/out/\n*.gen.py\n!keep.gen.py\n",
            "out/x.py": "",
            "sub/out/y.py": "",  # /out/ is anchored to the root
            "sub/a.gen.py": "",
            "sub/keep.gen.py": "",
            "sub/.gitignore": "local.py\n",
            "sub/local.py": "",
            "local.py": "",  # sub's rules do not apply above it
        },
        use_git=False,
    )
    code_map = build_code_map(root)
    assert not code_map.stats.used_git
    assert sorted(code_map.files) == [
        "app.py",
        "local.py",
        "sub/keep.gen.py",
        "sub/out/y.py",
        "util.py",
    ]


def test_git_listing_includes_untracked_but_not_ignored(make_repo: Callable[..., Path]) -> None:
    root = make_repo({**GOOD, ".gitignore": "secret.py\n"})
    write_files(root, {"new.py": "import util\n", "secret.py": ""})
    (root / "util.py").unlink()  # tracked, deleted from the work tree: silently gone
    code_map = build_code_map(root)
    assert sorted(code_map.files) == ["app.py", "new.py"]
    assert code_map.warnings == []


def test_shallow_and_detached_checkout(make_repo: Callable[..., Path], tmp_path: Path) -> None:
    origin = make_repo(GOOD)
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "one")
    write_files(origin, {"later.py": "import app\n"})
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "two")
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", origin.as_uri(), str(clone))
    git(clone, "checkout", "-q", "--detach", "HEAD")
    code_map = build_code_map(clone)
    assert code_map.stats.used_git
    assert sorted(code_map.files) == ["app.py", "later.py", "util.py"]


def test_non_utf8_file_name(make_repo: Callable[..., Path]) -> None:
    root = make_repo(GOOD, use_git=False)
    name = os.fsencode(root) + b"/caf\xe9.py"
    try:
        with open(name, "wb") as fh:
            fh.write(b"x = 1\n")
    except OSError:
        pytest.skip("the file system refuses non-UTF-8 names")
    for use_git in (False, True):
        if use_git:
            git_init(root)
        code_map = build_code_map(root)
        assert sorted(code_map.files) == ["app.py", "util.py"]
        assert [str(w) for w in code_map.warnings] == [
            "caf\\xe9.py: file name is not UTF-8; skipped: rename it"
        ]


def test_unreadable_file(make_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(GOOD, use_git=False)
    real_read = scan_module._read

    def read(root: Path, path: str) -> FileBytes:
        if path == "util.py":
            raise PermissionError(13, "Permission denied")
        return real_read(root, path)

    monkeypatch.setattr(scan_module, "_read", read)
    code_map = build_code_map(root)
    message = _messages(code_map.warnings)["util.py"]
    assert message == "cannot be read (Permission denied); skipped"
    assert sorted(code_map.files) == ["app.py"]


def test_missing_root_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(CodeMapError, match="not a folder; pass the repository's root folder"):
        build_code_map(tmp_path / "nope")


def test_git_missing_falls_back_to_the_walk(
    make_repo: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_repo(GOOD)
    monkeypatch.setenv("PATH", str(root))  # no git on PATH
    assert shutil.which("git") is None
    code_map = build_code_map(root)
    assert not code_map.stats.used_git
    assert sorted(code_map.files) == ["app.py", "util.py"]
