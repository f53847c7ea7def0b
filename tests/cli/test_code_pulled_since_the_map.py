"""A teammate's clone after a pull of code whose map pages were not committed with it:
``rubi doctor`` (which maps the code first) says which committed pages it rewrote, and
``rubi status`` says when the code map is behind the code (a search maps code only on
its first run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import rubi_project, write


def _project(tmp_path: Path) -> Path:
    project = rubi_project(tmp_path / "p", {"auth.py": "def login():\n    pass\n"})
    app.index(app.locate(project / ".rubi"))
    return project


def test_doctor_names_the_map_pages_it_rewrote(tmp_path: Path) -> None:
    project = _project(tmp_path)
    vault = str(project / ".rubi")
    write(project / "tokens.py", "from auth import login\n\ndef refresh():\n    return login()\n")
    before = (project / ".rubi" / "map.md").read_text(encoding="utf-8")
    out = CliRunner().invoke(cli, ["doctor", "--vault", vault]).output
    assert (project / ".rubi" / "map.md").read_text(encoding="utf-8") != before
    assert "rewrote .rubi/map.md and 1 module page to match the code" in out, out
    lines = out.splitlines()
    rewrote = next(i for i, line in enumerate(lines) if line.startswith("rewrote"))
    assert "file problem" in lines[rewrote - 1]  # information, after the problems' counts
    assert out.rstrip().endswith("No problems found.")  # information, not a problem
    again = CliRunner().invoke(cli, ["doctor", "--json", "--vault", vault])
    assert json.loads(again.output)["pages_written"] == []  # nothing changed since
    assert "rewrote" not in CliRunner().invoke(cli, ["doctor", "--vault", vault]).output


def test_a_first_index_rewrites_placeholders_and_says_nothing(tmp_path: Path) -> None:
    project = rubi_project(tmp_path / "p", {"auth.py": "def login():\n    pass\n"})
    out = CliRunner().invoke(cli, ["doctor", "--vault", str(project / ".rubi")]).output
    assert "rewrote" not in out  # rubi init's pages were placeholders, not the team's


def test_status_says_when_the_code_map_is_behind_the_code(tmp_path: Path) -> None:
    project = _project(tmp_path)
    vault = str(project / ".rubi")

    def code_map() -> str:
        result = CliRunner().invoke(cli, ["status", "--json", "--vault", vault])
        return str(json.loads(result.output)["code_map"])

    assert code_map() == "current"
    write(project / "purge.py", "def purge():\n    return 2\n")
    CliRunner().invoke(cli, ["search", "purge", "--vault", vault])  # maps no code
    assert code_map().startswith("behind the code: `rubi index` maps it")
    CliRunner().invoke(cli, ["index", "--vault", vault])
    assert code_map() == "current"


def test_no_match_says_when_the_code_map_is_behind(tmp_path: Path) -> None:
    """A trial user searched a symbol of a file added since the map and read only
    `No match for "quuxFrobnicator".`; the line under it now says why and what to run."""
    project = _project(tmp_path)
    vault = str(project / ".rubi")

    def search(*args: str) -> str:
        return (
            CliRunner().invoke(cli, ["search", "quuxFrobnicator", *args, "--vault", vault]).output
        )

    assert "The code changed since it was mapped" not in search()  # current: no line
    write(project / "quux.py", "def quuxFrobnicator():\n    return 1\n")
    out = search()
    assert out.startswith('No match for "quuxFrobnicator".')
    assert "The code changed since it was mapped (a pull, a new file, an edit): `rubi index`" in out
    assert "The code changed" not in search("--scope", "notes")  # notes: the map is not asked
    assert json.loads(search("--json"))["hits"] == []  # the JSON shape is unchanged
    CliRunner().invoke(cli, ["index", "--vault", vault])
    assert search().startswith("1. [python file] quux.py")


def test_nothing_relevant_says_when_the_code_map_is_behind(tmp_path: Path) -> None:
    """A new user added a function to an existing file and searched its name: the
    old map's symbols of that file gave weak matches under "Nothing relevant", and
    nothing said the map was behind until the hint covered that answer too."""
    project = _project(tmp_path)
    vault = str(project / ".rubi")

    def search(*args: str) -> str:
        query = ["search", "quuxFrobnicator login", *args, "--vault", vault]
        return CliRunner().invoke(cli, query).output

    write(project / "auth.py", "def login():\n    pass\n\ndef quuxFrobnicator():\n    return 1\n")
    out = search()
    assert out.startswith("Nothing relevant"), out
    assert out.rstrip().endswith(
        "The code changed since it was mapped (a pull, a new file, an edit): `rubi index` maps it, "
        "then search again."
    ), out
    assert json.loads(search("--json"))["relevant"] is False  # the JSON shape is unchanged
    CliRunner().invoke(cli, ["index", "--vault", vault])
    out = search()
    assert "The code changed" not in out
    assert out.startswith("1. [python file] auth.py"), out


def test_a_watched_project_is_never_listed_for_the_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a process whose watcher applies every change (the engine of ``rubi serve`` or
    ``rubi watch``, which answers ``rubi search``) the watcher maps the code as it
    changes: an off-topic search there listed the whole project for the hint (0.25-0.49
    s of wall on spring-framework, against 0.07-0.08 s without)."""
    from rubi.app.commandanswers import answer_search
    from rubi.core.commandcalls import SearchArgs

    paths = app.locate(_project(tmp_path) / ".rubi")
    listed: list[object] = []

    def behind(asked: object) -> bool:
        listed.append(asked)
        return True

    monkeypatch.setattr("rubi.app.health.code_map_behind", behind)
    off_topic = SearchArgs("how do I bake sourdough bread at home")
    assert "The code changed" in answer_search(paths, off_topic).data  # no watcher: asked
    assert len(listed) == 1
    app.set_watched(paths, True)
    try:
        assert "The code changed" not in answer_search(paths, off_topic).data
    finally:
        app.set_watched(paths, False)
    assert len(listed) == 1  # not asked while watched


def test_a_hit_on_a_file_gone_since_the_map_says_so(tmp_path: Path) -> None:
    """A new user checked out an older tag and searched: the first hits were files the
    tag does not have, and nothing said the map was of another checkout."""
    project = rubi_project(
        tmp_path / "p",
        {"auth.py": "def login():\n    pass\n", "slog.py": "def zapslog_handler():\n    pass\n"},
    )
    app.index(app.locate(project / ".rubi"))
    vault = str(project / ".rubi")

    def search() -> str:
        return CliRunner().invoke(cli, ["search", "zapslog_handler", "--vault", vault]).output

    assert "no longer exist" not in search()  # the file is there: no line
    (project / "slog.py").unlink()
    out = search()
    assert "slog.py" in out.split("\n")[0]  # still ranked: the map is of the old checkout
    assert out.rstrip().endswith(
        "slog.py in these results no longer exists on disk (a branch switch, a pull or a "
        "deletion since the code was mapped): `rubi index` maps the code as it is now."
    ), out
    CliRunner().invoke(cli, ["index", "--vault", vault])
    assert "no longer exist" not in search()  # mapped again: gone from the hits
