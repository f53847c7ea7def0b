"""SIGTERM and SIGHUP setting a stop event (a watcher run in the main thread:
:func:`rubi.watch.watch`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["stop_on_signals"]


def stop_on_signals(stop: threading.Event) -> Callable[[], None]:
    """Make SIGTERM and SIGHUP (a closed terminal) set ``stop`` (main thread only);
    returns the undo."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    signums = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {s: signal.getsignal(s) for s in signums}

    def handler(signum: int, frame: Any) -> None:
        stop.set()

    for s in signums:
        signal.signal(s, handler)

    def restore() -> None:
        for s, old in previous.items():
            signal.signal(s, old)

    return restore
