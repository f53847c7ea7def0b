"""Named settings and their reasons. Ranking constants live with their algorithm."""

from __future__ import annotations

__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_BUDGET_TOKENS",
    "INDEX_DIRNAME",
    "MAX_NOTE_BYTES",
    "SKIP_DIRS",
]

MAX_NOTE_BYTES = 1_000_000
"""Notes larger than this are indexed from their first 1 MB only (with a warning): a
20 MB log pasted into a vault should not stall every re-index."""

SKIP_DIRS = frozenset({".index", ".obsidian", ".git", ".trash", "node_modules", ".venv"})
"""Folders a vault scan never enters (derived data, settings, version control)."""

INDEX_DIRNAME = ".index"
"""Derived data lives in ``<vault>/.index/``; deleting it loses nothing."""

DEFAULT_BUDGET_TOKENS = 1500
"""Search output budget: a compact ranked index costs about this much context."""

CHARS_PER_TOKEN = 4
"""Token estimate for budgets: characters / 4 (ARCHITECTURE.md, principle 4)."""

MAP_PAGE = "map.md"
"""Level 0 of a project vault: the generated code map, in the vault root."""

MODULES_DIR = "modules"
"""Level 1 of a project vault: one generated page per code module, ``modules/<slug>.md``."""
