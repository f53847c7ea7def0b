"""The code map: a repository's files, imports, symbols and modules, ranked by PageRank.

Entry points: :func:`build_code_map` (incremental, cached per file), and pure renderers
:func:`render_map` (level 0, ``map.md``) and :func:`render_module_page` (level 1,
``modules/<slug>.md``) with :func:`extract_curated` to carry a curated summary across
regenerations. See ``docs/codemap.md`` for the design.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.codemap.build import build_code_map
    from rubi.codemap.curated import SUMMARY_END, SUMMARY_START, extract_curated
    from rubi.codemap.errors import CodeMapError, CuratedSummaryError
    from rubi.codemap.index_data import (
        INDEX_TEXT_CHARS,
        comment_text,
        graph_edges,
        read_text_slice,
        symbol_text,
    )
    from rubi.codemap.model import BuildStats, CodeFile, CodeMap, Module, NoteRef, Symbol
    from rubi.codemap.notefiles import files_for_note, normalize_repo_path
    from rubi.codemap.render import MAP_BUDGET_TOKENS, render_map
    from rubi.codemap.render_module import render_module_page

_WHERE: dict[str, str] = {
    "BuildStats": "rubi.codemap.model",
    "CodeFile": "rubi.codemap.model",
    "CodeMap": "rubi.codemap.model",
    "CodeMapError": "rubi.codemap.errors",
    "CuratedSummaryError": "rubi.codemap.errors",
    "INDEX_TEXT_CHARS": "rubi.codemap.index_data",
    "comment_text": "rubi.codemap.index_data",
    "MAP_BUDGET_TOKENS": "rubi.codemap.render",
    "Module": "rubi.codemap.model",
    "NoteRef": "rubi.codemap.model",
    "SUMMARY_END": "rubi.codemap.curated",
    "SUMMARY_START": "rubi.codemap.curated",
    "Symbol": "rubi.codemap.model",
    "build_code_map": "rubi.codemap.build",
    "extract_curated": "rubi.codemap.curated",
    "files_for_note": "rubi.codemap.notefiles",
    "graph_edges": "rubi.codemap.index_data",
    "normalize_repo_path": "rubi.codemap.notefiles",
    "read_text_slice": "rubi.codemap.index_data",
    "render_map": "rubi.codemap.render",
    "render_module_page": "rubi.codemap.render_module",
    "symbol_text": "rubi.codemap.index_data",
}
"""Public name → module. Loaded on first use (PEP 562): importing one submodule, e.g.
``rubi.codemap.files`` for a quick file listing, does not load every language parser."""


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'rubi.codemap' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "INDEX_TEXT_CHARS",
    "MAP_BUDGET_TOKENS",
    "SUMMARY_END",
    "SUMMARY_START",
    "BuildStats",
    "CodeFile",
    "CodeMap",
    "CodeMapError",
    "CuratedSummaryError",
    "Module",
    "NoteRef",
    "Symbol",
    "build_code_map",
    "comment_text",
    "extract_curated",
    "files_for_note",
    "graph_edges",
    "normalize_repo_path",
    "read_text_slice",
    "render_map",
    "render_module_page",
    "symbol_text",
]
