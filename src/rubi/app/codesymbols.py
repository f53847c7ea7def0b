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
    file in it). Read from the symbols kept beside the map
    (:mod:`rubi.sync.keptsymbols`) when this process does not hold the map: a first
    search reads a few kilobytes, not the whole map."""
    from rubi.sync.codestore import code_map_key
    from rubi.sync.keptsymbols import kept_or_made, valid_symbols

    key = code_map_key(paths)
    if key is None:
        return []
    kept = kept_or_made(paths, key, lambda: _map_held(paths, key), lambda: _map_symbols(paths, key))
    found = kept.get(file_id, ()) if kept is not None else None
    if found is not None and valid_symbols(found):
        return list(found)
    from rubi.sync import load_code_map

    return symbols_of(load_code_map(paths), file_id)


def _map_held(paths: VaultPaths, key: object) -> bool:
    """This process's vault sync of ``paths`` holds the code map of ``key``."""
    import sys

    run = sys.modules.get("rubi.sync.run")
    if run is None or not run.has_vault_sync(paths):
        return False
    return bool(run.vault_sync_for(paths).holds_code_map(key))


def _map_symbols(paths: VaultPaths, key: object) -> dict[str, tuple[tuple[str, int], ...]] | None:
    """Every file's symbols, read from the code map (through this process's vault sync,
    which keeps it); None when the map's key is not ``key`` any more (a run saved it
    meanwhile) or there is no map."""
    from rubi.sync import load_code_map
    from rubi.sync.codestore import code_map_key

    code_map = load_code_map(paths)
    if code_map is None or code_map_key(paths) != key:
        return None
    return {
        name: tuple((s.name, s.line) for s in file.symbols)
        for name, file in code_map.files.items()
        if file.symbols
    }


def symbols_of(code_map: CodeMap | None, file_id: str) -> list[tuple[str, int]]:
    """:func:`code_symbols` from ``code_map`` (None: no map, no symbols)."""
    file = code_map.files.get(file_id) if code_map is not None else None
    return [(s.name, s.line) for s in file.symbols] if file is not None else []
