"""An engine that starts once a session is past its first seconds (``rubi serve`` over
stdio), or once its first answers and warm-up are done (``rubi serve --http``, whose
engine started with the server before: its imports and start, 5-10 ms of CPU, came
before the port listened).

The engine of a stdio ``rubi serve`` answers other processes only (``rubi search``
and ``rubi read`` from the agent's shell, another route's command hooks): the server
answers its own session's hooks itself (:mod:`rubi.mcp.hooktool`), and the engine
refuses every request until the server's first answers are out and the first request
that needs its modules has had them loaded (:mod:`rubi.engine.warmup`: that request
runs cold). Started with the server, it cost every session its imports (the socket
modules and the engine's own, about 17 M instructions, 10% of a handshake-only
server), a thread, the runtime folder's checks, a lock, a bind, and a stop at exit,
for a short session (``claude -p``: a prompt, a few reads, 2-3 s) that sends it
nothing. :func:`running_later` starts it at the first of: ``soon`` is set (``rubi
serve``: :data:`rubi.mcp.startup.WATCH_WANTED`, the server's first idle spell or a
tool that may write files, when its background watch starts too), or ``soon_s``
seconds have passed. A command the agent's shell runs before then answers cold, as
the engine's first request would have.

Only the standard library and :mod:`rubi.core.latch` are imported here; the engine's
modules when it starts.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

from rubi.core.latch import Latch, wait_any

TYPE_CHECKING = False  # typing's names only for mypy
if TYPE_CHECKING:
    from rubi.core.paths import VaultPaths

__all__ = ["running_later"]


@contextlib.contextmanager
def running_later(
    paths: VaultPaths | None, after: Latch, soon: Latch, soon_s: float, on_demand: bool = True
) -> Iterator[threading.Thread | None]:
    """For the ``with`` block: an engine for ``paths`` (:func:`rubi.engine.server.running`
    with ``after`` and ``on_demand``: loading once a request needs it, else once
    ``after`` is set), started in a daemon thread once ``soon`` is set or ``soon_s``
    seconds have passed, whichever comes first; stopped when the block ends (never
    started when it ends first). Yields that thread (None without ``paths``).

    Never raises for the engine's sake: a failure to start it is logged and the host
    runs without (as :func:`~rubi.engine.server.running` does)."""
    if paths is None:
        yield None
        return
    stop = Latch()
    guard = threading.Lock()  # the start and the stop, one at a time
    engines = contextlib.ExitStack()

    def run() -> None:
        wait_any((soon, stop), lambda: soon.is_set() or stop.is_set(), time.monotonic() + soon_s)
        with guard:
            if stop.is_set():
                return
            try:
                from rubi.engine.server import running

                engines.enter_context(running(paths, after, on_demand=on_demand))
            except Exception:  # the engine is an optimisation: never take the host down
                from rubi.core.lazylog import get_logger

                get_logger(__name__).exception("rubi engine: could not start")

    thread = threading.Thread(target=run, name="rubi-engine-later", daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        stop.set()
        with guard:
            engines.close()
