"""Ending a process whose work is done without tearing the interpreter down.

At a usual exit Python frees every module and every object one at a time: for a
process that loaded the search stack (Whoosh, NumPy, the index readers, the graph)
that is tens to hundreds of milliseconds of CPU spent after the last answer, for
memory the kernel takes back at once. :func:`leave` ends the process as ``os._exit``
does, after what an exit does that matters: the standard streams flushed and the
``atexit`` functions run (logging's flush, the dataclass code cache's save).
"""

from __future__ import annotations

import sys

__all__ = ["leave"]


JOIN_S = 1.0
"""How long :func:`leave` waits in all for threads that are not daemons to end (s)."""


def leave(code: int) -> None:
    """End the process now with ``code``, without the interpreter's teardown.

    Returns without doing anything, for the usual exit, when a standard stream cannot
    be flushed (the interpreter then reports it as always) or a thread that is not a
    daemon still runs after :data:`JOIN_S` seconds of waiting for it (the usual exit
    waits for it too: an AnyIO worker thread told to stop when the server's event loop
    closed may still be ending, which under load made a served session's end tear the
    interpreter down after all). Callers must have finished their
    own cleanup (files closed, locks freed, sockets removed) first: no ``finally``
    block or context manager still open runs after this.
    """
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        return
    threading = sys.modules.get("threading")
    if threading is not None:
        import time

        main_thread = threading.main_thread()
        until = time.monotonic() + JOIN_S
        for thread in threading.enumerate():
            if thread is not main_thread and not thread.daemon and thread.is_alive():
                thread.join(max(0.0, until - time.monotonic()))
                if thread.is_alive():
                    return
    import atexit

    atexit._run_exitfuncs()
    os._exit(code)
