"""Bring the derived data (Whoosh index, graph, code map, manifest, map pages) in
line with the files: :func:`rubi.sync.index_vault` and the readers of what it saved."""

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
