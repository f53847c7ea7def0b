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


def leave(code: int) -> None:
    """End the process now with ``code``, without the interpreter's teardown.

    Returns without doing anything, for the usual exit, when a standard stream cannot
    be flushed (the interpreter then reports it as always) or a thread that is not a
    daemon still runs (the usual exit waits for it). Callers must have finished their
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
        main_thread = threading.main_thread()
        for thread in threading.enumerate():
            if thread is not main_thread and not thread.daemon and thread.is_alive():
                return
    import atexit

    atexit._run_exitfuncs()
    os._exit(code)
