"""The code map: a repository's files, imports, symbols and modules, ranked by PageRank.

Entry points: :func:`build_code_map` (incremental, cached per file), and pure renderers
:func:`render_map` (level 0, ``map.md``) and :func:`render_module_page` (level 1,
``modules/<slug>.md``) with :func:`extract_curated` to carry a curated summary across
regenerations. See ``docs/codemap.md`` for the design.
"""

from __future__ import annotations

from rubi.codemap.build import build_code_map
from rubi.codemap.curated import SUMMARY_END, SUMMARY_START, extract_curated
from rubi.codemap.errors import CodeMapError, CuratedSummaryError
from rubi.codemap.index_data import INDEX_TEXT_CHARS, graph_edges, read_text_slice, symbol_text
from rubi.codemap.model import BuildStats, CodeFile, CodeMap, Module, NoteRef, Symbol
from rubi.codemap.notes import files_for_note, normalize_repo_path
from rubi.codemap.render import MAP_BUDGET_TOKENS, render_map
from rubi.codemap.render_module import render_module_page

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
    "extract_curated",
    "files_for_note",
    "graph_edges",
    "normalize_repo_path",
    "read_text_slice",
    "render_map",
    "render_module_page",
    "symbol_text",
]
