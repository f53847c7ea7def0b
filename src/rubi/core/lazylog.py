"""A module's logger, with ``logging`` imported when something is first logged.

``logging`` imports ``traceback``, and with it ``linecache``, ``tokenize``,
``textwrap`` and ``string`` (and compiles their patterns): about 4.5 ms of CPU that
a cold recall hook paid at import, through the eight modules of its search path that
made their logger at the top (``log = logging.getLogger(__name__)``), for messages it
almost never writes (a damaged cache, a skipped channel).

:func:`get_logger` gives a stand-in that asks ``logging.getLogger(name)`` on its first
use and hands every call to that logger: the same logger, name, level, handlers and
records (``caplog`` sees them as before).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from logging import Logger
    from typing import Any

__all__ = ["LazyLogger", "get_logger", "log_to_stderr"]


class LazyLogger:
    """``logging.getLogger(name)``, looked up on the first attribute asked of it."""

    __slots__ = ("_logger", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._logger: Logger | None = None

    def real(self) -> Logger:
        """The logger itself (imports ``logging`` on the first call)."""
        if self._logger is None:
            import logging

            self._logger = logging.getLogger(self.name)
        return self._logger

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.real(), attr)


def get_logger(name: str) -> Logger:
    """The logger ``name`` as a :class:`LazyLogger` (typed as the logger it stands
    for: it answers every attribute the same)."""
    return LazyLogger(name)  # type: ignore[return-value]


def log_to_stderr(verbose: int = 0) -> None:
    """Log to stderr as a command line reads: without ``verbose``, warnings and errors
    as one plain line each (``warning: notes/x.md: …``, the form ``rubi index`` gives
    its warnings); with ``verbose`` 1 rubi's own debug lines too, with 2 or more every
    library's, each naming its level and logger (``DEBUG rubi.search.engine: …``).
    Does nothing when the root logger already has a handler (``logging.basicConfig``).

    A line's characters a terminal would act on are shown as escapes
    (:func:`rubi.core.safetext.terminal_text`), as in the commands' own output: a
    warning names folders and files a clone or another user chose (``rubi serve``
    below a refused vault names it)."""
    import logging
    import sys

    from rubi.core.safetext import terminal_text

    class _Visible(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return terminal_text(super().format(record))

    class _Line(_Visible):
        def formatMessage(self, record: logging.LogRecord) -> str:
            return f"{record.levelname.lower()}: {record.message}"

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Visible("%(levelname)s %(name)s: %(message)s") if verbose else _Line())
    logging.basicConfig(level=logging.DEBUG if verbose > 1 else logging.WARNING, handlers=[handler])
    logging.getLogger("rubi").setLevel(logging.DEBUG if verbose else logging.NOTSET)
