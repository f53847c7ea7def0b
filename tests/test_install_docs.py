"""What the repository tells a new user about installing rubi works: no text sends
them to the registry for a package that is not there, and every install command
names the package rubi is (its ``pyproject.toml`` name)."""

from __future__ import annotations

import re
import subprocess
import tomllib

from helpers import REPO

NAME = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
PUBLISHED = False
"""Whether the distribution is on PyPI; when it is, registry installs become right."""


def _texts() -> dict[str, str]:
    """Every text file git tracks (notes of past decisions excluded: history), by path."""
    listed = (
        subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
        .stdout.decode("utf-8")
        .split("\0")
    )
    found: dict[str, str] = {}
    for rel in filter(None, listed):
        if rel.startswith((".rubi/notes/", "tests/")) or not (REPO / rel).is_file():
            continue
        try:
            found[rel] = (REPO / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
    return found


REGISTRY_INSTALL = re.compile(r"(?:pip|pipx|uv pip|uv tool) install\s+['\"]?(rubi[\w.-]*)")


def test_no_text_installs_rubi_from_the_registry_before_it_is_published() -> None:
    offending = []
    for rel, text in _texts().items():
        for line in text.splitlines():
            for match in REGISTRY_INSTALL.finditer(line):
                if not PUBLISHED or match.group(1).split("[")[0] != NAME:
                    offending.append(f"{rel}: {line.strip()}")
    assert offending == []


def test_the_readme_gives_installs_that_work_and_names_the_package() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for command in ("pipx install <", "uv tool install <", "pip install -e"):
        assert command in readme
    assert f"`{NAME}`" in readme
    for rel in ("vault-template/README.md", "hooks/hooks.json"):
        assert "pipx install <" in (REPO / rel).read_text(encoding="utf-8")
