"""``logging`` imported without ``traceback`` until a traceback or a stack is written.

``logging`` imports ``traceback`` at its top for the few places that format one
(:meth:`logging.Formatter.formatException`, ``stack_info``, a handler's own error),
and ``traceback`` imports ``linecache``, ``tokenize`` (and its patterns) and
``textwrap``. ``rubi serve`` sets up logging as it starts, so a session's server paid
for them whether or not anything was ever logged with a traceback: about 6 M
instructions, 4 % of the server's handshake and 1 % of a short session's server
(``docs/benchmarks-history.md``, "issue 29: a whole session's cost, what rubi serve
and Claude Code spend, twenty-seventh pass").

:func:`import_logging` imports ``logging`` with a stand-in for ``traceback`` in
``sys.modules`` for just that import, as :mod:`rubi.core.pathlibimport` does for
``urllib.parse``: a module whose attributes are the real module's, imported on the
first one asked (PEP 562's module ``__getattr__``). The stand-in is removed at once,
so any later ``import traceback`` gets the real module. Nothing is done when either
module is imported already, or when another thread runs.
"""

from __future__ import annotations

from types import ModuleType

from rubi.core.standin import import_with_stand_in, real_module

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["import_logging"]


def _real_traceback(attr: str) -> Any:
    """``traceback``'s attribute ``attr``, the module imported on the first call
    (:func:`rubi.core.standin.real_module`: never the stand-in itself)."""
    return getattr(real_module("traceback"), attr)


def import_logging() -> None:
    """Import ``logging`` with ``traceback`` deferred (see the module docstring)."""
    stand_in = ModuleType("traceback")
    stand_in.__getattr__ = _real_traceback  # type: ignore[method-assign]
    import_with_stand_in("logging", "traceback", stand_in)
