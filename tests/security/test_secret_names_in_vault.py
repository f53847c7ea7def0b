"""Names that rubi writes as given (a note's ``files`` and link targets, a handoff's
files and notes) are refused when they hold a secret, with one line naming the field
and the kind, never the value; nothing is written."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcp import Client
from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.mcp.server import build_server

from helpers import vault_text, write

TOKEN = "ghp_R7kLm2Nq9Xv4Tz8Wb1Yc6Pd3Hf5Js0Ga2Ue7"
URL_PASSWORD = "Tr0ub4dorHorse"
NAMES = [
    f"export GITHUB_TOKEN={TOKEN}",
    f"postgres://app:{URL_PASSWORD}@db.internal:5432/app",
    "sk_live_51Hq2Kx7LmNp9RsTv4WyZ8Ab1Cd3Ef5Gh7Ij0Kl2Mn4Op6Qr8St0Uv",
]
SECRETS = [TOKEN, URL_PASSWORD, NAMES[2]]


def _assert_kept_out(project: Path, message: str, field: str) -> None:
    assert field in message and "holds a secret" in message, message
    for secret in SECRETS:
        assert secret not in message
    stored = vault_text(project)
    for secret in SECRETS:
        assert secret not in stored


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("field", ["files", "links"])
def test_register_refuses_a_file_or_link_target_holding_a_secret(
    project: Path, name: str, field: str
) -> None:
    paths = app.locate(project / ".rubi")
    value: object = [name] if field == "files" else [{"relation": "about", "target": name}]
    note = {"type": "note", "title": "Deploy notes", "body": "x", field: value}

    async def main() -> tuple[bool, str]:
        async with Client(build_server(paths)) as client:
            done = await client.call_tool("register", {"notes": [note]})
            return done.is_error, done.content[0].text  # type: ignore[union-attr]

    failed, answer = asyncio.run(main())
    assert failed
    _assert_kept_out(project, answer, f"notes[0].{field}[0]")
    assert not list((project / ".rubi" / "notes").glob("*.md"))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("field", ["files", "notes"])
def test_handoff_refuses_a_file_or_note_holding_a_secret(
    project: Path, name: str, field: str
) -> None:
    paths = app.locate(project / ".rubi")
    lists = {"files": (), "notes": ()} | {field: (name,)}
    with pytest.raises(RubiError) as caught:
        app.save_handoff(paths, "ship login", "tests red", (), lists["files"], lists["notes"])
    _assert_kept_out(project, str(caught.value), f"{field}[0]")
    assert not list((project / ".rubi" / "handoffs").glob("*.md"))


def test_note_add_refuses_a_file_or_link_holding_a_secret(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    runner = CliRunner()
    for option, value in (("--file", NAMES[1]), ("--link", f"about:{NAMES[0]}")):
        done = runner.invoke(
            cli,
            ["note", "add", "--type", "note", "--title", "Deploy", "--body", "x", option, value],
        )
        assert done.exit_code != 0
        _assert_kept_out(project, done.output, "holds a secret")


def test_ordinary_files_and_links_are_stored_as_given(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    write(project / "src" / "auth" / "token_refresh.py", "x = 1\n")
    done = app.register(
        paths,
        [
            {
                "type": "note",
                "title": "Refresh tokens",
                "body": "x",
                "files": ["src/auth/token_refresh.py"],
                "links": [{"relation": "about", "target": "password policy"}],
            }
        ],
    )
    assert not done[0].redacted
    stored = vault_text(project)
    assert "src/auth/token_refresh.py" in stored and "password policy" in stored


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tags", [f"export GITHUB_TOKEN={TOKEN}"]),
        ("links", [{"relation": "about", "target": f"[default] token={TOKEN}"}]),
    ],
)
def test_a_secret_in_a_name_that_is_also_malformed_is_not_quoted_back(
    project: Path, field: str, value: object
) -> None:
    paths = app.locate(project / ".rubi")
    note = {"type": "note", "title": "Deploy notes", "body": "x", field: value}
    with pytest.raises(RubiError) as caught:
        app.register(paths, [note])
    _assert_kept_out(project, str(caught.value), f"notes[0].{field}[0]")
