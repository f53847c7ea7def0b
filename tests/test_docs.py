"""The figures and lists the documentation states, held to the code that computes them
(in the spirit of sqlite-utils' ``tests/test_docs.py``): every CLI command in
``docs/cli.md``, every MCP tool in the README with its measured cost, every ``RUBI_*``
environment variable the code reads, the tool count of the bundle manifest, and the
README's demo question answered first."""

from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from rubi.mcp.front import load_handshake
from rubi.mcp.toolschema import tool_tokens

from helpers import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
CLI_DOC = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


def _server_tools() -> dict[str, int]:
    """The server's tools, by name, with their cost in tokens, in its order."""
    handshake = load_handshake()
    assert handshake is not None
    latest = max(handshake.results["tools/list"])
    return {t["name"]: tool_tokens(t) for t in handshake.answer("tools/list", latest)["tools"]}


def _commands() -> list[str]:
    """Every command and sub-command, as ``rubi NAME [SUB]``."""
    found = []
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None
        found.append(f"rubi {name}")
        if isinstance(command, click.Group):
            found += [f"rubi {name} {sub}" for sub in command.list_commands(click.Context(command))]
    return found


SHELL_FENCES = frozenset({"bash", "sh", "shell", "console"})
"""Fenced blocks whose lines are commands a reader types (a bare fence shows output)."""

HISTORY_DOCS = frozenset({"benchmarks-history.md"})
"""Documents that name commands as they were when a figure was measured."""


def _rubi_lines(text: str) -> list[str]:
    """Every ``rubi ...`` command a reader of ``text`` would type: inline code spans
    that start with ``rubi ``, and the lines of shell fences (each part of ``&&``,
    ``;`` and ``|`` chains, comments dropped)."""
    from markdown_it import MarkdownIt

    found: list[str] = []
    for token in MarkdownIt().parse(text):
        if token.type == "fence" and token.info.strip() in SHELL_FENCES:
            for line in token.content.splitlines():
                for part in re.split(r"&&|\|\||;|\|", line.split(" #")[0]):
                    if part.strip().startswith("rubi "):
                        found.append(part.strip())
        for child in token.children or []:
            if child.type == "code_inline" and child.content.startswith("rubi "):
                found.append(child.content)
    return found


def _unknown_parts(line: str) -> list[str]:
    """What ``line`` (``rubi WORDS...``) names that the CLI lacks: a command or
    sub-command, or an option of the command it reaches."""
    command: click.Command = cli
    words = line.split()[1:]
    reached = ["rubi"]
    for word in words:
        if not isinstance(command, click.Group) or not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        sub = command.get_command(click.Context(command), word)
        if sub is None:
            return [f"no command `{' '.join(reached)} {word}`"]
        command, reached = sub, [*reached, word]
    options = {name for p in command.params for name in (*p.opts, *p.secondary_opts)}
    options |= {"-h", "--help"}
    return [
        f"`{' '.join(reached)}` has no option {option}"
        for word in words
        for option in re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", word)
        if option not in options
    ]


def test_every_rubi_command_line_in_the_docs_names_what_the_cli_has() -> None:
    docs = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    wrong = [
        f"{doc.name}: {line}: {problem}"
        for doc in docs
        if doc.name not in HISTORY_DOCS
        for line in _rubi_lines(doc.read_text(encoding="utf-8"))
        for problem in _unknown_parts(line)
    ]
    assert wrong == []


def test_every_cli_command_has_its_section_in_the_reference() -> None:
    headings = set(re.findall(r"^#{2,3} (rubi [\w-]+(?: [\w-]+)?)$", CLI_DOC, re.MULTILINE))
    assert sorted(set(_commands()) - headings) == []
    assert sorted(headings - set(_commands())) == []


def test_the_reference_shows_the_command_users_type() -> None:
    usages = re.findall(r"^Usage: (\S+)", CLI_DOC, re.MULTILINE)
    assert usages and set(usages) == {"rubi"}


def test_every_mcp_tool_is_in_the_readme_with_its_measured_cost() -> None:
    table = README.split("<!-- tools:start -->", 1)[1].split("<!-- tools:end -->", 1)[0]
    listed = {name: int(tokens) for name, tokens in re.findall(r"\| `(\w+)` \| (\d+) \|", table)}
    tools = _server_tools()
    rows = "\n".join(f"| `{n}` | {t} |" for n, t in tools.items())
    assert listed == tools, f"the README's table of tools should read:\n{rows}"


def test_the_readme_states_the_servers_tool_count_and_total_cost() -> None:
    tools = _server_tools()
    claim = re.search(r"Its (\d+) tools cost\s+about ([\d,]+) tokens", README)
    assert claim is not None
    assert (int(claim.group(1)), int(claim.group(2).replace(",", ""))) == (
        len(tools),
        sum(tools.values()),
    )


def test_every_environment_variable_the_code_reads_is_documented() -> None:
    read = set()
    for path in (REPO / "src" / "rubi").rglob("*.py"):
        read.update(re.findall(r"\bRUBI_[A-Z0-9_]+\b", path.read_text(encoding="utf-8")))
    docs = README + "".join(
        p.read_text(encoding="utf-8") for p in sorted((REPO / "docs").glob("*.md"))
    )
    assert read, "no RUBI_ variable found: the scan is broken"
    assert sorted(v for v in read if v not in docs) == []


def test_the_vault_template_describes_where_the_index_really_is() -> None:
    text = (REPO / "vault-template" / "README.md").read_text(encoding="utf-8")
    assert "`.index/`" not in text
    assert "cache folder" in text


def test_the_bundle_manifest_lists_the_servers_tools(tmp_path: Path) -> None:
    out = tmp_path / "rubi.mcpb"
    result = CliRunner().invoke(cli, ["bundle", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as bundle:
        manifest = json.loads(bundle.read("manifest.json"))
    assert [t["name"] for t in manifest["tools"]] == list(_server_tools())


DEMO_ANSWER = "notes/decision-whoosh-for-bm25"
"""The note that answers the README's first question."""


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_readmes_demo_question_is_answered_first_on_a_plain_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi import app

    demo = re.search(r'\.venv/bin/rubi search "([^"]+)"', README)
    assert demo is not None
    clone = tmp_path / "rubi"
    subprocess.run(
        ["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True, timeout=120
    )
    monkeypatch.setenv("RUBI_SEMANTIC", "0")  # a plain install has no numpy
    monkeypatch.chdir(clone)
    hits = app.search(app.locate(), demo.group(1), top_k=3).hits
    assert [h.id for h in hits][:1] == [DEMO_ANSWER], [h.id for h in hits]


def test_the_cost_line_counts_the_tools_as_the_readme_does() -> None:
    """``rubi cost``'s schema figure is the README's tools total: the schemas the model
    is sent (no ``outputSchema``), not the whole ``tools/list`` answer."""
    from rubi.app.sessioncost import schema_tokens

    assert schema_tokens() == sum(_server_tools().values())
