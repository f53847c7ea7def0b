"""Where Claude Code will compact a session: the point the meter asks before.

Claude Code 2.1.197's rule, read in its code and confirmed in its debug log
(``autocompact: ... effectiveWindow=130000`` and the PreCompact hook firing once the
context passed 117,000 tokens with ``autoCompactWindow`` 150,000 on a 1M model):

1. The model's window: 1,000,000 for a model named with ``[1m]`` or one that is 1M
   natively (:data:`NATIVE_1M`), else 200,000; ``CLAUDE_CODE_DISABLE_1M_CONTEXT``
   turns 1M off.
2. The compaction window: ``CLAUDE_CODE_AUTO_COMPACT_WINDOW`` (env), else
   ``autoCompactWindow`` from the settings files (managed, local, project, user: the
   first that sets it), else the model's default (:data:`MODEL_DEFAULT_WINDOW`),
   else the model's window; always within 100,000–1,000,000 and at most the model's
   window.
3. The effective window: that minus the room kept for an answer, the model's output
   limit capped at 20,000 (``CLAUDE_CODE_MAX_OUTPUT_TOKENS`` when set).
4. Compaction at the effective window minus 13,000 tokens
   (``CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`` can only make it earlier).

With no compaction window on a 1M model, 2.1.197 did not compact before the API
refused a request as too long (then it compacted at once): the point above (967,000)
comes before that too. Auto-compaction off (``DISABLE_AUTO_COMPACT``, ``DISABLE_COMPACT``,
``autoCompactEnabled: false``) leaves the same point as the place a session is about
to fill its window. The settings passed with ``--settings`` on the command line are
not visible to a hook.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG

from rubi.claude.hooks.compactenv import COMPACTION_ENV

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ENV_READ",
    "MODEL_WINDOW",
    "NATIVE_1M",
    "CompactionPoint",
    "compaction_point",
    "model_window",
    "settings_files",
]

MODEL_WINDOW = 200_000
"""A model's window unless it is a 1M one."""
LONG_WINDOW = 1_000_000
MIN_WINDOW, MAX_WINDOW = 100_000, 1_000_000
"""The range Claude Code accepts for a compaction window."""
OUTPUT_RESERVE = 20_000
"""Tokens Claude Code keeps free for an answer (the output limit, capped at this)."""
COMPACT_BUFFER = 13_000
"""Claude Code compacts this many tokens before the effective window."""
NATIVE_1M = re.compile(r"^claude-(?:opus-4-[78]|sonnet-5|fable-5|mythos-)", re.I)
"""Models Claude Code 2.1.197 runs with a 1M window without ``[1m]`` in their name."""
MODEL_DEFAULT_WINDOW = {"claude-sonnet-5": 967_000}
"""Compaction windows Claude Code sets for a model when nothing else does."""
ENV_READ = COMPACTION_ENV
"""Claude Code's variables this module reads (a hook answered by an engine must have
the same values: :data:`rubi.engine.protocol.ENV_KEYS` takes them from the same
tuple, :data:`rubi.claude.hooks.compactenv.COMPACTION_ENV`)."""
MAX_SETTINGS_BYTES = 1_000_000
"""A settings file larger than this is not read."""


@dataclass(frozen=True, slots=True)
class CompactionPoint:
    """Where Claude Code compacts a session.

    Attributes:
        at: the context size (tokens) at which it compacts.
        window: the compaction window in effect (tokens, before the reserve).
        source: where the window came from: ``env``, ``settings``, ``model``.
        auto: auto-compaction is on (off: ``at`` is where the window is full).
    """

    at: int
    window: int
    source: str
    auto: bool


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def settings_files(project: Path | None) -> list[Path]:
    """Claude Code's settings files, the one that wins first: managed policy, the
    project's ``.claude/settings.local.json`` and ``.claude/settings.json``, the
    user's ``settings.json`` (``$CLAUDE_CONFIG_DIR``, else ``~/.claude``)."""
    config = os.environ.get("CLAUDE_CONFIG_DIR")
    user = Path(config) if config else Path.home() / ".claude"  # no ~ expanded, as Claude Code
    files = [
        Path("/etc/claude-code/managed-settings.json"),
        Path("/Library/Application Support/ClaudeCode/managed-settings.json"),
    ]
    if project is not None:
        files += [
            project / ".claude" / "settings.local.json",
            project / ".claude" / "settings.json",
        ]
    return [*files, user / "settings.json"]


def _open_nonblocking(path: str, flags: int) -> int:
    """Open without waiting: a FIFO's open for reading blocks until a writer comes."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def _read_settings(path: Path) -> dict[str, Any]:
    """A settings file's JSON object, {} when it is absent, not a regular file (a FIFO
    or a device named ``settings.json`` in a cloned project: read, it would hold the
    tool hook until Claude Code's timeout), too large, or not a JSON object."""
    try:
        with open(path, "rb", opener=_open_nonblocking) as fh:
            if not S_ISREG(os.fstat(fh.fileno()).st_mode):
                return {}
            raw = fh.read(MAX_SETTINGS_BYTES + 1)
    except OSError:
        return {}
    if len(raw) > MAX_SETTINGS_BYTES:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _setting(layers: list[dict[str, Any]], key: str) -> Any:
    for layer in layers:
        if key in layer:
            return layer[key]
    return None


def model_window(model: str, observed: int | None = None) -> int:
    """The context window of ``model`` (a Claude Code model name, ``[1m]`` included,
    or the API's id from a transcript; ``""`` when unknown) in tokens; a context
    already past 200,000 tokens proves a 1M window."""
    if observed is not None and observed > MODEL_WINDOW:
        return LONG_WINDOW
    if _truthy(os.environ.get("CLAUDE_CODE_DISABLE_1M_CONTEXT")):
        return MODEL_WINDOW
    name = model.strip()
    if "[1m]" in name.lower() or NATIVE_1M.match(name):
        return LONG_WINDOW
    return MODEL_WINDOW


def compaction_point(
    project: Path | None, model: str = "", observed: int | None = None
) -> CompactionPoint:
    """Where Claude Code compacts a session of ``model`` in ``project``.

    Args:
        project: the project folder (its ``.claude/`` settings); None for none.
        model: the session's model as known (SessionStart's ``model``, the transcript's
            model id); ``ANTHROPIC_MODEL`` and the settings' ``model`` come first when set.
        observed: the context size seen so far (a size past 200,000 proves 1M).
    """
    layers = [_read_settings(p) for p in settings_files(project)]
    configured_model = os.environ.get("ANTHROPIC_MODEL") or _setting(layers, "model")
    name = configured_model if isinstance(configured_model, str) and configured_model else model
    limit = model_window(name, observed)
    if name != model and model:  # the transcript's id can still prove a 1M window
        limit = max(limit, model_window(model, observed))
    env_window = _int(os.environ.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW"))
    set_window = _int(_setting(layers, "autoCompactWindow"))
    base = re.sub(r"\[1m\]$", "", name.strip(), flags=re.I)
    if env_window is not None and env_window > 0:
        window, source = min(max(env_window, MIN_WINDOW), MAX_WINDOW), "env"
    elif set_window is not None and MIN_WINDOW <= set_window <= MAX_WINDOW:
        window, source = set_window, "settings"
    else:
        window, source = MODEL_DEFAULT_WINDOW.get(base, limit), "model"
    window = min(window, limit)
    reserve = OUTPUT_RESERVE
    max_output = _int(os.environ.get("CLAUDE_CODE_MAX_OUTPUT_TOKENS"))
    if max_output is not None and max_output > 0:
        reserve = min(max_output, OUTPUT_RESERVE)
    effective = window - reserve
    at = effective - COMPACT_BUFFER
    pct = os.environ.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", "")
    try:
        share = float(pct) if pct else 0.0
    except ValueError:
        share = 0.0
    if 0 < share <= 100:
        at = min(int(effective * share / 100), at)
    auto = not (
        _truthy(os.environ.get("DISABLE_AUTO_COMPACT"))
        or bool(os.environ.get("DISABLE_COMPACT"))
        or _setting(layers, "autoCompactEnabled") is False
    )
    return CompactionPoint(at=at, window=window, source=source, auto=auto)
