"""A cache folder the user cannot write (a read-only home, a shared mount): commands
that only read answer from the index as it was last built, with one warning line
naming the folder; commands that must write say so in one line and what to do."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import cache_home

from helpers import CONSOLE_SCRIPT, notes_vault

pytestmark = pytest.mark.timeout(120)

NO_OVERRIDE = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search,-fowner",
    "--inh-caps=-all",
]
"""Run a command as this user without the capabilities that let root ignore file
modes, so that a read-only folder is read-only to it as well."""


def _bound_by_modes() -> list[str]:
    """The command prefix under which a process obeys file modes (none for a user who
    is not root), or skip the test when no such process can be started here."""
    if not hasattr(os, "geteuid"):
        pytest.skip("file modes are a POSIX matter")
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root ignores file modes, and setpriv (util-linux) is not installed")
    probe = subprocess.run(
        [*NO_OVERRIDE, sys.executable, "-I", "-c", "pass"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"setpriv cannot drop capabilities here: {probe.stderr.decode()[-200:]}")
    return NO_OVERRIDE


def _rubi(prefix: list[str], args: list[str], cwd: Path) -> tuple[str, str, int]:
    done = subprocess.run(
        [*prefix, sys.executable, "-c", CONSOLE_SCRIPT, *args],
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        timeout=100,
        text=True,
        check=False,
    )
    return done.stdout, done.stderr, done.returncode


def _modes(root: Path, writable: bool) -> None:
    for folder, _, files in os.walk(root):
        for path in [Path(folder), *(Path(folder) / f for f in files)]:
            mode = path.stat().st_mode
            path.chmod(mode | stat.S_IWUSR if writable else mode & ~0o222)


@pytest.fixture
def read_only_cache() -> Iterator[Path]:
    """The user's cache folder, made read-only by the test and writable again after."""
    root = cache_home()
    root.mkdir(parents=True, exist_ok=True)
    yield root
    _modes(root, writable=True)


def test_search_in_a_read_only_cache_answers_from_the_last_index(
    tmp_path: Path, read_only_cache: Path
) -> None:
    prefix = _bound_by_modes()
    vault = tmp_path / "vault"
    notes_vault(vault, {"trie.md": "# Trie router\n\nRoutes are matched in a trie.\n"})
    app.index(app.locate(vault))
    (vault / "later.md").write_text("# Later\n\nWritten after the index.\n", encoding="utf-8")
    _modes(read_only_cache, writable=False)

    out, err, code = _rubi(prefix, ["search", "trie", "--vault", str(vault), "--json"], tmp_path)

    assert code == 0, err
    assert '"id": "trie"' in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "read-only" in lines[0], err
    assert str(app.locate(vault).index_dir) in lines[0]


def test_index_in_a_read_only_cache_says_so_in_one_line(
    tmp_path: Path, read_only_cache: Path
) -> None:
    prefix = _bound_by_modes()
    vault = tmp_path / "vault"
    notes_vault(vault, {"trie.md": "# Trie router\n\nRoutes are matched in a trie.\n"})
    app.index(app.locate(vault))
    _modes(read_only_cache, writable=False)

    _, err, code = _rubi(prefix, ["index", "--vault", str(vault)], tmp_path)

    assert code == 1
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert "read-only" in err and "XDG_CACHE_HOME" in err


def test_a_first_search_in_a_read_only_cache_says_so_in_one_line(
    tmp_path: Path, read_only_cache: Path
) -> None:
    prefix = _bound_by_modes()
    vault = tmp_path / "vault"
    notes_vault(vault, {"trie.md": "# Trie router\n\nRoutes are matched in a trie.\n"})
    _modes(read_only_cache, writable=False)

    _, err, code = _rubi(prefix, ["search", "trie", "--vault", str(vault)], tmp_path)

    assert code == 1
    assert len(err.strip().splitlines()) == 1, err
    assert "read-only" in err and "XDG_CACHE_HOME" in err
