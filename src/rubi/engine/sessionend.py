"""SessionEnd's work done by the plugin's server: the session's ``mcp_tool`` hooks tell
``rubi serve`` which session it serves, and Claude Code stops the server when the
session's process ends, so the plugin needs no ``rubi hook SessionEnd`` process there.

Claude Code 2.1.197 closes a plugin's stdio servers before it runs SessionEnd hooks
(an ``mcp_tool`` SessionEnd hook is "Not connected"): ``SIGINT``, ``SIGTERM`` 100 ms
later, ``SIGKILL`` 400 ms after that. What SessionEnd does
(:mod:`rubi.claude.hooks.end`: the pointer to the session's transcript for the next
SessionStart's cost line, a prompt that got no answer captured) is done here by the
same handler, run with the payload of the session's last hook and the reason
``other``:

- **at the server's end** (stdin closed, ``SIGINT``, ``SIGTERM``/``SIGHUP``): for the
  last session whose hook the server answered;
- **before the first hook of each session** the server answers whose transcript exists
  already (a hook naming no transcript file yet leaves it to the next): the pointer alone
  (:func:`rubi.claude.hooks.costline.remember_ended`), so that a server ended by
  ``SIGKILL`` before its end leaves it all the same; the next SessionStart then
  captures a prompt that session left unanswered
  (:func:`rubi.claude.hooks.costline.last_session_line`).

``/clear`` and ``/resume`` change the session inside one Claude Code process, whose
server lives on: the plugin keeps the ``rubi hook SessionEnd`` command for those two
reasons (its matcher, :data:`rubi.claude.pluginhooks.PLUGIN_MATCHERS`). ``rubi install``
(no plugin), Codex and Gemini keep the command for every end.
"""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Callable, Iterator

from rubi.claude.hooks.entry import respond
from rubi.claude.hooks.payload import transcript_name, transcript_path
from rubi.claude.hooks.toolcall import payload_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["END_REASON", "SessionEnds"]

END_REASON = "other"
"""The SessionEnd reason the server's own run gives: Claude Code's for a session whose
process ended (``claude -p`` done, the terminal closed)."""

_CARRIED = ("session_id", "transcript_path", "cwd")
"""What of a hook's payload SessionEnd's handler reads (besides ``reason``)."""


class SessionEnds:
    """A hook answerer (``arguments -> text``) that also does SessionEnd's work for the
    sessions whose hooks it answers: before the first hook of each session, and at
    :meth:`close` for the last one.

    Args:
        answer: the server's hook answerer
            (:func:`rubi.engine.hooktool.hook_answerer`); its answer is returned
            unchanged.
    """

    def __init__(self, answer: Callable[[Any], str]) -> None:
        self._answer = answer
        self._last: dict[str, Any] | None = None
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, arguments: Any) -> str:
        started = self._session_of(arguments)
        if started is not None:
            _point(started)
        return self._answer(arguments)

    def _session_of(self, arguments: Any) -> dict[str, Any] | None:
        """Remember the session of ``arguments``; its SessionEnd payload when it is the
        first hook of a session with a transcript, else None. Arguments that are not a
        hook (the answerer refuses them) or name no session are skipped."""
        try:
            _, payload = payload_of(arguments)
        except ValueError:
            return None
        session = payload.get("session_id")
        if not isinstance(session, str) or not session:
            return None
        ending = {name: payload[name] for name in _CARRIED if name in payload}
        ending.update(hook_event_name="SessionEnd", reason=END_REASON)
        with self._lock:
            self._last = ending
            if session in self._seen or not transcript_path(payload.get("transcript_path")):
                return None
            self._seen.add(session)
        return ending

    def close(self) -> None:
        """Do SessionEnd's work for the last session seen (none: nothing). Once: a
        second call does nothing."""
        with self._lock:
            ending, self._last = self._last, None
        if ending is not None:
            with _signals_held():
                _end(ending)


_HELD = ("SIGINT", "SIGTERM", "SIGHUP")
"""The signals Claude Code (``SIGINT``, then ``SIGTERM`` 100 ms later) or a closed
terminal stops a server with: held while SessionEnd's work runs, so that the second
one does not cut it short halfway (the handler's :class:`SystemExit`, which
:func:`rubi.claude.hooks.entry.respond` swallows, raised inside it)."""


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Inside the block, a signal of :data:`_HELD` is only recorded; after it, the
    handlers are back and the first signal recorded is raised again, so its handler
    runs then (the process still ends by it). In the main thread only (elsewhere the
    block runs as it is): Python runs signal handlers there, whichever thread the
    system delivered the signal to, so a signal mask would not hold them. ``SIGKILL``
    cannot be held: Claude Code's, 400 ms after its ``SIGTERM``, still ends the work."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    signums = [getattr(signal, name) for name in _HELD if hasattr(signal, name)]
    previous = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if came:
            signal.raise_signal(came[0])


def _point(payload: dict[str, Any], transcript: str | None = None) -> None:
    """Leave the cost line's pointer to the session of ``payload`` (fails open: an
    error is logged, as a hook's); ``transcript``: its transcript, written yet or not
    (None: the payload's, an existing file)."""
    if transcript is None and not transcript_path(payload.get("transcript_path")):
        return
    try:
        from rubi.claude.hooks.context import open_context
        from rubi.claude.hooks.costline import remember_ended

        remember_ended(open_context(payload, "SessionEnd"), transcript)
    except Exception:
        import logging

        logging.getLogger(__name__).warning("SessionEnd's pointer not written", exc_info=True)


def _end(payload: dict[str, Any]) -> None:
    """Run SessionEnd's handler on ``payload`` as ``rubi hook SessionEnd`` runs it
    (fails open: an error is logged to the vault's hooks log). A ``claude -p`` session's
    transcript may not be written yet when Claude Code stops the server (it is, once the
    session's process ends): the handler then skips the pointer, so it is left here
    naming the transcript to come, and the next SessionStart reads it (a transcript
    still missing then shows no line)."""
    respond("SessionEnd", payload, io.StringIO())
    if not transcript_path(payload.get("transcript_path")):
        _point(payload, transcript_name(payload.get("transcript_path")))
