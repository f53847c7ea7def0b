"""``rubi links``, ``rubi backlinks`` and ``rubi timeline`` bring the index up to date
first, as ``rubi read`` and ``rubi search`` do: a note saved a moment ago, and the
links it adds, are in their answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import write


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    write(root / "notes" / "heron.md", "---\nupdated: 2025-03-10\n---\n# Heron\n\nA wader.\n")
    app.index(app.locate(root))
    # saved after the last index run, with no watcher running
    write(
        root / "notes" / "egret.md",
        "---\nupdated: 2025-03-11\n---\n# Egret\n\nA cousin of [[heron]].\n",
    )
    return root


def _json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_backlinks_name_a_note_saved_since_the_last_index_run(vault: Path) -> None:
    data = _json("backlinks", "notes/heron", "--vault", str(vault))
    assert [item["id"] for item in data["backlinks"]] == ["notes/egret"]


def test_links_of_a_note_saved_since_the_last_index_run(vault: Path) -> None:
    data = _json("links", "notes/egret", "--vault", str(vault))
    assert [item["id"] for item in data["links"]] == ["notes/heron"]


def test_timeline_centres_on_a_note_saved_since_the_last_index_run(vault: Path) -> None:
    data = _json("timeline", "notes/egret", "--vault", str(vault))
    assert data["centre"] == "2025-03-11"
    assert "notes/egret" in [entry["id"] for entry in data["entries"]]
