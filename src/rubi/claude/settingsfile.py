"""The configuration files ``rubi install`` edits, and how ``uninstall`` gives them back.

Before the first change to a file, :func:`remember` keeps its bytes (or notes that it
did not exist) and the folders the write is about to create, in the install record's
own folder under rubi's config (never next to the user's file). :func:`give_back`
then decides, after rubi's additions are taken out:

- what is left is what the file held before (as JSON, or as text): the original
  bytes are written back, so the file is byte-identical to before install;
- the file did not exist and nothing is left (``{}``, or only blank text): it is
  deleted, and so are the folders install created for it, when empty;
- the user changed other things since: only the members rubi changed are edited in
  the file's text, every other byte stays (:mod:`rubi.claude.jsonedit`); the
  original kept in the record is removed with the record.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

from rubi.core.atomic import atomic_write_bytes, atomic_write_text
from rubi.core.errors import RubiError

__all__ = [
    "MAX_SETTINGS_BYTES",
    "NotJsonError",
    "dump",
    "give_back",
    "load",
    "load_text",
    "remember",
    "remove_created_dirs",
    "save",
    "save_text",
]

MAX_SETTINGS_BYTES = 20_000_000
"""A settings file larger than this is not read (nor overwritten). ``~/.claude.json``
holds per-project history and grows to a few MB; 20 MB leaves room and still bounds
what one command reads."""


class NotJsonError(RubiError):
    """A settings file whose text is not a JSON object (not valid JSON, or an array or
    a scalar): Claude Code cannot read it either, so no hook or server in it runs.

    Attributes:
        path: the file.
        reason: what is wrong, without the path (``not valid JSON (line 3)``).
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}; fix it, rubi will not overwrite it")
        self.path = path
        self.reason = reason


def load_text(path: Path, within: Path | None = None) -> str | None:
    """A settings file's text, None when absent.

    Read through :mod:`rubi.core.safeio`: a regular file (never a FIFO or device), at
    most :data:`MAX_SETTINGS_BYTES`; a project's file (``within`` the project) must
    also resolve inside it, so a cloned file linked elsewhere is neither read nor
    rewritten into the project.

    Raises:
        RubiError: refused, too large or not UTF-8.
    """
    from rubi.core.safeio import read_bytes, read_regular

    try:
        if within is not None:
            got = read_bytes(within, path, limit=MAX_SETTINGS_BYTES, label=str(path))
        else:
            got = read_regular(path, limit=MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RubiError(f"{path}: cannot be read ({exc.strerror}); check its permissions") from exc
    if got.truncated:
        raise RubiError(
            f"{path}: larger than {MAX_SETTINGS_BYTES // 1_000_000} MB; rubi will not overwrite it"
        )
    try:
        return got.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RubiError(
            f"{path}: not valid UTF-8 (byte {exc.start}); fix it, rubi will not overwrite it"
        ) from exc


def load(path: Path, within: Path | None = None) -> dict[str, Any]:
    """A JSON settings file as a dict ({} when absent or empty); see :func:`load_text`.

    Raises:
        NotJsonError: not valid JSON or not an object.
        RubiError: refused, too large, not UTF-8, or a comment in it.
    """
    text = load_text(path, within)
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if text.startswith(("//", "/*"), exc.pos):
            # Gemini CLI (and VS Code-style tools) read JSON with comments; rubi's
            # rewrite would drop them, so it says so instead of calling the file broken
            raise RubiError(
                f"{path}: a comment at line {exc.lineno}; rubi edits plain JSON and "
                "would drop your comments, so it leaves the file alone: move the comments "
                "out (or delete them) and run the command again"
            ) from exc
        raise NotJsonError(path, f"not valid JSON (line {exc.lineno})") from exc
    if not isinstance(data, dict):
        raise NotJsonError(path, "not a JSON object")
    return data


_INDENT = re.compile(r"^[{\[][ \t]*\r?\n([ \t]+)\S", re.MULTILINE)


def dump(data: dict[str, Any], like: str | None = None) -> str:
    """``data`` as JSON text in the style of ``like`` (a file's current text): its
    indentation (two spaces when unknown, or none for one-line JSON) and its final
    newline."""
    indent: str | int | None = 2
    if like is not None and like.strip():
        found = _INDENT.search(like.lstrip())
        if found:
            indent = found.group(1)
        elif "\n" not in like.strip():
            indent = None
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    ending = "\r\n" if like is not None and "\r\n" in like else "\n"
    if ending != "\n":
        text = text.replace("\n", ending)
    if like is None or like.endswith("\n") or not like.strip():
        text += ending
    return text


def save(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` atomically, keeping the file's bytes where its
    content did not change: only the top-level members that differ are rewritten
    (:func:`rubi.claude.jsonedit.edit_members`); a file that is not one JSON object
    is written whole, in the style it had (:func:`dump`)."""
    from rubi.claude.jsonedit import edit_members

    current = None
    if path.is_file():
        try:
            current = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            current = None
    edited = edit_members(current, data) if current is not None else None
    if edited is not None and edited == current:
        return  # it already holds data: not a byte rewritten
    atomic_write_text(path, edited if edited is not None else dump(data, current))


def save_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (parent folders created)."""
    atomic_write_text(path, text)


def _digest(path: Path) -> str:
    return hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:16]


def remember(record: dict[str, Any], path: Path, store: Path) -> None:
    """Keep ``path`` as it is now, once per install record, before install changes it.

    Args:
        record: the install record (``originals`` is added to it).
        path: the file about to be written.
        store: the record's private folder for original copies.
    """
    originals: dict[str, Any] = record.setdefault("originals", {})
    key = str(path.absolute())
    if key in originals:
        return
    entry: dict[str, Any] = {"existed": path.exists()}
    if path.is_file():
        store.mkdir(parents=True, exist_ok=True)
        copy = store / f"{_digest(path)}.orig"
        shutil.copyfile(path, copy)
        entry["copy"] = str(copy)
    created: list[str] = []
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        created.append(str(folder))
        folder = folder.parent
    entry["created_dirs"] = created  # deepest first
    originals[key] = entry


def _same(kept: bytes, now: str, json_file: bool) -> bool:
    """Whether ``now`` (what is left after rubi's additions are taken out) holds what
    the original bytes held."""
    try:
        before = kept.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not json_file:
        return before == now
    try:
        return bool(json.loads(before or "{}") == json.loads(now or "{}"))
    except json.JSONDecodeError:
        return False


def give_back(
    record: dict[str, Any], path: Path, left: dict[str, Any] | str, changes: list[str]
) -> None:
    """Write what is left of ``path`` after uninstall took rubi's additions out
    (see the module docstring); a line per thing done goes to ``changes``.

    Args:
        record: the install record (its ``originals``).
        path: the file.
        left: its content now: a dict for JSON files, text for others.
        changes: report lines, appended to.
    """
    entry = record.get("originals", {}).get(str(path.absolute()))
    json_file = isinstance(left, dict)
    text = dump(left) if isinstance(left, dict) else left
    if entry is None:  # an install record from before originals were kept
        if isinstance(left, dict):
            save(path, left)
        else:
            save_text(path, left)
        return
    copy = Path(entry["copy"]) if entry.get("copy") else None
    empty = (left == {}) if isinstance(left, dict) else not left.strip()
    if not entry.get("existed") and empty:
        if path.exists():
            path.unlink()
            changes.append(f"{path}: removed (install created it)")
        for folder in entry.get("created_dirs", []):
            try:
                Path(folder).rmdir()
            except OSError:
                break  # not empty (or gone): the folders above it stay too
            changes.append(f"{folder}: removed (install created it)")
        return
    if copy is not None and copy.is_file():
        kept = copy.read_bytes()
        if _same(kept, text, json_file):
            atomic_write_bytes(path, kept)
            return
    if isinstance(left, dict):
        save(path, left)
    else:
        save_text(path, left)


def remove_created_dirs(record: dict[str, Any], changes: list[str]) -> None:
    """Remove the folders install created for any of its files (``.codex/``,
    ``.claude/``) that are empty now, deepest first; a line per folder removed goes to
    ``changes``. A folder that holds anything stays, and so do the folders above it."""
    folders: list[str] = []
    for entry in record.get("originals", {}).values():
        folders.extend(f for f in entry.get("created_dirs", []) if f not in folders)
    for folder in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        path = Path(folder)
        if not path.is_dir():
            continue
        try:
            path.rmdir()
        except OSError:
            continue
        changes.append(f"{folder}: removed (install created it)")
