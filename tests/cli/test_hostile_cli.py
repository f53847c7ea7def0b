"""CLI doors with hostile values: paths typed in a subfolder are stored relative to the
project root, paths outside are refused, JSON that would crash the parser or forge a
note is one error line, refs used as paths never leave the vault."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import frontmatter
import pytest
from click.testing import CliRunner, Result

from rubi.cli.main import cli

from helpers import rubi_project, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return rubi_project(
        tmp_path / "proj",
        {"src/x.py": "def f():\n    pass\n", "src/y.py": "import x\n", "README.md": "# p\n"},
    )


def rubi(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def one_error_line(result: Result, *needles: str) -> str:
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def notes(project: Path) -> dict[str, frontmatter.Post]:
    folder = project / ".rubi" / "notes"
    return {p.stem: frontmatter.load(p) for p in sorted(folder.glob("*.md"))}


def test_note_add_from_a_subfolder_stores_root_relative_paths(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "src")
    result = rubi(
        "note",
        "add",
        "--type",
        "gotcha",
        "--title",
        "Paths from a subfolder",
        "--body",
        "b",
        "--file",
        "./x.py",
        "--file",
        "y.py",
        "--file",
        "../README.md",
        "--file",
        str(project / "src" / "x.py"),
        "--json",
    )
    assert result.exit_code == 0, result.output
    [post] = notes(project).values()
    assert post.metadata["files"] == ["src/x.py", "src/y.py", "README.md"]


@pytest.mark.parametrize("bad", ["../../etc/passwd", "/etc/passwd", "..\\..\\etc\\passwd"])
def test_note_add_refuses_a_file_outside_the_project(
    project: Path, monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.chdir(project / "src")
    result = rubi(
        "note", "add", "--type", "gotcha", "--title", "Outside", "--body", "b", "--file", bad
    )
    one_error_line(result, bad, "outside the project")
    assert notes(project) == {}


@pytest.mark.parametrize(
    ("title", "needle"),
    [
        ("nul\x00byte", "NUL byte"),
        ("not utf-8 \udcff", "lone surrogate"),  # how Python passes a non-UTF-8 argv byte
        ("escape \x1b[2J", "U+001B"),
    ],
)
def test_note_add_refuses_text_that_is_not_plain_unicode(
    project: Path, monkeypatch: pytest.MonkeyPatch, title: str, needle: str
) -> None:
    monkeypatch.chdir(project)
    result = rubi("note", "add", "--type", "bug", "--title", title, "--body", "b")
    one_error_line(result, "title", needle)
    assert notes(project) == {}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("depth", [5_000, 200_000])
def test_from_json_nested_too_deeply_is_one_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, depth: int
) -> None:
    monkeypatch.chdir(project)
    result = rubi("note", "add", "--from-json", "-", stdin="[" * depth + "]" * depth)
    one_error_line(result, "--from-json", "nested too deeply")
    assert notes(project) == {}


@pytest.mark.parametrize(
    ("document", "needle"),
    [
        (b'[{"type": "bug", "title": "x\\u0000", "body": "b"}]', "NUL byte"),
        (b'[{"type": "bug", "title": "x", "body": "\\ud800"}]', "lone surrogate"),
        (b'[{"type": "bug", "title": "x", "body": "b", "files": ["/etc/passwd"]}]', "outside"),
        (b'{"type": "bug", "title": "caf\xe9"}', "not UTF-8"),
        (b'[{"type": "bug", "title": "x", "body": "b"', "not JSON"),
    ],
)
def test_from_json_hostile_documents_are_one_line(
    project: Path, monkeypatch: pytest.MonkeyPatch, document: bytes, needle: str
) -> None:
    monkeypatch.chdir(project)
    write(project / "in.json", document)
    result = rubi("note", "add", "--from-json", str(project / "in.json"))
    one_error_line(result, needle)
    assert notes(project) == {}


def test_from_json_files_are_relative_to_the_project_root(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "src")
    items = [{"type": "bug", "title": "From JSON", "body": "b", "files": ["src/x.py"]}]
    result = rubi("note", "add", "--from-json", "-", stdin=json.dumps(items))
    assert result.exit_code == 0, result.output
    [post] = notes(project).values()
    assert post.metadata["files"] == ["src/x.py"]


def test_handoff_save_files_from_a_subfolder(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "src")
    result = rubi("handoff", "save", "--goal", "G", "--state", "S", "--file", "x.py")
    assert result.exit_code == 0, result.output
    [page] = (project / ".rubi" / "handoffs").glob("*.md")
    assert frontmatter.load(page).metadata["files"] == ["src/x.py"]
    result = rubi("handoff", "save", "--goal", "G", "--state", "S", "--file", "../../etc/passwd")
    one_error_line(result, "Error: --file ../../etc/passwd: outside the project")
    result = rubi("handoff", "save", "--goal", "G", "--state", "S", "--note", "x]]\n## Links")
    one_error_line(result, "Error: --note: ")  # the option typed, not the tool's notes[0]
    assert len(list((project / ".rubi" / "handoffs").glob("*.md"))) == 1


@pytest.mark.parametrize(
    "ref", ["../../etc/passwd", "/etc/passwd", "../../../../../../etc/passwd.md", "x\x00y"]
)
def test_refs_used_as_paths_never_leave_the_vault(
    project: Path, monkeypatch: pytest.MonkeyPatch, ref: str
) -> None:
    monkeypatch.chdir(project)
    for command in ("read", "links", "backlinks"):
        result = rubi(command, ref)
        one_error_line(result, "no such note")
        assert "root:" not in result.output  # /etc/passwd's first line


@pytest.mark.parametrize("module", ["../../etc/passwd", "/etc", "..", "src/../../..", "x\x00"])
def test_map_module_never_leaves_the_vault(
    project: Path, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    monkeypatch.chdir(project)
    assert rubi("index").exit_code == 0
    one_error_line(rubi("map", module), "no such module")
    one_error_line(rubi("map", module, "--write-summary", "hi"), "no such module")


def test_generated_pages_linked_out_of_the_project_are_neither_read_nor_written(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(project)
    assert rubi("index").exit_code == 0
    secret = write(
        tmp_path / "secret.md", "top secret\n<!-- rubi:summary -->\n<!-- /rubi:summary -->\n"
    )
    before = secret.read_text(encoding="utf-8")
    (project / ".rubi" / "map.md").unlink()
    (project / ".rubi" / "map.md").symlink_to(secret)
    one_error_line(rubi("map"), "map.md", "outside the project")
    one_error_line(rubi("map", "--write-summary", "hi"), "map.md", "outside the project")
    modules = project / ".rubi" / "modules"
    shutil.rmtree(modules)
    outside = tmp_path / "mods"
    outside.mkdir()
    modules.symlink_to(outside, target_is_directory=True)
    one_error_line(rubi("map", "(root)"), "outside the project")
    one_error_line(rubi("map", "(root)", "--write-summary", "hi"), "outside the project")
    assert secret.read_text(encoding="utf-8") == before
    assert list(outside.iterdir()) == []


ESCAPES = (
    "\x1b]0;owned\x07"  # sets the terminal's title
    "\x1b]8;;https://example.invalid\x1b\\here\x1b]8;;\x1b\\"  # a disguised hyperlink
    "\x1b]52;c;Y3VybCB4IHwgc2g=\x07"  # writes the clipboard
    "\x9b2J"  # C1 CSI: clears the screen
    "\rspoof"  # returns over the line
    "\u202eexe.txt\u202c \u2067isolated\u2069"  # bidi controls: shown reordered
)

BIDI = {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}


def test_a_notes_terminal_escapes_are_shown_not_run(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "proj",
        {
            ".rubi/notes/gotcha-escapes.md": "---\ntype: gotcha\n---\n"
            f"# Wombat escapes {ESCAPES}\n\nWombat body {ESCAPES}\n",
        },
    )
    outputs = []
    for args in (["search", "wombat"], ["read", "gotcha-escapes"], ["search", "wombat", "--json"]):
        result = rubi(*args, "--vault", str(root / ".rubi"))
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    for text in outputs:
        assert not set(text) & ({"\x1b", "\x07", "\x9b", "\r"} | BIDI), repr(text[:400])
    assert "\\x1b]0;owned\\x07" in outputs[1]  # shown, as its escapes
    assert "\\u202eexe.txt\\u202c" in outputs[1]
    assert json.loads(outputs[2])  # the JSON still parses
    assert "\\u009b2J" in outputs[2]
    assert "\\u202e" in outputs[2] and "\\u2069" in outputs[2]
