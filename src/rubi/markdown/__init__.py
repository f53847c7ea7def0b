"""Pure markdown parsing: text in, :class:`rubi.core.model.Note` out. No file access.

The package imports its parts on first use (``parse_note`` loads markdown-it and YAML;
:mod:`rubi.markdown.headings` needs neither), and itself nothing: a cold recall hook
imports :mod:`rubi.markdown.relations` through it (``typing`` cost it about 3 ms)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

    from rubi.markdown.links import parse_link_text
    from rubi.markdown.parse import parse_note

__all__ = ["parse_link_text", "parse_note"]

_HOMES = {"parse_link_text": "rubi.markdown.links", "parse_note": "rubi.markdown.parse"}


def __getattr__(name: str) -> Any:
    import importlib

    if name not in _HOMES:
        raise AttributeError(f"module 'rubi.markdown' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
