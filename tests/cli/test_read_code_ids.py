"""Every id ``rubi search`` prints opens with ``rubi read``,
``links`` and ``backlinks``, code files included (as the MCP ``read`` tool opens them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli

from helpers import rubi_project, write

SIGNALS = '''"""Signals sent by the application."""
from flask.app import Flask


def template_rendered(sender):
    """Signal sent when a template was rendered."""
    return sender
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = rubi_project(
        tmp_path / "flask",
        {
            "src/flask/__init__.py": "",
            "src/flask/app.py": "class Flask:\n    pass\n",
            "src/flask/signals.py": SIGNALS,
        },
    )
    write(
        root / ".rubi" / "notes" / "gotcha-signals.md",
        "---\ntype: gotcha\nfiles: [src/flask/signals.py]\n---\n"
        "# Signals need blinker\n\nThe template rendered signal needs blinker.\n",
    )
    mine = tmp_path / "personal"
    write(mine / "notes" / "signals-talk.md", "# Signals talk\n\nA talk on template signals.\n")
    monkeypatch.setenv("RUBI_VAULT", str(mine))
    monkeypatch.chdir(root)
    app.index(app.locate(root / ".rubi"))
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_rubi_read_opens_a_code_file(project: Path) -> None:
    code, out = _run("read", "src/flask/signals.py")
    assert code == 0, out
    assert out.startswith("# src/flask/signals.py")
    assert "template_rendered (line 5)" in out
    assert "[[notes/gotcha-signals]]" in out
    code, out = _run("read", "src/flask/signals.py", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["kind"] == "file" and data["id"] == "src/flask/signals.py"
    assert any(
        lv["id"] == "src/flask/app.py" and lv["relation"] == "imports" for lv in data["links"]
    )


def test_links_and_backlinks_of_a_code_file(project: Path) -> None:
    code, out = _run("links", "src/flask/signals.py")
    assert code == 0, out
    assert "src/flask/app.py" in out
    code, out = _run("backlinks", "src/flask/signals.py")
    assert code == 0, out
    assert "notes/gotcha-signals" in out


def test_every_id_search_prints_opens(project: Path) -> None:
    code, out = _run("search", "template rendered signal", "--json", "--top-k", "20")
    assert code == 0, out
    ids = [h["id"] for h in json.loads(out)["hits"]]
    assert "src/flask/signals.py" in ids and "notes/gotcha-signals" in ids
    assert "personal:notes/signals-talk" in ids
    for hit_id in ids:
        for command in ("read", "links", "backlinks"):
            code, out = _run(command, hit_id)
            assert code == 0, f"rubi {command} {hit_id}: {out}"


def test_a_code_part_opens_as_search_prints_it(project: Path) -> None:
    code, out = _run("search", "template rendered signal", "--json", "--top-k", "20")
    assert code == 0, out
    parts = [
        p for h in json.loads(out)["hits"] if h["kind"] == "file" for p in h.get("passages", [])
    ]
    line_ids = [p["id"] for p in parts if "#L" in p["id"]]
    assert line_ids, parts
    part = line_ids[0]
    code, plain = _run("read", part)
    assert code == 0, plain
    code, shown = _run("read", f"{part} (template_rendered)")  # the § line, copied whole
    assert code == 0, shown
    assert shown == plain
    code, out = _run("read", f"{part.split('#')[0]}#L1-2 (x) trailing")
    assert code != 0 and "no such part" in out
