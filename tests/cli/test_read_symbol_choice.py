"""``rubi read path#name`` where several symbols of the file end in that name
(``Client.send``, ``AsyncClient.send``) shows the first and names the others, as a
title two notes share does; it read the first silently (a trial on httpx)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import rubi_project

CODE = (
    "class Client:\n    def send(self):\n        return 1\n\n\n"
    "class AsyncClient:\n    async def send(self):\n        return 2\n\n\n"
    "def close():\n    return 3\n"
)


@pytest.fixture
def vault(tmp_path: Path) -> str:
    project = rubi_project(tmp_path / "p", {"client.py": CODE})
    app.index(app.locate(project / ".rubi"))
    return str(project / ".rubi")


def read(vault: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["read", *args, "--vault", vault])
    return result.exit_code, result.stdout, result.stderr


def test_a_name_two_symbols_end_in_names_the_other(vault: str) -> None:
    code, out, err = read(vault, "client.py#send")
    assert code == 0 and "return 1" in out and "return 2" not in out
    assert err.strip() == (
        "'client.py#send' names 2 parts: showing client.py#L2-5; also "
        "client.py#AsyncClient.send (read one by its id)"
    )
    code, out, _ = read(vault, "client.py#send", "--json")
    assert json.loads(out)["other_matches"] == ["client.py#AsyncClient.send"]


def test_a_full_or_unique_name_names_no_other(vault: str) -> None:
    for anchor in ("Client.send", "AsyncClient.send", "close"):
        code, _, err = read(vault, f"client.py#{anchor}")
        assert code == 0 and err == "", (anchor, err)
