"""What a brand-new user reads first (``rubi --help``, ``rubi init``, ``rubi search
--help``) says what rubi does today and what to do next."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from rubi.cli.main import cli


def _out(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_first_help_names_the_first_steps_and_the_code() -> None:
    text = " ".join(_out("--help").split())
    assert "the project's code" in text
    assert "`rubi init`" in text and "`rubi install` connects Claude Code" in text


def test_search_says_it_searches_code_too() -> None:
    assert "Search notes and code by text, names and links." in " ".join(
        _out("search", "--help").split()
    )
    listed = next(line for line in _out("--help").splitlines() if line.strip().startswith("search"))
    assert "notes and code" in listed


def test_init_says_it_touches_claude_md_before_it_does() -> None:
    text = " ".join(_out("init", "--help").split())
    assert "CLAUDE.md (created if missing)" in text and "AGENTS.md" in text


def test_init_s_next_step_is_search_and_install_not_writing_notes_first(tmp_path: Path) -> None:
    """A code project is searchable at once (its code map); the old line sent a new
    user off to write notes by hand first, and never named `rubi install`."""
    project = tmp_path / "p"
    project.mkdir()
    last = _out("init", str(project)).splitlines()[-1]
    assert last.startswith('Next: `rubi search "..."`') and "`rubi install`" in last
    assert "write notes" not in last


def test_init_with_the_plugin_enabled_does_not_send_the_user_to_rubi_install(
    tmp_path: Path,
) -> None:
    """A new user who installed the plugin first (`claude plugin install rubi@rubi`)
    was told by `rubi init` to run `rubi install` too, the route that makes Claude Code
    run rubi twice (install itself then warned of it); the line now says the plugin is
    enough and names the settings file that enables it."""
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"enabledPlugins": {"rubi@rubi": True}}), encoding="utf-8")
    project = tmp_path / "p"
    project.mkdir()
    last = _out("init", str(project)).splitlines()[-1]
    assert last.startswith('Next: `rubi search "..."`')
    assert "the rubi plugin (rubi@rubi" in last and str(settings) in last
    assert "no `rubi install`" in last and "`rubi install` connects" not in last
    settings.write_text(json.dumps({"enabledPlugins": {"rubi@rubi": False}}), encoding="utf-8")
    other = tmp_path / "q"
    other.mkdir()
    assert "`rubi install` connects Claude Code" in _out("init", str(other)).splitlines()[-1]


def test_index_and_reindex_say_they_map_the_code_too() -> None:
    """Both said "the notes" alone, though a project's run maps its code too (the
    README's "notes and code up to date")."""
    assert "the code map" in " ".join(_out("index", "--help").split())
    assert "the code map from the files alone" in " ".join(_out("reindex", "--help").split())
