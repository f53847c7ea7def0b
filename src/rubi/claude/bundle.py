"""``rubi bundle``: a Claude Desktop extension (``.mcpb``, the MCP Bundle format) that
carries rubi itself and runs on a machine without it.

The bundle is an MCPB manifest (version :data:`MANIFEST_VERSION`, server type ``uv``;
checked with the official ``mcpb validate``: ``tests/e2e/test_mcpb_bundle.py``) beside
the project it runs: ``pyproject.toml`` (its dependencies), ``src/rubi`` (the code, the
vault template and the semantic model), ``README.md`` and ``LICENSE``, and a launcher,
:data:`ENTRY_POINT`, that starts that code's ``rubi serve``. The host installs Python
and the dependencies with uv (``uv run --directory <bundle> server/main.py``), so no
rubi, Python or compiler is needed on the machine; tests, ``.git`` and virtual
environments never go in. Claude Desktop asks for the project folder when the
extension is installed (``user_config.project``).

The manifest lists every tool the server offers, as the server describes them (the
caller passes them in: see ``rubi.cli.installcmds.bundle``). MCPB manifest reference:
https://github.com/modelcontextprotocol/mcpb/blob/main/MANIFEST.md
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, BinaryIO

from rubi.core.atomic import atomic_write_stream
from rubi.core.errors import RubiError

__all__ = ["ENTRY_POINT", "MANIFEST_VERSION", "build_bundle", "bundle_files", "manifest"]

MANIFEST_VERSION = "0.4"
"""The first MCPB manifest version with the ``uv`` server type."""
ENTRY_POINT = "server/main.py"
"""The bundle's launcher: puts the bundled ``src`` first and runs ``rubi serve``."""
DISTRIBUTION = "rubi-memory"

DESCRIPTION = (
    "Project memory: a markdown vault of decisions, bugs and gotchas plus a map of the "
    "code, searched together."
)
SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".venv", "venv", ".mypy_cache", ".ruff_cache"})
SKIPPED_SUFFIXES = (".pyc", ".pyo")

LAUNCHER = '''\
"""Starts the rubi this bundle carries (``rubi bundle``): ``rubi serve`` with the
arguments given, on the code in ../src whatever else is installed."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rubi.entry import main  # noqa: E402

sys.argv = ["rubi", "serve", *sys.argv[1:]]
main()
'''


def _version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        from rubi import __version__

        return __version__


def manifest(tools: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The bundle's ``manifest.json``.

    Args:
        tools: the server's tools as (name, description), in its order.
    """
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
            "type": "uv",
            "entry_point": ENTRY_POINT,
            "mcp_config": {
                "command": "uv",
                "args": [
                    "run",
                    "--directory",
                    "${__dirname}",
                    ENTRY_POINT,
                    "--project",
                    "${user_config.project}",
                ],
            },
        },
        "tools": [{"name": name, "description": text} for name, text in tools],
        "user_config": {
            "project": {
                "type": "directory",
                "title": "Project folder",
                "description": "The project whose memory (.rubi/) rubi serves.",
                "required": True,
            }
        },
        "compatibility": {
            "platforms": ["darwin", "linux", "win32"],
            "runtimes": {"python": ">=3.11"},
        },
    }


def _tree(root: Path, prefix: str) -> Iterator[tuple[str, Path]]:
    """Regular files under ``root`` as (name in the bundle, path); links, caches and
    compiled files skipped."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file() or name.endswith(SKIPPED_SUFFIXES):
                continue
            yield f"{prefix}/{path.relative_to(root).as_posix()}", path


def _installed_pyproject(package: Path) -> str:
    """A ``pyproject.toml`` for an installed rubi (no checkout beside it): its name,
    version and requirements from the installed distribution's metadata."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
        requires = [r for r in dist.requires or [] if "extra ==" not in r]
        python = dist.metadata["Requires-Python"] or ">=3.11"
    except metadata.PackageNotFoundError as exc:
        raise RubiError(
            f"{package}: rubi is neither a checkout nor an installed {DISTRIBUTION}; "
            "run rubi bundle from a checkout"
        ) from exc
    deps = "".join(f"    {json.dumps(r)},\n" for r in requires)
    return (
        '[build-system]\nrequires = ["hatchling>=1.24"]\nbuild-backend = "hatchling.build"\n\n'
        f'[project]\nname = "{DISTRIBUTION}"\nversion = "{_version()}"\n'
        f"requires-python = {json.dumps(python)}\ndependencies = [\n{deps}]\n\n"
        '[project.scripts]\nrubi = "rubi.entry:main"\n\n'
        '[tool.hatch.build.targets.wheel]\npackages = ["src/rubi"]\n'
    )


def bundle_files(package: Path | None = None) -> dict[str, Path | str]:
    """What the bundle carries besides its manifest: name in the bundle → a file to
    copy, or text.

    From a checkout (``package`` is ``<checkout>/src/rubi`` beside a
    ``pyproject.toml``): that pyproject, README, LICENSE, ``src/rubi`` and the vault
    template it builds in. From an installed rubi: the installed package (template
    included) and a ``pyproject.toml`` made from its metadata.

    Args:
        package: the ``rubi`` package folder (default: the running one).

    Raises:
        RubiError: neither a checkout nor an installed distribution.
    """
    import rubi

    package = package or Path(rubi.__file__).resolve().parent
    files: dict[str, Path | str] = {}
    checkout = package.parent.parent
    if package.parent.name == "src" and (checkout / "pyproject.toml").is_file():
        for name in ("pyproject.toml", "README.md", "LICENSE"):
            if (checkout / name).is_file():
                files[name] = checkout / name
        files.update(_tree(checkout / "vault-template", "vault-template"))
    else:
        files["pyproject.toml"] = _installed_pyproject(package)
    files.update(_tree(package, "src/rubi"))
    files[ENTRY_POINT] = LAUNCHER
    return files


def build_bundle(
    out: Path, *, tools: Sequence[tuple[str, str]], package: Path | None = None
) -> Path:
    """Write the ``.mcpb`` bundle to ``out`` (replaced if it exists).

    The bundle is written whole (:func:`rubi.core.atomic.atomic_write_stream`): a
    temp file beside ``out`` renamed onto it, so a symlink put at ``out`` after the
    check below is replaced itself, never followed.

    Args:
        out: the bundle file (``.mcpb``).
        tools: the server's tools as (name, description), listed in the manifest.
        package: the ``rubi`` package to carry (default: the running one).

    Returns:
        ``out``.

    Raises:
        RubiError: ``out`` is a symlink (a cloned tree's ``rubi.mcpb`` linked to
            ``~/.bashrc`` would otherwise be overwritten with a zip), or cannot be
            written; or no rubi source to carry (:func:`bundle_files`).
    """
    if os.path.islink(out):
        raise RubiError(
            f"{out}: a symlink (to {os.readlink(out)}); rubi bundle does not write "
            "through links: remove it or give --out another file"
        )
    entries: dict[str, Path | str] = {
        "manifest.json": json.dumps(manifest(tools), indent=2) + "\n",
        **bundle_files(package),
    }

    def write(fh: BinaryIO) -> None:
        with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
            for name, content in entries.items():
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                data = content.read_bytes() if isinstance(content, Path) else content
                bundle.writestr(info, data)

    try:
        atomic_write_stream(out, write)
    except OSError as exc:
        raise RubiError(f"{out}: cannot be written ({exc.strerror})") from exc
    return out
