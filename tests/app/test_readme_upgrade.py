"""A vault made by an older ``rubi init`` keeps the README it got then, without
``status: help``, and recall injected it. ``rubi init`` upgrades that README when it
is byte-identical to one an earlier rubi shipped; an edited one is left as it is and
``rubi doctor`` names it, with the line to add."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.app.helpreadme import PAST_READMES, digest
from rubi.cli.main import cli

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "vault-template" / "README.md"

OLD = (  # vault-template/README.md as commit 2e243bc5 shipped it
    "# Project memory\n\nThis folder is the project's memory, kept by rubi (the `rubi` "
    "command; install it\nfrom its repository with `pipx install <git URL or checkout of "
    "rubi>`): plain\nmarkdown that people and the coding agent both read and edit. Open it "
    "in Obsidian as\na vault to see the graph.\n\n- `notes/`: one note per piece of durable "
    "knowledge: a `decision`, `bug`, `gotcha`,\n  `concept`, `how-to`, `preference`, `task` "
    "or `note` (the `type:` in its frontmatter).\n- `handoffs/`: where a session left off, "
    "so the next one can pick up (each person's\n  own: git leaves them out).\n- `map.md` "
    "and `modules/`: the code map's pages, written by `rubi index`.\n- `sessions/`: "
    "captured conversations and pre-compaction records (this machine only,\n  "
    "git-ignored).\n\nThe search index and the graph are derived data kept in your cache "
    "folder, outside\nthe repository (`rubi index --full` rebuilds them).\n\nWrite links "
    "as `[[wikilinks]]`; a list item `- <relation> [[target]]` (for example\n`- supersedes "
    '[[decision-old-approach]]`) gives the link a type.\nSearch with `rubi search "your '
    'question"`.\n'
)

PROMPT = (
    "Where does the project memory keep handoffs and captured sessions, "
    "and how do wikilinks in notes get a relation type?"
)


def old_vault(tmp_path: Path, text: str | bytes = OLD) -> Path:
    """A project whose vault holds an older rubi's README (``text``)."""
    project = tmp_path / "p"
    project.mkdir()
    app.init_project(project)
    data = text.encode("utf-8") if isinstance(text, str) else text
    (project / ".rubi" / "README.md").write_bytes(data)
    return project


def recalled(project: Path) -> str | None:
    paths = app.locate(None, cwd=project)
    app.index(paths)
    return app.recall(paths, PROMPT, max_tokens=700)


def doctor(project: Path) -> tuple[int, dict[str, list[dict[str, str]]]]:
    result = CliRunner().invoke(cli, ["doctor", "--json", "--vault", str(project / ".rubi")])
    return result.exit_code, json.loads(result.output)


def test_the_digests_match_every_past_template_in_git_history() -> None:
    """Every version of the template README in history but the current one is in
    :data:`PAST_READMES`, and nothing else: a change to the template must add the
    digest of the version it replaces."""
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout of rubi")
    shallow = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--is-shallow-repository"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    if shallow != "false":
        pytest.skip("a shallow clone (or no git): the template's history is not all here")
    rel = "vault-template/README.md"
    log = subprocess.run(
        ["git", "-C", str(REPO), "log", "--follow", "--format=%H", "--", rel],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not log:
        pytest.skip("the template's history is not in this checkout")
    versions = {
        digest(
            subprocess.run(
                ["git", "-C", str(REPO), "show", f"{c}:{rel}"], capture_output=True, check=True
            ).stdout
        )
        for c in log
    }
    assert versions - {digest(TEMPLATE.read_bytes())} == PAST_READMES
    assert digest(OLD.encode("utf-8")) in PAST_READMES


def test_an_old_template_readme_is_upgraded_and_then_not_recalled(tmp_path: Path) -> None:
    project = old_vault(tmp_path)
    block = recalled(project)
    assert block is not None and "(id README)" in block  # the defect
    code, found = doctor(project)
    assert code == 1 and "`rubi init` replaces it" in found["help"][0]["problem"]
    result = CliRunner().invoke(cli, ["init", str(project)])
    assert result.exit_code == 0, result.output
    assert "Upgraded README.md: an older rubi wrote it" in result.output
    assert "nothing changed" not in result.output
    assert (project / ".rubi" / "README.md").read_bytes() == TEMPLATE.read_bytes()
    assert recalled(project) is None
    code, found = doctor(project)
    assert code == 0 and found["help"] == []
    again = CliRunner().invoke(cli, ["init", str(project)])
    assert "Upgraded" not in again.output and "nothing changed there" in again.output


def test_an_old_readme_checked_out_with_crlf_line_ends_is_upgraded(tmp_path: Path) -> None:
    project = old_vault(tmp_path, OLD.replace("\n", "\r\n").encode("utf-8"))
    assert app.init_project(project).upgraded == ["README.md"]
    assert (project / ".rubi" / "README.md").read_bytes() == TEMPLATE.read_bytes()


def test_an_edited_readme_is_left_byte_identical_and_doctor_names_it(tmp_path: Path) -> None:
    edited = OLD + "\nOur team also keeps runbooks in `notes/ops/`.\n"
    project = old_vault(tmp_path, edited)
    result = CliRunner().invoke(cli, ["init", str(project)])
    assert result.exit_code == 0 and "Upgraded" not in result.output
    assert (project / ".rubi" / "README.md").read_bytes() == edited.encode("utf-8")
    code, found = doctor(project)
    assert code == 1
    assert found["help"] == [
        {
            "path": "README.md",
            "problem": "rubi's help, edited (so `rubi init` leaves it) and not marked "
            "`status: help`, so recall injects it: add `---`, `status: help`, `---` as its "
            "first three lines",
        }
    ]
    text = CliRunner().invoke(cli, ["doctor", "--vault", str(project / ".rubi")]).output
    assert "help       README.md: rubi's help, edited" in text
    assert (project / ".rubi" / "README.md").read_bytes() == edited.encode("utf-8")


def test_a_user_s_own_readme_and_a_linked_old_one_are_left_alone(tmp_path: Path) -> None:
    project = old_vault(tmp_path, "# Our vault\n\nDeploys go through the staging cluster.\n")
    assert app.init_project(project).upgraded == []
    assert doctor(project)[1]["help"] == []  # not rubi's help: real knowledge
    shared = project / "docs" / "README.md"
    shared.parent.mkdir()
    shared.write_text(OLD, encoding="utf-8")
    readme = project / ".rubi" / "README.md"
    readme.unlink()
    os.symlink(shared, readme)
    assert app.init_project(project).upgraded == []
    assert readme.is_symlink() and shared.read_text(encoding="utf-8") == OLD
