"""The MCP tools: a few cheap ones over :mod:`rubi.app`, bound to one vault.

Every tool description is paid for on every request of every session, so the tools
are few and their descriptions short (a test keeps all of them under
:data:`rubi.mcp.server.TOOLS_TOKEN_BUDGET`). Tools return plain text the model reads
well and, those that return data, the same as ``structuredContent`` under a declared
``outputSchema`` (:mod:`rubi.mcp.calls`, where the bodies are); errors are raised so
the client sees ``isError``.

This module imports the MCP SDK and pydantic (about half a second); the server
answers the handshake before it is imported (see :mod:`rubi.mcp.front`), so a change
to a tool's name, description or arguments needs ``python -m rubi.mcp.handshake``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, ContentBlock, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from rubi import app
from rubi.core.model import DEFAULT_RELATION, NoteType
from rubi.core.paths import VaultPaths
from rubi.core.searchdefaults import DEFAULT_BUDGET_TOKENS
from rubi.mcp import calls

__all__ = ["add_tools"]

Ready = Callable[[], AbstractContextManager[None] | None]
"""Called first by every tool: returns once the server is warm (blocks until then);
what it returns, when not None, is entered around the tool's body (the readers a first
call reads with: :mod:`rubi.mcp.httpwarm`)."""

_RO = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)


if TYPE_CHECKING:
    Scope = str
else:
    Scope = Literal[app.SEARCH_SCOPES]
    """The ``scope`` enum of the ``search`` tool: the facade's scopes, never a copy."""


class Link(BaseModel):
    relation: str = DEFAULT_RELATION
    target: str


class NoteIn(BaseModel):
    type: NoteType
    title: str
    body: str
    files: list[str] = Field(default_factory=list)
    links: list[Link] = Field(default_factory=list)
    supersedes: str | None = None
    tags: list[str] = Field(default_factory=list)
    scope: Literal["project", "personal"] = "project"


def _result(name: str, ready: Ready, **arguments: Any) -> CallToolResult:
    """Run the body of tool ``name`` (:data:`rubi.mcp.calls.BODIES`) once warm: its
    text, and its data as ``structuredContent`` when it has any.

    Raises:
        ToolError: the body's :class:`~rubi.mcp.calls.ToolFailure`.
    """
    readers = ready()
    try:
        with readers if readers is not None else nullcontext():
            answer = calls.BODIES[name](arguments.pop("paths"), **arguments)
    except calls.ToolFailure as exc:
        raise ToolError(str(exc)) from exc
    content: list[ContentBlock] = [TextContent(type="text", text=answer.text)]
    if answer.data is None:
        return CallToolResult(content=content)
    return CallToolResult(content=content, structured_content=answer.data)


def _search_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def search(
        query: str,
        terms: list[str] | None = None,
        scope: Scope = "all",
        budget_tokens: int = DEFAULT_BUDGET_TOKENS,
        include_superseded: bool = False,
        since: str | None = None,
        until: str | None = None,
    ) -> CallToolResult:
        """Search notes and code: ranked ids, why, day. Pass related terms."""
        return _result(
            "search",
            ready,
            paths=paths,
            query=query,
            terms=terms,
            scope=scope,
            budget_tokens=budget_tokens,
            include_superseded=include_superseded,
            since=since,
            until=until,
        )

    return search


def _read_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def read(ids: list[str]) -> CallToolResult:
        """Full text of notes, or outlines of code files, by id."""
        return _result("read", ready, paths=paths, ids=ids)

    return read


def _map_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def map_(module: str | None = None) -> CallToolResult:
        """The project's code map, or one module's page."""
        return _result("map", ready, paths=paths, module=module)

    return map_


def _register_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def register(notes: list[NoteIn]) -> CallToolResult:
        """Save durable knowledge; a same-titled note is updated, not duplicated."""
        dumped = [n.model_dump(exclude_none=True) for n in notes]
        return _result("register", ready, paths=paths, notes=dumped)

    return register


def _handoff_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def handoff(
        action: Literal["save", "last"],
        goal: str = "",
        state: str = "",
        next_steps: list[str] | None = None,
        files: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> CallToolResult:
        """Save where this session left off, or read the last handoff."""
        return _result(
            "handoff",
            ready,
            paths=paths,
            action=action,
            goal=goal,
            state=state,
            next_steps=next_steps,
            files=files,
            notes=notes,
        )

    return handoff


def _write_summary_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def write_summary(target: str, text: str) -> CallToolResult:
        """Curated summary kept in the map ("map") or a module page ("module:<name>")."""
        return _result("write_summary", ready, paths=paths, target=target, text=text)

    return write_summary


def _xray_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def xray(days: int = 30) -> CallToolResult:
        """Where this project's Claude Code tokens went; what early compacting saves. days=0: all"""
        return _result("xray", ready, paths=paths, days=days)

    return xray


def _timeline_tool(paths: VaultPaths, ready: Ready) -> Callable[..., CallToolResult]:
    def timeline(ref: str, days: int = 3) -> CallToolResult:
        """Notes, handoffs, sessions of the days around a hit id or YYYY-MM-DD."""
        return _result("timeline", ready, paths=paths, ref=ref, days=days)

    return timeline


Factory = Callable[[VaultPaths, Ready], Callable[..., CallToolResult]]
"""Binds a tool to a vault and to the wait for warm-up."""

_TOOLS: tuple[tuple[str, Factory, ToolAnnotations], ...] = (
    ("search", _search_tool, _RO),
    ("read", _read_tool, _RO),
    ("map", _map_tool, _RO),
    ("timeline", _timeline_tool, _RO),
    ("register", _register_tool, _WRITE),
    ("handoff", _handoff_tool, _WRITE),
    ("write_summary", _write_summary_tool, _WRITE),
    ("xray", _xray_tool, _RO),
)
"""Every tool: its name, the factory that binds it to a vault, its annotations."""


def _nothing_to_wait_for() -> None:
    return None


def add_tools(server: MCPServer, paths: VaultPaths, ready: Ready | None = None) -> None:
    """Add every tool to ``server``, bound to ``paths``.

    Args:
        server: the server to add them to.
        paths: the project vault.
        ready: called at the start of every tool call, in the worker thread that runs
            it; it blocks until the server has warmed up (None: nothing to wait for).
    """
    from rubi.mcp.toolschema import compact_schema

    for name, factory, hints in _TOOLS:
        fn = factory(paths, ready or _nothing_to_wait_for)
        # the manager's add_tool returns the Tool, whose advertised schema is made
        # short here (calls are still validated with the full pydantic model)
        tool = server._tool_manager.add_tool(
            fn, name=name, annotations=hints, structured_output=False
        )
        tool.parameters = compact_schema(tool.parameters)
        # data tools publish what their structuredContent holds (MCP 2025-06-18)
        tool.fn_metadata.output_schema = calls.OUTPUT_SCHEMAS.get(name)
