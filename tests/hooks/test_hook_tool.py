"""The MCP server's ``hook`` tool (the plugin's ``mcp_tool`` hooks): for every event the
plugin routes through the server, the arguments Claude Code fills in from the hook's
JSON give the same output bytes as ``rubi hook EVENT`` given that JSON on stdin, cold
and through the engine; bad arguments are refused on one line; the tool answers in
the server's greeting and after the SDK took over, and is never listed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hooks.test_engine import check_twin_session, cold, session_cases, twin_session, vault_of
from mcp_stdio import HANDSHAKE_ERA, MODERN_ERA, Served
from rubi.claude.hooks import toolcall
from rubi.claude.hooks.toolcall import TOOL_EVENTS, payload_of, tool_input
from rubi.claude.pluginhooks import plugin_hook_groups
from rubi.engine import hooktool
from rubi.engine.hooktool import answer_hook_call, hook_answerer
from rubi.engine.server import Engine
from rubi.mcp.early import EarlyCalls
from rubi.mcp.front import load_handshake
from rubi.mcp.hooktool import HOOK_TOOL, hook_result

pytestmark = [pytest.mark.timeout(180), pytest.mark.usefixtures("runtime")]


def substituted(template: Any, payload: dict[str, Any]) -> Any:
    """``template`` with each ``${a.b}`` of its strings replaced as Claude Code 2.1.197
    does for an ``mcp_tool`` hook's ``input``: the dotted path of the hook's JSON, an
    object as its compact JSON text, a missing or null value as ``""``."""

    def lookup(path: str) -> str:
        value: Any = payload
        for part in path.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (dict, list)):
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return str(value)

    if isinstance(template, str):
        return re.sub(r"\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}", lambda m: lookup(m[1]), template)
    if isinstance(template, dict):
        return {k: substituted(v, payload) for k, v in template.items()}
    return template


def tool_arguments(event: str, raw: str) -> dict[str, Any]:
    """What the plugin's hook for ``event`` sends the tool for the hook JSON ``raw``."""
    group = plugin_hook_groups()[event]
    return substituted(group["hooks"][0]["input"], json.loads(raw))  # type: ignore[no-any-return]


def tool_cases(project: Path, t: Path, big: Path) -> list[tuple[str, str]]:
    return [(e, raw) for e, raw in session_cases(project, t, big) if e in TOOL_EVENTS]


@pytest.mark.parametrize("through_engine", [False, True], ids=["cold", "engine"])
def test_the_tool_answers_each_hook_as_the_command_does(
    project: Path, tmp_path: Path, through_engine: bool
) -> None:
    """A session, hook by hook, on two identical projects: ``rubi hook EVENT`` on one,
    the tool on the other (in this process, cold, or through a resident engine)."""
    twin, t, big = twin_session(project, tmp_path)
    running = Engine(vault_of(twin)).start() if through_engine else None
    try:
        if running is not None:
            assert running.serving.wait(10) and running.ready.wait(30)
        shown = []
        cases = zip(tool_cases(project, t, big), tool_cases(twin, t, big), strict=True)
        for (event, raw_cold), (_, raw_twin) in cases:
            expected = cold(event, raw_cold)
            assert answer_hook_call(tool_arguments(event, raw_twin)) == expected, event
            shown.append(expected)
    finally:
        if running is not None:
            running.stop()
    assert {e for e, _ in tool_cases(project, t, big)} == set(TOOL_EVENTS)
    check_twin_session(shown, project, twin)


def test_a_server_answers_its_own_project_s_hooks_in_its_process_never_through_an_engine(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm engine serves the project, yet the server's answerer runs each hook of
    that project itself (a socket to its own engine would only hand the hook to
    another thread), with the command's output bytes; a hook of another project still
    asks that project's engine."""
    twin, t, big = twin_session(project, tmp_path)
    asked: list[str] = []
    real = hooktool.try_engine

    def spy(event: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(event)
        return real(event, *args, **kwargs)

    monkeypatch.setattr(hooktool, "try_engine", spy)
    running = Engine(vault_of(twin)).start()
    try:
        assert running.serving.wait(10) and running.ready.wait(30)
        answer = hook_answerer(vault_of(twin).root)
        shown = []
        cases = zip(tool_cases(project, t, big), tool_cases(twin, t, big), strict=True)
        for (event, raw_cold), (_, raw_twin) in cases:
            expected = cold(event, raw_cold)
            assert answer(tool_arguments(event, raw_twin)) == expected, event
            shown.append(expected)
        assert asked == []
        check_twin_session(shown, project, twin)
        other = {"event": "Stop", "cwd": str(project), "session_id": "s", "transcript_path": ""}
        answer(other)
        assert asked == ["Stop"]
    finally:
        running.stop()


def test_a_server_answers_as_the_command_before_and_after_its_engine_loads(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before its engine loads, a server answers its project's prompts as a cold
    process reads (the current flat graph, no vault sync; the vectors on demand), the
    process left unmarked; its engine then loads the usual readers (the live graph,
    every vector) and the answers after it are the command's bytes too."""
    from rubi import semantic
    from rubi.graph import readmode
    from rubi.semantic import demand, dense
    from rubi.semantic.sync import vectors_file
    from rubi.sync import forget_vault_syncs, oneshot
    from rubi.sync.run import has_vault_sync
    from rubi.sync.vaultsync import VaultSync

    twin, _, _ = twin_session(project, tmp_path)
    paths = vault_of(twin)
    with monkeypatch.context() as patch:  # what the first cold reader leaves: a flat graph
        patch.setattr(readmode, "_frozen", True)
        forget_vault_syncs()
        VaultSync(paths).graph()
    forget_vault_syncs()
    answer = hook_answerer(paths.root)
    prompts = [
        "when do the login tokens expire? the session drops at midnight",
        "which cache server holds the tokens",
        "login tokens at midnight again",
    ]

    def both(prompt: str) -> tuple[str, str]:
        arguments = {"event": "UserPromptSubmit", "cwd": str(twin), "prompt": prompt}
        raw = json.dumps(
            {"hook_event_name": "UserPromptSubmit", "cwd": str(project), "prompt": prompt}
        )
        return answer(arguments), cold("UserPromptSubmit", raw)

    first, expected = both(prompts[0])
    assert first == expected and "Login tokens expire at midnight UTC" in expected
    assert not has_vault_sync(paths)
    vectors = dense._INDEXES.get(vectors_file(paths.index_dir))
    if semantic.unavailable() is None:  # with the extra, the prompt searched the vectors
        assert vectors is not None and vectors._lazy
    assert not readmode.reads_frozen() and not oneshot.is_one_shot() and not demand.on_demand()
    running = Engine(paths).start()
    try:
        assert running.serving.wait(10) and running.ready.wait(30)
        assert has_vault_sync(paths)
        assert vectors is None or not vectors._lazy
        for prompt in prompts[1:]:
            mine, expected = both(prompt)
            assert mine == expected, prompt
    finally:
        running.stop()
    forget_vault_syncs()


def test_outside_a_project_the_prompt_hook_answers_nothing(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    args = {"event": "UserPromptSubmit", "cwd": str(plain), "prompt": "login tokens"}
    assert answer_hook_call(args) == ""


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        ([], "the arguments are not an object"),
        ({}, "event: not one of"),
        ({"event": "SessionStart"}, "event: not one of"),
        ({"event": "../../etc"}, "event: not one of"),
        ({"event": "Stop", "prompt": "x"}, "prompt: not an argument of Stop"),
        ({"event": "UserPromptSubmit", "prompt": 3}, "prompt: not a string"),
        ({"event": "UserPromptSubmit", "prompt": "x" * 2_000_001}, "prompt: longer than"),
        ({"event": "PreToolUse", "tool_input": "{"}, "tool_input: not JSON"),
        ({"event": "PreToolUse", "tool_input": "[1]"}, "tool_input: not a JSON object"),
        ({"event": "PreToolUse", "tool_input": "[" * 100_000}, "tool_input: not JSON"),
        ({"event": "Stop", "stop_hook_active": "yes"}, "stop_hook_active: not true or false"),
    ],
)
def test_bad_arguments_are_refused_on_one_line(arguments: Any, why: str) -> None:
    with pytest.raises(ValueError, match=re.escape(why)):
        payload_of(arguments)
    result = hook_result(answer_hook_call, arguments)
    assert result["isError"] is True
    (block,) = result["content"]
    assert block["text"].startswith("Error executing tool hook: ") and "\n" not in block["text"]


def test_arguments_become_the_hook_json_a_command_reads() -> None:
    args = {
        "event": "PreToolUse",
        "session_id": "s-1",
        "cwd": "",
        "tool_name": "Read",
        "tool_input": '{"file_path":"/p/a.py","limit":20}',
        "agent_id": "",
    }
    assert payload_of(args) == (
        "PreToolUse",
        {
            "hook_event_name": "PreToolUse",
            "session_id": "s-1",
            "tool_name": "Read",
            "tool_input": {"file_path": "/p/a.py", "limit": 20},
        },
    )
    stop = payload_of({"event": "Stop", "stop_hook_active": "true"})[1]
    assert stop["stop_hook_active"] is True


def test_the_plugin_sends_only_the_fields_each_handler_reads() -> None:
    groups = plugin_hook_groups()
    for event, fields in TOOL_EVENTS.items():
        hook = groups[event]["hooks"][0]
        assert hook["type"] == "mcp_tool" and hook["server"] == "plugin:rubi:rubi"
        assert hook["tool"] == HOOK_TOOL == toolcall.HOOK_TOOL
        assert hook["input"] == tool_input(event)
        assert set(hook["input"]) == {"event", *fields} and "tool_response" not in fields
    for event in ("SessionStart", "PreCompact", "SessionEnd"):
        assert groups[event]["hooks"][0]["type"] == "command"


def test_the_greeting_answers_the_tool_without_waiting_for_the_warm_up(project: Path) -> None:
    handshake = load_handshake()
    assert handshake is not None

    def never_warm() -> None:
        raise AssertionError("a hook must not wait for the warm-up")

    seen: list[dict[str, Any]] = []

    def answer(arguments: dict[str, Any]) -> str:
        seen.append(arguments)
        return '{"ok": 1}'

    early = EarlyCalls(vault_of(project), handshake, never_warm, hook=answer)
    arguments = {"event": "Stop", "cwd": str(project)}
    reply = early(HOOK_TOOL, arguments, False)
    text = {"type": "text", "text": '{"ok": 1}'}
    assert reply == {"result": {"content": [text], "isError": False}}
    assert seen == [arguments]
    modern = early(HOOK_TOOL, arguments, True)
    assert modern is not None and modern["result"]["content"][0]["text"] == '{"ok": 1}'
    assert EarlyCalls(vault_of(project), handshake, never_warm)(HOOK_TOOL, {}, False) is None


@pytest.mark.slow
@pytest.mark.parametrize("era", [HANDSHAKE_ERA, MODERN_ERA])
def test_rubi_serve_answers_the_hook_tool_and_never_lists_it(project: Path, era: str) -> None:
    prompt = "when do the login tokens expire? the session drops at midnight"
    arguments = {"event": "UserPromptSubmit", "cwd": str(project), "prompt": prompt}
    raw = json.dumps({"hook_event_name": "UserPromptSubmit", **arguments})
    with Served(project, era) as served:
        served.open()
        listed = served.ask("tools/list")["result"]["tools"]
        first = served.call(HOOK_TOOL, arguments)  # in the greeting or by the SDK
        served.call("search", {"query": "login"})  # the SDK has the connection now
        second = served.call(HOOK_TOOL, arguments)
        refused = served.call(HOOK_TOOL, {"event": "SessionEnd"})
    assert HOOK_TOOL not in {tool["name"] for tool in listed}
    out = io.StringIO()
    from rubi.claude.hooks.entry import main

    main(["UserPromptSubmit"], io.StringIO(raw), out)
    expected = out.getvalue()
    assert "Login tokens expire at midnight UTC" in expected
    for result in (first, second):
        assert result["isError"] is False
        assert result["content"] == [{"type": "text", "text": expected}]
    assert refused["isError"] is True and "event: not one of" in refused["content"][0]["text"]


def test_over_http_there_is_no_hook_tool(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook names any folder and transcript of the user's: only the local client that
    started the server over stdio may send one, never a client over HTTP: neither the
    front that answers before the SDK (:mod:`rubi.mcp.httpfront`) nor the SDK's server."""
    from rubi.mcp import http_access, httpfront
    from rubi.mcp.server import serve

    fronts: list[Any] = []
    servers: list[Any] = []
    monkeypatch.setattr(httpfront, "run_http", lambda app, access, **_: fronts.append(app))
    monkeypatch.setattr(http_access, "http_app", lambda server, access: servers.append(server))
    serve(project, http=True, no_token=True, port=0, hook=answer_hook_call)
    (front,) = fronts
    assert front._answerer is not None and front._answerer._hook is None
    front._build()
    (server,) = servers
    assert server.hook_answerer is None
