"""Fixtures that build small repositories in ``tmp_path`` and map them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from codemap.codemap_helpers import Files, age_files, git_init, write_files
from rubi.codemap import CodeMap, build_code_map


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[..., Path]:
    """Build a repository: ``make_repo(files, use_git=True)`` → its root."""
    counter = iter(range(1000))

    def factory(files: Files, *, use_git: bool = True, name: str | None = None) -> Path:
        root = tmp_path / (name or f"repo{next(counter)}")
        root.mkdir(parents=True)
        write_files(root, files)
        if use_git:
            git_init(root)
        return root

    return factory


@pytest.fixture
def build(make_repo: Callable[..., Path]) -> Callable[..., CodeMap]:
    """Build a repository and map it: ``build(files)`` → CodeMap."""

    def factory(files: Files, *, use_git: bool = True) -> CodeMap:
        return build_code_map(make_repo(files, use_git=use_git))

    return factory


@pytest.fixture
def repo(make_repo: Callable[..., Path], request: pytest.FixtureRequest) -> Path:
    """A repository of the test module's ``FILES``, every file dated an hour back
    (:func:`age_files`), as files are unless just edited."""
    root = make_repo(request.module.FILES)
    age_files(root)
    return root
