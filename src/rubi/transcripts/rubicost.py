"""What rubi cost one Claude Code session and what it saved, from its transcript.

Costs, in input-token equivalents with the X-ray's price ratios (a text put in the
context at call *i* of *n* is written to the cache once and read back by each later
call: ``tokens × (cache write + cache read × (n − i − 1))``):

* **tool schemas**: the server's tools travel in every request (``schema_tokens``,
  measured from the server's ``tools/list``), from the first call to the last;
* **hook context**: what rubi's hooks put in the context (``additionalContext``, the
  plain output of SessionStart and UserPromptSubmit, a Stop hook's request, a denied
  read's reason), read from the ``hook_success`` records Claude Code 2.x writes with
  the hook's command (a command that runs ``rubi hook``);
* **tool results**: the results of rubi's MCP tools (``mcp__…rubi__…``), the X-ray's
  own carried cost of those tools.

Saved: each whole-file read the guard denied (its reason states the whole file's
tokens) minus what was read of that file afterwards in the session (ranged reads, or
the whole file when asked again), priced as the same carried text would have been.
What cannot be seen in a transcript (a read that a search answer made unnecessary) is
not claimed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rubi.transcripts.records import text_chars, tokens_of
from rubi.transcripts.settings import PriceRatios
from rubi.transcripts.transcript import MAX_LINE_BYTES

TYPE_CHECKING = False  # typing costs a hook ~2 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from rubi.transcripts.analyze import SessionStats

__all__ = ["RECALL_HEADER", "RubiCost", "carried", "measure_rubi", "measure_transcript"]

_RUBI_HOOK = re.compile(r"\brubi\b[^;]*\bhook\s+[A-Za-z]+")
_RUBI_TOOL = re.compile(r"^mcp__(?:.*_)?rubi__")
_DENIAL = re.compile(r"reading it whole costs about ([\d,]+) tokens of context")
_CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit"})
RECALL_HEADER = "rubi project memory has notes related to this request"
"""How rubi's recall starts (:data:`rubi.app.recall.HEADER`): Claude Code records a
UserPromptSubmit hook's context without the command that made it, so recall is known
by its first words."""


@dataclass(frozen=True, slots=True)
class RubiCost:
    """rubi's share of one session.

    Attributes:
        session_id: the session.
        active: rubi's hooks or tools appear in the transcript.
        calls: main-chain API calls.
        schema_tokens: tokens of rubi's tool schemas per request (0 when inactive).
        schema_cost: their cost over the session.
        hook_runs: rubi hook runs that put text in the context.
        hook_tokens: the tokens they put there.
        hook_cost: their carried cost.
        tool_calls: calls of rubi's MCP tools.
        tool_tokens: tokens of their results.
        tool_cost: their carried cost (the X-ray's figure).
        denials: whole-file reads the guard denied (first denial of each file).
        avoided_tokens: tokens of those files not read (whole size minus what was read
            of them afterwards).
        saved: the carried cost of ``avoided_tokens``.
    """

    session_id: str
    active: bool
    calls: int
    schema_tokens: int
    schema_cost: float
    hook_runs: int
    hook_tokens: int
    hook_cost: float
    tool_calls: int
    tool_tokens: int
    tool_cost: float
    denials: int
    avoided_tokens: int
    saved: float

    @property
    def cost(self) -> float:
        """Everything rubi added (input-token equivalents)."""
        return self.schema_cost + self.hook_cost + self.tool_cost


def carried(tokens: int, index: int, calls: int, prices: PriceRatios) -> float:
    """Cost of ``tokens`` put in the context before call ``index`` (0-based) of a chain
    of ``calls`` calls: one cache write, then a cache read by each later call."""
    later = calls - index
    if tokens <= 0 or later <= 0:
        return 0.0
    return tokens * (prices.cache_write_5m + prices.cache_read * (later - 1))


def _json_output(attachment: dict[str, Any]) -> dict[str, Any]:
    """A hook run's JSON output ({} for plain or no output)."""
    stdout = attachment.get("stdout")
    if not isinstance(stdout, str) or not stdout.lstrip().startswith("{"):
        return {}
    try:
        data = json.loads(stdout)
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def _hook_text(attachment: dict[str, Any]) -> str:
    """What one rubi hook run put in Claude's context ("" for nothing)."""
    stdout = attachment.get("stdout")
    if not isinstance(stdout, str) or not stdout.strip():
        return ""
    if not stdout.lstrip().startswith("{"):
        return stdout if attachment.get("hookEvent") in _CONTEXT_EVENTS else ""
    data = _json_output(attachment)
    out = data.get("hookSpecificOutput")
    parts = []
    if isinstance(out, dict):
        parts.append(out.get("additionalContext"))
        if out.get("permissionDecision") == "deny":  # else the reason goes to the user
            parts.append(out.get("permissionDecisionReason"))
    if data.get("decision") == "block":
        parts.append(data.get("reason"))
    return "\n".join(p for p in parts if isinstance(p, str))


@dataclass
class _Pass:
    """One pass over a main transcript: rubi's hook runs, the guard's denials and the
    reads that followed them."""

    calls: int = 0
    api_calls: int = 0  # main-chain API calls as the X-ray counts them (TranscriptReader)
    rubi_tools: bool = False  # a call of rubi's MCP tools anywhere in the file
    _api_keys: set[str] = field(default_factory=set)
    hook_runs: int = 0
    hook_tokens: int = 0
    hook_at: list[tuple[int, int]] = field(default_factory=list)  # (tokens, call index)
    denied: dict[str, tuple[int, int]] = field(default_factory=dict)  # path: (whole, index)
    read_after: dict[str, int] = field(default_factory=dict)  # path: tokens read after
    _seen_calls: set[str] = field(default_factory=set)
    _reads: dict[str, str] = field(default_factory=dict)  # Read's tool_use id: file path
    _counted: list[str] = field(default_factory=list)  # contexts counted from hook_success

    def api_call(self, record: dict[str, Any], message: dict[str, Any], where: str) -> None:
        """Count a main-chain assistant record as :class:`TranscriptReader` counts an
        API call of the main chain (``where``: its ``path:line`` key when it has no id):
        a key not seen before, API error and synthetic records left out."""
        if record.get("isApiErrorMessage") or message.get("model") == "<synthetic>":
            return
        key = str(message.get("id") or record.get("requestId") or where)
        if key not in self._api_keys:
            self._api_keys.add(key)
            self.api_calls += 1

    def assistant(self, record: dict[str, Any], message: dict[str, Any]) -> None:
        key = str(message.get("id") or record.get("requestId") or "")
        if message.get("model") != "<synthetic>" and key and key not in self._seen_calls:
            self._seen_calls.add(key)
            self.calls += 1
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_use":
                args = block.get("input")
                if block.get("name") == "Read" and isinstance(args, dict):
                    self._reads[str(block.get("id"))] = str(args.get("file_path") or "")

    def user(self, message: dict[str, Any]) -> None:
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            file = self._reads.get(str(block.get("tool_use_id")))
            if not file:
                continue
            text = block.get("content")
            if block.get("is_error"):  # a denial is an error result: a read's text (a
                # whole file, often tens of KB) is never searched for one
                denial = _DENIAL.search(text if isinstance(text, str) else json.dumps(text))
                if denial:
                    whole = int(denial.group(1).replace(",", ""))
                    self.denied.setdefault(file, (whole, max(self.calls - 1, 0)))
            elif file in self.denied:
                tokens = tokens_of(text_chars(text))
                self.read_after[file] = self.read_after.get(file, 0) + tokens

    def attachment(self, attachment: dict[str, Any]) -> None:
        kind = attachment.get("type")
        if kind == "hook_success":
            if not _RUBI_HOOK.search(str(attachment.get("command") or "")):
                return
            self._count(_hook_text(attachment))
            out = _json_output(attachment).get("hookSpecificOutput")
            context = out.get("additionalContext") if isinstance(out, dict) else None
            if isinstance(context, str):
                self._counted.append(context)  # its own record follows: not twice
        elif kind == "hook_additional_context":
            content = attachment.get("content")
            for text in content if isinstance(content, list) else [content]:
                if not isinstance(text, str):
                    continue
                if text in self._counted:
                    self._counted.remove(text)
                elif text.startswith(RECALL_HEADER):
                    self._count(text)

    def _count(self, text: str) -> None:
        if text.strip():
            tokens = tokens_of(len(text))
            self.hook_runs += 1
            self.hook_tokens += tokens
            self.hook_at.append((tokens, self.calls))


def _scan(path: Path) -> _Pass:
    """Read the main transcript at ``path`` once (sidechains and bad lines skipped)."""
    state = _Pass()
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if len(raw) > MAX_LINE_BYTES:
                continue
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            if not isinstance(record, dict):
                continue
            message = record.get("message")
            kind = record.get("type")
            if kind == "assistant" and isinstance(message, dict) and not state.rubi_tools:
                state.rubi_tools = _calls_rubi_tool(message)
            if record.get("isSidechain"):
                continue
            if kind == "assistant" and isinstance(message, dict):
                state.api_call(record, message, f"{path}:{number}")
                state.assistant(record, message)
            elif kind == "user" and isinstance(message, dict):
                state.user(message)
            elif kind == "attachment" and isinstance(record.get("attachment"), dict):
                state.attachment(record["attachment"])
    return state


def _calls_rubi_tool(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(block, dict)
        and block.get("type") == "tool_use"
        and _RUBI_TOOL.match(str(block.get("name") or ""))
        for block in content
    )


def measure_transcript(
    transcript: Path,
    session_id: str,
    schema_tokens: int,
    prices: PriceRatios,
    analyze: Callable[[], SessionStats],
) -> RubiCost:
    """:func:`measure_rubi` with the X-ray's analysis (``analyze``) run only when the
    session called one of rubi's MCP tools, anywhere in the file (their carried cost is
    the X-ray's); otherwise (the common case: the hooks and the guard work without
    them) the same figures from one pass over the transcript, its main chain's API
    calls counted as the X-ray counts them.

    Raises:
        OSError: the transcript cannot be read.
    """
    scan = _scan(transcript)
    if not scan.rubi_tools:
        return _measured(session_id, scan.api_calls, [], scan, schema_tokens, prices)
    stats = analyze()
    tools = [(name, w) for name, w in stats.tools.items() if _RUBI_TOOL.match(name)]
    return _measured(stats.session_id, len(stats.main_calls), tools, scan, schema_tokens, prices)


def measure_rubi(
    stats: SessionStats, transcript: Path | None, schema_tokens: int, prices: PriceRatios
) -> RubiCost:
    """rubi's share of the session ``stats`` describes (see the module docstring).

    Args:
        stats: the X-ray's analysis of the session.
        transcript: its main transcript (None: hooks and denials unknown).
        schema_tokens: tokens of rubi's tool schemas in one request.
        prices: the price ratios.

    Raises:
        OSError: the transcript cannot be read.
    """
    scan = _scan(transcript) if transcript is not None else _Pass()
    tools = [(name, w) for name, w in stats.tools.items() if _RUBI_TOOL.match(name)]
    return _measured(stats.session_id, len(stats.main_calls), tools, scan, schema_tokens, prices)


def _measured(
    session_id: str,
    calls: int,
    tools: list[tuple[str, Any]],
    scan: _Pass,
    schema_tokens: int,
    prices: PriceRatios,
) -> RubiCost:
    """The cost of a session of ``calls`` main-chain calls whose rubi tools weigh
    ``tools`` (the X-ray's ``ToolWeight`` by name) and whose pass is ``scan``."""
    tool_calls = sum(w.calls for _, w in tools)
    active = bool(tools or scan.hook_runs or scan.denied)
    schema = schema_tokens if active else 0
    hook_cost = sum(carried(t, i, calls, prices) for t, i in scan.hook_at)
    avoided = 0
    saved = 0.0
    for file, (whole, index) in scan.denied.items():
        spared = max(whole - scan.read_after.get(file, 0), 0)
        avoided += spared
        saved += carried(spared, index + 1, calls, prices)
    return RubiCost(
        session_id=session_id,
        active=active,
        calls=calls,
        schema_tokens=schema,
        schema_cost=carried(schema, 0, calls, prices),
        hook_runs=scan.hook_runs,
        hook_tokens=scan.hook_tokens,
        hook_cost=hook_cost,
        tool_calls=tool_calls,
        tool_tokens=sum(w.tokens for _, w in tools),
        tool_cost=sum(w.carried_cost for _, w in tools),
        denials=len(scan.denied),
        avoided_tokens=avoided,
        saved=saved,
    )
