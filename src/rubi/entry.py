"""The ``rubi`` console script. ``rubi hook <event>`` goes straight to the hook
handlers without loading the CLI (click, rich): hooks run on every prompt and tool
call, and pay every import."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:2] == ["hook"] and not {"-h", "--help"} & set(sys.argv[2:]):
        from rubi.claude.hooks.entry import main as hook_main

        raise SystemExit(hook_main(sys.argv[2:]))
    from rubi.cli.main import main as cli_main

    cli_main()
