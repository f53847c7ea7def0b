"""Every repeated rule has one owner, and every surface says what the owner says.

The owners: note types and the default relation in :mod:`rubi.core.model`; the hook
events in :mod:`rubi.claude.hookevents`; the search defaults and scopes in
:mod:`rubi.core.searchdefaults` (the scopes offered by the facade); the
characters-per-token estimate and its arithmetic in :mod:`rubi.core.tokens`. Each
test reads the surface as a user or a client sees it (click's parameters, the MCP tool
schemas, the plugin's ``hooks/hooks.json``), not the surface's source.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from rubi import app
from rubi.claude.hookevents import HOOK_EVENTS
from rubi.core.model import DEFAULT_RELATION, DEFAULT_TYPE, NOTE_TYPES
from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS, DEFAULT_TOP_K, MAX_TOP_K, SEARCH_SCOPES
from rubi.core.tokens import CHARS_PER_TOKEN, estimate_tokens, tokens_for_chars

REPO = Path(__file__).resolve().parents[1]


def _command(name: str) -> click.Command:
    from rubi.cli.main import cli

    command = cli.get_command(click.Context(cli), name)
    assert command is not None, name
    return command


def _param(command: click.Command, name: str) -> click.Parameter:
    found = [p for p in command.params if p.name == name]
    assert found, f"{command.name}: no parameter {name}"
    return found[0]


def _choices(param: click.Parameter) -> tuple[str, ...]:
    assert isinstance(param.type, click.Choice)
    return tuple(param.type.choices)


@pytest.fixture(scope="module")
def mcp_tools(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The MCP tools' input schemas, as a client lists them."""
    from mcp import Client
    from rubi.mcp.server import build_server

    project = tmp_path_factory.mktemp("proj")
    app.init_project(project)

    async def main() -> dict[str, dict[str, Any]]:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            tools = (await client.list_tools()).tools
        return {t.name: t.input_schema for t in tools}

    return asyncio.run(main())


# -- note types ---------------------------------------------------------------------
def test_note_types_cli_choices_and_help() -> None:
    note = _command("note")
    assert isinstance(note, click.Group)
    add = note.commands["add"]
    assert _choices(_param(add, "note_type")) == NOTE_TYPES
    help_text = " ".join((add.help or "").split())
    for kind in NOTE_TYPES:
        assert kind in help_text


def test_note_types_mcp_register_schema(mcp_tools: dict[str, dict[str, Any]]) -> None:
    schema = mcp_tools["register"]
    note = schema["$defs"]["NoteIn"]
    assert tuple(note["properties"]["type"]["enum"]) == NOTE_TYPES


def test_note_types_the_parser_keeps_every_type() -> None:
    from rubi.markdown import parse_note

    for kind in NOTE_TYPES:
        note = parse_note(f"---\ntype: {kind}\n---\n# T\n", "notes/t.md")
        assert note.type == kind
    assert parse_note("---\ntype: rumour\n---\n# T\n", "notes/t.md").type == DEFAULT_TYPE


# -- the default relation -----------------------------------------------------------
def test_default_relation_mcp_schema(mcp_tools: dict[str, dict[str, Any]]) -> None:
    link = mcp_tools["register"]["$defs"]["Link"]
    assert link["properties"]["relation"]["default"] == DEFAULT_RELATION


def test_default_relation_cli_register_and_handoff(tmp_path: Path) -> None:
    """``--link :target`` (no relation), a JSON link without one, and a handoff's notes
    all get the owner's relation, as the graph reports it."""
    app.init_project(tmp_path)
    paths = app.locate(tmp_path / ".rubi")
    runner = CliRunner()
    from rubi.cli.main import cli

    vault = ["--vault", str(paths.root)]
    target = ["note", "add", "--type", "concept", "--title", "Target", "--body", "b", *vault]
    assert runner.invoke(cli, target).exit_code == 0
    add = ["note", "add", "--type", "bug", "--title", "Via CLI", "--body", "b"]
    result = runner.invoke(cli, [*add, "--link", ":Target", *vault])
    assert result.exit_code == 0, result.output
    done = app.register(
        paths,
        [{"type": "gotcha", "title": "Via JSON", "body": "b", "links": [{"target": "Target"}]}],
    )
    handoff = app.save_handoff(paths, "goal", "state", notes=["Target"])
    for ref in ("notes/bug-via-cli", done[0].id, handoff.path.removesuffix(".md")):
        relations = {lv.relation for lv in app.links(paths, ref)}
        assert relations == {DEFAULT_RELATION}, ref


# -- hook events --------------------------------------------------------------------
def test_hook_events_cli_installer_and_plugin_agree() -> None:
    from rubi.claude.install import hook_groups

    assert _choices(_param(_command("hook"), "event")) == HOOK_EVENTS
    assert tuple(hook_groups()) == HOOK_EVENTS
    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    assert tuple(plugin["hooks"]) == HOOK_EVENTS


# -- search defaults ----------------------------------------------------------------
def test_search_defaults_cli() -> None:
    search = _command("search")
    top_k = _param(search, "top_k")
    assert top_k.default == DEFAULT_TOP_K
    assert isinstance(top_k.type, click.IntRange) and top_k.type.max == MAX_TOP_K
    assert _param(search, "budget").default == DEFAULT_BUDGET_TOKENS
    assert _choices(_param(search, "scope")) == app.SEARCH_SCOPES
    assert inspect.signature(app.search).parameters["top_k"].default == DEFAULT_TOP_K


def test_search_defaults_mcp(mcp_tools: dict[str, dict[str, Any]]) -> None:
    props = mcp_tools["search"]["properties"]
    assert tuple(props["scope"]["enum"]) == app.SEARCH_SCOPES
    assert props["budget_tokens"]["default"] == DEFAULT_BUDGET_TOKENS


def test_scopes_the_engine_accepts_are_the_owner_s() -> None:
    from rubi.search.engine import SCOPES

    assert app.SEARCH_SCOPES == SCOPES == SEARCH_SCOPES


def test_watch_debounce_default_is_the_watcher_s() -> None:
    from rubi.watch import DEBOUNCE_MS

    assert _param(_command("watch"), "debounce_ms").default == DEBOUNCE_MS


# -- the token estimate -------------------------------------------------------------
@pytest.mark.parametrize("chars", [0, 1, 3, 4, 5, 399, 400, 401, 10_001])
def test_token_estimate_has_one_rule(chars: int) -> None:
    from rubi.transcripts.records import tokens_of

    expected = -(-chars // CHARS_PER_TOKEN)
    assert tokens_for_chars(chars) == expected
    assert estimate_tokens("x" * chars) == expected
    assert tokens_of(chars) == expected


def test_budget_help_states_the_estimate() -> None:
    help_text = _param(_command("search"), "budget").help or ""
    assert f"characters / {CHARS_PER_TOKEN}" in help_text


def test_only_core_tokens_divides_by_chars_per_token() -> None:
    """No module re-derives the estimate: a ``x // CHARS_PER_TOKEN`` outside
    :mod:`rubi.core.tokens` is a copy of the rule (use ``tokens_for_chars``)."""
    import ast

    import rubi

    src = Path(rubi.__file__).parent
    copies = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.FloorDiv | ast.Div)
                and isinstance(node.right, ast.Name)
                and node.right.id == "CHARS_PER_TOKEN"
            ):
                copies.append(path.relative_to(src).as_posix())
    assert copies == ["core/tokens.py"]
