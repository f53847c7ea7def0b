"""``rubi serve`` over stdio: the handshake answered at once, the rest when asked.

A client (Claude Code) starts the server and sends ``initialize`` and ``tools/list``
at once; its first request to the model goes out with whatever tools have arrived
by then. A short session (``claude -p``: a prompt, a few tool calls, seconds) then
asks for its hooks and maybe a tool, and ends. It pays only for what it asks:

1. the main thread answers the handshake (either protocol era) and the list requests
   from a snapshot (:func:`rubi.mcp.front.greet`, stdlib only: tens of milliseconds
   after start);
2. a tool call with plain arguments, and every ``mcp_tool`` hook, is answered in the
   greeting too (:mod:`rubi.mcp.early`), loading what it needs (the search stack, the
   index, graph and vectors) in this process, where it stays for the next call;
3. the first message the greeting cannot answer (a ``register`` call, whose
   arguments the SDK validates; anything unusual) hands the connection to the SDK,
   imported and built only then (0.6-0.8 s of CPU; +40 MiB of memory a session that
   never needs it does not hold); after that the SDK answers everything but the tool
   calls the greeting's answerer still answers (:class:`rubi.mcp.front.FastCalls`:
   the same bytes, without the SDK's per-call work).

Nothing is loaded beside the first answers: an earlier server searched the vault at
start to warm it, and the session's first recall, arriving meanwhile, shared the
interpreter (and Python's import locks) with that search, slower than a hook process
of its own on another core. The :class:`Warmup` thread only orders the rest:

- :data:`STARTED` is set once the first answers are out (a call answered and none in
  flight, or :data:`FIRST_CALL_WAIT_S` without a call): the engine may then load, on
  demand (:mod:`rubi.engine.warmup`);
- :data:`QUIET` is set at the server's first idle spell after them (:data:`IDLE_S`
  without a call): the index is then caught up when anything changed since the last
  index run (an edit, a pull: the recall of the next prompts reads it;
  :func:`rubi.cli.servewatch.in_background`). A session that asks its hooks without
  a pause (``claude -p`` against a fast API) and ends never pays for the check (a
  listing of every note and code file: 60-80 ms of CPU), which only its later
  prompts would have read; the next session's server makes it. The cyclic garbage
  collector, off since a bare ``rubi serve`` started
  (:func:`rubi.core.collector.pause_collector`), is turned on then too (or once the
  server has lived :data:`COLLECT_AFTER_S` without such a spell): a short session's
  server collects nothing;
- :data:`WATCH_WANTED` is set with :data:`QUIET`, or once the session ran a tool that
  may write files (its PostToolUse hook answered: :func:`watching_writes`): ``rubi
  serve``'s background watch starts then (or :data:`rubi.cli.servewatch.SOON_S` after
  the server's start), not at :data:`STARTED`. A session that only reads and ends in
  2-3 s never pays for the watcher's import, its watches, its catch-up listing and the
  exit that waited for that listing (0.03 s of CPU at 250 notes, 0.2 s at 6,700);
- the work no message asked for (:data:`UNASKED`: the warm-up search that makes a
  later first search fast) waits until the server has
  lived :data:`UNASKED_AFTER_S` and been idle :data:`IDLE_S`: a long interactive
  session has such spells between prompts, a short one ends before. The SDK is not
  built unasked: the fast path answers rubi's own tool calls for the whole session.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rubi.core.collector import resume_collector
from rubi.core.latch import Latch
from rubi.core.paths import VaultPaths
from rubi.mcp.front import greet, load_handshake
from rubi.mcp.wire import LineReader, LineWriter, claim_wire, signals_wake

TYPE_CHECKING = False  # typing's names only for mypy: a session's server never imports typing
if TYPE_CHECKING:
    from typing import Any

    from mcp.server.mcpserver import MCPServer

    from rubi.mcp.hooktool import HookAnswerer

__all__ = [
    "COLLECT_AFTER_S",
    "FIRST_CALL_WAIT_S",
    "IDLE_S",
    "QUIET",
    "READ_ONLY_TOOLS",
    "STARTED",
    "UNASKED",
    "UNASKED_AFTER_S",
    "WARM_QUERY",
    "WATCH_WANTED",
    "Builder",
    "Warmup",
    "one_blas_thread",
    "serve_stdio",
    "watching_writes",
]

log = logging.getLogger(__name__)

STARTED = Latch()
"""Set once a :class:`Warmup` of this process saw the first answers out (a call answered
and none being answered, or :data:`FIRST_CALL_WAIT_S` without one): ``rubi serve``
then starts its background watch (:func:`rubi.cli.servewatch.in_background`), and its engine
loads when a request needs it (:mod:`rubi.engine.warmup`), never beside the first
answer."""

QUIET = Latch()
"""Set once a :class:`Warmup` of this process, its first answers out
(:data:`STARTED`), saw no call for :data:`IDLE_S` (or a message needs the SDK):
``rubi serve`` then catches its index up (:func:`rubi.cli.servewatch.in_background`),
between calls rather than beside them, and only in a session that pauses."""

UNASKED = Latch()
"""Set when a :class:`Warmup` of this process begins the work no message asked for
(:data:`UNASKED_AFTER_S`, :data:`IDLE_S`), or a message needs the SDK (``rubi
serve``'s background watcher starts at :data:`STARTED`)."""

WATCH_WANTED = Latch()
"""Set with :data:`QUIET` (the server's first idle spell, or a message needs the SDK),
or once a PostToolUse hook of a tool not in :data:`READ_ONLY_TOOLS` was answered
(:func:`watching_writes`): ``rubi serve``'s background watch starts then
(:func:`rubi.cli.servewatch.in_background`'s ``soon``), as files may change from now
on, instead of at :data:`STARTED`."""

READ_ONLY_TOOLS = frozenset(
    {"Glob", "Grep", "LS", "NotebookRead", "TodoWrite", "WebFetch", "WebSearch"}
)
"""Claude Code's tools that write no file of the project (``Read`` has no PostToolUse
hook in the plugin at all): their PostToolUse does not set :data:`WATCH_WANTED`. Any
other tool (``Edit``, ``Write``, ``Bash``, another server's tool, one unknown) may
write, and does."""

FIRST_CALL_WAIT_S = 2.0
"""Seconds after start a server with no call yet counts its first answers as out."""

UNASKED_AFTER_S = 20.0
"""Seconds a server lives before it does work no message asked for (the warm-up search,
the background watcher). A ``claude -p`` session of one prompt that reads ten files lasts 2-5 s
against a fast API; by then every hook has been answered with what it loaded itself."""

IDLE_S = 2.0
"""How long no call may have been answered before unasked work begins (it never runs
beside a call: both need the one interpreter)."""

COLLECT_AFTER_S = 20.0
"""Seconds a server over stdio lives at most with its cyclic collector off, when no
idle spell (:data:`QUIET`) came first: calls without a pause still get their cycles
freed."""

WARM_QUERY = "project memory"
"""The search that warms the vault (its hits are not used)."""

Builder = Callable[[Callable[[], None]], "MCPServer"]
"""Builds the server (importing the SDK), given what every tool calls first to wait
for warm-up (:meth:`Warmup.ready`)."""


class Warmup:
    """Orders a starting server's work, in a daemon thread (:meth:`start`): the first
    answers, then :data:`STARTED`, then, once the server has lived ``unasked_after_s``
    and been idle ``idle_s``, the warm-up search (:func:`warm_vault`). The SDK is
    built only when a message needs it (:meth:`server`), at once (after any call
    being answered, without a warm-up search not yet begun); :attr:`built` is set then,
    or when the server ends without it.

    Args:
        paths: the project vault.
        build: builds the server for it.
        unasked_after_s: seconds of life before unasked work.
        idle_s: seconds without a call before unasked work.
        first_call_wait_s: seconds without a call after which the first answers count
            as out.
        collect_after_s: seconds of life after which the cyclic collector is turned
            back on (:func:`rubi.core.collector.resume_collector`) if no idle spell
            came first.
    """

    def __init__(
        self,
        paths: VaultPaths,
        build: Builder,
        unasked_after_s: float = UNASKED_AFTER_S,
        idle_s: float = IDLE_S,
        first_call_wait_s: float = FIRST_CALL_WAIT_S,
        collect_after_s: float = COLLECT_AFTER_S,
    ) -> None:
        self.paths = paths
        self._collect_after_s = collect_after_s
        self._build = build
        self._unasked_after_s = unasked_after_s
        self._idle_s = idle_s
        self._first_call_wait_s = first_call_wait_s
        self._wanted = threading.Event()  # a message needs the SDK
        self.built = threading.Event()
        """Set once :meth:`server` returns without waiting (built or failed)."""
        self.warm = threading.Event()
        """Set once the warm-up search is done (or failed, or skipped: a call already
        loaded what a search needs)."""
        self._server: MCPServer | None = None
        self._error: BaseException | None = None
        self._calls = 0
        self._answered = 0  # calls answered so far
        self._born = self._last = time.monotonic()  # start; when the last call ended
        self._idle = threading.Condition()
        self._loading = threading.Lock()  # held by the warm-up's search
        self._stopped = False  # the server is ending: no unasked work any more
        self._thread = threading.Thread(target=self._run, name="rubi-warmup", daemon=True)

    def start(self) -> Warmup:
        self._born = self._last = time.monotonic()
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        """Give up the work not yet begun (the server is ending) and wait up to
        ``timeout_s`` seconds for the thread to end (a warm-up search or a build under
        way is not cut short)."""
        with self._idle:
            self._stopped = True
            self._idle.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def ready(self) -> None:
        """Every tool calls this first: it blocks only while the warm-up's search is
        under way (it loads what the call needs, and two searches loading side by side
        would share the interpreter); otherwise the call loads what it needs itself."""
        with self._loading:
            pass

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Mark a call being answered in the greeting (unasked work waits for it)."""
        with self._idle:
            self._calls += 1
        try:
            yield
        finally:
            with self._idle:
                self._calls -= 1
                self._answered += 1
                self._last = time.monotonic()
                self._idle.notify_all()

    def server(self) -> MCPServer:
        """The built server, built now if it was not yet (after the call being
        answered, if any).

        Raises:
            BaseException: whatever building it raised (an SDK that fails to import).
        """
        self._wanted.set()
        with self._idle:
            self._idle.notify_all()
        self.built.wait()
        if self._server is None:
            raise self._error or RuntimeError("the MCP server was not built")
        return self._server

    def _first_answers_due(self) -> float | None:
        """Seconds until the first answers count as out (0: now; None: once the call
        being answered ends, which notifies)."""
        if self._wanted.is_set():
            return 0.0
        if self._calls:
            return None
        if self._answered:
            return 0.0
        return max(0.0, self._born + self._first_call_wait_s - time.monotonic())

    def _quiet_due(self) -> float:
        """Seconds until the server has been idle ``idle_s`` (0: now; the SDK wanted:
        now)."""
        if self._wanted.is_set():
            return 0.0
        if self._calls:
            return self._idle_s
        return max(0.0, self._last + self._idle_s - time.monotonic())

    def _unasked_due(self) -> float:
        """Seconds until unasked work may begin (0: now; the SDK wanted: now)."""
        if self._wanted.is_set():
            return 0.0
        if self._calls:
            return self._idle_s
        now = time.monotonic()
        return max(0.0, self._born + self._unasked_after_s - now, self._last + self._idle_s - now)

    def _wait(self, due: float | None) -> None:
        """Wait (holding ``_idle``) up to ``due`` seconds (None: no limit) for a call to
        end or the SDK to be wanted (both notify); once the server has lived
        ``collect_after_s``, turn the collector back on first (calls without an idle
        spell get their cycles freed anyway). Never on a timer of its own: the wait
        for the first answers looked every 0.1 s, an idle server's wake-ups."""
        collect = self._born + self._collect_after_s - time.monotonic()
        if collect <= 0:
            resume_collector()
            self._idle.wait(due)
            return
        self._idle.wait(collect if due is None else min(due, collect))

    def _run(self) -> None:
        with self._idle:
            while (due := self._first_answers_due()) != 0 and not self._stopped:
                self._wait(due)
            STARTED.set()
            while (due := self._quiet_due()) > 0 and not self._stopped:
                self._wait(due)
            if not self._stopped or self._wanted.is_set():
                resume_collector()  # between calls, as the catch-up (not at the end)
                QUIET.set()
                WATCH_WANTED.set()
            while (due := self._unasked_due()) > 0 and not self._stopped:
                self._idle.wait(due)
            if self._stopped and not self._wanted.is_set():
                self.built.set()  # nothing will be built: server() must not wait
                return
            # Taken here, while no call is in flight and none can begin (they enter
            # through _idle): a call arriving after this waits in ready() for the
            # warm-up's search instead of running beside it.
            warming = not self._wanted.is_set() and self._loading.acquire(blocking=False)
        UNASKED.set()
        if warming:
            try:
                warm_vault(self.paths)
            except Exception as exc:  # the tool calls meet it again and report it
                log.info("warm-up search failed: %s", exc)
            finally:
                self._loading.release()
        self.warm.set()
        with self._idle:
            self._idle.wait_for(lambda: self._wanted.is_set() or self._stopped)
            self._idle.wait_for(lambda: self._calls == 0 or self._stopped)
            if not self._wanted.is_set():
                self.built.set()  # the server ends without having needed the SDK
                return
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
    project, read the symbols a code hit's passages are named by (kept beside the code
    map: :mod:`rubi.sync.keptsymbols`; the map itself when they are not). One
    hit, not the tool's twenty: a call that comes meanwhile waits for this, and reads
    and renders its own hits anyway. The vectors' passages are converted to float32
    here, as a resident process's second search would
    (:meth:`rubi.semantic.dense.DenseIndex.stay`).

    Raises:
        RubiError, OSError: the vault cannot be indexed or searched, or its code map
            cannot be read.
    """
    from rubi import app
    from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS, MORE_HINT_MCP

    result = app.search(paths, WARM_QUERY, top_k=1)
    app.search_answer(result, DEFAULT_BUDGET_TOKENS, open_hint="read(ids)", more_hint=MORE_HINT_MCP)
    app.keep_vectors(paths)  # the search loaded them: a resident process keeps them
    if paths.project_root is not None:
        # A code hit's passages name its symbols: the kept symbols or the code map (a
        # plain vault's search never needs them, so they are read for a project only).
        from rubi.app.codesymbols import code_symbols

        code_symbols(paths, "")  # reads them (a file id of none: no symbols)


def watching_writes(answer: HookAnswerer) -> HookAnswerer:
    """``answer`` (a server's ``mcp_tool`` hook answerer) that also sets
    :data:`WATCH_WANTED` once it has answered a PostToolUse hook of a tool that may
    write files (any tool but :data:`READ_ONLY_TOOLS`): the tool has run, so the
    watcher's catch-up, started now, reads what it changed. The answer is
    ``answer``'s, unchanged; arguments that are not a dict are left to ``answer``."""

    def answered(arguments: dict[str, Any]) -> str:
        try:
            return answer(arguments)
        finally:
            if (
                not WATCH_WANTED.is_set()
                and isinstance(arguments, dict)
                and arguments.get("event") == "PostToolUse"
            ):
                name = arguments.get("tool_name")
                if not (isinstance(name, str) and name in READ_ONLY_TOOLS):
                    WATCH_WANTED.set()

    return answered


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
    with signals_wake() as wake:  # Ctrl-C wakes the wait for a line: rubi.mcp.wire
        _serve_stdio(paths, build, instructions, hook, wake)


def _serve_stdio(
    paths: VaultPaths,
    build: Builder,
    instructions: str | None,
    hook: HookAnswerer | None,
    wake: int | None,
) -> None:
    """:func:`serve_stdio`, reading lines that a signal's ``wake`` interrupts."""
    wire_in, wire_out = claim_wire()
    reader, writer = LineReader(wire_in, wake=wake), LineWriter(wire_out)
    one_blas_thread()
    warmup = Warmup(paths, build).start()  # turns a paused collector on at QUIET
    handshake = load_handshake()
    if handshake is not None and instructions is not None:
        handshake = handshake.with_instructions(instructions)
    early = None
    if handshake is not None:
        from rubi.mcp.early import EarlyCalls

        early = EarlyCalls(paths, handshake, warmup.ready, warmup.serving, hook)
    handover = greet(reader, writer, handshake, early)
    if handover is None:
        warmup.stop(timeout_s=0.0)  # no unasked work for a server that is ending
        return  # the client left before it needed more than the handshake
    server = warmup.server()  # first: two threads importing the SDK can deadlock
    import anyio

    from rubi.mcp.stdio import serve_wire

    anyio.run(serve_wire, server, reader, writer, handover)
