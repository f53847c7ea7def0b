"""The MCP tools: a few cheap ones over :mod:`rubi.app`, bound to one vault.

Every tool description is paid for on every request of every session, so the tools
are few and their descriptions short (a test keeps all of them under
:data:`rubi.mcp.server.TOOLS_TOKEN_BUDGET`). Tools return plain text the model reads
well; errors are raised so the client sees ``isError``.

This module imports the MCP SDK and pydantic (about half a second); the server
answers the handshake before it is imported (see :mod:`rubi.mcp.front`), so a change
to a tool's name, description or arguments needs ``python -m rubi.mcp.handshake``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from rubi import app
from rubi.core.config import DEFAULT_BUDGET_TOKENS
from rubi.core.errors import RubiError
from rubi.core.model import DEFAULT_RELATION, NoteType
from rubi.core.paths import VaultPaths
from rubi.core.safetext import replace_surrogates

__all__ = ["add_tools"]

Ready = Callable[[], None]
"""Called first by every tool: returns once the server is warm (blocks until then)."""

MAX_BUDGET_TOKENS = 20_000
"""A search result may not exceed this, whatever the caller asks."""
MIN_BUDGET_TOKENS = 100
"""A search result may take at least this, so a tiny budget still shows a hit."""
MAX_REGISTER_NOTES = 200
"""Notes one ``register`` call may hold: each costs a look at every note of the vault
(20,000 in one call kept the server busy for minutes); ``rubi note add --from-json``
has no such limit."""
SEARCH_TOP_K = 20
"""Hits the ``search`` tool asks for: the token budget, not a count, decides how many
an agent sees (the tool has no ``top_k`` to spend schema tokens on)."""

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


def _fail(exc: Exception) -> ToolError:
    return ToolError(replace_surrogates(str(exc)))


def _out(text: str) -> str:
    """A tool's answer, always encodable: a file name that was not UTF-8 shows U+FFFD
    instead of failing the reply (on every transport; see :mod:`rubi.mcp.stdio`)."""
    return replace_surrogates(text)


def _search_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def search(
        query: str,
        terms: list[str] | None = None,
        scope: Scope = "all",
        budget_tokens: int = DEFAULT_BUDGET_TOKENS,
        include_superseded: bool = False,
        since: str | None = None,
        until: str | None = None,
    ) -> str:
        """Search notes and code: ranked ids, why, day. Pass related terms."""
        ready()
        try:
            result = app.search(
                paths,
                query,
                terms=terms or (),
                top_k=SEARCH_TOP_K,
                scope=scope,
                include_superseded=include_superseded,
                since=since,
                until=until,
            )
        except (RubiError, ValueError) as exc:
            raise _fail(exc) from exc
        budget = max(MIN_BUDGET_TOKENS, min(budget_tokens, MAX_BUDGET_TOKENS))
        return _out(app.render_search(result, budget, open_hint="read(ids)"))

    return search


def _read_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def read(ids: list[str]) -> str:
        """Full text of notes, or outlines of code files, by id."""
        ready()
        if not ids:
            raise ToolError("ids: give at least one id from search")
        found = app.read_many(paths, ids[:20])
        if all(err for _, err in found):
            raise ToolError(_out("; ".join(err or "" for _, err in found)))
        return _out("\n\n".join(text if not err else f"({err})" for text, err in found))

    return read


def _map_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def map_(module: str | None = None) -> str:
        """The project's code map, or one module's page."""
        ready()
        try:
            return _out(app.map_text(paths, module))
        except RubiError as exc:
            raise _fail(exc) from exc

    return map_


def _registered_line(r: Any) -> str:
    extra = f"; supersedes {', '.join(r.superseded)}" if r.superseded else ""
    if r.dangling:
        extra += f"; unresolved links: {', '.join(r.dangling)}"
    if r.redacted:
        extra += f"; {app.describe_redacted(r.redacted)}"
    return f"{r.action} {r.id}{extra}"


def _register_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def register(notes: list[NoteIn]) -> str:
        """Save durable knowledge; a same-titled note is updated, not duplicated."""
        ready()
        if len(notes) > MAX_REGISTER_NOTES:
            raise ToolError(
                f"notes: {len(notes):,} notes; at most {MAX_REGISTER_NOTES} per call: "
                "register them in several calls"
            )
        try:
            done = app.register(paths, [n.model_dump(exclude_none=True) for n in notes])
        except (RubiError, OSError) as exc:
            raise _fail(exc) from exc
        return _out("\n".join(_registered_line(r) for r in done))

    return register


def _handoff_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def handoff(
        action: Literal["save", "last"],
        goal: str = "",
        state: str = "",
        next_steps: list[str] | None = None,
        files: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> str:
        """Save where this session left off, or read the last handoff."""
        ready()
        try:
            if action == "last":
                last = app.last_handoff(paths)
                return _out(last.text) if last else "No handoff yet."
            written = app.save_handoff(
                paths, goal, state, next_steps or (), files or (), notes or ()
            )
            told = (
                f" {app.describe_redacted(written.redacted).capitalize()}."
                if written.redacted
                else ""
            )
            return _out(f"Saved {written.path}.{told}")
        except (RubiError, OSError) as exc:
            raise _fail(exc) from exc

    return handoff


def _write_summary_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def write_summary(target: str, text: str) -> str:
        """Curated summary kept in the map ("map") or a module page ("module:<name>")."""
        ready()
        try:
            page = app.write_summary(paths, target, text)
        except (RubiError, OSError) as exc:
            raise _fail(exc) from exc
        told = f" {app.describe_redacted(page.redacted).capitalize()}." if page.redacted else ""
        return _out(f"Stored in {page.path.name}.{told}")

    return write_summary


def _xray_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def xray(days: int = 30) -> str:
        """Where this project's Claude Code tokens went; what early compacting saves. days=0: all"""
        ready()
        from rubi.app import xray as use_case

        try:
            return _out(use_case.summary(days=days, project=paths.project_root))
        except (RubiError, OSError) as exc:
            raise _fail(exc) from exc

    return xray


def _timeline_tool(paths: VaultPaths, ready: Ready) -> Callable[..., str]:
    def timeline(ref: str, days: int = 3) -> str:
        """Notes, handoffs, sessions of the days around a hit id or YYYY-MM-DD."""
        ready()
        from rubi.app.timeline import render_timeline
        from rubi.app.timeline import timeline as use_case

        try:
            return _out(render_timeline(use_case(paths, ref, days)))
        except RubiError as exc:
            raise _fail(exc) from exc

    return timeline


Factory = Callable[[VaultPaths, Ready], Callable[..., str]]
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
