"""The per-file cache: unchanged files are not read, changed ones alone are parsed."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from rubi.codemap import build_code_map
from rubi.codemap.cache import CACHE_FORMAT, CacheEntry, open_cache


def load_cache(path: Path) -> dict[str, CacheEntry]:
    cache = open_cache(path)
    try:
        return cache.entries
    finally:
        cache.close()


FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from . import b\n",
    "pkg/b.py": "import os\n",
    "web/app.ts": "import { x } from './x'\n",
    "web/x.ts": "export const x = 1\n",
}


def test_second_run_reads_nothing(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "index" / "codemap.sqlite"
    first = build_code_map(repo, cache)
    assert (first.stats.parsed, first.stats.reused, first.stats.hashed) == (5, 0, 5)
    assert cache.exists()
    mtime = cache.stat().st_mtime_ns
    second = build_code_map(repo, cache)
    assert (second.stats.parsed, second.stats.reused, second.stats.hashed) == (0, 5, 0)
    assert cache.stat().st_mtime_ns == mtime  # nothing changed: not even rewritten
    assert second.files == first.files and second.edges == first.edges
    assert second.file_rank == first.file_rank


def test_editing_one_file_parses_that_file_only(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "codemap.sqlite"
    build_code_map(repo, cache)
    (repo / "pkg/b.py").write_text("import os\nfrom .a import thing\n", encoding="utf-8")
    after = build_code_map(repo, cache)
    assert (after.stats.parsed, after.stats.reused, after.stats.hashed) == (1, 4, 1)
    assert ("pkg/b.py", "pkg/a.py") in after.edges


def test_touch_rehashes_but_does_not_parse(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "codemap.sqlite"
    build_code_map(repo, cache)
    st = (repo / "web/x.ts").stat()
    os.utime(repo / "web/x.ts", ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    after = build_code_map(repo, cache)
    assert (after.stats.parsed, after.stats.hashed) == (0, 1)
    entries = load_cache(cache)
    assert entries["web/x.ts"].mtime_ns == st.st_mtime_ns + 5_000_000_000


def test_a_file_edited_just_before_indexing_is_checked_again(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "codemap.sqlite"
    (repo / "pkg/b.py").write_text("import sys\n", encoding="utf-8")  # mtime: now
    build_code_map(repo, cache)
    entries = load_cache(cache)
    assert entries["pkg/b.py"].mtime_ns == -1  # racily clean: stat not trusted
    # an edit of the same size within the clock tick would keep size and mtime
    (repo / "pkg/b.py").write_text("import abc\n", encoding="utf-8")
    after = build_code_map(repo, cache)
    assert (after.stats.parsed, after.stats.hashed) == (1, 1)
    assert after.files["pkg/b.py"].external == ()


def test_renamed_and_deleted_files(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "codemap.sqlite"
    build_code_map(repo, cache)
    (repo / "web/x.ts").rename(repo / "web/y.ts")
    (repo / "pkg/b.py").unlink()
    after = build_code_map(repo, cache)
    assert after.stats.parsed == 0  # the renamed file's content is already parsed
    assert "web/y.ts" in after.files and "pkg/b.py" not in after.files
    entries = load_cache(cache)
    assert sorted(entries) == ["pkg/__init__.py", "pkg/a.py", "web/app.ts", "web/y.ts"]


def test_corrupt_or_foreign_cache_is_rebuilt(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "codemap.sqlite"
    cache.write_text("{not a database, " * 400, encoding="utf-8")
    code_map = build_code_map(repo, cache)
    assert code_map.stats.parsed == 5
    assert [w.message for w in code_map.warnings] == [
        "code map cache unreadable; rebuilt from the files"
    ]
    with sqlite3.connect(cache) as conn:
        assert ("format", str(CACHE_FORMAT)) in conn.execute("SELECT * FROM meta").fetchall()
        conn.execute("UPDATE meta SET value = '-1' WHERE key = 'format'")
    again = build_code_map(repo, cache)
    assert again.stats.parsed == 5 and again.warnings == []
    assert len(load_cache(cache)) == 5


def test_unwritable_cache_is_a_warning(repo: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    code_map = build_code_map(repo, blocker / "codemap.sqlite")  # parent is a file
    assert len(code_map.files) == 5
    assert any("cache not written" in w.message for w in code_map.warnings)


def test_progress_is_reported(repo: Path) -> None:
    calls: list[tuple[int, int]] = []
    build_code_map(repo, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (5, 5)
