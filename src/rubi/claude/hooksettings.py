"""Hook thresholds: defaults, overridden by ``[hooks]`` in ``.rubi/config.toml``.

```toml
[hooks]
context_window = 0        # tokens; 0: the meter asks before Claude Code's own compaction
meter_share = 0.8         # with a context_window: ask past this share of it (if earlier)
harvest_after = 10        # reads/searches since the last register before Stop asks
guard_max_lines = 800     # a whole-file Read of a bigger file is denied
guard_max_bytes = 80000
recall_max_tokens = 700
cost_line = 1             # 0: no line, at the next session start, of what rubi cost the last
```
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path

from rubi.core.projectconfig import read_config

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HookSettings", "load_settings"]


@dataclass(frozen=True, slots=True)
class HookSettings:
    """See the module docstring; units are tokens, lines and bytes."""

    context_window: int = 0
    meter_share: float = 0.8
    harvest_after: int = 10
    guard_max_lines: int = 800
    guard_max_bytes: int = 80_000
    recall_max_tokens: int = 700
    cost_line: int = 1


def load_settings(vault_root: Path | None, project_root: Path | None = None) -> HookSettings:
    """Defaults, then ``[hooks]`` of ``<vault>/config.toml``, then ``RUBI_CONTEXT_WINDOW``.

    The file is read by :func:`rubi.core.projectconfig.read_config` (inside the project,
    or the vault when ``project_root`` is None; a regular file; bounded in size). A file
    that is refused, too large or not TOML is logged once and the defaults hold.
    """
    settings = HookSettings()
    if vault_root is not None:
        raw = _hooks_table(vault_root, project_root)
        known = {f.name for f in fields(HookSettings)}
        values: dict[str, Any] = {
            k: v for k, v in raw.items() if k in known and isinstance(v, (int, float))
        }
        settings = replace(settings, **values)
    env = os.environ.get("RUBI_CONTEXT_WINDOW", "")
    if env.isdigit():
        settings = replace(settings, context_window=int(env))
    return settings


def _hooks_table(vault_root: Path, project_root: Path | None) -> dict[str, Any]:
    """The ``[hooks]`` table of the vault's ``config.toml``; {} when absent or unusable
    (the problem is logged once; ``rubi doctor`` lists it)."""
    table, problem = read_config(vault_root, project_root)
    if problem is not None:
        import logging  # only now: a hook without a problem never loads it

        logging.getLogger(__name__).warning("config.toml: %s; using default hook settings", problem)
    raw = table.get("hooks", {})
    return raw if isinstance(raw, dict) else {}
