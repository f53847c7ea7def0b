"""Import Claude Code's auto memory into the project vault as typed notes.

Claude Code keeps what it learns about a project in
``<config>/projects/<slug of the git root>/memory/`` (``<config>``: ``$CLAUDE_CONFIG_DIR``
or ``~/.claude``; the slug as :func:`rubi.transcripts.locate.project_slug` makes it):
``MEMORY.md``, an index of one-line pointers loaded into every session, and topic
files, each with frontmatter ``name``, ``description`` and ``type`` (``user``,
``feedback``, ``project``, ``reference``). Older versions kept everything in
``MEMORY.md`` itself.

:func:`import_auto_memory` turns each topic file into one note (``register``, so the
secrets filter applies: a secret in a body is redacted, a title holding one is refused
and that file skipped), and what ``MEMORY.md`` holds beyond pointers to topic files
into one more. The originals are only read. Every note ends with a line naming its
source file and the SHA-256 of its bytes; a file whose hash is already in a note of
the vault is not imported again, so a second run imports nothing new, and a file
changed since is merged into its note.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths

__all__ = [
    "MAX_MEMORY_BYTES",
    "MEMORY_INDEX",
    "TYPE_MAP",
    "ImportReport",
    "MemoryFile",
    "import_auto_memory",
    "memory_dir",
    "pending_files",
    "read_memory",
]

MEMORY_INDEX = "MEMORY.md"
"""The index file of the auto memory."""

MAX_MEMORY_BYTES = 200_000
"""Largest memory file imported, in bytes (a bigger one is skipped with a reason)."""

MAX_FILES = 500
"""At most this many topic files are read (Claude Code writes a few dozen)."""

TYPE_MAP = {"user": "preference", "feedback": "preference", "project": "note", "reference": "note"}
"""Claude Code's memory ``type`` → rubi's note type (anything else: ``note``)."""

TAG = "claude-memory"
"""The tag every imported note carries."""

_MARK = re.compile(r"Imported from Claude Code's auto memory: `[^`\n]*` \(sha256 ([0-9a-f]{16})\)")
_POINTER = re.compile(r"^\s*[-*+]\s*\[[^\]]*\]\(([^)\s]+\.md)\)")


@dataclass(frozen=True, slots=True)
class MemoryFile:
    """One file of the auto memory.

    Attributes:
        name: its file name (``MEMORY.md``, ``debugging.md``).
        digest: the first 16 hex digits of the SHA-256 of its bytes.
        item: the note it becomes (a ``register`` item), or None when it holds nothing
            to import (``MEMORY.md`` with pointers only).
    """

    name: str
    digest: str
    item: dict[str, Any] | None


@dataclass
class ImportReport:
    """What an import did.

    Attributes:
        folder: the auto-memory folder read (None: this project has none).
        imported: ``(file name, note id)`` of each note written.
        updated: the same for files changed since their import (merged into the note).
        unchanged: file names already imported as they are.
        skipped: ``(file name, reason)`` of files not imported.
    """

    folder: Path | None
    imported: list[tuple[str, str]] = field(default_factory=list)
    updated: list[tuple[str, str]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def memory_dir(paths: VaultPaths, folder: Path | None = None) -> Path | None:
    """The auto-memory folder of the vault's project, or None when there is none.

    Args:
        paths: the project vault.
        folder: a folder the user names instead (``autoMemoryDirectory``).
    """
    if folder is not None:
        return folder if folder.is_dir() else None
    if paths.project_root is None:
        return None
    from rubi.transcripts.locate import project_slug, projects_dir

    candidate = projects_dir() / project_slug(paths.project_root) / "memory"
    return candidate if candidate.is_dir() else None


def _read(folder: Path, name: str) -> bytes:
    from rubi.core.safeio import read_regular

    got = read_regular(folder / name, limit=MAX_MEMORY_BYTES + 1, label=name)
    if got.truncated or len(got.data) > MAX_MEMORY_BYTES:
        raise RubiError(f"larger than {MAX_MEMORY_BYTES // 1000} KB")
    return got.data


def _title(meta: dict[str, Any], body: str, name: str) -> tuple[str, str]:
    """The note's title and the body without a first heading that repeats it."""
    heading = re.match(r"\s*#\s+(.+?)\s*(?:\n|$)", body)
    title = str(meta.get("name") or "").strip() or (heading.group(1) if heading else "")
    if not title:
        title = Path(name).stem.replace("_", " ").replace("-", " ").strip() or name
    if heading and heading.group(1).strip() == title:
        body = body[heading.end() :]
    return " ".join(title.split())[:200], body.strip()


def _topic_item(name: str, text: str, digest: str) -> dict[str, Any]:
    import frontmatter

    try:
        post = frontmatter.loads(text)
        meta, body = dict(post.metadata), post.content
    except Exception:  # broken YAML: the whole file is the body
        meta, body = {}, text
    title, body = _title(meta, body, name)
    description = str(meta.get("description") or "").strip()
    kind = TYPE_MAP.get(str(meta.get("type") or "").strip().lower(), "note")
    parts = [p for p in (description, body) if p and p != title]
    return {
        "type": kind,
        "title": title,
        "body": "\n\n".join([*parts, _mark(name, digest)]),
        "tags": [TAG],
    }


def _index_item(text: str, topics: set[str], digest: str) -> dict[str, Any] | None:
    """What ``MEMORY.md`` holds beyond pointers to topic files and headings, or None."""
    kept = []
    for line in text.splitlines():
        pointer = _POINTER.match(line)
        if pointer and Path(pointer.group(1)).name in topics:
            continue
        kept.append(line)
    body = "\n".join(kept).strip()
    if not any(line.strip() and not line.lstrip().startswith("#") for line in kept):
        return None
    return {
        "type": "note",
        "title": "Claude Code auto memory",
        "body": f"{body}\n\n{_mark(MEMORY_INDEX, digest)}",
        "tags": [TAG],
    }


def _mark(name: str, digest: str) -> str:
    return f"*Imported from Claude Code's auto memory: `{name}` (sha256 {digest})*"


def read_memory(folder: Path) -> tuple[list[MemoryFile], list[tuple[str, str]]]:
    """The files of an auto-memory folder as notes to register, and the files skipped
    with the reason (not a regular file, too large, not UTF-8), topic files in name
    order, ``MEMORY.md`` last."""
    files: list[MemoryFile] = []
    skipped: list[tuple[str, str]] = []
    names = sorted(
        p.name for p in folder.iterdir() if p.suffix == ".md" and p.name != MEMORY_INDEX
    )[:MAX_FILES]
    texts: dict[str, tuple[str, str]] = {}
    for name in [*names, MEMORY_INDEX]:
        try:
            data = _read(folder, name)
            texts[name] = (data.decode("utf-8").removeprefix("\ufeff"), _digest(data))
        except FileNotFoundError:
            continue
        except UnicodeDecodeError:
            skipped.append((name, "not UTF-8 text"))
        except (OSError, RubiError) as exc:
            skipped.append((name, str(getattr(exc, "reason", None) or exc)))
    for name in names:
        if name in texts:
            text, digest = texts[name]
            files.append(MemoryFile(name, digest, _topic_item(name, text, digest)))
    if MEMORY_INDEX in texts:
        text, digest = texts[MEMORY_INDEX]
        files.append(MemoryFile(MEMORY_INDEX, digest, _index_item(text, set(names), digest)))
    return files, skipped


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _imported(paths: VaultPaths) -> dict[str, str]:
    """Digests already imported into the vault's notes → the note's vault path."""
    from rubi.core.safeio import read_text

    found: dict[str, str] = {}
    notes = paths.root / "notes"
    if not notes.is_dir():
        return found
    for path in sorted(notes.glob("*.md")):
        try:
            text = read_text(paths.root, path, limit=1_000_000, where="the vault")
        except (OSError, RubiError):
            continue
        for match in _MARK.finditer(text):
            found[match.group(1)] = path.relative_to(paths.root).as_posix()
    return found


def pending_files(paths: VaultPaths, folder: Path | None = None) -> tuple[Path | None, list[str]]:
    """The auto-memory folder and the names of its files not imported yet (those that
    hold something to import), for ``rubi doctor``; an unreadable folder has none."""
    found = memory_dir(paths, folder)
    if found is None:
        return None, []
    try:
        files, _ = read_memory(found)
    except OSError:
        return found, []
    done = _imported(paths)
    return found, [f.name for f in files if f.item is not None and f.digest not in done]


def import_auto_memory(
    paths: VaultPaths, *, folder: Path | None = None, dry_run: bool = False
) -> ImportReport:
    """Import the project's auto memory (see the module docstring).

    Args:
        paths: the project vault.
        folder: the auto-memory folder, when not where Claude Code keeps it by default.
        dry_run: say what would be imported, write nothing.

    Returns:
        An :class:`ImportReport`; ``folder`` None when the project has no auto memory.

    Raises:
        RubiError: ``folder`` was given and is not a folder; the vault cannot be written.
    """
    found = memory_dir(paths, folder)
    if found is None:
        if folder is not None:
            raise RubiError(f"{folder}: no such folder; pass Claude Code's memory folder")
        return ImportReport(None)
    from rubi.app.registration import register

    report = ImportReport(found)
    files, report.skipped = read_memory(found)
    done = _imported(paths)
    titles = {f.item["title"]: f for f in files if f.item is not None}
    for memory in files:
        if memory.item is None:
            continue
        if memory.digest in done:
            report.unchanged.append(memory.name)
            continue
        earlier = _note_of(paths, memory.name)
        if dry_run:
            (report.updated if earlier else report.imported).append((memory.name, ""))
            continue
        item = memory.item
        if titles.get(item["title"]) is not memory:
            item = {**item, "title": f"{item['title']} ({memory.name})"}
        try:
            (written,) = register(paths, [item])
        except RubiError as exc:
            report.skipped.append((memory.name, str(exc)))
            continue
        (report.updated if earlier else report.imported).append((memory.name, written.id))
    return report


def _note_of(paths: VaultPaths, name: str) -> bool:
    """Whether an earlier version of the file ``name`` was imported."""
    from rubi.core.safeio import read_text

    notes = paths.root / "notes"
    needle = f"Imported from Claude Code's auto memory: `{name}` (sha256 "
    if not notes.is_dir():
        return False
    for path in notes.glob("*.md"):
        try:
            if needle in read_text(paths.root, path, limit=1_000_000, where="the vault"):
                return True
        except (OSError, RubiError):
            continue
    return False
