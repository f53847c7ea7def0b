"""``rubi serve`` over stdio: the handshake answered at once, the rest after warm-up.

A client (Claude Code) starts the server and sends ``initialize`` and ``tools/list``
at once; its first request to the model goes out with whatever tools have arrived
by then. So, in this order:

1. the main thread answers the handshake (either protocol era) and the list requests
   from a snapshot (:func:`rubi.mcp.front.greet`, stdlib only: tens of milliseconds
   after start);
2. meanwhile a :class:`Warmup` thread warms the vault (a first search: the index, the
   graph, Whoosh and networkx loaded), then imports the MCP SDK and builds the
   server: a first tool call needs the former, never the latter;
3. a tool call with plain arguments that comes before the SDK is there is answered in
   the greeting too, once the vault is warm (:mod:`rubi.mcp.early`);
4. the first message the greeting cannot answer hands the connection to the SDK, once
   it is built; after that the SDK answers everything.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rubi.core.paths import VaultPaths
from rubi.mcp.front import LineReader, LineWriter, claim_wire, greet, load_handshake

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from rubi.mcp.hooktool import HookAnswerer

__all__ = ["STARTED", "WARM_QUERY", "Builder", "Warmup", "one_blas_thread", "serve_stdio"]

log = logging.getLogger(__name__)

STARTED = threading.Event()
"""Set once a :class:`Warmup` of this process has its vault warm (or failed to) and no
tool call is being answered in the greeting: the first answers are out, and
``rubi serve`` starts its background watch (:func:`rubi.watch.in_background`), beside
the SDK's build, not beside the warm-up and the first answer."""

WARM_QUERY = "project memory"
"""The search that warms the vault (its hits are not used)."""

Builder = Callable[[Callable[[], None]], "MCPServer"]
"""Builds the server (importing the SDK), given what every tool calls first to wait
for warm-up (:meth:`Warmup.ready`)."""


class Warmup:
    """Warms the vault, then builds the server, in a daemon thread (:meth:`start`).

    The build (the SDK's import, about 0.6 s of CPU) waits while a tool call is being
    answered in the greeting (:meth:`serving`): both need the interpreter, and the
    call is what the client waits for.

    Args:
        paths: the project vault.
        build: builds the server for it.
    """

    def __init__(self, paths: VaultPaths, build: Builder) -> None:
        self.paths = paths
        self._build = build
        self.built = threading.Event()
        """Set once :meth:`server` returns without waiting (built or failed)."""
        self.warm = threading.Event()
        """Set once the warm-up search is done (or failed: tools then report why)."""
        self._server: MCPServer | None = None
        self._error: BaseException | None = None
        self._calls = 0
        self._idle = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="rubi-warmup", daemon=True)

    def start(self) -> Warmup:
        self._thread.start()
        return self

    def ready(self) -> None:
        """Block until the vault is warm (every tool calls this first)."""
        self.warm.wait()

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Hold the build back while a tool call is answered in the greeting."""
        with self._idle:
            self._calls += 1
        try:
            yield
        finally:
            with self._idle:
                self._calls -= 1
                self._idle.notify_all()

    def server(self) -> MCPServer:
        """The built server, once it is there.

        Raises:
            BaseException: whatever building it raised (an SDK that fails to import).
        """
        self.built.wait()
        if self._server is None:
            raise self._error or RuntimeError("the MCP server was not built")
        return self._server

    def _run(self) -> None:
        try:
            warm_vault(self.paths)
        except Exception as exc:  # the tool calls meet it again and report it
            log.info("warm-up search failed: %s", exc)
        finally:
            self.warm.set()
        with self._idle:
            self._idle.wait_for(lambda: self._calls == 0)
        STARTED.set()
        try:
            self._server = self._build(self.ready)
        except BaseException as exc:  # handed to the main thread by server()
            self._error = exc
        finally:
            self.built.set()


def warm_vault(paths: VaultPaths) -> None:
    """Do once what every first tool call would: bring the index up to date and load
    it, the graph and the search engine's modules (one search, hits unused).

    Raises:
        RubiError: the vault cannot be indexed or searched.
    """
    from rubi import app

    app.search(paths, WARM_QUERY, top_k=1)


BLAS_THREADS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What NumPy's linear algebra libraries read for their thread count at import."""


def one_blas_thread() -> None:
    """Have NumPy's BLAS start one thread, unless the user chose a count: a search
    multiplies one vector by the vault's vectors, which one thread does in well under
    a millisecond, while starting a thread per core costs the server's first answer
    tens of milliseconds of CPU (more on a busy machine)."""
    if not any(os.environ.get(name) for name in BLAS_THREADS_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def serve_stdio(
    paths: VaultPaths,
    build: Builder,
    instructions: str | None = None,
    hook: HookAnswerer | None = None,
) -> None:
    """Serve the vault over stdin and stdout until the client closes stdin.

    Args:
        paths: the project vault.
        build: builds the server (in the warm-up thread).
        instructions: instructions to answer ``initialize`` with instead of the
            snapshot's (the server built by ``build`` must give the same); None: the
            snapshot's.
        hook: answers Claude Code's ``mcp_tool`` hooks in the greeting too (the
            server built by ``build`` must have the same; :mod:`rubi.mcp.hooktool`).

    Raises:
        BaseException: the MCP SDK could not be imported or the server not built
            (only once a message needs it).
    """
    wire_in, wire_out = claim_wire()
    reader, writer = LineReader(wire_in), LineWriter(wire_out)
    one_blas_thread()
    warmup = Warmup(paths, build).start()
    handshake = load_handshake()
    if handshake is not None and instructions is not None:
        handshake = handshake.with_instructions(instructions)
    early = None
    if handshake is not None:
        from rubi.mcp.early import EarlyCalls

        early = EarlyCalls(paths, handshake, warmup.ready, warmup.serving, hook)
    handover = greet(reader, writer, handshake, warmup.built, early)
    if handover is None:
        return  # the client left before it needed more than the handshake
    server = warmup.server()  # first: two threads importing the SDK can deadlock
    import anyio

    from rubi.mcp.stdio import serve_wire

    anyio.run(serve_wire, server, reader, writer, handover)
