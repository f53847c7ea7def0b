"""The 2026-07-28 envelope the front answers (:func:`rubi.mcp.front.stateless_reply`,
stdio's greeting too): a client's capabilities and info of a shape the SDK's models
refuse are never answered with a result, only handed to the SDK (its 400 -32602)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from rubi.mcp.front import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    VERSION_KEY,
    greet,
    load_handshake,
    stateless_reply,
)

from httpfronts import CLAUDE_CODE_INIT

MODERN = "2026-07-28"

CAPABILITIES: list[Any] = [
    {},
    {"roots": {}},
    {"roots": {"listChanged": True}},
    {"sampling": {"context": {}, "tools": {}}},
    {"elicitation": {"form": {}, "url": {}}},
    {"experimental": {"x": {"a": [1]}}, "extensions": {"io.example/x": {}}},
    {"roots": "x"},
    {"roots": {"listChanged": 5}},
    {"roots": None},
    {"sampling": 5},
    {"sampling": {"context": 5}},
    {"sampling": {"tools": []}},
    {"elicitation": {"form": "x"}},
    {"elicitation": []},
    {"experimental": {"x": 5}},
    {"experimental": []},
    {"extensions": {"io.example/x": None}},
    {"tasks": {"list": 5}},
    {"tasks": {"list": {}, "cancel": {}, "requests": {"sampling": {"createMessage": {}}}}},
    {"tasks": {"requests": {"elicitation": {"create": {}}}}},
    {"tasks": {"requests": {"elicitation": {"create": 5}}}},
    {"tasks": {"requests": 5}},
    [],
    None,
]
INFOS: list[Any] = [
    {"name": "t", "version": "1"},
    {"name": "t", "version": "1", "title": "T", "description": "d", "websiteUrl": "u"},
    {"name": "t", "version": "1", "title": 5},
    {"name": "t", "version": "1", "title": None},
    {"name": "t", "version": "1", "description": 5},
    {"name": "t", "version": "1", "websiteUrl": 5},
    {"name": "t", "version": "1", "icons": [{"src": 5}]},
    {"name": "t", "version": 1},
    {"name": "t"},
    None,
]


def _sdk_accepts(method: str, params: dict[str, Any]) -> bool:
    """The SDK's own validation of a request's parameters at ``MODERN``."""
    from mcp_types import methods
    from pydantic import ValidationError

    try:
        methods.validate_client_request(method, MODERN, params)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("method", ["server/discover", "tools/list"])
def test_an_envelope_answered_is_one_the_sdk_accepts(method: str) -> None:
    handshake = load_handshake()
    assert handshake is not None and MODERN in handshake.modern
    answered = refused = 0
    for capabilities, info in itertools.product(CAPABILITIES, INFOS):
        meta = {VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: capabilities, CLIENT_INFO_KEY: info}
        params = {"_meta": meta}
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        reply = stateless_reply(body.encode(), handshake, None, lambda msg: True)
        accepted = _sdk_accepts(method, params)
        if reply is not None:
            answered += 1
            assert accepted, (capabilities, info)  # a result where the SDK gives 400
        refused += not accepted
    assert answered >= 12 and refused >= 100  # both sides of the line were tried


# Claude Code's `initialize` (httpfronts.CLAUDE_CODE_INIT); with its tasks on,
# ``capabilities`` also holds ``{"tasks": {"requests": {"elicitation": {"create": {}}}}}``.


def _greeted(params: dict[str, Any]) -> bool:
    """Whether stdio's greeting answers an ``initialize`` of ``params`` itself (else
    it hands the line to the SDK)."""
    from mcp_wire import Wire

    handshake = load_handshake()
    assert handshake is not None
    wire = Wire()
    wire.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
    wire.end()
    handover = greet(wire.reader, wire.writer, handshake, None)  # None: input ended
    replies = wire.replies()
    wire.close()
    assert [r.get("id") for r in replies] == ([0] if handover is None else [])
    return handover is None and "result" in replies[0]


def _sdk_accepts_initialize(params: dict[str, Any]) -> bool:
    from mcp_types import methods
    from pydantic import ValidationError

    try:
        methods.validate_client_request("initialize", params["protocolVersion"], params)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18"])
def test_an_initialize_answered_is_one_the_sdk_accepts(version: str) -> None:
    answered = refused = 0
    for capabilities, info in itertools.product(CAPABILITIES, INFOS):
        params = {"protocolVersion": version, "capabilities": capabilities, "clientInfo": info}
        accepted = _sdk_accepts_initialize(params)
        if _greeted(params):
            answered += 1
            assert accepted, (capabilities, info)  # a result where the SDK gives an error
        refused += not accepted
    assert answered >= 12 and refused >= 100


def test_claude_code_s_initialize_stays_on_the_fast_path() -> None:
    tasks = {"tasks": {"requests": {"elicitation": {"create": {}}}}}
    with_tasks = {**CLAUDE_CODE_INIT, "capabilities": {**CLAUDE_CODE_INIT["capabilities"], **tasks}}
    for params in (CLAUDE_CODE_INIT, with_tasks):
        assert _sdk_accepts_initialize(params)
        assert _greeted(params)
