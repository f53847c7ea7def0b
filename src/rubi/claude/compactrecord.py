"""The compaction window ``rubi install`` sets in the user's ``settings.json``, and how
``uninstall`` gives it (and each file install changed) back.

``install`` sets ``autoCompactWindow`` in the user's ``settings.json``
(``$CLAUDE_CONFIG_DIR/settings.json`` when the variable is set, else
``~/.claude/settings.json``: :mod:`rubi.claude.userfiles`) and keeps that file's path in
its record (``compact_file``): the variable may change between install and uninstall,
and the window is given back in the file it went into, never in another one the
variable names later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rubi.claude import settingsfile
from rubi.claude.userfiles import user_settings

__all__ = [
    "compact_file",
    "give_back_left",
    "restore_compact_window",
    "settle_backups",
    "touched",
    "window_here",
]


def window_here(
    record: dict[str, Any],
    user_settings: Path,
    problem: str | None,
    compact_window: int | None,
    notes: list[str],
) -> int | None:
    """``compact_window``, or None (with a note) when it must not be set in
    ``user_settings``: ``CLAUDE_CONFIG_DIR`` names no user-wide folder (``problem``), or
    this record's window was set in another folder (the variable changed since). A
    line for each goes to ``notes``."""
    if not compact_window:
        return None
    if problem:
        notes.append(f"autoCompactWindow not set: {problem}")
        return None
    if "compact" in record and compact_file(record) != user_settings.absolute():
        notes.append(  # the window this record set stays where it was put
            f"{compact_file(record)}: autoCompactWindow left there (set by an earlier "
            f"install); CLAUDE_CONFIG_DIR now names {user_settings.parent}: `rubi "
            "uninstall` then `rubi install` moves it"
        )
        return None
    return compact_window


def touched(record: dict[str, Any], path: Path) -> bool:
    """Whether install wrote ``path`` (its original is kept in the record)."""
    return str(path.absolute()) in record.get("originals", {})


def give_back_left(
    record: dict[str, Any],
    path: Path,
    data: dict[str, Any],
    existed_key: str,
    changes: list[str],
) -> None:
    """Write what is left of ``path`` (:func:`rubi.claude.settingsfile.give_back`, a
    line per thing done to ``changes``); a record from before originals were kept falls
    back to the old rule: delete the file when install created it and nothing is left."""
    if touched(record, path):
        settingsfile.give_back(record, path, data, changes)
    elif data or record.get(existed_key, True):
        settingsfile.save(path, data)
    elif path.exists():
        path.unlink()


def compact_file(record: dict[str, Any]) -> Path:
    """The ``settings.json`` whose ``autoCompactWindow`` the install of ``record`` set:
    the one it names (``CLAUDE_CONFIG_DIR`` may have changed since), else, for a record
    from before the path was kept, the user's settings file now."""
    name = record.get("compact_file")
    return Path(name) if isinstance(name, str) and name else user_settings().absolute()


def restore_compact_window(record: dict[str, Any], changes: list[str]) -> None:
    """Put back the ``autoCompactWindow`` install replaced, unless changed since."""
    if "compact" not in record:
        return
    target = compact_file(record)
    current = settingsfile.load(target)
    if current.get("autoCompactWindow") != record.get("compact_set"):
        return
    if record["compact"]["present"]:
        current["autoCompactWindow"] = record["compact"]["value"]
    else:
        current.pop("autoCompactWindow", None)
    changes.append(f"{target}: autoCompactWindow restored")
    give_back_left(record, target, current, "compact_file_existed", changes)  # may remove it


def settle_backups(record: dict[str, Any], changes: list[str]) -> None:
    """Remove the visible backups of the user's ``settings.json`` when the file is back
    to the bytes it had; otherwise name each one that is kept."""
    target = compact_file(record)
    entry = record.get("originals", {}).get(str(target.absolute()), {})
    copy = Path(entry["copy"]) if entry.get("copy") else None
    if entry and not entry.get("existed"):
        restored = not target.exists()
    else:
        restored = (
            copy is not None
            and copy.is_file()
            and target.is_file()
            and copy.read_bytes() == target.read_bytes()
        )
    for name in record.get("backups", []):
        backup = Path(name)
        if not backup.is_file():
            continue
        if restored:
            backup.unlink()
            changes.append(f"{backup}: removed (the settings are as before install)")
        else:
            changes.append(f"{backup}: backup kept (the settings changed since install)")
