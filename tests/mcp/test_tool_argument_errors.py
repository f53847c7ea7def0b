"""Arguments that fail a tool's schema (a budget of ``1e400``, a string for a list)
are refused on one line naming the argument, not with pydantic's multi-line report."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from mcp import Client
from rubi import app
from rubi.mcp.server import build_server

from helpers import rubi_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rubi_project(tmp_path_factory.mktemp("a") / "proj", {"pkg/router.py": "X = 1\n"})


def _call(project: Path, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    async def main() -> Any:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return await client.call_tool(tool, args)

    result = asyncio.run(main())
    return result.is_error, "\n".join(c.text for c in result.content if hasattr(c, "text"))


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("search", {"query": "a", "budget_tokens": float("inf")}, "budget_tokens: "),
        ("search", {"query": "a", "budget_tokens": 1e400}, "budget_tokens: "),
        ("search", {"query": "a", "budget_tokens": float("nan")}, "budget_tokens: "),
        ("search", {"query": "a", "budget_tokens": 2.5}, "budget_tokens: "),
        ("search", {"query": "a", "terms": "not a list"}, "terms: "),
        ("search", {"query": "a", "scope": "everything"}, "scope: "),
        ("timeline", {"ref": "2020-01-01", "days": "x" * 100_000}, "days: "),
        ("read", {"ids": 5}, "ids: "),
    ],
)
def test_schema_failures_are_one_line_naming_the_argument(
    project: Path, tool: str, args: dict[str, Any], message: str
) -> None:
    is_error, text = _call(project, tool, args)
    assert is_error
    assert message in text
    assert "\n" not in text.strip()
    assert "validation error" not in text and "pydantic.dev" not in text
    assert len(text) < 1_200  # the value is not echoed back


@pytest.mark.timeout(60)
@pytest.mark.parametrize("budget", [-5, 0, 10**30])
def test_a_budget_out_of_range_is_held_to_the_range(project: Path, budget: int) -> None:
    is_error, text = _call(project, "search", {"query": "router", "budget_tokens": budget})
    assert not is_error, text
    assert len(text) <= 20_000 * 4 + 200


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("tool", "args", "named"),
    [
        ("search", {"query": "router", "top_k": 3}, "unknown argument top_k;"),
        ("search", {"qurey": "router"}, "unknown argument qurey;"),
        ("read", {"id": "pkg/router.py"}, "unknown argument id;"),
        ("map", {"module": "pkg", "depth": 2, "x": 1}, "unknown arguments depth, x;"),
        (
            "register",
            {"notes": [{"type": "gotcha", "title": "T", "body": "b", "file": "pkg/router.py"}]},
            "unknown argument notes[0].file; notes[0] takes: type, title, body, files,",
        ),
        (
            "register",
            {"notes": [{"type": "gotcha", "title": "T", "body": "b", "links": [{"to": "x"}]}]},
            "unknown argument notes[0].links[0].to; notes[0].links[0] takes: relation, target",
        ),
    ],
)
def test_an_argument_the_tool_does_not_take_is_named_not_dropped(
    project: Path, tool: str, args: dict[str, Any], named: str
) -> None:
    # The SDK's models ignore unknown keys: ``top_k`` answered at the defaults and
    # a misspelt ``qurey`` said only "query: Field required".
    is_error, text = _call(project, tool, args)
    assert is_error, text
    assert named in text
    assert " takes: " in text and "\n" not in text.strip()


@pytest.mark.timeout(60)
def test_the_arguments_a_tool_takes_are_still_answered(project: Path) -> None:
    is_error, text = _call(project, "search", {"query": "router", "scope": "code"})
    assert not is_error, text
    assert "router" in text


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("search", {"query": "router", "_meta": {"progressToken": 1}}),
        ("read", {"ids": ["pkg/router.py"], "_meta": {}}),
    ],
)
def test_a_meta_among_the_arguments_is_not_refused(
    project: Path, tool: str, args: dict[str, Any]
) -> None:
    # MCP keeps ``_meta`` for the protocol (a client may send it among a call's
    # arguments); the SDK ignored it before unknown arguments were refused, and the
    # answer is the one without it (its first line: a read says when it was read).
    is_error, text = _call(project, tool, args)
    assert not is_error, text
    without = _call(project, tool, {k: v for k, v in args.items() if k != "_meta"})
    assert not without[0] and text.splitlines()[0] == without[1].splitlines()[0]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("key", "shown"),
    [("a\nb", "unknown argument a\\nb;"), ("q" * 100_000, "unknown argument " + "q" * 60 + "…;")],
)
def test_an_unknown_name_is_shown_on_one_line_and_short(
    project: Path, key: str, shown: str
) -> None:
    # The client's key itself: a line break in it broke the one line, and a huge one
    # filled the refusal's 1,000 characters before the names the tool takes.
    is_error, text = _call(project, "search", {"query": "router", key: 1})
    assert is_error and shown in text
    assert "\n" not in text.strip() and "takes: query, terms" in text and len(text) < 400


@pytest.mark.timeout(60)
def test_a_meta_inside_a_note_is_still_unknown(project: Path) -> None:
    note = {"type": "gotcha", "title": "T", "body": "b", "_meta": {}}
    is_error, text = _call(project, "register", {"notes": [note]})
    assert is_error and "unknown argument notes[0]._meta;" in text


@pytest.mark.timeout(60)
def test_a_refusal_names_a_list_item_as_rubi_s_own_refusals_do(project: Path) -> None:
    note = {"type": "nonsense", "title": "t", "body": "b"}
    is_error, text = _call(project, "register", {"notes": [note]})
    assert is_error and "notes[0].type: Input should be" in text  # was notes.0.type


@pytest.mark.timeout(60)
def test_a_blank_module_is_the_map_not_the_root_folder_s_page(project: Path) -> None:
    whole = _call(project, "map", {})
    blank = _call(project, "map", {"module": ""})
    assert not blank[0] and blank == whole
    assert blank[1].startswith("# Code map")
