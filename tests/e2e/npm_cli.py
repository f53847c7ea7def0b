"""A pinned CLI from npm, installed once into the user's cache (``rubi-tests/<name>``,
outside the repository), for the end-to-end tests of the agent CLIs.

Where npm is missing, or cannot install the package (offline), the test is skipped on
a developer's machine and fails in CI (``CI`` set; the CI machine reaches the npm
registry), like :func:`helpers.require_data`: the suite cannot shrink quietly.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from platformdirs import user_cache_path

CACHE = user_cache_path("rubi-tests", appauthor=False)
"""Read at import, before the fixtures isolate HOME."""


def npm_cli(folder: str, package: str, version: str, binary: str) -> str:
    """The path of ``binary`` from ``package@version``, installed on first use.

    Args:
        folder: the cache folder's name (``rubi-tests/<folder>``).
        package: the npm package, e.g. ``@google/gemini-cli``.
        version: the pinned version.
        binary: the executable in ``node_modules/.bin``.
    """
    return str(npm_file(folder, package, version, Path("node_modules", ".bin", binary)))


def npm_file(folder: str, package: str, version: str, rel: Path) -> Path:
    """The file ``rel`` (under the install prefix) of ``package@version``, installed on
    first use; for packages without an executable (``@sparticuz/chromium``), ``rel``
    is e.g. its ``package.json``. Skipped or failed as the module docstring says."""
    prefix = CACHE / folder
    local = prefix / rel
    stamp = prefix / f".installed-{version}"
    if local.exists() and stamp.exists():
        return local
    npm = shutil.which("npm")
    command = [
        str(npm),
        "install",
        "--prefix",
        str(prefix),
        "--no-audit",
        "--no-fund",
        "--silent",
        f"{package}@{version}",
    ]
    problem = "npm not found" if npm is None else ""
    if npm is not None:
        prefix.mkdir(parents=True, exist_ok=True)
        try:
            proc = subprocess.run(command, timeout=900, capture_output=True, text=True)
        except subprocess.TimeoutExpired:
            problem = f"`{' '.join(command)}` took over 15 minutes"
        else:
            if proc.returncode != 0 or not local.exists():
                problem = f"`{' '.join(command)}` failed: {proc.stderr.strip()[-500:]}"
    if problem:
        message = f"{package}@{version} not installed: {problem}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    stamp.touch()
    return local


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment for an agent CLI: a private HOME, this venv's ``rubi`` first on
    PATH, no keys or settings of the person running the tests."""
    import sys

    keep = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("ANTHROPIC", "CLAUDE", "GEMINI", "GOOGLE", "OPENAI", "CODEX"))
    }
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**keep, "HOME": str(home), "PATH": path, **extra}
