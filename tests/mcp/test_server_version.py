"""The MCP server reports rubi's version."""

from __future__ import annotations

from rubi import __version__
from rubi.mcp.front import load_handshake


def test_server_info_names_rubis_version() -> None:
    handshake = load_handshake()
    answers = handshake.results["initialize"]
    assert answers
    for result in answers.values():
        assert result["serverInfo"] == {"name": "rubi", "version": __version__}
    assert __version__
