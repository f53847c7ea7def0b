"""Hook thresholds: defaults, overridden by ``[hooks]`` in ``.rubi/config.toml``.

```toml
[hooks]
context_window = 150000   # tokens; the meter's reference
meter_share = 0.8         # ask for notes and a handoff past this share of the window
harvest_after = 10        # reads/searches since the last register before Stop asks
guard_max_lines = 800     # a whole-file Read of a bigger file is denied
guard_max_bytes = 80000
recall_max_tokens = 700
```
"""

from __future__ import annotations

import logging
import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

__all__ = ["HookSettings", "load_settings"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HookSettings:
    """See the module docstring; units are tokens, lines and bytes."""

    context_window: int = 150_000
    meter_share: float = 0.8
    harvest_after: int = 10
    guard_max_lines: int = 800
    guard_max_bytes: int = 80_000
    recall_max_tokens: int = 700


def load_settings(vault_root: Path | None) -> HookSettings:
    """Defaults, then ``[hooks]`` of ``<vault>/config.toml``, then ``RUBI_CONTEXT_WINDOW``."""
    settings = HookSettings()
    if vault_root is not None:
        try:
            table = tomllib.loads((vault_root / "config.toml").read_text(encoding="utf-8"))
            raw = table.get("hooks", {})
        except FileNotFoundError:
            raw = {}
        except (OSError, tomllib.TOMLDecodeError) as exc:
            log.warning("%s: unreadable (%s); using default hook settings", vault_root, exc)
            raw = {}
        known = {f.name for f in fields(HookSettings)}
        values: dict[str, Any] = {
            k: v for k, v in raw.items() if k in known and isinstance(v, (int, float))
        }
        settings = replace(settings, **values)
    env = os.environ.get("RUBI_CONTEXT_WINDOW", "")
    if env.isdigit():
        settings = replace(settings, context_window=int(env))
    return settings
