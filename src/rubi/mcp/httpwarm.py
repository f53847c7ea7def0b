"""``rubi serve --http``: the listener first, the first call as a cold process reads,
then the rest.

The port answers before the MCP SDK is imported (its streamable HTTP app, 1-1.5 s of
CPU): the front (:mod:`rubi.mcp.httpfront`) answers both eras' handshakes, lists and
plain tool calls from the snapshot, as stdio does (:mod:`rubi.mcp.startup`).
Everything else a starting server does waits until the port listens, so those answers
come first: the engine's load and the background watch (the catch-up run, the watcher)
began at once before, in threads beside the SDK's import, and the handshake waited for
their share of the one interpreter.

Once the port serves (:meth:`ListenWarmup.listening`: the early server of
:mod:`rubi.mcp.http_early`, uvicorn once the first answers are out,
:meth:`ListenWarmup.when_begun`; the port listened before, while
the server imported: :mod:`rubi.mcp.http_listen`), the first tool call reads as a
cold process reads (:func:`rubi.app.searching.searching_once`: the flat graph, the
index without Whoosh's stack, the vectors it needs), as stdio's first call does
(:mod:`rubi.mcp.early`); once it is answered, or :data:`~rubi.mcp.startup.FIRST_CALL_WAIT_S`
after listening without a call, a thread warms the vault for the calls after it
(:func:`rubi.mcp.startup.warm_vault`: the long-lived readers; a call that comes
meanwhile waits for it rather than loading the same things beside it), then
:data:`~rubi.mcp.startup.STARTED`, :data:`~rubi.mcp.startup.QUIET` and
:data:`~rubi.mcp.startup.UNASKED` are set: the engine loads (from the warm process,
tens of milliseconds) and the background watch starts. The cyclic garbage collector,
off since the server started (:func:`rubi.core.collector.pause_collector`: 10-15 ms
of CPU before the first answer, the imports' objects walked for garbage), is turned
on again then.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from rubi.core.collector import resume_collector
from rubi.core.paths import VaultPaths

__all__ = ["ListenWarmup"]

log = logging.getLogger(__name__)


class ListenWarmup:
    """Orders an HTTP server's work once :meth:`listening` is called (module docstring).

    Args:
        paths: the vault the server serves.
        first_call_wait_s: seconds after listening without a call before the warm-up
            begins anyway (None: :data:`rubi.mcp.startup.FIRST_CALL_WAIT_S`).
        then: called once the warm-up ended (the HTTP front builds the SDK's app
            then: :meth:`rubi.mcp.httpfront.HttpFront.build_soon`).
    """

    def __init__(
        self,
        paths: VaultPaths,
        first_call_wait_s: float | None = None,
        then: Callable[[], None] | None = None,
    ) -> None:
        self.paths = paths
        self.then = then
        self._first_call_wait_s = first_call_wait_s
        self._loading = threading.Lock()  # held by the warm-up
        self._state = threading.Condition()
        self._listening = False
        self._first_taken = False  # the first call took the cold readers
        self._in_flight = 0  # first calls under way (0 or 1), and work set aside
        self._aside_end = 0.0  # when the last work set aside ended (monotonic)
        self._answered = False  # the first call ended
        self._warming = False  # the warm-up has begun (it holds _loading)
        self._begun: list[Callable[[], None]] = []  # called once the warm-up begins
        self.done = threading.Event()
        """Set once the warm-up ended (warmed, or failed: the calls then meet the
        failure themselves) and the latches are set."""

    def when_begun(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (in the warm-up's thread, or here if that happened
        already) once the first answers are out: the first call answered, or the
        wait after listening passed without one, when the warm-up begins. The
        warm-up waits for it to return (the HTTP server's hand-over to uvicorn:
        :func:`rubi.mcp.httpfront.run_http`)."""
        with self._state:
            if not self._warming:
                self._begun.append(callback)
                return
        callback()

    def listening(self) -> None:
        """The port listens: wait for the first call in a daemon thread, then warm
        (once)."""
        with self._state:
            if self._listening:
                return
            self._listening = True
        threading.Thread(target=self._run, name="rubi-http-warmup", daemon=True).start()

    def ready(self) -> AbstractContextManager[None] | None:
        """Every tool calls this first. The first call gets the cold readers to run in
        (a context manager); a call while the warm-up runs waits for it (two loads side
        by side would share the interpreter); the others return at once (None)."""
        with self._state:
            if not self._first_taken and not self._warming:
                self._first_taken = True
                self._in_flight += 1
                return self._first_call()
        with self._loading:
            return None

    @contextmanager
    def aside(self) -> Iterator[None]:
        """Work a request waits for that is not a tool call (the HTTP front building
        the SDK's app for a request it does not answer itself): the warm-up does not begin while it
        runs, and waits its full delay after it (the tool call that follows it should
        read cold, not wait for a warm-up begun meanwhile)."""
        with self._state:
            self._in_flight += 1
        try:
            yield
        finally:
            with self._state:
                self._in_flight -= 1
                self._aside_end = time.monotonic()
                self._state.notify_all()

    @contextmanager
    def _first_call(self) -> Iterator[None]:
        from rubi.app.searching import searching_once

        try:
            with searching_once():
                yield
        finally:
            with self._state:
                self._in_flight -= 1
                self._answered = True
                self._state.notify_all()

    def _run(self) -> None:
        from rubi.mcp.startup import FIRST_CALL_WAIT_S, QUIET, STARTED, UNASKED, warm_vault

        wait_s = FIRST_CALL_WAIT_S if self._first_call_wait_s is None else self._first_call_wait_s
        deadline = time.monotonic() + wait_s
        with self._state:
            while not self._answered:
                if self._in_flight:
                    self._state.wait()  # the first call is under way: after it
                    continue
                left = max(deadline, self._aside_end + wait_s) - time.monotonic()
                if left <= 0:
                    break
                self._state.wait(left)
            self._warming = True
            self._loading.acquire()  # a call from now on waits for the warm-up
            begun, self._begun = self._begun, []
        for callback in begun:
            callback()
        try:
            warm_vault(self.paths)
        except Exception as exc:  # the tool calls meet it again and report it
            log.info("warm-up search failed: %s", exc)
        finally:
            self._loading.release()
            resume_collector()  # off since the server started (rubi.mcp.server)
            for latch in (STARTED, QUIET, UNASKED):
                latch.set()
            self.done.set()
        if self.then is not None:
            try:
                self.then()
            except Exception as exc:  # the request that needs it builds it then
                log.info("after the warm-up: %s", exc)
