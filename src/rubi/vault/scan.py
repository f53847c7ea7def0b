"""Find and read the notes of a vault without ever failing on one bad file."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from rubi.config import MAX_NOTE_BYTES, SKIP_DIRS
from rubi.errors import NoteParseError

__all__ = ["FileStat", "ReadResult", "VaultListing", "content_hash", "read_note_text", "scan_vault"]


@dataclass(frozen=True, slots=True)
class FileStat:
    """A markdown file found by a scan: vault-relative POSIX path, mtime (ns), size (bytes)."""

    path: str
    mtime_ns: int
    size: int


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A note's decoded text, its SHA-256 (hex) and what was odd about it (or None)."""

    text: str
    sha256: str
    problem: str | None


@dataclass(frozen=True, slots=True)
class VaultListing:
    """What a scan found: notes (``.md``, sorted by path) and other files (attachments)."""

    notes: list[FileStat]
    attachments: list[str]


def scan_vault(root: Path) -> VaultListing:
    """List the notes and attachments under ``root``.

    Hidden folders and :data:`rubi.config.SKIP_DIRS` are not entered; symlinked
    folders are not followed (no loops). A file that vanishes during the scan is
    left out.
    """
    notes: list[FileStat] = []
    attachments: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        for name in filenames:
            if name.startswith("."):
                continue
            if not name.lower().endswith(".md"):
                attachments.append(prefix + name)
                continue
            try:
                st = os.stat(os.path.join(dirpath, name))
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                notes.append(FileStat(prefix + name, st.st_mtime_ns, st.st_size))
    notes.sort(key=lambda f: f.path)
    attachments.sort()
    return VaultListing(notes, attachments)


def content_hash(data: bytes) -> str:
    """SHA-256 hex digest of a file's bytes."""
    return hashlib.sha256(data).hexdigest()


def read_note_text(root: Path, rel_path: str) -> ReadResult:
    """Read a note's bytes and decode them for parsing.

    Files over :data:`MAX_NOTE_BYTES` are cut at the last newline before the limit;
    text that is not UTF-8 is decoded with replacement characters. Both are reported
    in ``problem``, and the file itself is never touched.

    Raises:
        NoteParseError: the file vanished, cannot be read, or is binary (has NUL bytes).
    """
    try:
        with open(root / rel_path, "rb") as fh:
            data = fh.read(MAX_NOTE_BYTES + 1)
            rest = fh.read(1) if len(data) > MAX_NOTE_BYTES else b""
    except FileNotFoundError as exc:
        raise NoteParseError(rel_path, "disappeared while indexing; it is left out") from exc
    except OSError as exc:
        raise NoteParseError(
            rel_path, f"cannot be read ({exc.strerror}); check its permissions"
        ) from exc
    if b"\x00" in data:
        raise NoteParseError(rel_path, "is a binary file named .md; rename or remove it")
    problems: list[str] = []
    if len(data) > MAX_NOTE_BYTES or rest:
        cut = data.rfind(b"\n", 0, MAX_NOTE_BYTES)
        data = data[: cut if cut > 0 else MAX_NOTE_BYTES]
        problems.append(f"larger than {MAX_NOTE_BYTES // 1_000_000} MB; only the start is indexed")
    digest = content_hash(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        problems.append(
            f"is not valid UTF-8 (byte {exc.start}); indexed with replacement characters"
        )
    return ReadResult(text, digest, "; ".join(problems) or None)
