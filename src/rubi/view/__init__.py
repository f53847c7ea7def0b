"""``rubi view``: one local page to see a project's memory — the graph of notes and
code files, the timeline, search with its why-lines, and the token X-ray of the
project's Claude Code transcripts.

A surface over the facade (:mod:`rubi.app`): loopback only, with the DNS-rebinding
checks of ``rubi serve --http`` (:mod:`rubi.core.loopback`), read-only (no index run,
no write to the vault), and it opens no browser unless asked.
"""

from __future__ import annotations

from rubi.view.server import ViewServer, make_server

__all__ = ["ViewServer", "make_server"]
