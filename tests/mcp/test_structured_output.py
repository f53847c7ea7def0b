"""Tools that return data declare an ``outputSchema`` and return ``structuredContent``
matching it beside their text (MCP 2025-06-18), to clients of both eras, over stdio."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_project import small_project
from mcp_stdio import HANDSHAKE_ERA, MODERN_ERA, Served

DATA_TOOLS = {"search", "read", "timeline", "register"}
NOTE = {"type": "gotcha", "title": "Trie keys are bytes", "body": "Encode paths first."}


def checked(result: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """The result's structured content, validated against ``schema``."""
    assert result["isError"] is False, result
    data = result["structuredContent"]
    jsonschema.validate(data, schema)
    assert result["content"][0]["type"] == "text" and result["content"][0]["text"]
    return data  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, MODERN_ERA])
def test_data_tools_return_what_their_output_schema_declares(tmp_path: Path, era: str) -> None:
    project = small_project(tmp_path / "proj")
    with Served(project, era) as served:
        served.open()
        tools = served.ask("tools/list")["result"]["tools"]
        schemas = {t["name"]: t["outputSchema"] for t in tools if "outputSchema" in t}
        assert set(schemas) == DATA_TOOLS
        for schema in schemas.values():
            jsonschema.Draft202012Validator.check_schema(schema)

        found = checked(served.call("search", {"query": "trie routing"}), schemas["search"])
        ids = found["ids"]
        assert "notes/decision-route-with-a-trie" in ids
        assert found["query"] == "trie routing"
        text = served.call("search", {"query": "trie routing"})["content"][0]["text"]
        assert found["text"] == text  # a client showing the model the data loses nothing
        assert all(i in text for i in ids)  # the ids of the hits the text shows

        read = checked(served.call("read", {"ids": [ids[0], "no-such-note"]}), schemas["read"])
        assert [i["id"] for i in read["items"]] == [ids[0], "no-such-note"]
        assert "text" in read["items"][0] and "error" in read["items"][1]

        today = dt.date.today().isoformat()
        days = checked(served.call("timeline", {"ref": today}), schemas["timeline"])
        assert "notes/decision-route-with-a-trie" in {e["id"] for e in days["entries"]}

        saved = checked(served.call("register", {"notes": [NOTE]}), schemas["register"])
        assert [(n["action"], n["title"]) for n in saved["notes"]] == [("created", NOTE["title"])]

        page = served.call("map", {})
        assert page["isError"] is False and "structuredContent" not in page


@pytest.mark.parametrize("budget", [300, 800, 1500])
def test_the_search_data_fits_the_budget_the_model_may_be_shown(
    tmp_path: Path, budget: int
) -> None:
    from rubi import app
    from rubi.core.tokens import estimate_tokens
    from rubi.mcp import calls

    project = small_project(tmp_path / "proj")
    for i in range(30):  # enough long hits to fill any budget, none a copy of another
        body = " ".join(f"route trie step{i}x{j}" for j in range(80))
        note = {"type": "note", "title": f"Routing note {i}", "body": body}
        app.register(app.locate(project / ".rubi"), [note])
    answer = calls.search(app.locate(project / ".rubi"), "route trie", budget_tokens=budget)
    assert answer.data is not None and len(answer.data["ids"]) >= 2
    shown = estimate_tokens(json.dumps(answer.data, ensure_ascii=False))
    assert budget * 0.8 <= shown <= budget  # Claude Code shows the model this JSON
    assert answer.data["text"] == answer.text
