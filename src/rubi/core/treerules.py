"""Which files of a vault and of a project rubi leaves alone: one rule for the indexer
and the watcher.

Every rule here takes a path relative to the vault (or the project), never an absolute
one: a vault kept under a folder named ``build`` or ``.idea`` is a vault like any other,
and only folders inside it are skipped. The vault scan (:func:`rubi.vault.scan.scan_vault`)
and the code listing (:mod:`rubi.codemap.files`) walk with these rules; the watcher
(:mod:`rubi.watch`) applies the same ones to each event's relative path, plus its
editor-noise file names (:func:`editor_noise`), so a change the watcher ignores is one
``rubi index`` would not index either.
"""

from __future__ import annotations

import re

__all__ = [
    "CODE_SKIP_DIRS",
    "SKIP_DIRS",
    "code_path_skipped",
    "editor_noise",
    "vault_file_skipped",
    "vault_folder_skipped",
    "vault_path_skipped",
]

SKIP_DIRS = frozenset({".index", ".obsidian", ".git", ".trash", "node_modules", ".venv"})
"""Folders a vault scan never enters (settings, version control, dependencies, and the
``.index/`` folder an early rubi kept derived data in: never read now)."""

CODE_SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".rubi",
        "node_modules",
        "bower_components",
        "jspm_packages",
        "vendor",
        "third_party",
        "dist",
        "build",
        ".venv",
        "venv",
        "__pycache__",
        "site-packages",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".turbo",
        ".parcel-cache",
        ".gradle",
        "Pods",
        "fixtures",
        "__fixtures__",
        "__snapshots__",
        "testdata",
        ".idea",
        ".vscode",
    }
)
"""Project folders never mapped as code: version control, the vault, vendored
dependencies, build output, virtual environments, tool and editor folders, and test
data (fixtures are code-shaped inputs, not code: typescript-eslint holds thousands, each
importing made-up modules)."""

_EDITOR_NOISE = re.compile(
    r"(\.sw[a-px]$|~$|^\.#|^#.*#$|^4913$|\.tmp$|\.crswap$|___jb_\w+___$|\.kate-swp$"
    r"|^\.DS_Store$|\.part$|\.py[cod]$|^\.[^/]*\.tmp$)"
)
"""vim (.swp, 4913), emacs (.#x, #x#), VS Code (.crswap), JetBrains (___jb_tmp___),
Kate, macOS, partial downloads, bytecode, and rubi's own atomic-write temp files."""


def vault_folder_skipped(name: str) -> bool:
    """True for a vault folder the scan does not enter: hidden (``.obsidian``,
    ``.git``, ``.trash``) or in :data:`rubi.core.treerules.SKIP_DIRS`."""
    return name.startswith(".") or name in SKIP_DIRS


def vault_file_skipped(name: str) -> bool:
    """True for a file name the vault scan leaves out (hidden files)."""
    return name.startswith(".")


def _parts(rel: str) -> list[str]:
    return [p for p in rel.replace("\\", "/").split("/") if p and p != "."]


def vault_path_skipped(rel: str) -> bool:
    """True for a vault-relative path the indexer never reads: under a skipped folder,
    or a hidden file (the path may name a folder: its own name is checked as one; the
    vault itself, ``.``, is not skipped)."""
    parts = _parts(rel)
    if not parts:
        return False
    return any(vault_folder_skipped(p) for p in parts[:-1]) or vault_file_skipped(parts[-1])


def code_path_skipped(rel: str) -> bool:
    """True for a project-relative path under a :data:`CODE_SKIP_DIRS` folder."""
    parts = _parts(rel)
    return any(p in CODE_SKIP_DIRS for p in parts[:-1])


def editor_noise(name: str) -> bool:
    """True for an editor's swap, backup or temp file name, bytecode, ``.DS_Store``
    and rubi's own atomic-write temp files (never a note or a source file)."""
    return bool(_EDITOR_NOISE.search(name))
