"""A document as the index's writers take it (:class:`IndexDoc`), in a module of its
own: a cold search reads the index and never makes one, so it does not make the
class either (a dataclass costs a cold process about 0.3 ms to make)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["IndexDoc"]


@dataclass(frozen=True, slots=True)
class IndexDoc:
    """One document to index. ``fields`` maps schema field names to text; ``lang``
    is its prose's language (ISO 639-1, :func:`rubi.index.language.detect_language`),
    which names its prose fields' analysis (:func:`rubi.index.analysis.chain_language`)."""

    id: str
    kind: str
    path: str
    type: str
    status: str
    fields: Mapping[str, str]
    meta: Mapping[str, Any] = field(default_factory=dict)
    lang: str = "en"
