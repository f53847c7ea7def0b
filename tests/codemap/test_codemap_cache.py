"""The per-file parse cache (SQLite rows): stale rows, damaged rows, hostile content,
two writers, and maps equal to an uncached build."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from codemap.codemap_helpers import age_files
from rubi.codemap import CodeMap, build_code_map
from rubi.codemap.cache import CacheEntry, open_cache
from rubi.codemap.model import ImportSpec, Parsed, Symbol

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from . import b\n\n\ndef run():\n    return b.VALUE\n",
    "pkg/b.py": "import os\n\nVALUE = 1\n",
    "web/app.ts": "import { x } from './x'\nexport function main() { return x }\n",
    "web/x.ts": "export const x = 1\n",
}


def _same(a: CodeMap, b: CodeMap) -> None:
    assert a.files == b.files and a.edges == b.edges and a.modules == b.modules
    assert a.file_rank == b.file_rank and a.warnings == b.warnings


def _rows(cache: Path) -> dict[str, tuple[object, ...]]:
    with sqlite3.connect(cache) as conn:
        return {r[0]: r[1:] for r in conn.execute("SELECT * FROM files")}


def test_rows_round_trip_and_only_changed_rows_are_written(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    first = build_code_map(repo, cache)
    rows = _rows(cache)
    assert sorted(rows) == sorted(FILES)
    opened = open_cache(cache)
    parses = opened.parses(["pkg/a.py", "missing.py"])
    opened.close()
    assert set(parses) == {"pkg/a.py"}
    assert parses["pkg/a.py"].symbols == first.files["pkg/a.py"].symbols
    with sqlite3.connect(cache) as conn:  # mark every row, then edit one file
        conn.execute("UPDATE files SET problems = '[\"marked\"]'")
    (repo / "pkg/b.py").write_text("import os\n\nVALUE = 2\n", encoding="utf-8")
    build_code_map(repo, cache, previous=first)
    after = _rows(cache)
    assert [p for p, r in after.items() if r[5] != '["marked"]'] == ["pkg/b.py"]


def test_a_stale_row_is_not_trusted(repo: Path, tmp_path: Path) -> None:
    """A row whose stat matches but whose hash is not the previous map's (the cache
    moved on without the map) rebuilds the map instead of keeping it."""
    cache = tmp_path / "c.sqlite"
    first = build_code_map(repo, cache)
    (repo / "pkg/b.py").write_text("import os\n\nVALUE = 3\n", encoding="utf-8")
    age_files(repo)
    build_code_map(repo, cache)  # the cache learns the edit; ``first`` is now stale
    (repo / "pkg/a.py").write_text("from . import b\n\n\ndef run():\n    return 0\n", "utf-8")
    age_files(repo)
    kept = build_code_map(repo, cache, previous=first)
    assert not kept.stats.reused_shape
    _same(kept, build_code_map(repo))


def test_corrupt_rows_are_parsed_again(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    clean = build_code_map(repo, cache)
    with sqlite3.connect(cache) as conn:
        conn.execute("UPDATE files SET parsed = '{broken' WHERE path = 'pkg/a.py'")
        conn.execute("UPDATE files SET size = 'big' WHERE path = 'web/x.ts'")
        conn.execute("UPDATE files SET problems = '{' WHERE path = 'pkg/b.py'")
    again = build_code_map(repo, cache)
    _same(again, clean)
    assert again.stats.parsed == 3
    assert build_code_map(repo, cache).stats.parsed == 0  # the rows were rewritten
    _same(build_code_map(repo, cache), clean)


@pytest.mark.parametrize(
    "parsed",
    [
        '{"i": [["import", 7, []]], "s": [], "p": "", "d": [], "e": []}',
        '{"i": [], "s": [["f", "function", "1"]], "p": "", "d": [], "e": []}',
        '{"i": [], "s": [], "p": ["x"], "d": [], "e": []}',
        '{"i": [], "s": [], "p": "", "d": [1], "e": []}',
        '{"i": [], "s": [], "p": "", "d": []}',
        '{"__reduce__": "os.system", "i": {}}',
        "\"cos\\nsystem\\n(S'echo owned'\\ntR.\"",
        "null",
    ],
)
def test_hostile_rows_are_ignored(repo: Path, tmp_path: Path, parsed: str) -> None:
    """Rows are JSON checked field by field: a planted or damaged row costs a parse,
    never runs code and never reaches the map with the wrong types."""
    cache = tmp_path / "c.sqlite"
    clean = build_code_map(repo, cache)
    with sqlite3.connect(cache) as conn:
        conn.execute("UPDATE files SET parsed = ? WHERE path = 'pkg/a.py'", (parsed,))
    again = build_code_map(repo, cache)
    _same(again, clean)
    assert again.stats.parsed == 1


def test_hostile_paths_and_content_round_trip(
    make_repo: Callable[..., Path], tmp_path: Path
) -> None:
    name = 'odd/it\'s "quoted"; DROP TABLE files;--.py'
    root = make_repo({name: "import os  # ünïcode, '\\0'\n\nclass Ü:\n    pass\n"})
    age_files(root)
    cache = tmp_path / "c.sqlite"
    first = build_code_map(root, cache)
    second = build_code_map(root, cache)
    assert second.stats.parsed == 0
    _same(first, second)
    assert [s.name for s in second.files[name].symbols] == ["Ü"]


def test_two_writers_at_once_both_land(repo: Path, tmp_path: Path) -> None:
    """Two writers at once (two ``rubi index`` runs, each its own connection): SQLite
    serialises them and no row is lost or torn."""
    cache = tmp_path / "c.sqlite"
    build_code_map(repo, cache)
    parsed = Parsed(imports=(ImportSpec("import", "os"),), symbols=(Symbol("f", "function", 1),))
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(20):
                opened = open_cache(cache)
                entry = CacheEntry(f"{n}-{i}", i, 1, "python", parsed, None, ())
                problem = opened.write({f"w{n}/f{i}.py": entry}, [])
                opened.close()
                assert problem is None
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    opened = open_cache(cache)
    assert {p for p in opened.entries if p.startswith(("w0/", "w1/"))} == {
        f"w{n}/f{i}.py" for n in range(2) for i in range(20)
    }
    assert opened.parses(["w1/f19.py"])["w1/f19.py"] == parsed
    opened.close()


def test_a_locked_cache_is_a_warning_not_a_failure(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    build_code_map(repo, cache)
    (repo / "pkg/b.py").write_text("import os\n\nVALUE = 4\n", encoding="utf-8")
    holder = sqlite3.connect(cache, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        import rubi.codemap.cache as module

        old, module.BUSY_TIMEOUT_S = module.BUSY_TIMEOUT_S, 0.05
        try:
            code_map = build_code_map(repo, cache)
        finally:
            module.BUSY_TIMEOUT_S = old
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "pkg/b.py" in code_map.files
    assert any("code map cache not written" in w.message for w in code_map.warnings)
    assert build_code_map(repo, cache).stats.parsed == 1  # the edit is parsed next run


def test_kept_shape_map_equals_a_full_build(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "c.sqlite"
    first = build_code_map(repo, cache)
    (repo / "pkg/a.py").write_text(
        "from . import b\n\n# a comment\n\ndef run():\n    return b.VALUE + 1\n", encoding="utf-8"
    )
    kept = build_code_map(repo, cache, previous=first)
    assert kept.stats.reused_shape and kept.stats.parsed == 1
    full = build_code_map(repo)
    assert kept.files == full.files and kept.edges == full.edges
