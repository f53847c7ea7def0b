"""The index format version, importable without loading Whoosh."""

SCHEMA_VERSION = 19
"""Bump when fields or analysis change: an index of another version is rebuilt."""
