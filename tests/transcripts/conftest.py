"""Fixtures for the Token X-ray tests: a private Claude Code home and the real samples."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from transcripts.xray_builder import SAMPLES

from helpers import require_data


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``$HOME/.claude/projects`` in a fresh HOME, with CLAUDE_CONFIG_DIR unset."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    root = home / ".claude" / "projects"
    root.mkdir(parents=True)
    return root


@pytest.fixture
def samples(projects: Path) -> Path:
    """The real samples copied into two project folders of ``projects``; returns ``projects``.

    ``-path-to-Demo`` holds the two 1.0.x sessions, ``-path-to-project`` the 2.1.x ones
    (the SYNTHETIC session with its subagent folder).
    """
    require_data(SAMPLES)
    demo = projects / "-path-to-Demo"
    other = projects / "-path-to-project"
    demo.mkdir()
    other.mkdir()
    for path in SAMPLES.iterdir():
        target = (demo if path.name[0].isdigit() else other) / path.name
        if path.is_dir():
            shutil.copytree(path, target)
        elif path.suffix == ".jsonl":
            shutil.copyfile(path, target)
    return projects
