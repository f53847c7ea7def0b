"""The in-memory dense index catches up change by change and ranks exactly as one
loaded from scratch: edits, new notes, deletes, a full run, and the packing of dead
rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app, semantic
from rubi.semantic.dense import DenseIndex, query_vector
from rubi.semantic.sync import vectors_file

from helpers import copy_vault

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

QUERIES = [
    "a new journal page for each day",
    "colored boxes for warnings and tips",
    "lentil soup recipe",
    "publish notes as a website",
]


def _ranks(index: DenseIndex) -> list[list[tuple[str, float, str]]]:
    out = []
    for q in QUERIES:
        found = index.rank(query_vector(q, []), lambda _: True, 20)
        out.append([(m.id, round(m.score, 5), m.heading) for m in found])
    return out


def _fresh(path: Path) -> DenseIndex:
    index = DenseIndex(path)
    index.refresh()
    return index


def test_catching_up_ranks_like_a_fresh_load(tmp_path: Path) -> None:
    vault = copy_vault("kepano-obsidian", tmp_path)
    paths = app.locate(vault)
    app.index(paths)
    path = vectors_file(paths.index_dir)
    live = _fresh(path)
    notes = sorted(p for p in vault.rglob("*.md") if ".obsidian" not in p.parts)
    for i, note in enumerate(notes[:12]):
        rel = note.relative_to(vault).as_posix()
        if i % 4 == 3:
            note.unlink()
        else:
            note.write_text(f"# Soup {i}\n\nA lentil soup recipe with cumin, step {i}.\n")
        new = vault / f"added {i}.md"
        new.write_text(f"# Added {i}\n\nDaily journal page number {i}.\n")
        app.apply_changes(paths, [rel, new.name], code=False)
        live.refresh()
        assert _ranks(live) == _ranks(_fresh(path)), i
    app.index(paths, full=True)
    live.refresh()
    assert _ranks(live) == _ranks(_fresh(path))
