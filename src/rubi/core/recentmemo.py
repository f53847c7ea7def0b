"""A memo of the last values put, by key, bounded by their count: the least recently
used dropped first; safe across threads.

The search's per-note memos (:mod:`rubi.search.duplicates`' fingerprints,
:mod:`rubi.search.showntext`'s comment places) key a note by a digest of its text, so a
changed note is a new key and nothing kept is ever stale; this holds their order and
their bound. Memos bounded by the bytes they hold keep their own accounting.
"""

from __future__ import annotations

import _thread  # threading's Lock, without its import
from collections import OrderedDict

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Hashable
    from typing import Any

__all__ = ["RecentMemo"]


class RecentMemo:
    """The values of the last ``most`` keys put (``most`` ≥ 1), the least recently
    used (got or put) dropped first; every call holds one lock."""

    __slots__ = ("_guard", "_kept", "_most")

    def __init__(self, most: int) -> None:
        self._most = most
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._guard = _thread.allocate_lock()

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._guard:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` (not None) for ``key``, dropping the least recently used
        beyond ``most``."""
        with self._guard:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self._most:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every value."""
        with self._guard:
            self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
