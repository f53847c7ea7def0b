"""In a search of notes and code together every document gets one saturation per query
word: a code file whose symbols and comments repeat one common word does not outrank
the note that holds every word of the question."""

from __future__ import annotations

from pathlib import Path

from rubi import app

from helpers import rubi_project, write

STORE = '''"""SQLite: the parse cache kept in SQLite, one SQLite database per vault."""

import sqlite3


def sqlite_open(conn):
    """SQLite open: the SQLite open of the SQLite cache."""
    return conn.execute("sqlite open")


def sqlite_close(conn):
    """SQLite close: the SQLite close of the SQLite cache."""
    return conn.execute("sqlite close")


def sqlite_rows(conn):
    """SQLite rows: the SQLite rows of the SQLite cache."""
    return conn.execute("sqlite rows")


def sqlite_vacuum(conn):
    """SQLite vacuum: the SQLite vacuum of the SQLite cache."""
    return conn.execute("sqlite vacuum")


def sqlite_pragma(conn):
    """SQLite pragma: the SQLite pragma of the SQLite cache."""
    return conn.execute("sqlite pragma")


def sqlite_backup(conn):
    """SQLite backup: the SQLite backup of the SQLite cache."""
    return conn.execute("sqlite backup")

'''

DECISION = """---
type: decision
---
# Use Whoosh for full-text search

Whoosh gives per-field weights. SQLite FTS5 was the alternative: faster, but its
custom analysis would need a C tokenizer.
"""


def test_the_note_holding_every_word_outranks_code_repeating_one(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "proj",
        {"src/sqlite_cache.py": STORE, "src/other.py": "x = 1\n", "src/more.py": "y = 2\n"},
    )
    write(root / ".rubi" / "notes" / "decision-whoosh.md", DECISION)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    mixed = [h.id for h in app.search(paths, "why Whoosh and not SQLite FTS5", top_k=5).hits]
    assert mixed[0] == "notes/decision-whoosh", mixed
    code = [h.id for h in app.search(paths, "sqlite connect", scope="code", top_k=5).hits]
    assert code[0] == "src/sqlite_cache.py"
