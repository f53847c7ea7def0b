"""A search below the relevance floor walks no links: its weak text matches seed no
graph walk, so no hit is shown as "linked to" one of them, in the text, the JSON or
the MCP answer. A search above the floor still brings in the linked notes."""

from __future__ import annotations

import json
from pathlib import Path

from rubi import app

from helpers import write

OFF_TOPIC = "how to knit a sweater for my grandmother after a release party"
ON_TOPIC = "roll back a bad release of the payment service"


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Deploy checklist\n\nRun the migrations first. See [[Rollback]].\n")
    write(
        vault / "b.md",
        "# Rollback\n\nHow to roll back a bad release of the payment service.\n"
        "See [[Deploy checklist]].\n",
    )
    write(vault / "c.md", "# Good practices\n\nWrite commit messages: what changed and why.\n")
    write(vault / "d.md", "# Cafe\n\nThe office cafe and its lunch menu.\n")
    return vault


def test_a_search_below_the_floor_shows_no_linked_hits(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, OFF_TOPIC, refresh=False)
    assert not result.relevant
    assert [h.id for h in result.hits] == ["b"]  # the weak match, its neighbour not added
    assert "linked to" not in app.render_search(result, 2000)
    data = app.search_json(result, 2000)
    assert data["relevant"] is False
    assert not any("linked to" in why for hit in data["hits"] for why in hit["why"])
    assert "linked to" not in json.dumps(data)
    text, answer = app.search_answer(result, 2000, open_hint="read(ids)")  # the MCP tool's
    assert answer["relevant"] is False and answer["ids"] == ["b"]
    assert "linked to" not in text


def test_a_search_above_the_floor_brings_in_linked_notes(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path))
    app.index(paths)
    result = app.search(paths, ON_TOPIC, refresh=False)
    assert result.relevant
    ids = [h.id for h in result.hits]
    assert ids[0] == "b" and "a" in ids
    assert 'linked to "Rollback" (from the only top match)' in app.render_search(result, 2000)
