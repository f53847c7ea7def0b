"""``rubi bundle``: a Claude Desktop extension (``.mcpb``, the MCP Bundle format) that
starts this machine's ``rubi serve`` for a project folder the user picks.

The bundle holds ``manifest.json`` (manifest version :data:`MANIFEST_VERSION`,
checked with the official ``mcpb validate``: ``tests/e2e/test_mcpb_bundle.py``) and a
launcher, ``server/rubi-serve``, that runs the ``rubi`` the bundle was built with
(:func:`rubi.claude.install.rubi_command`; on Windows the manifest calls it directly).
rubi is not copied in: its dependencies are compiled per platform, so a bundle
targets the machine it was built on. Claude Desktop asks for the project folder when
the extension is installed (``user_config.project``) and starts no server in a
project of its own.
"""

from __future__ import annotations

import json
import os
import shlex
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

from rubi.claude.install import rubi_command
from rubi.core.atomic import atomic_write_stream
from rubi.core.errors import RubiError

__all__ = ["LAUNCHER", "MANIFEST_VERSION", "build_bundle", "manifest"]

MANIFEST_VERSION = "0.3"
LAUNCHER = "server/rubi-serve"
"""The bundle's entry point: a POSIX shell script."""

DESCRIPTION = (
    "Project memory: a markdown vault of decisions, bugs and gotchas plus a map of the "
    "code, searched together."
)
TOOLS = (
    ("search", "Search notes and code: ranked ids with why each matched."),
    ("read", "Full text of notes, or outlines of code files, by id."),
    ("map", "The project's code map, or one module's page."),
    ("register", "Write decisions, bugs, gotchas and how-tos as notes."),
    ("handoff", "Save where this session left off, or read the last handoff."),
    ("write_summary", "Curated summary kept in the map or a module page."),
    ("xray", "Where this project's Claude Code tokens went."),
)
"""What the manifest lists (the server itself answers ``tools/list``)."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rubi-memory")
    except PackageNotFoundError:
        return "0.0.0"


def manifest(command: str) -> dict[str, Any]:
    """The bundle's ``manifest.json`` for the rubi executable ``command``."""
    serve_args = ["serve", "--project", "${user_config.project}"]
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": "rubi",
        "display_name": "rubi project memory",
        "version": _version(),
        "description": DESCRIPTION,
        "author": {"name": "rubi contributors"},
        "license": "MIT",
        "keywords": ["memory", "knowledge", "search", "obsidian", "mcp"],
        "server": {
            "type": "binary",
            "entry_point": LAUNCHER,
            "mcp_config": {
                "command": "${__dirname}/" + LAUNCHER,
                "args": ["${user_config.project}"],
                "platform_overrides": {"win32": {"command": command, "args": serve_args}},
            },
        },
        "tools": [{"name": name, "description": text} for name, text in TOOLS],
        "user_config": {
            "project": {
                "type": "directory",
                "title": "Project folder",
                "description": "The project whose memory (.rubi/) rubi serves.",
                "required": True,
            }
        },
        "compatibility": {"platforms": ["darwin", "linux", "win32"]},
    }


def launcher(command: str) -> str:
    """``server/rubi-serve``: run ``command serve --project <folder>``, or say on
    stderr that rubi is gone (Claude Desktop shows the server's stderr in its log)."""
    exe = shlex.quote(command)
    return (
        "#!/bin/sh\n"
        "# Starts the rubi this bundle was built with (rubi bundle).\n"
        f"if ! command -v {exe} >/dev/null 2>&1; then\n"
        f"  echo 'rubi: {command} not found; install rubi and run rubi bundle again' >&2\n"
        "  exit 127\n"
        "fi\n"
        f'exec {exe} serve --project "$1"\n'
    )


def build_bundle(out: Path, *, command: str | None = None) -> Path:
    """Write the ``.mcpb`` bundle to ``out`` (replaced if it exists).

    The bundle is written whole (:func:`rubi.core.atomic.atomic_write_stream`): a
    temp file beside ``out`` renamed onto it, so a symlink put at ``out`` after the
    check below is replaced itself, never followed.

    Args:
        out: the bundle file (``.mcpb``).
        command: the rubi executable (default :func:`rubi.claude.install.rubi_command`).

    Returns:
        ``out``.

    Raises:
        RubiError: ``out`` is a symlink (a cloned tree's ``rubi.mcpb`` linked to
            ``~/.bashrc`` would otherwise be overwritten with a zip), or cannot be
            written.
    """
    if os.path.islink(out):
        raise RubiError(
            f"{out}: a symlink (to {os.readlink(out)}); rubi bundle does not write "
            "through links: remove it or give --out another file"
        )
    command = command or rubi_command()
    entries = {
        "manifest.json": json.dumps(manifest(command), indent=2) + "\n",
        LAUNCHER: launcher(command),
    }

    def write(fh: BinaryIO) -> None:
        with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
            for name, text in entries.items():
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if name == LAUNCHER else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                bundle.writestr(info, text)

    try:
        atomic_write_stream(out, write)
    except OSError as exc:
        raise RubiError(f"{out}: cannot be written ({exc.strerror})") from exc
    return out
