"""Personal notes rank below the project's hits of similar strength,
take a share of the slots, and can be left out (``--no-personal``, ``personal = false``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.paths import VaultPaths
from rubi.search.hits import Hit, SearchResult, Snippet, Why
from rubi.search.merge import PERSONAL_WEIGHT, merge_personal, personal_slots

from helpers import rubi_project, write

TEMPLATING = '''"""Render Jinja templates: how templates are rendered for a request."""


def render_template(template_name, **context):
    """Render a template by name with the given context."""
    return _render(template_name, context)


def render_template_string(source, **context):
    """Render templates from a string source."""
    return _render(source, context)


def _render(template, context):
    return template
'''
BLOG = """---
type: idea
---
# Blog ideas

How my site is built: templates are rendered with Hugo; static files come from a CDN.
"""


def _hit(hid: str, score: float, *, named: bool = False) -> Hit:
    reasons = (Why("named", hid),) if named else (Why("text", "x (body)"),)
    return Hit(
        hid, hid, hid, "note", "note", "active", score, (), Snippet.of(""), None, (), reasons
    )


def _result(*hits: Hit) -> SearchResult:
    return SearchResult("q", (), list(hits), len(hits))


def test_personal_best_ranks_below_project_hits_of_similar_strength() -> None:
    project = _result(_hit("a", 0.03), _hit("b", 0.025), _hit("c", 0.02))
    personal = _result(_hit("personal:x", 0.045), _hit("personal:y", 0.03))
    ids = [h.id for h in merge_personal(project, personal, 10).hits]
    assert ids == ["a", "b", "personal:x", "c", "personal:y"]
    x = merge_personal(project, personal, 10).hits[2]
    assert x.score == pytest.approx(0.045 * PERSONAL_WEIGHT)


def test_personal_share_of_the_slots() -> None:
    project = _result(*(_hit(f"p{i}", 0.03 - i * 0.001) for i in range(12)))
    personal = _result(*(_hit(f"personal:{i}", 0.2) for i in range(5)))
    hits = merge_personal(project, personal, 8).hits
    assert len(hits) == 8
    assert sum(h.id.startswith("personal:") for h in hits) == personal_slots(8, 12) == 2
    # a project with few hits leaves its free slots to the personal vault
    assert personal_slots(8, 3) == 5
    few = merge_personal(_result(_hit("p", 0.03)), personal, 4).hits
    assert [h.id for h in few] == ["personal:0", "personal:1", "personal:2", "p"]


def test_a_strong_personal_hit_outranks_a_weak_project_hit() -> None:
    # named, text and graph lists at rank 1 against one list at rank 1
    project = _result(_hit("a", 1 / 61))
    personal = _result(_hit("personal:blog-ideas", 2.7 / 61, named=True))
    assert next(h.id for h in merge_personal(project, personal, 5).hits) == "personal:blog-ideas"


def test_ties_go_to_the_project() -> None:
    project = _result(_hit("a", 0.01))
    personal = _result(_hit("personal:x", 0.02))
    assert [h.id for h in merge_personal(project, personal, 5).hits] == ["a", "personal:x"]


@pytest.fixture
def flask_like(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> VaultPaths:
    """A project with a templating module, and a personal vault with a blog draft
    about templates rendered with Hugo."""
    repo = rubi_project(
        tmp_path / "flask",
        {"src/flask/templating.py": TEMPLATING, "src/flask/app.py": "import os\n"},
    )
    mine = tmp_path / "personal"
    write(mine / "notes" / "blog-ideas.md", BLOG)
    monkeypatch.setenv("RUBI_VAULT", str(mine))
    return app.locate(repo / ".rubi")


def test_project_code_first_and_the_personal_note_found(flask_like: VaultPaths) -> None:
    ids = [h.id for h in app.search(flask_like, "how are templates rendered").hits]
    assert ids[0] == "src/flask/templating.py"
    assert "personal:notes/blog-ideas" in ids


def test_personal_left_out_on_request(flask_like: VaultPaths) -> None:
    query = "how are templates rendered"
    ids = [h.id for h in app.search(flask_like, query, personal=False).hits]
    assert ids and not any(i.startswith("personal:") for i in ids)
    # scope personal is an explicit request: the flag does not empty it
    mine = app.search(flask_like, query, scope="personal", personal=False).hits
    assert [h.id for h in mine] == ["personal:notes/blog-ideas"]


def test_no_personal_flag(flask_like: VaultPaths) -> None:
    vault = str(flask_like.root)
    out = CliRunner().invoke(cli, ["search", "templates rendered", "--vault", vault, "--json"])
    assert "personal:notes/blog-ideas" in out.output
    cmd = ["search", "templates rendered", "--no-personal", "--vault", vault, "--json"]
    out = CliRunner().invoke(cli, cmd)
    assert out.exit_code == 0, out.output
    assert "personal:" not in out.output


def test_personal_false_in_the_user_config(flask_like: VaultPaths, isolated_home: Path) -> None:
    write(isolated_home / ".config" / "rubi" / "config.toml", "personal = false\n")
    ids = [h.id for h in app.search(flask_like, "templates rendered").hits]
    assert ids and not any(i.startswith("personal:") for i in ids)
    ids = [h.id for h in app.search(flask_like, "templates rendered", personal=True).hits]
    assert "personal:notes/blog-ideas" in ids


def test_personal_false_in_the_project_config(flask_like: VaultPaths) -> None:
    write(flask_like.root / "config.toml", "personal = false\n")
    ids = [h.id for h in app.search(flask_like, "templates rendered").hits]
    assert ids and not any(i.startswith("personal:") for i in ids)


@pytest.mark.parametrize("scope", ["all", "personal"])
def test_an_empty_personal_vault_answers_nothing_of_its_own_and_fails_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    """A new personal vault with no note yet: its index has no documents, where the IDF
    ``log(N / (df + 1))`` has no value (it failed every search with 'math domain
    error', exit 2)."""
    repo = rubi_project(tmp_path / "flask", {"src/flask/templating.py": TEMPLATING})
    mine = tmp_path / "personal"
    mine.mkdir()
    monkeypatch.setenv("RUBI_VAULT", str(mine))
    vault = str(repo / ".rubi")
    out = CliRunner().invoke(
        cli, ["search", "templates rendered", "--scope", scope, "--vault", vault]
    )
    assert out.exit_code == 0, out.output
    ids = [
        h.id for h in app.search(app.locate(repo / ".rubi"), "templates rendered", scope=scope).hits
    ]
    assert ids[:1] == ([] if scope == "personal" else ["src/flask/templating.py"])
    assert not any(i.startswith("personal:") for i in ids)
