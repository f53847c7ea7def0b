"""``rubi serve`` over stdio: the handshake answered at once, the rest after warm-up.

A client (Claude Code) starts the server and sends ``initialize`` and ``tools/list``
at once; its first request to the model goes out with whatever tools have arrived
by then. So, in this order:

1. the main thread answers the handshake (either protocol era) and the list requests
   from a snapshot (:func:`rubi.mcp.front.greet`, stdlib only: tens of milliseconds
   after start);
2. meanwhile a :class:`Warmup` thread warms the vault with one search whose answer
   is rendered as the ``search`` tool renders it (:func:`warm_vault`: the index
   brought up to date and opened, the graph, the vectors, the code map and the
   modules that read and render hits loaded), then imports the MCP SDK and builds
   the server: a first tool call needs the former, never the latter. The build
   (0.6-0.8 s of CPU) waits until a message needs it or :data:`BUILD_AFTER_S` have
   passed: the greeting answers the handshake, the lists and plain tool calls
   without it, and a session's first seconds (its hooks, the client's own start) are
   when a core is worth most; a short session (``claude -p``) may end before it is
   ever built;
3. a tool call with plain arguments that comes before the SDK is there is answered in
   the greeting too (:mod:`rubi.mcp.early`). It waits only for a warm-up search
   already under way (which loads what the call would load itself; two searches
   loading the same parts side by side would share one interpreter); a call that
   comes before the warm-up began loads what it needs itself, and the warm-up then
   skips its search;
4. the first message the greeting cannot answer hands the connection to the SDK, once
   it is built; after that the SDK answers everything.

The process's other starters wait for :data:`STARTED` (the first answers out): the
background watch with its catch-up run, the engine's loading for the hooks
(:mod:`rubi.engine.warmup`), the SDK's import.
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

__all__ = [
    "BUILD_AFTER_S",
    "STARTED",
    "WARM_QUERY",
    "Builder",
    "Warmup",
    "one_blas_thread",
    "serve_stdio",
]

log = logging.getLogger(__name__)

STARTED = threading.Event()
"""Set once a :class:`Warmup` of this process has its vault warm (or failed to) and no
tool call is being answered in the greeting: the first answers are out, and
``rubi serve`` starts its background watch (:func:`rubi.watch.in_background`) and its
engine's loading (:mod:`rubi.engine.warmup`), not beside the warm-up and the first
answer; the SDK's build waits longer (:data:`BUILD_AFTER_S`)."""

BUILD_AFTER_S = 10.0
"""Seconds after the first answers (:data:`STARTED`) the SDK is built unasked."""

WARM_QUERY = "project memory"
"""The search that warms the vault (its hits are not used)."""

Builder = Callable[[Callable[[], None]], "MCPServer"]
"""Builds the server (importing the SDK), given what every tool calls first to wait
for warm-up (:meth:`Warmup.ready`)."""


class Warmup:
    """Warms the vault, then builds the server, in a daemon thread (:meth:`start`).

    The build (the SDK's import, about 0.6 s of CPU) waits while a tool call is being
    answered in the greeting (:meth:`serving`): both need the interpreter, and the
    call is what the client waits for; it begins when a message needs the SDK
    (:meth:`server`) or ``build_after_s`` after the first answers. The warm-up
    search is skipped when a call began before it (the call loads what it needs
    itself).

    Args:
        paths: the project vault.
        build: builds the server for it.
        build_after_s: seconds after the first answers to build it unasked.
    """

    def __init__(
        self, paths: VaultPaths, build: Builder, build_after_s: float = BUILD_AFTER_S
    ) -> None:
        self.paths = paths
        self._build = build
        self._build_after_s = build_after_s
        self._wanted = threading.Event()  # a message needs the SDK
        self.built = threading.Event()
        """Set once :meth:`server` returns without waiting (built or failed)."""
        self.warm = threading.Event()
        """Set once the warm-up search is done (or failed: tools then report why)."""
        self._server: MCPServer | None = None
        self._error: BaseException | None = None
        self._calls = 0
        self._asked = False  # a tool call has begun
        self._idle = threading.Condition()
        self._loading = threading.Lock()  # held by the warm-up's search
        self._thread = threading.Thread(target=self._run, name="rubi-warmup", daemon=True)

    def start(self) -> Warmup:
        self._thread.start()
        return self

    def ready(self) -> None:
        """Every tool calls this first: it blocks only while the warm-up's search is
        under way (it loads what the call needs; once it is done, or when it never
        began, the call loads whatever is missing itself)."""
        if self.warm.is_set():
            return
        with self._idle:
            self._asked = True
        with self._loading:
            pass

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Hold the build back while a tool call is answered in the greeting."""
        with self._idle:
            self._calls += 1
            self._asked = True
        try:
            yield
        finally:
            with self._idle:
                self._calls -= 1
                self._idle.notify_all()

    def server(self) -> MCPServer:
        """The built server, built now if it was not yet (waiting for the warm-up
        search first).

        Raises:
            BaseException: whatever building it raised (an SDK that fails to import).
        """
        self._wanted.set()
        self.built.wait()
        if self._server is None:
            raise self._error or RuntimeError("the MCP server was not built")
        return self._server

    def _run(self) -> None:
        try:
            with self._loading:
                with self._idle:
                    asked = self._asked
                if not asked:  # else the call loads what it needs itself
                    warm_vault(self.paths)
        except Exception as exc:  # the tool calls meet it again and report it
            log.info("warm-up search failed: %s", exc)
        finally:
            self.warm.set()
        with self._idle:
            self._idle.wait_for(lambda: self._calls == 0)
        STARTED.set()
        self._wanted.wait(self._build_after_s)
        with self._idle:
            self._idle.wait_for(lambda: self._calls == 0)
        try:
            self._server = self._build(self.ready)
        except BaseException as exc:  # handed to the main thread by server()
            self._error = exc
        finally:
            self.built.set()


def warm_vault(paths: VaultPaths) -> None:
    """Load once what a first ``search`` call needs: bring the index up to date and
    open it, load the graph, the vectors and the search engine's modules (one search,
    of one hit), render its answer as the tool does (the render modules), and, in a
    project, read the code map a code hit's passages name their symbols from (with
    the note reader's module). One hit, not the tool's twenty: a call that comes
    meanwhile waits for this, and reads and renders its own hits anyway.

    Raises:
        RubiError, OSError: the vault cannot be indexed or searched, or its code map
            cannot be read.
    """
    from rubi import app
    from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS

    result = app.search(paths, WARM_QUERY, top_k=1)
    app.search_answer(result, DEFAULT_BUDGET_TOKENS, open_hint="read(ids)")
    if paths.project_root is not None:
        # A code hit's passages name its symbols: the code map, read through the note
        # reader's module (markdown-it, YAML: 0.1-0.2 s of imports a plain vault's
        # search never needs, so it is loaded for a project only).
        from rubi.app.passageread import code_symbols

        code_symbols(paths, "")  # loads the code map (a file id of none: no symbols)


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
