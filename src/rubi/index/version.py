"""The index format version, importable without loading Whoosh."""

SCHEMA_VERSION = 10
"""Bump when fields or analysis change: an index of another version is rebuilt."""
