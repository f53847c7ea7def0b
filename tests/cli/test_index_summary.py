"""What `rubi index` prints: the notes' line and the code's, which names `rubi doctor`
only when doctor has something to list."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rubi.cli.main import cli

from helpers import rubi_project, write


def test_index_names_doctor_only_when_a_code_file_was_skipped(tmp_path: Path) -> None:
    """A new user's `rubi index` printed `0 skipped or partly read: see rubi doctor`
    on a clean project, sending them to doctor for nothing."""
    project = rubi_project(tmp_path / "p", {"auth.py": "def login():\n    pass\n"})
    vault = str(project / ".rubi")
    out = CliRunner().invoke(cli, ["index", "--vault", vault]).output
    assert "0 skipped or partly read);" in out, out
    assert "rubi doctor" not in out
    write(project / "bad.py", b'x = "\xff\xfe"\n')  # not UTF-8: read in part
    out = CliRunner().invoke(cli, ["index", "--vault", vault]).output
    assert "1 skipped or partly read: see `rubi doctor`);" in out, out
