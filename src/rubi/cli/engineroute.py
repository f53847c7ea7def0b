"""``rubi search`` and ``rubi read`` answered by the resident engine of their vault.

One execution path: click parses the command here, the command finds its vault
(:func:`rubi.app.locate`), and its answer (:mod:`rubi.app.commandanswers`) comes from
the engine when one serves that vault (``rubi serve``, ``rubi watch``: warm, nothing
to import or load), else from the same function run here. The command prints the
answer the same way either way; an error the engine's run showed comes back as the
same exception, for the command's error handler (:func:`rubi.cli.common.handle_errors`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from rubi.core.commandcalls import (
    Answer,
    ReadArgs,
    SearchArgs,
    decode_answer,
    vault_fields,
    wire_error,
)
from rubi.core.paths import VaultPaths

__all__ = ["answered"]

log = logging.getLogger(__name__)


def answered(paths: VaultPaths, args: SearchArgs | ReadArgs, local: Callable[[], Answer]) -> Answer:
    """The answer to the command ``args`` in the vault ``paths``: the engine's, when an
    engine of this rubi and environment serves that very vault and answers in time,
    else ``local()``'s. A command run with ``rubi -v`` answers itself, so that the
    debug detail it asked for is logged here; it logs the vault, its index, that it
    did not ask the engine (and whether one listens for the vault), and how long its
    answer took.

    Raises:
        RubiError, ValueError: the error the command shows (from either)."""
    name = "search" if isinstance(args, SearchArgs) else "read"
    if log.isEnabledFor(logging.DEBUG):
        log.debug(
            "vault %s (project %s), index %s", paths.root, paths.project_root, paths.index_dir
        )
        log.debug("engine not asked: rubi -v answers here, %s", _engine_seen(paths))
        return _timed(name, "here", local)
    # A project's vault or a plain one (``rubi watch --vault V``): an engine answers
    # only for the very vault and project the command found (``vault_fields``).
    from rubi.engine.client import call_via_engine

    reply = call_via_engine(vault_fields(paths), name, args.wire())
    if reply is not None:
        if "error" in reply:
            error = wire_error(reply["error"])
            if error is not None:
                raise error
        else:
            answer = decode_answer(reply.get("answer"))
            if answer is not None:
                return answer
    return local()


def _engine_seen(paths: VaultPaths) -> str:
    """Whether a resident engine listens for the vault of ``paths``, as a phrase."""
    from rubi.engine.address import address_for

    address = address_for(str(paths.root))
    if address is None:
        return "no engine listens (no runtime folder for its socket)"
    from rubi.engine.sockets import answers

    if answers(address.socket):  # a socket file a killed engine left refuses a connection
        return f"though an engine listens at {address.socket}"
    return f"no engine listens at {address.socket}"


def _timed(name: str, where: str, run: Callable[[], Answer]) -> Answer:
    """``run()``, logging its wall and CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        return run()
    finally:
        log.debug(
            "%s answered %s in %.0f ms (%.0f ms CPU)",
            name,
            where,
            (time.perf_counter() - wall) * 1000,
            (time.process_time() - cpu) * 1000,
        )
