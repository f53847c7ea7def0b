"""The full-text index's format version, importable without loading Whoosh.

It lives here, not in :mod:`rubi.index`, because importing any module of that package
first imports Whoosh (the package's ``__init__`` does, :mod:`rubi.index.whooshimport`):
the freshness check (:mod:`rubi.sync.freshness`) compares this number with the one
the last index run recorded, and a server that never searches would otherwise pay
Whoosh's import (tens of ms of CPU) for one integer."""

SCHEMA_VERSION = 27
"""Bump when fields or analysis change: an index of another version is rebuilt."""
