"""The secrets corpus through every command that stores text in the vault (the files a
team commits): MCP ``register`` through the in-memory client, ``rubi note add`` and
``rubi handoff save`` through the CLI, and map summaries. No secret reaches a file,
each is reported by field, line and kind (never its value), and every ordinary
snippet is stored byte for byte."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcp import Client
from rubi import app
from rubi.cli.main import cli
from rubi.mcp.server import build_server
from transcripts.redaction_corpus import ORDINARY, SECRETS, leaks, pieces

from helpers import vault_text

BATCH = 50
"""Notes per register call."""
HANDOFF_BATCH = 8
"""Samples per handoff (its state: the samples, a blank line apart)."""


def _notes(samples: list[dict[str, Any]], tag: str) -> list[dict[str, str]]:
    return [
        {"type": "note", "title": f"{tag} sample {i}", "body": s["text"]}
        for i, s in enumerate(samples)
    ]


def _count(kind: str, leaked: list[str], changed: list[str]) -> None:
    print(
        f"{kind}: {len(SECRETS) - len(leaked)}/{len(SECRETS)} secrets kept out, "
        f"{len(leaked)} leaked; {len(ORDINARY) - len(changed)}/{len(ORDINARY)} ordinary "
        f"stored as given, {len(changed)} changed"
    )


def _leaked(stored: str) -> list[str]:
    """The secret samples of which a piece is in ``stored`` (ordinary snippets, stored
    as given, are taken out first: ``tskey-auth-…`` in prose is no leak)."""
    for sample in sorted(ORDINARY, key=lambda s: len(s["text"]), reverse=True):
        stored = stored.replace(sample["text"].strip(), "\0")
    return [f"{i} {s['kind']}" for i, s in enumerate(SECRETS) if leaks(s, stored)]


def _named(answer: str) -> list[str]:
    """The secret samples of which 16 characters in a row are in ``answer`` (what a
    command printed: kinds such as ``azure-client-secret`` share 8 with a token)."""
    out = []
    for i, sample in enumerate(SECRETS):
        for piece in pieces(sample):
            width = min(16, len(piece))
            if any(piece[j : j + width] in answer for j in range(len(piece) - width + 1)):
                out.append(f"{i} {sample['kind']}")
                break
    return out


def _changed(stored: str) -> list[str]:
    return [f"{i} {s['kind']}" for i, s in enumerate(ORDINARY) if s["text"].strip() not in stored]


def test_mcp_register_stores_no_secret_and_every_ordinary_snippet(project: Path) -> None:
    paths = app.locate(project / ".rubi")

    async def main() -> list[str]:
        answers = []
        async with Client(build_server(paths)) as client:
            for tag, pool in (("secret", SECRETS), ("ordinary", ORDINARY)):
                notes = _notes(pool, tag)
                for at in range(0, len(notes), BATCH):
                    done = await client.call_tool("register", {"notes": notes[at : at + BATCH]})
                    assert not done.is_error, done.content
                    answers.append(done.content[0].text)  # type: ignore[union-attr]
        return answers

    answers = "\n".join(asyncio.run(main()))
    stored = vault_text(project)
    leaked, changed = _leaked(stored), _changed(stored)
    _count("MCP register", leaked, changed)
    assert (leaked, changed) == ([], [])
    lines = answers.splitlines()
    secret_lines = [x for x in lines if "secret-sample" in x]
    assert len(secret_lines) == len(SECRETS)
    assert all("; redacted " in x and "body line " in x for x in secret_lines), secret_lines
    assert not any("redacted" in x for x in lines if "ordinary-sample" in x)
    assert _named(answers) == []  # the answer names kinds and lines, never a value


def test_note_add_stores_no_secret_and_every_ordinary_snippet(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    batch = tmp_path / "notes.json"
    batch.write_text(
        json.dumps(_notes(SECRETS, "secret") + _notes(ORDINARY, "ordinary")), encoding="utf-8"
    )
    vault = str(project / ".rubi")
    result = CliRunner().invoke(cli, ["note", "add", "--from-json", str(batch), "--vault", vault])
    assert result.exit_code == 0, result.output
    stored = vault_text(project)
    leaked, changed = _leaked(stored), _changed(stored)
    _count("rubi note add", leaked, changed)
    assert (leaked, changed) == ([], [])
    assert result.output.count("redacted ") == len(SECRETS)
    assert _named(result.output) == []

    one = CliRunner().invoke(
        cli,
        [
            "note",
            "add",
            "--type",
            "gotcha",
            "--title",
            "CI key",
            "--json",
            "--vault",
            vault,
            "--body",
            "line one\nexport AWS_ACCESS_KEY_ID=AKIAFAKE0EXAMPLE0KEY",
        ],
    )
    assert one.exit_code == 0, one.output
    assert json.loads(one.output)[0]["redacted"] == ["body line 2: aws-key"]


def test_handoff_save_stores_no_secret_and_every_ordinary_snippet(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project)
    vault = str(project / ".rubi")
    said: dict[str, list[str]] = {"secret": [], "ordinary": []}
    for tag, pool in (("secret", SECRETS), ("ordinary", ORDINARY)):
        for at in range(0, len(pool), HANDOFF_BATCH):
            state = "\n\n".join(s["text"] for s in pool[at : at + HANDOFF_BATCH])
            result = CliRunner().invoke(
                cli, ["handoff", "save", "--goal", "ship", "--state", state, "--vault", vault]
            )
            assert result.exit_code == 0, result.output
            said[tag].append(result.output)
    handoffs = project / ".rubi" / "handoffs"
    stored = "\n".join(p.read_text(encoding="utf-8") for p in sorted(handoffs.glob("*.md")))
    leaked, changed = _leaked(stored), _changed(stored)
    _count("rubi handoff save", leaked, changed)
    assert (leaked, changed) == ([], [])
    assert all("Redacted " in x and "state line " in x for x in said["secret"])
    assert not any("Redacted" in x for x in said["ordinary"])
    assert _named("\n".join(said["secret"])) == []


def test_a_private_span_is_removed_from_a_note_entirely(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    body = "Deploy notes.\n<private>my home is 12 Elm St, code 4471</private>\nUse make deploy."
    (done,) = app.register(paths, [{"type": "note", "title": "Deploy", "body": body}])
    text = (project / ".rubi" / done.path).read_text(encoding="utf-8")
    assert "Elm St" not in text and "private" not in text.lower()
    assert "Deploy notes.\n\nUse make deploy." in text
    assert done.redacted == ("body line 2: private",)


def test_a_secret_in_a_title_is_refused_with_one_line(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    with pytest.raises(app.RubiError) as err:
        app.register(paths, [{"type": "note", "title": "key AKIAFAKE0EXAMPLE0KEY", "body": "x"}])
    message = str(err.value)
    assert message.startswith("notes[0].title: holds a secret (aws-key)")
    assert "AKIAFAKE" not in message and "\n" not in message
    assert not list((project / ".rubi" / "notes").glob("*.md"))


def test_a_secret_named_as_the_note_superseded_is_never_echoed(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    key = "ghp_FAKE0EXAMPLE0abcdefghijklmnopqrstuvwx"
    with pytest.raises(app.RubiError) as err:
        app.register(paths, [{"type": "note", "title": "New", "body": "x", "supersedes": key}])
    message = str(err.value)
    assert message.startswith("notes[0].supersedes: holds a secret (github-token)")
    assert key not in message and "FAKE0" not in message


def test_mcp_handoff_and_summary_report_what_was_redacted(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    secret = "ghp_" + "FAKE0example0token0value0abcdef01234"

    async def main() -> tuple[str, str]:
        async with Client(build_server(paths)) as client:
            saved = await client.call_tool(
                "handoff",
                {"action": "save", "goal": "release", "state": f"pushed with\ntoken {secret}"},
            )
            summary = await client.call_tool(
                "write_summary", {"target": "map", "text": f"CI uses GH_TOKEN={secret}"}
            )
            return saved.content[0].text, summary.content[0].text  # type: ignore[union-attr]

    saved, summary = asyncio.run(main())
    assert "Redacted 1 secret (state line 2: github-token)" in saved
    assert "Redacted 1 secret (summary line 1: github-token)" in summary
    assert summary.endswith("stored as [REDACTED:<kind>].")  # the mark the note holds
    stored = vault_text(project)
    assert secret not in stored and secret not in saved + summary
    assert "[REDACTED:github-token]" in stored
