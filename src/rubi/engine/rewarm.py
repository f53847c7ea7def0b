"""Recall kept warm across index changes, while the engine is idle.

A search on a new index generation (a captured turn or a saved note, applied by the
watcher of the process that hosts the engine) reopens the reader and rescores the
postings of every query word against the new statistics: on 6,442 notes the first
recall after a change cost +12 ms CPU for a short prompt and +45–60 ms for a
4,000-character one. In a session the change comes from the Stop hook at the end of a
turn and the next prompt comes seconds later, so the engine pays that cost in between:
when it has been idle for a moment and the index changed since the last recall, it
recalls the last prompt again (result dropped) and the next prompt finds the reader,
its statistics and the words it most likely shares with the last one scored.

Nothing is written: the prompt stays in memory (it is in the hook's session state
anyway), the session state is not touched, the answer is thrown away.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rubi.claude.hooks.context import HookContext

__all__ = ["Rewarm"]

log = logging.getLogger(__name__)


class Rewarm:
    """The last recall the engine answered, replayed after an index change.

    :meth:`seen` is called with each hook the engine answered; :meth:`idle` when no
    request came for a while. Not thread-safe on its own: the engine calls both under
    its hook lock.
    """

    def __init__(self) -> None:
        self._payload: dict[str, Any] | None = None
        self._event = ""
        self._stamp: tuple[int, ...] | None = None
        self._context: HookContext | None = None
        self._mutex = threading.Lock()

    def seen(self, event: str, payload: Any) -> None:
        """Remember a UserPromptSubmit that recalled (the others are ignored)."""
        from rubi.claude.hooks.event import event_key

        if event_key(event or _name(payload)) != "userpromptsubmit" or not isinstance(
            payload, dict
        ):
            return
        prompt = payload.get("prompt")
        from rubi.claude.hooks.recall import is_chatter

        if not isinstance(prompt, str) or is_chatter(prompt):
            return
        with self._mutex:
            self._payload, self._event = payload, event
            self._context = None  # found on the next idle, which also takes the stamp
            self._stamp = None

    def holds_prompt(self) -> bool:
        """Whether a recalled prompt is held (:meth:`idle` may have work)."""
        with self._mutex:
            return self._payload is not None

    def idle(self) -> bool:
        """Replay the last recall when the index changed since it ran; True when it did.
        Costs two ``stat`` calls when nothing changed (the engine calls it every
        :data:`rubi.engine.server.IDLE_S` while idle)."""
        with self._mutex:
            payload, event, ctx = self._payload, self._event, self._context
        if payload is None:
            return False
        try:
            if ctx is None:
                from rubi.claude.hooks.context import open_context

                ctx = open_context(payload, event)  # the hook's vault and settings
                with self._mutex:
                    self._context = ctx
            if ctx.vault is None:
                return False
            stamp = _stamp(ctx.vault.whoosh_dir, ctx.vault.store_file)
            with self._mutex:
                if self._stamp is None:
                    self._stamp = stamp  # first idle after a recall: nothing changed yet
                    return False
                if stamp == self._stamp:
                    return False
                self._stamp = stamp
            from rubi.app.recall import recall
            from rubi.claude.hooks.recall import MAX_PROMPT_CHARS

            prompt = str(payload.get("prompt", "")).strip()[:MAX_PROMPT_CHARS]
            recall(ctx.vault, prompt, max_tokens=ctx.settings.recall_max_tokens)
        except Exception as exc:  # an optimisation: the next hook does the work instead
            log.debug("rubi engine: rewarm skipped (%s)", exc)
            return False
        return True


def _name(payload: Any) -> str:
    value = payload.get("hook_event_name") if isinstance(payload, dict) else None
    return value if isinstance(value, str) else ""


def _stamp(*paths: Any) -> tuple[int, ...]:
    """What changes when the index or the graph store is written: each path's device,
    inode, modification time and size (0s for a missing one)."""
    out: list[int] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            out += [0, 0, 0, 0]
            continue
        out += [st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size]
    return tuple(out)
