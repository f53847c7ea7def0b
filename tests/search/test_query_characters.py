"""A search query or term holding a control character (NUL, an escape) or a lone
surrogate is refused at every door with one line naming it; a prompt searched as it
comes (recall) has them made spaces instead."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mcp import Client
from rubi import app
from rubi.cli.main import cli
from rubi.mcp.server import build_server
from rubi.search.limits import check_query, fit_query

from helpers import rubi_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = rubi_project(tmp_path_factory.mktemp("q") / "proj", {"pkg/router.py": "X = 1\n"})
    app.register(
        app.locate(root / ".rubi"),
        [{"type": "decision", "title": "Route with a trie", "body": "Prefix matching."}],
    )
    return root


BAD = [
    (["a\x00b"], "query: holds the control character U+0000 at character 2"),
    (["route", "-t", "tr\x00ie"], "terms[0]: holds the control character U+0000"),
    (["route\x1b[31m"], "query: holds the control character U+001B"),
    (["route\x7f"], "query: holds the control character U+007F"),
    (["route\ud800"], "query: holds a lone surrogate (U+D800)"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_the_cli_refuses_control_characters_on_one_line(
    project: Path, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(cli, ["search", *args, "--vault", str(project / ".rubi")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]


def _call(project: Path, args: dict[str, Any]) -> tuple[bool, str]:
    async def main() -> Any:
        async with Client(build_server(app.locate(project / ".rubi"))) as client:
            return await client.call_tool("search", args)

    result = asyncio.run(main())
    return result.is_error, "\n".join(c.text for c in result.content if hasattr(c, "text"))


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"query": "a\x00b"}, "query: holds the control character U+0000"),
        ({"query": "route", "terms": ["ok", "tr\x00ie"]}, "terms[1]: holds the control"),
        ({"query": "route", "terms": ["\x01"]}, "terms[0]: holds the control character U+0001"),
        ({"query": "route\x9b"}, "query: holds the control character U+009B"),
    ],
)
def test_the_mcp_search_refuses_control_characters_on_one_line(
    project: Path, args: dict[str, Any], message: str
) -> None:
    is_error, text = _call(project, args)
    assert is_error
    assert message in text and "\n" not in text.strip()


def test_tabs_and_line_breaks_stay_allowed(project: Path) -> None:
    check_query("Traceback:\n\tFile x.py\r\n", ["a\tb"])
    is_error, text = _call(project, {"query": "route\nwith\ta trie"})
    assert not is_error, text


def test_a_prompt_searched_as_it_comes_has_control_characters_made_spaces() -> None:
    fitted = fit_query("route\x00with\x1b[31m a trie\ud800")
    assert fitted == "route with [31m a trie"
    check_query(fitted)


def test_a_question_without_a_surrogate_compiles_no_surrogate_pattern() -> None:
    """The surrogate class (a table over 2,048 code points) is built for a text whose
    UTF-8 encoding fails only, as a prompt almost never does."""
    import subprocess
    import sys

    probe = (
        "from rubi.search import limits\n"
        "limits.check_query('route with a trie, café 東京', ['a→b'])\n"
        "fitted = limits.fit_query('route\\x00with a trie é')\n"
        "print(limits._SURROGATE._compiled is None, repr(fitted))\n"
        "print(repr(limits.fit_query('a\\ud800b')))\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines() == ["True 'route with a trie é'", "'a b'"]
