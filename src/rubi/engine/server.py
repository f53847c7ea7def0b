"""The engine: a background thread that answers hooks and commands for one vault.

Started by ``rubi serve`` and ``rubi watch`` (:func:`running`). Exactly one process
per vault serves: the one holding an exclusive ``flock`` on the vault's lock file
(:mod:`rubi.engine.address`); any other waits on standby and takes over when the
holder exits, so an engine never races another. Holding the lock, it removes a socket
file left by a dead engine (only when nothing answers on it), binds the socket (mode
0600 in the 0700 runtime folder) and accepts connections.

Each connection carries one request line (:mod:`rubi.engine.protocol`), read with a
size limit and a deadline; on Linux the peer must be the same user (``SO_PEERCRED``).
A request is checked like any untrusted input and refused with one JSON line when
anything is off. A command's call (``rubi search``, ``rubi read``) is answered by the
function that answers it in the command's own process
(:mod:`rubi.app.commandanswers`), and its value sent back for the command to print.
A hook is answered by :func:`rubi.claude.hooks.entry.respond`, the function that answers
it cold, on the payload the check decoded and the vault walk the check took from its
``cwd`` (so the handler neither decodes nor walks again), one hook at a time
(:class:`Slot`), so the output is the cold path's by construction; the engine only
saves the imports and keeps modules warm. A hook runs only once its client has
confirmed it will not run it cold (:data:`rubi.engine.protocol.GO`): a client that gave
up waiting costs the engine nothing. A starting engine refuses, unacknowledged, each
request whose modules or vault data it is still loading (:mod:`rubi.engine.warmup`):
its client answers cold at once instead of waiting behind the host's own start.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from rubi.core.latch import Latch
from rubi.core.paths import VaultPaths
from rubi.core.vaultwalk import VaultWalk
from rubi.engine import sockets
from rubi.engine.address import Address, address_for
from rubi.engine.protocol import (
    ACK,
    GO,
    MAX_REQUEST_BYTES,
    PROTOCOL,
    LineTooLong,
    build_id,
    engine_event,
    environment,
    event_key,
    read_line,
)
from rubi.engine.rewarm import Rewarm
from rubi.engine.sockets import READ_TIMEOUT_S
from rubi.engine.warmup import Warmup

__all__ = ["Engine", "Peer", "Slot", "answer", "running"]

log = logging.getLogger(__name__)

HOOK_WAIT_S = 2.0
"""A request waits this long for the hook before it (one at a time); then ``busy``."""
OVERRUN_S = 5.0
"""A hook running longer than this is past every client's budget (Claude Code stops the
tool hooks at 5 s): requests arriving meanwhile are refused ``busy`` at once (their
clients run cold) instead of each waiting :data:`HOOK_WAIT_S` behind it."""
MAX_CONNECTIONS = 16
IDLE_S = 0.5
"""A quiet spell this long lets the engine rewarm recall after an index change."""
STANDBY_S = 2.0
"""How often an engine on standby tries to take the lock."""


def _refuse(error: str) -> dict[str, Any]:
    return {"ok": False, "error": error}


class Slot:
    """The engine's one hook slot (hooks and commands run one at a time), and since when
    its holder has held it: a holder past :data:`OVERRUN_S` is stuck, and nobody queues
    behind it."""

    def __init__(self, lock: threading.Lock | None = None) -> None:
        self._lock = lock if lock is not None else threading.Lock()
        self._since: float | None = None

    def take(self, wait_s: float) -> bool:
        """Hold the slot, waiting at most ``wait_s`` seconds (none when its holder has
        overrun); False when it stayed taken."""
        since = self._since
        if since is not None and time.monotonic() - since > OVERRUN_S:
            return False
        taken = self._lock.acquire(timeout=wait_s) if wait_s > 0 else self._lock.acquire(False)
        if not taken:
            return False
        self._since = time.monotonic()
        return True

    def give(self) -> None:
        """Free the slot (its holder only)."""
        self._since = None
        self._lock.release()


class Peer:
    """The client of one connection, as a request's handling sees it."""

    def __init__(self, conn: socket.socket) -> None:
        self._conn = conn

    def ack(self) -> None:
        """Send :data:`~rubi.engine.protocol.ACK` (a client that left is the reply's
        concern)."""
        with contextlib.suppress(OSError):
            self._conn.settimeout(READ_TIMEOUT_S)
            self._conn.sendall(ACK)

    def commit(self) -> bool:
        """Send :data:`~rubi.engine.protocol.ACK` and wait (at most
        :data:`READ_TIMEOUT_S`) for the client's :data:`~rubi.engine.protocol.GO`:
        True when it came, so that the client will not run the hook cold; False when the
        client left, timed out or sent anything else (then nothing may run)."""
        try:
            self._conn.settimeout(READ_TIMEOUT_S)
            self._conn.sendall(ACK)
            line = read_line(self._conn, len(GO), time.monotonic() + READ_TIMEOUT_S)
        except (OSError, ValueError):
            return False
        return line == GO.rstrip(b"\n")


def _run_hook(event: str, payload: dict[str, Any], walk: VaultWalk) -> str:
    """What the hook prints for ``payload`` (the decoded hook JSON, parsed once), whose
    vault the engine's check found (``walk``: the handler does not walk again)."""
    from rubi.claude.hooks.entry import respond

    out = io.StringIO()
    respond(event, payload, out, walk=walk)
    return out.getvalue()


def answer(
    line: bytes,
    vault: str,
    hook_lock: threading.Lock | Slot,
    rewarm: Rewarm | None = None,
    paths: VaultPaths | None = None,
    peer: Peer | None = None,
    warmup: Warmup | None = None,
) -> dict[str, Any]:
    """The reply to one request line for the engine of ``vault`` (a resolved path);
    ``hook_lock`` is the engine's hook slot; ``rewarm`` is told of each hook answered;
    ``paths`` is the engine's vault, for which it answers commands' calls (none: calls
    are refused); ``peer`` is the client (none: a hook or call runs without
    acknowledgement): a call is acknowledged once checked, a hook runs only once its
    client has confirmed (:meth:`Peer.commit`); ``warmup`` says what the engine has
    loaded (none: all): a request whose modules or vault data are still loading is
    refused ``warming up``, unacknowledged, and its client runs it cold
    (:mod:`rubi.engine.warmup`).

    Never raises: a malformed or foreign request gets ``{"ok": false, "error"}``.
    """
    slot = hook_lock if isinstance(hook_lock, Slot) else Slot(hook_lock)
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):  # nesting past the recursion limit too
        return _refuse("not a JSON line")
    if not isinstance(request, dict) or request.get("protocol") != PROTOCOL:
        return _refuse(f"not a rubi engine request of protocol {PROTOCOL}")
    kind = request.get("rubi")
    if kind == "ping":
        ready = warmup is None or warmup.search.is_set()
        return {"ok": True, "vault": vault, "pid": os.getpid(), "ready": ready}
    if kind not in ("hook", "call"):
        return _refuse("unknown request")
    if request.get("build") != build_id():
        return _refuse("another rubi build")
    if request.get("env") != environment():
        return _refuse("another environment")
    if request.get("vault") != vault:
        return _refuse("another vault")
    if kind == "hook" and paths is not None and paths.project_root is None:
        return _refuse("a plain vault's engine answers no hooks")  # docs/engine.md
    if kind == "call":
        if paths is None:
            return _refuse("this engine answers no commands")
        if warmup is not None and not warmup.ready("call"):
            return _refuse("warming up")
        return _answer_call(request, paths, slot, peer)
    return _answer_hook(request, vault, slot, rewarm, peer, warmup)


def _answer_hook(
    request: dict[str, Any],
    vault: str,
    slot: Slot,
    rewarm: Rewarm | None,
    peer: Peer | None = None,
    warmup: Warmup | None = None,
) -> dict[str, Any]:
    event, raw = request.get("event"), request.get("input")
    if not isinstance(event, str) or len(event) > 64 or not isinstance(raw, str):
        return _refuse("bad event or input")
    try:
        payload = json.loads(raw) if raw.strip() else None
    except (ValueError, RecursionError):
        return _refuse("input is not JSON")
    if not isinstance(payload, dict) or not engine_event(event, payload):
        return _refuse("event not answered by the engine")
    walk = _walk(payload, vault)
    if walk is None:
        return _refuse("the hook's folder is not this engine's project")
    if warmup is not None and not warmup.ready("hook", event_key(event, payload)):
        return _refuse("warming up")  # not acknowledged: the client runs the hook cold
    if not slot.take(HOOK_WAIT_S):
        return _refuse("busy")  # not acknowledged: the client runs the hook cold
    try:
        if peer is not None and not peer.commit():
            return _refuse("not confirmed")  # the client left (and may run it cold)
        output = _run_hook(event, payload, walk)
        if rewarm is not None:
            rewarm.seen(event, payload)
        return {"ok": True, "output": output}
    finally:
        slot.give()


def _answer_call(
    request: dict[str, Any], paths: VaultPaths, slot: Slot, peer: Peer | None = None
) -> dict[str, Any]:
    """Answer a ``rubi search`` or ``rubi read`` call for the vault ``paths``, which
    must be the one the command found (:mod:`rubi.app.commandanswers`)."""
    from rubi.app.commandanswers import answer_call
    from rubi.core.commandcalls import decode_call, error_wire, vault_fields

    if request.get("paths") != vault_fields(paths):
        return _refuse("the command's vault is not this engine's")
    try:
        call = decode_call(request.get("name"), request.get("args"))
    except ValueError:
        return _refuse("not a call the engine answers")
    if peer is not None:
        peer.ack()
    if not slot.take(HOOK_WAIT_S):
        return _refuse("busy")
    try:
        return {"ok": True, "answer": answer_call(paths, call).wire()}
    except Exception as exc:
        error = error_wire(exc)
        if error is not None:  # the line the command shows, and its exit status
            return {"ok": True, "error": error}
        log.debug("rubi engine: a call failed", exc_info=True)
        return _refuse(f"the call failed ({type(exc).__name__})")  # the command answers
    finally:
        slot.give()


def _walk(payload: dict[str, Any], vault: str) -> VaultWalk | None:
    """The walk from the payload's ``cwd`` (checked as the handler checks it) when it
    finds ``vault``: the vault the hook would find cold is this engine's, and the
    handler is given the walk (:func:`rubi.claude.hooks.entry.respond`). None when the
    payload names no usable folder (the cold hook would look from its own process's
    folder, not the engine's) or its vault is another (a folder outside the project, or
    a project nested in it with its own vault)."""
    from rubi.claude.hooks.payload import working_dir

    cwd = working_dir(payload.get("cwd"))
    if cwd is None:
        return None
    try:
        walk = VaultWalk.from_folder(cwd)
    except (OSError, ValueError):
        return None
    if walk.found is None or os.path.realpath(walk.found) != vault:
        return None
    return walk


class Engine:
    """The engine of one vault (a plain vault's answers commands only), in a daemon
    thread of this process.

    ``start()`` returns at once; the thread waits on standby while another process
    serves the vault. ``stop()`` closes the socket, removes its file and releases the
    lock. ``serving`` tells whether this process answers now; ``warmup`` what it has
    loaded (from when it first serves): it refuses each request until what that
    request needs is loaded (:mod:`rubi.engine.warmup`), and ``ready`` is set once
    everything is.
    """

    def __init__(
        self,
        paths: VaultPaths,
        *,
        standby_s: float = STANDBY_S,
        after: Latch | None = None,
        on_demand: bool = False,
    ) -> None:
        """``after``: the engine loads what requests need once this is set (see
        :class:`~rubi.engine.warmup.Warmup`); None: as soon as it serves;
        ``on_demand``: and only once a request needed it."""
        self.vault = os.path.realpath(paths.root)
        self.paths = paths
        self.standby_s = standby_s
        self.serving = threading.Event()
        self._stop = threading.Event()
        self._slot = Slot()
        self._rewarm = Rewarm()
        self.warmup = Warmup(paths, after=after, on_demand=on_demand)
        self.ready = self.warmup.search
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._active = 0  # requests being answered (their threads), under _active_lock
        self._active_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._listener: socket.socket | None = None
        self._bound = -1  # the inode of the listener's socket file

    def start(self) -> Engine:
        self._thread = threading.Thread(target=self._main, name="rubi-engine", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        """End the engine: stop serving and loading, waiting up to ``timeout_s`` seconds
        in all for the engine's thread and its loading thread to end
        (:meth:`Warmup.stop`). The accept loop is woken by a connection of its own (a
        ``shutdown`` of the listening socket made ``accept`` with a timeout spin at
        full CPU until the timeout: up to :data:`IDLE_S` of CPU on every exit)."""
        deadline = time.monotonic() + timeout_s
        self._stop.set()
        self.warmup.stop()
        listener = self._listener
        if listener is not None and not self._wake(listener):
            # Its file gone or another's now: no connection reaches this accept, which
            # may sleep with no timeout; a shut-down listener's accept fails at once.
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(timeout_s)
        self.warmup.stop(max(deadline - time.monotonic(), 0.0))
        from rubi.app.updates import close_search_index

        close_search_index(self.paths)  # no segment file left open by its searches

    def _wake(self, listener: socket.socket) -> bool:
        """Connect to ``listener`` by its path to wake its accept; False when the path
        is no longer its socket (removed, or bound again by another engine)."""
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as wake:
            path = listener.getsockname()
            if os.stat(path).st_ino != self._bound:
                return False
            wake.settimeout(0.5)
            wake.connect(path)
            return True
        return False

    # -- the thread -------------------------------------------------------------
    def _main(self) -> None:
        try:
            address = address_for(self.vault, create=True)
            if address is None:
                log.info("rubi engine: no private runtime folder; hooks run cold")
                return
            while not self._stop.is_set():
                lock_fd = sockets.try_lock(address.lock)
                if lock_fd is not None:
                    try:
                        self._serve(address)
                    except OSError as exc:
                        log.info("rubi engine: cannot serve %s (%s)", address.socket, exc)
                    finally:
                        os.close(lock_fd)  # releases the flock
                self._stop.wait(self.standby_s)
        except Exception:  # the engine is an optimisation: never take the host down
            log.exception("rubi engine stopped")

    def _serve(self, address: Address) -> None:
        path = address.socket
        if os.path.lexists(path):
            if sockets.answers(path):
                return  # someone serves without the lock (a foreign or old engine)
            os.unlink(path)  # left by an engine that died
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        bound = -1
        try:
            listener.bind(path)
            os.chmod(path, 0o600)
            bound = os.stat(path).st_ino
            listener.listen(MAX_CONNECTIONS)
            self._listener, self._bound = listener, bound
            self.serving.set()
            self.warmup.start()
            while not self._stop.is_set():
                listener.settimeout(self._accept_timeout())
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    self._idle()
                    continue
                except OSError:
                    if self._stop.is_set():
                        break
                    raise
                if self._stop.is_set():
                    conn.close()  # the wake-up of stop(), or a request too late
                    break
                self._dispatch(conn)
        finally:
            self.serving.clear()
            self._listener = None
            listener.close()
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == bound:
                    os.unlink(path)

    def _accept_timeout(self) -> float | None:
        """:data:`IDLE_S` while an idle spell may have work (a request being answered,
        or a recalled prompt to replay once the index changes: :meth:`_idle`); else
        None: the accept loop sleeps until a connection (:meth:`stop` makes one). It
        woke every :data:`IDLE_S` for nothing in a server no hook ever reached."""
        with self._active_lock:
            active = self._active
        return IDLE_S if active or self._rewarm.holds_prompt() else None

    def _idle(self) -> None:
        """No request for :data:`IDLE_S`: recall the last prompt again if the index
        changed since (:mod:`rubi.engine.rewarm`), unless a hook runs."""
        if not self._slot.take(0):
            return
        try:
            self._rewarm.idle()
        finally:
            self._slot.give()

    def _dispatch(self, conn: socket.socket) -> None:
        if not self._slots.acquire(blocking=False):
            sockets.reply(conn, _refuse("busy"), drain=False)  # never hold up the accept loop
            conn.close()
            return
        with self._active_lock:
            self._active += 1
        threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            with conn:
                if not sockets.peer_is_user(conn):
                    sockets.reply(conn, _refuse("another user"))
                    return
                try:
                    line = read_line(conn, MAX_REQUEST_BYTES, time.monotonic() + READ_TIMEOUT_S)
                except LineTooLong:
                    sockets.reply(conn, _refuse(f"request over {MAX_REQUEST_BYTES:,} bytes"))
                    return
                except (OSError, ValueError):
                    return  # timed out or closed: nobody to answer
                reply = answer(
                    line,
                    self.vault,
                    self._slot,
                    self._rewarm,
                    self.paths,
                    Peer(conn),
                    self.warmup,
                )
                sockets.reply(conn, reply)
        except Exception:
            log.exception("rubi engine: a request failed")
        finally:
            with self._active_lock:
                self._active -= 1
            self._slots.release()


@contextlib.contextmanager
def running(
    paths: VaultPaths | None, after: Latch | None = None, on_demand: bool = False
) -> Iterator[Engine | None]:
    """An engine for ``paths`` while the block runs (a plain vault's answers commands
    only); None for no vault, or where engines are not supported (``RUBI_ENGINE=0``
    turns it off). Never raises for the engine's sake (a host runs the same without).
    ``after``: it loads what requests need once this is set (refusing them until then:
    their clients answer cold); ``on_demand``: and once a request needed it (Warmup)."""
    from rubi.engine.address import supported

    if paths is None or not supported():
        yield None
        return
    if os.environ.get("RUBI_ENGINE", "").strip().lower() in ("0", "off", "no", "false"):
        yield None
        return
    engine = Engine(paths, after=after, on_demand=on_demand).start()
    try:
        yield engine
    finally:
        engine.stop()
