"""A code file's top-level symbols as the last index run mapped them: the names a
search hit on code gives its passages (``src/app.py#Flask``). Kept apart from
:mod:`rubi.app.passageread`, which opens those passages: that module loads the note
reader (markdown-it, YAML), which a search that only names the symbols (the recall
hook's, a first ``search`` tool call) never needs."""

from __future__ import annotations

from rubi.core.paths import VaultPaths

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.codemap import CodeMap

__all__ = ["code_symbols", "symbols_of"]


def code_symbols(paths: VaultPaths, file_id: str) -> list[tuple[str, int]]:
    """A code file's top-level symbols as the last index run mapped them,
    ``(name, 1-based line)`` in file order; [] when unknown (no code map, or no such
    file in it)."""
    from rubi.sync import load_code_map

    return symbols_of(load_code_map(paths), file_id)


def symbols_of(code_map: CodeMap | None, file_id: str) -> list[tuple[str, int]]:
    """:func:`code_symbols` from ``code_map`` (None: no map, no symbols)."""
    file = code_map.files.get(file_id) if code_map is not None else None
    return [(s.name, s.line) for s in file.symbols] if file is not None else []
