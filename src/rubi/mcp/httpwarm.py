"""``rubi serve --http``: the listener first, then the vault, then the rest.

Over HTTP nothing can be answered before the MCP SDK is imported (its streamable HTTP
app, 1-1.5 s of CPU on a busy machine): unlike stdio (:mod:`rubi.mcp.startup`) there is
no snapshot front yet. Everything else a starting server does waits until the port
listens, so the handshake and ``tools/list`` come as early as the SDK allows: the
engine's load and the background watch (the catch-up run, the watcher) began at once
before, in threads beside the SDK's import, and the handshake waited for their share
of the one interpreter.

Once uvicorn listens, :class:`ListenWarmup` warms the vault in a thread
(:func:`rubi.mcp.startup.warm_vault`: the index caught up and opened, the graph, the
vectors, the render modules); a tool call that comes meanwhile waits for it
(:meth:`ListenWarmup.ready`) rather than loading the same things beside it. Then
:data:`~rubi.mcp.startup.STARTED`, :data:`~rubi.mcp.startup.QUIET` and
:data:`~rubi.mcp.startup.UNASKED` are set: the engine loads (from the warm process,
tens of milliseconds) and the background watch starts.
"""

from __future__ import annotations

import logging
import threading

from rubi.core.paths import VaultPaths

__all__ = ["ListenWarmup"]

log = logging.getLogger(__name__)


class ListenWarmup:
    """Warms ``paths`` once :meth:`listening` is called, then lets the rest begin.

    Args:
        paths: the vault the server serves.
    """

    def __init__(self, paths: VaultPaths) -> None:
        self.paths = paths
        self._loading = threading.Lock()  # held from listening() to the warm-up's end
        self._begun = False
        self.done = threading.Event()
        """Set once the warm-up ended (warmed, or failed: the calls then meet the
        failure themselves) and the latches are set."""

    def listening(self) -> None:
        """The port listens: warm the vault in a daemon thread (once)."""
        if self._begun:
            return
        self._begun = True
        self._loading.acquire()  # released by the thread: a call waits from now on
        threading.Thread(target=self._run, name="rubi-http-warmup", daemon=True).start()

    def ready(self) -> None:
        """Every tool calls this first: it blocks while the warm-up loads what the
        call needs (two loads side by side would share the interpreter)."""
        with self._loading:
            pass

    def _run(self) -> None:
        from rubi.mcp.startup import QUIET, STARTED, UNASKED, warm_vault

        try:
            warm_vault(self.paths)
        except Exception as exc:  # the tool calls meet it again and report it
            log.info("warm-up search failed: %s", exc)
        finally:
            self._loading.release()
            for latch in (STARTED, QUIET, UNASKED):
                latch.set()
            self.done.set()
