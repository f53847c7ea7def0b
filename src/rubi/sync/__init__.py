"""Bring the derived data (Whoosh index, graph, code map, manifest, map pages) in
line with the files: :func:`rubi.sync.index_vault` and the readers of what it saved.

The names below are loaded from their modules on first use (``__getattr__``): importing
one submodule (``rubi.sync.oneshot``, ``rubi.sync.freshness``) must not import the
vault sync, its note cache and code memory, which a cold reader of a current vault
never uses."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.sync.code import code_fingerprint
    from rubi.sync.manifest import (
        STATE_FORMAT,
        FileEntry,
        IndexReport,
        VaultState,
        load_state,
    )
    from rubi.sync.run import (
        LOCK_TIMEOUT_S,
        forget_vault_syncs,
        graph_for,
        index_vault,
        load_code_map,
        notes_for,
        reading_graph,
        vault_sync_for,
    )

__all__ = [
    "LOCK_TIMEOUT_S",
    "STATE_FORMAT",
    "FileEntry",
    "IndexReport",
    "VaultState",
    "code_fingerprint",
    "forget_vault_syncs",
    "graph_for",
    "index_vault",
    "load_code_map",
    "load_state",
    "notes_for",
    "reading_graph",
    "vault_sync_for",
]

_LAZY = {
    "code_fingerprint": "rubi.sync.code",
    "STATE_FORMAT": "rubi.sync.manifest",
    "FileEntry": "rubi.sync.manifest",
    "IndexReport": "rubi.sync.manifest",
    "VaultState": "rubi.sync.manifest",
    "load_state": "rubi.sync.manifest",
    "LOCK_TIMEOUT_S": "rubi.sync.run",
    "forget_vault_syncs": "rubi.sync.run",
    "graph_for": "rubi.sync.run",
    "index_vault": "rubi.sync.run",
    "load_code_map": "rubi.sync.run",
    "notes_for": "rubi.sync.run",
    "reading_graph": "rubi.sync.run",
    "vault_sync_for": "rubi.sync.run",
}
"""Re-exported name -> the module that defines it."""


def __getattr__(name: str) -> Any:
    """A re-exported name, its module imported now (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
