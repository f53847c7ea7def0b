"""A small indexed project for the MCP server's tests: three code files and one
decision note about them."""

from __future__ import annotations

from pathlib import Path

from rubi import app

from helpers import rubi_project

__all__ = ["small_project"]


def small_project(root: Path) -> Path:
    """``root`` as an indexed rubi project (returned)."""
    rubi_project(
        root,
        {
            "pkg/__init__.py": "",
            "pkg/router.py": "class SmartRouter:\n    def match(self, path):\n        pass\n",
            "pkg/app.py": "from pkg.router import SmartRouter\n\nrouter = SmartRouter()\n",
        },
    )
    vault = app.locate(root / ".rubi")
    app.register(
        vault,
        [
            {
                "type": "decision",
                "title": "Route with a trie",
                "body": "Prefix matching keeps routing O(path length).",
                "files": ["pkg/router.py"],
            }
        ],
    )
    app.index(vault)
    return root
