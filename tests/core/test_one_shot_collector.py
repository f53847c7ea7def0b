"""A process that runs one command and exits (``rubi index``, a cold search or hook)
leaves what it loaded out of the collector's later passes; a long-lived one never
does (a graph it replaces later must be freed)."""

from __future__ import annotations

import gc
from pathlib import Path

from click.testing import CliRunner

from rubi.cli.main import cli
from rubi.core.picklefiles import load_pickle
from rubi.sync.oneshot import mark_one_shot

from helpers import pickled_rows, write


def test_a_one_shot_process_freezes_what_it_loaded() -> None:
    path = pickled_rows()
    gc.unfreeze()
    mark_one_shot()
    rows = load_pickle(path)
    assert gc.get_freeze_count() > len(rows)  # type: ignore[arg-type]


def test_a_long_lived_process_freezes_nothing() -> None:
    path = pickled_rows()
    gc.unfreeze()
    load_pickle(path)
    assert gc.get_freeze_count() == 0


def test_rubi_index_freezes_the_graph_it_read_back(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write(vault / "a.md", "# A\n\nSee [[b]].\n")
    write(vault / "b.md", "# B\n")
    runner = CliRunner()
    assert runner.invoke(cli, ["index", "--vault", str(vault)]).exit_code == 0
    write(vault / "a.md", "# A\n\nSee [[b]] and [[c]].\n")
    gc.unfreeze()
    result = runner.invoke(cli, ["index", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() > 0
