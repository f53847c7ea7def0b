"""The session bench's floor plugin: a plugin of rubi's shape that does nothing, to
tell what Claude Code itself spends on a plugin with hooks and an MCP server from
what rubi's processes and answers cost.

:func:`make_floor_plugin` writes a plugin folder named ``rubi`` (so the hooks'
``mcp_tool`` routes, ``plugin:rubi:rubi``, reach its server) with

- ``hooks/hooks.json``: the checkout's hooks, the same events, matchers, routes and
  timeouts, each ``command`` replaced by ``true`` (a shell that exits at once);
- ``.mcp.json``: one stdio server ``rubi`` running :mod:`floor_mcp` (one tool, empty
  answers, no instructions) with ``sys.executable -S -E``;
- no skills, agents or CLAUDE.md section (their cost to Claude Code is measured
  apart, with ``--variant``).

``python bench/session_bench.py PROJECT --floor`` runs it as a case ``floor`` beside
``bare`` and ``rubi`` (the rubi project, this folder as the plugin).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NOOP = "true"
"""The command every command hook of the floor plugin runs."""


def floor_hooks(hooks: dict[str, Any]) -> dict[str, Any]:
    """``hooks`` (a ``hooks.json`` document) with each command hook's ``command``
    replaced by :data:`NOOP`; everything else as it is.

    Raises:
        ValueError: ``hooks`` has no ``hooks`` mapping of event to matcher groups.
    """
    events = hooks.get("hooks")
    if not isinstance(events, dict):
        raise ValueError("hooks.json has no 'hooks' mapping")
    out: dict[str, list[dict[str, Any]]] = {}
    for event, groups in events.items():
        if not isinstance(groups, list):
            raise ValueError(f"hooks.json: {event} is not a list of matcher groups")
        out[event] = []
        for group in groups:
            handlers = [
                {**h, "command": NOOP} if h.get("type") == "command" else dict(h)
                for h in group.get("hooks", [])
            ]
            out[event].append({**group, "hooks": handlers})
    return {"hooks": out}


def make_floor_plugin(dest: Path, checkout: Path) -> Path:
    """Write the floor plugin for ``checkout``'s ``hooks/hooks.json`` into ``dest``
    (created; must not exist). Returns ``dest``.

    Raises:
        FileExistsError: ``dest`` exists.
        FileNotFoundError: ``checkout`` has no ``hooks/hooks.json``.
        ValueError: that file is not a hooks document (:func:`floor_hooks`).
    """
    hooks = json.loads((checkout / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    dest.mkdir(parents=True)
    (dest / ".claude-plugin").mkdir()
    manifest = {"name": "rubi", "version": "0.0.0", "description": "floor: does nothing"}
    (dest / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
    (dest / "hooks").mkdir()
    (dest / "hooks" / "hooks.json").write_text(
        json.dumps(floor_hooks(hooks), indent=1), encoding="utf-8"
    )
    server = {
        "type": "stdio",
        "command": sys.executable,
        "args": ["-S", "-E", str(HERE / "floor_mcp.py")],
    }
    (dest / ".mcp.json").write_text(json.dumps({"mcpServers": {"rubi": server}}), encoding="utf-8")
    return dest
