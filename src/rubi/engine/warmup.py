"""What a starting engine has loaded, and which requests it may take yet.

An engine starts inside a process that is busy starting too: ``rubi serve`` imports
the MCP SDK on its main thread and its watcher scans the vault, all under one GIL. A
hook it took then would wait for its share of that work before its own (the recall's
imports, the index, the graph and the vectors): 2–3 s for the first recall of a
session, measured, when a hook process of its own answers cold in a fraction of that
on the other core. So the engine takes a request only once what that request needs
is loaded, and refuses it before (no acknowledgement: the client runs it cold at once,
``rubi.engine.protocol``):

1. the hook modules (the tool hooks, Stop and SessionEnd): :attr:`Warmup.hooks`;
2. the search stack and this vault's index, graph and vectors, loaded by one search
   whose result is dropped (the recall, SessionStart, ``rubi search`` and ``rubi
   read``): :attr:`Warmup.search`.

Loading runs once per process, in a daemon thread (:meth:`Warmup.start`); a failure
counts as loaded (the request then fails in the engine as it would cold, and the
client prints what the hook prints). In ``rubi serve`` it waits for the MCP server's
first answers (its ``after`` event, :data:`rubi.mcp.startup.STARTED`) and then for
a request that needs it (``on_demand``): the server answers its own session's hooks
itself, so its engine serves only other processes (``rubi search`` and ``rubi read``
from the agent's shell, another route's command hooks), and a short session that
sends none never loads it. The first such request is refused and answered cold at
once; the ones after it find the engine loaded (by then the server's own calls have
usually loaded the search stack and the vault's data in the same process, so the
engine's first search costs tens of milliseconds).
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from rubi.core.latch import Latch, wait_any

if TYPE_CHECKING:
    from rubi.core.paths import VaultPaths

__all__ = [
    "AFTER_WAIT_S",
    "HOOK_MODULES",
    "PRIME_QUERY",
    "SEARCH_MODULES",
    "Warmup",
    "needs_search",
]

log = logging.getLogger(__name__)

HOOK_MODULES = (
    "rubi.claude.hooks.entry",
    "rubi.claude.hooks.context",
    "rubi.claude.hooks.guard",
    "rubi.claude.hooks.tooluse",
    "rubi.claude.hooks.meter",
    "rubi.claude.hooks.stop",
    "rubi.claude.hooks.end",
)
"""What the engine's hooks other than the recall import."""
SEARCH_MODULES = (
    "rubi.claude.hooks.recall",
    "rubi.app.recall",
    "rubi.app.searching",
    "rubi.index.searchindex",
    "rubi.index.analysis",
    "rubi.search.engine",
    "rubi.search.snippet",
)
"""What the recall and the engine's commands import."""
PRIME_QUERY = "project notes"
"""The search that loads the vault's index, graph and vectors (its result is dropped)."""
AFTER_WAIT_S = 60.0
"""The longest loading waits for its ``after`` event before it begins anyway."""

_SEARCHING = frozenset({"sessionstart", "userpromptsubmit"})
"""Hook events that read the vault's derived data (:func:`rubi.engine.protocol.event_key`
form): the recall searches; SessionStart waits until the host's watcher may have
caught up, for which the first search is a fair mark."""


def needs_search(kind: str, event: str = "") -> bool:
    """A request of ``kind`` (``"hook"`` or ``"call"``) for ``event`` (a hook's key)
    needs the search stack warm."""
    return kind == "call" or event in _SEARCHING


class Warmup:
    """The loading of one engine process, in order: hook modules, then the search.

    Attributes:
        hooks: set once :data:`HOOK_MODULES` are imported.
        search: set once :data:`SEARCH_MODULES` are imported and a first search of the
            vault has run (its index, graph and vectors loaded), or once nothing is
            left to load (the vault was never indexed: the recall answers without).
    """

    def __init__(
        self,
        vault: VaultPaths,
        prime: Callable[[VaultPaths], None] | None = None,
        after: Latch | None = None,
        after_wait_s: float = AFTER_WAIT_S,
        on_demand: bool = False,
    ) -> None:
        """``vault``: the engine's vault; ``prime``: loads its data (default
        :func:`prime_search`); ``after``: loading begins once it is set, or after
        ``after_wait_s`` seconds (None: at once); ``on_demand``: and not before a
        request found something it needs unloaded (:meth:`ready`)."""
        self.vault = vault
        self.hooks = threading.Event()
        self.search = threading.Event()
        self._prime = prime or prime_search
        self._after = after
        self._after_wait_s = after_wait_s
        self._started = False
        self._guard = threading.Lock()
        self._cancel = Latch()
        self._thread: threading.Thread | None = None
        self._demand = threading.Event()
        if not on_demand:
            self._demand.set()

    def ready(self, kind: str, event: str = "") -> bool:
        """Whether a request of ``kind`` for ``event`` (:func:`needs_search`) may run
        in the engine now; a request that may not asks for the loading to begin (an
        ``on_demand`` loading waits for that)."""
        loaded = self.search if needs_search(kind, event) else self.hooks
        if loaded.is_set():
            return True
        self._demand.set()
        return False

    def start(self) -> None:
        """Load in a daemon thread (once per :class:`Warmup`; later calls return)."""
        with self._guard:
            if self._started:
                return
            self._started = True
            self._thread = threading.Thread(target=self.run, name="rubi-engine-warm", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 0.0) -> None:
        """Give up loading what has not begun (the engine stopped): a loading that is
        still waiting for its ``after`` event ends without loading anything; one under
        way (a first search, which cannot be cut short) is waited for up to
        ``timeout_s`` seconds."""
        self._cancel.set()
        self._demand.set()  # wakes a loading waiting for a request: it ends on _cancel
        thread = self._thread
        if thread is not None and timeout_s > 0:
            thread.join(timeout_s)

    def run(self) -> None:
        """Load everything, setting :attr:`hooks` then :attr:`search` (never raises),
        once the ``after`` event is set (and, ``on_demand``, a request asked); nothing
        once :meth:`stop` was called."""
        # Asleep until something it waits for happens (no timer: an idle server's
        # wake-ups); stop() sets _demand too, so the second wait ends on it.
        if self._after is not None:
            after, cancel = self._after, self._cancel
            wait_any(
                (after, cancel),
                lambda: after.is_set() or cancel.is_set(),
                time.monotonic() + self._after_wait_s,
            )
        self._demand.wait()
        if self._cancel.is_set():
            return
        try:
            _import(HOOK_MODULES)
        finally:
            self.hooks.set()
        if self._cancel.is_set():
            return
        try:
            _import(SEARCH_MODULES)
            self._prime(self.vault)
        except Exception as exc:  # the request fails in the engine as it would cold
            log.debug("rubi engine: warm-up stopped (%s)", exc)
        finally:
            self.search.set()


def _import(names: tuple[str, ...]) -> None:
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def prime_search(vault: VaultPaths) -> None:
    """One search of the notes of ``vault`` as the recall runs it (no refresh, no
    personal vault), result dropped; nothing when it was never indexed (a search
    would index it first)."""
    from rubi.app.searching import indexed, search

    if indexed(vault):
        search(vault, PRIME_QUERY, scope="notes", refresh=False, personal=False)
