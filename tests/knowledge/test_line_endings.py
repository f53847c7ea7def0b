"""Notes as Windows leaves them: CRLF line endings (Git for Windows' default checkout),
a UTF-8 byte order mark (Notepad), no final newline. Registering into such a note
merges, supersedes and keeps its layout; only what rubi meant to change changes."""

from __future__ import annotations

from pathlib import Path

import frontmatter
import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths
from rubi.knowledge.textlayout import TextLayout, split_layout

from helpers import write

ORIGINAL = """---
id: decision-use-jwt
type: decision
status: active
files:
- src/auth.py
---

# Use JWT

Stateless tokens.
"""

LAYOUTS = {
    "crlf": TextLayout("\r\n"),
    "bom": TextLayout("\n", bom=True),
    "crlf+bom": TextLayout("\r\n", bom=True),
    "crlf, no final newline": TextLayout("\r\n", final_newline=False),
    "cr": TextLayout("\r"),
}


def windows_note(vault: VaultPaths, layout: TextLayout) -> Path:
    return write(vault.root / "notes" / "decision-use-jwt.md", layout.encode(ORIGINAL))


def assert_layout(data: bytes, layout: TextLayout) -> str:
    """The note's text, after checking every line of ``data`` ends as ``layout`` says."""
    assert data.startswith(b"\xef\xbb\xbf") == layout.bom
    body = data.removeprefix(b"\xef\xbb\xbf")
    assert body.endswith(layout.newline.encode()) == layout.final_newline
    if layout.newline == "\r\n":
        assert body.count(b"\n") == body.count(b"\r\n")
    elif layout.newline == "\r":
        assert b"\n" not in body
    else:
        assert b"\r" not in body
    text, seen = split_layout(data)
    assert seen == layout
    return text


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_a_merge_keeps_the_notes_layout(vault: VaultPaths, name: str) -> None:
    layout = LAYOUTS[name]
    path = windows_note(vault, layout)
    [r] = app.register(
        vault,
        [
            {
                "type": "decision",
                "title": "Use JWT",
                "body": "Works on edge runtimes.",
                "files": ["src/db.py"],
            }
        ],
    )
    assert (r.action, r.path) == ("merged", "notes/decision-use-jwt.md")
    text = assert_layout(path.read_bytes(), layout)
    post = frontmatter.loads(text)
    assert post.metadata["files"] == ["src/auth.py", "src/db.py"]
    assert "Stateless tokens." in post.content and "Works on edge runtimes." in post.content


def test_supersede_a_crlf_note_from_the_cli(vault: VaultPaths, repo: Path) -> None:
    old = windows_note(vault, LAYOUTS["crlf+bom"])
    result = CliRunner().invoke(
        cli,
        [
            "note",
            "add",
            "--type",
            "decision",
            "--title",
            "Use PASETO",
            "--body",
            "Safer.",
            "--supersedes",
            "Use JWT",
            "--vault",
            str(vault.root),
        ],
    )
    assert result.exit_code == 0, result.output
    meta = frontmatter.loads(assert_layout(old.read_bytes(), LAYOUTS["crlf+bom"])).metadata
    assert (meta["status"], meta["superseded_by"]) == ("superseded", "decision-use-paseto")
    new = (vault.root / "notes" / "decision-use-paseto.md").read_bytes()
    assert b"\r" not in new and not new.startswith(b"\xef\xbb\xbf")  # rubi's own: LF


def test_the_same_title_from_the_cli_merges_into_a_crlf_note(vault: VaultPaths) -> None:
    path = windows_note(vault, LAYOUTS["crlf"])
    for _ in range(2):  # the second time nothing is new: the file is left as it is
        result = CliRunner().invoke(
            cli,
            [
                "note",
                "add",
                "--type",
                "decision",
                "--title",
                "Use JWT",
                "--body",
                "Again.",
                "--vault",
                str(vault.root),
            ],
        )
        assert result.exit_code == 0, result.output
        assert "merged" in result.output
        assert_layout(path.read_bytes(), LAYOUTS["crlf"])
    assert path.read_bytes().count(b"Again.") == 1


def test_a_note_that_is_not_utf8_is_left_as_it_is(vault: VaultPaths) -> None:
    data = ORIGINAL.replace("Stateless tokens.", "Caf\xe9 tokens.").encode("latin-1")
    path = write(vault.root / "notes" / "decision-use-jwt.md", data)
    with pytest.raises(RubiError, match="not UTF-8"):
        app.register(vault, [{"type": "decision", "title": "Use JWT", "body": "More."}])
    assert path.read_bytes() == data


@pytest.mark.parametrize(
    "data",
    [b"", b"a", b"a\n", b"a\r\nb\r\n", b"\xef\xbb\xbfa\r\nb", b"a\rb\r", b"\xef\xbb\xbf"],
)
def test_split_and_encode_round_trip(data: bytes) -> None:
    text, layout = split_layout(data)
    assert "\r" not in text and not text.startswith("\ufeff")
    assert layout.encode(text) == data


def test_mixed_line_endings_take_the_most_frequent() -> None:
    text, layout = split_layout(b"a\r\nb\r\nc\n")
    assert (text, layout.newline) == ("a\nb\nc\n", "\r\n")
    assert layout.encode(text) == b"a\r\nb\r\nc\r\n"
