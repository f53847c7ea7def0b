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


def answered(paths: VaultPaths, args: SearchArgs | ReadArgs, local: Callable[[], Answer]) -> Answer:
    """The answer to the command ``args`` in the vault ``paths``: the engine's, when an
    engine of this rubi and environment serves that very vault and answers in time,
    else ``local()``'s. A command run with ``rubi -v`` answers itself, so that the
    debug detail it asked for is logged here.

    Raises:
        RubiError, ValueError: the error the command shows (from either)."""
    if logging.getLogger().isEnabledFor(logging.DEBUG):
        return local()
    if paths.project_root is not None:  # an engine serves a project's vault only
        from rubi.engine.client import call_via_engine

        name = "search" if isinstance(args, SearchArgs) else "read"
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
