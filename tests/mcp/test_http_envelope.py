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
    load_handshake,
    stateless_reply,
)

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
    [],
    None,
]
INFOS: list[Any] = [
    {"name": "t", "version": "1"},
    {"name": "t", "version": "1", "title": "T", "description": "d", "websiteUrl": "u"},
    {"name": "t", "version": "1", "title": 5},
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
