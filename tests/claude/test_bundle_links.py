"""``rubi bundle`` never writes through a symlink it finds at the bundle's name."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from click.testing import CliRunner

from rubi.claude.bundle import build_bundle
from rubi.cli.main import cli


def test_bundle_refuses_a_committed_symlink_and_leaves_its_target(
    tmp_path: Path, isolated_home: Path
) -> None:
    bashrc = isolated_home / ".bashrc"
    bashrc.write_text("export PATH=$HOME/bin:$PATH\n", encoding="utf-8")
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / "rubi.mcpb").symlink_to(bashrc)
    os.chdir(clone)

    result = CliRunner().invoke(cli, ["bundle"])

    assert result.exit_code != 0
    message = result.output.strip().splitlines()
    assert len(message) == 1, result.output
    assert "rubi.mcpb" in message[0] and "symlink" in message[0]
    assert "remove it" in message[0]
    assert bashrc.read_text(encoding="utf-8") == "export PATH=$HOME/bin:$PATH\n"
    assert os.path.islink(clone / "rubi.mcpb")


def test_bundle_refuses_a_dangling_symlink_without_creating_its_target(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "made.txt"
    target.parent.mkdir()
    out = tmp_path / "rubi.mcpb"
    out.symlink_to(target)

    result = CliRunner().invoke(cli, ["bundle", "--out", str(out)])

    assert result.exit_code != 0
    assert "symlink" in result.output
    assert not target.exists()


def test_bundle_replaces_a_regular_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "rubi.mcpb"
    out.write_bytes(b"old bundle")

    build_bundle(out, tools=[("search", "Search.")])

    with zipfile.ZipFile(out) as bundle:
        assert {"manifest.json", "server/main.py", "pyproject.toml"} <= set(bundle.namelist())
    assert [p.name for p in tmp_path.iterdir()] == ["rubi.mcpb"]  # no temp file left
