"""The environment variables of Claude Code's that decide where it compacts a session
(no imports: the engine's client reads this on every hook call).

:mod:`rubi.claude.hooks.compaction` reads them; the engine answers a hook only when
they have the values the hook's own process has
(:data:`rubi.engine.protocol.ENV_KEYS` holds them), since the meter's answer depends
on them. One tuple for both, so a variable the rule comes to read is never missing
from the engine's check.
"""

__all__ = ["COMPACTION_ENV"]

COMPACTION_ENV = (
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "CLAUDE_CODE_DISABLE_1M_CONTEXT",
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
    "ANTHROPIC_MODEL",
)
"""Claude Code's variables the compaction rule reads."""
