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

The file comes with the repository, so each value is checked (:func:`checked_values`):
one of the wrong kind or out of range is ignored with one warning naming it, and its
default holds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path

from rubi.core.projectconfig import read_config

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HookSettings", "checked_values", "load_settings"]


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
        values, problems = checked_values(_hooks_table(vault_root, project_root))
        if problems:
            import logging  # only now: a hook without a problem never loads it

            for problem in problems:
                logging.getLogger(__name__).warning("config.toml: %s", problem)
        settings = replace(settings, **values)
    env = os.environ.get("RUBI_CONTEXT_WINDOW", "")
    if env.isdigit():
        settings = replace(settings, context_window=int(env))
    return settings


_LOWEST: dict[str, float] = {
    "context_window": 0,
    "meter_share": 0,
    "harvest_after": 0,
    "guard_max_lines": 1,
    "guard_max_bytes": 1,
    "recall_max_tokens": 0,
    "cost_line": 0,
}
"""The smallest value each setting takes; ``meter_share`` must also be above 0 and at
most 1, ``cost_line`` 0 or 1."""


def checked_values(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The ``[hooks]`` values that may replace the defaults, and one line per value
    that may not (the project's file arrives with a clone: ``guard_max_lines = -1``
    would deny every Read).

    Returns:
        ``(values, problems)``: values of known keys of the right kind (a whole number
        for every setting but ``meter_share``; never a boolean, never NaN or
        infinite) in their range; each problem names the key, the value, what it must
        be and that the default holds. Unknown keys are left out silently (a newer
        rubi's)."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    defaults = HookSettings()
    for field in fields(HookSettings):
        key = field.name
        if key not in raw:
            continue
        value = raw[key]
        whole = key != "meter_share"
        kind_ok = not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
        if not kind_ok or value - value != 0:  # NaN or infinite (no `math`: a cold hook)
            must = "a whole number" if whole else "a number"
        elif key == "meter_share" and not 0 < value <= 1:
            must = "above 0 and at most 1"
        elif key == "cost_line" and value not in (0, 1):
            must = "0 or 1"
        elif value < _LOWEST[key]:
            must = f"at least {_LOWEST[key]:g}"
        else:
            values[key] = value
            continue
        shown = str(value).lower() if isinstance(value, bool) else repr(value)[:40]
        problems.append(
            f"[hooks] {key} = {shown}: must be {must}; "
            f"using {getattr(defaults, key)!r} until it is fixed"
        )
    return values, problems


def _hooks_table(vault_root: Path, project_root: Path | None) -> dict[str, Any]:
    """The ``[hooks]`` table of the vault's ``config.toml``; {} when absent or unusable
    (the problem is logged once; ``rubi doctor`` lists it)."""
    table, problem = read_config(vault_root, project_root)
    if problem is not None:
        import logging  # only now: a hook without a problem never loads it

        logging.getLogger(__name__).warning("config.toml: %s; using default hook settings", problem)
    raw = table.get("hooks", {})
    return raw if isinstance(raw, dict) else {}
