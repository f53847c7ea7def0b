"""One line per Claude Code session: what rubi cost it and what it saved
(:mod:`rubi.transcripts.rubicost`), for ``rubi cost`` and the next SessionStart."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.transcripts.rubicost import RubiCost

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rubi.transcripts.analyze import SessionStats

__all__ = ["SessionCost", "cost_line", "schema_tokens", "session_cost", "transcript_cost"]

HANDSHAKE = Path(__file__).resolve().parents[1] / "mcp" / "handshake.json"
"""The server's answers to ``initialize`` and ``tools/list`` (package data, written by
``python -m rubi.mcp.handshake``): the tools' schemas as clients receive them."""


@dataclass(frozen=True, slots=True)
class SessionCost:
    """A session's rubi cost and the line that says it."""

    cost: RubiCost
    line: str


def schema_tokens() -> int:
    """Tokens of rubi's tool schemas in one request: the server's ``tools/list`` at the
    newest protocol revision, as the client sends it to the model
    (:func:`rubi.core.tokens.tool_tokens` per tool: without ``outputSchema``, which the
    client keeps to itself); 0 when the snapshot cannot be read."""
    from rubi.core.tokens import tool_tokens

    try:
        data = json.loads(HANDSHAKE.read_text(encoding="utf-8"))
        answers = data["results"]["tools/list"]
        tools = answers[max(answers)]["tools"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    return sum(tool_tokens(tool) for tool in tools)


def _k(value: float) -> str:
    from rubi.transcripts.tokenformat import format_tokens

    return format_tokens(round(value))


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def cost_line(cost: RubiCost) -> str:
    """The one line: ``rubi in this session: cost …; saved …`` (input-token
    equivalents, the X-ray's prices), or that rubi was not active."""
    if not cost.active:
        calls = _n(cost.calls, "API call", "API calls")
        return f"rubi was not active in session {cost.session_id[:8]} ({calls})."
    parts = [f"tool schemas {_k(cost.schema_cost)}"]
    if cost.hook_runs:
        parts.append(f"hook context {_k(cost.hook_cost)} ({_n(cost.hook_runs, 'run', 'runs')})")
    if cost.tool_calls:
        parts.append(f"tool results {_k(cost.tool_cost)} ({_n(cost.tool_calls, 'call', 'calls')})")
    saved = "saved nothing it can measure"
    if cost.denials:
        reads = "read" if cost.denials == 1 else "reads"
        saved = (
            f"saved {_k(cost.saved)} ({cost.denials} whole-file {reads} denied, "
            f"{_k(cost.avoided_tokens)} tokens not read)"
        )
    net = cost.saved - cost.cost
    verdict = f"net {'+' if net >= 0 else '-'}{_k(abs(net))}"
    return (
        f"rubi in session {cost.session_id[:8]} ({_n(cost.calls, 'API call', 'API calls')}): "
        f"cost {_k(cost.cost)} "
        f"({', '.join(parts)}); {saved}; {verdict} input-token equivalents."
    )


def transcript_cost(transcript: Path, session_id: str | None = None) -> SessionCost:
    """The cost line of the session whose main transcript is ``transcript``; the X-ray's
    analysis runs only when the session called rubi's MCP tools
    (:func:`~rubi.transcripts.rubicost.measure_transcript`: the same figures).

    Raises:
        OSError: the transcript cannot be read.
    """
    from rubi.transcripts.rubicost import measure_transcript
    from rubi.transcripts.settings import PriceRatios

    sid = session_id or transcript.stem
    prices = PriceRatios()

    def analyze() -> SessionStats:
        from rubi.transcripts.analyze import analyze_session
        from rubi.transcripts.locate import SessionFiles
        from rubi.transcripts.transcript import TranscriptReader

        st = transcript.stat()
        files = SessionFiles(sid, transcript.parent.name, transcript, (), st.st_mtime, 0)
        return analyze_session(files, TranscriptReader(), prices)

    cost = measure_transcript(transcript, sid, schema_tokens(), prices, analyze)
    return SessionCost(cost, cost_line(cost))


def session_cost(*, session: str | None = None, project: Path | None = None) -> SessionCost:
    """The cost line of one session: ``session`` (an id or its first characters), else
    the newest session of ``project`` (else of any project).

    Raises:
        TranscriptsNotFoundError: no transcripts folder (or none for ``project``).
        RubiError: no session matches, or the id prefix matches several.
    """
    from rubi.transcripts.locate import discover_sessions, projects_dir

    found = discover_sessions(projects_dir(), project=project if session is None else None)
    found = [s for s in found if s.main is not None]
    if session is not None:
        found = [s for s in found if s.session_id.startswith(session)]
        if len({s.session_id for s in found}) > 1:
            raise RubiError(f"{session}: matches {len(found)} sessions; give more characters")
    if not found:
        raise RubiError(
            f"{session or project}: no such Claude Code session"
            if session or project
            else "no Claude Code session yet"
        )
    chosen = found[-1]
    assert chosen.main is not None
    return transcript_cost(chosen.main, chosen.session_id)
