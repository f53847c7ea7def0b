"""Find and read the notes of a vault without ever failing on one bad file.

A vault may arrive by ``git clone`` or a synced folder, so nothing in it is trusted:
every read goes through :mod:`rubi.core.safeio` (inside the allowed root, regular files
only, bounded), and the scan reports instead of following what leads out. The allowed
root is the project for a project vault (``.rubi/notes`` may be a symlink to
``docs/notes``) and the vault itself otherwise.
"""

from __future__ import annotations

import hashlib
import os
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from rubi.core.errors import NoteParseError
from rubi.core.model import ScanWarning, note_id_for_path
from rubi.core.safeio import (
    MAX_NOTE_BYTES,
    UnsafeFileError,
    allowed_root,
    escaped_name,
    has_control_chars,
    has_surrogates,
    read_bytes,
    refusal,
)
from rubi.core.safepaths import is_inside
from rubi.core.treerules import vault_file_skipped, vault_folder_skipped

__all__ = [
    "GONE",
    "FileStat",
    "ReadResult",
    "VaultListing",
    "content_hash",
    "read_note_text",
    "scan_vault",
]

GONE = "is gone (deleted or moved since the vault was listed); `rubi index` updates the index"
"""The reason a listed note that is no longer there is left out (or cannot be read)."""

_NOT_UTF8 = "file name is not UTF-8; skipped: rename it"
_CONTROL_NAME = "file name holds a line break or control character; skipped: rename it"


@dataclass(frozen=True, slots=True)
class FileStat:
    """A markdown file found by a scan: vault-relative POSIX path, mtime (ns), size (bytes)."""

    path: str
    mtime_ns: int
    size: int


@dataclass(frozen=True, slots=True)
class ReadResult:
    """A note's decoded text, its SHA-256 (hex) and what was odd about it (or None);
    ``truncated``: the file is larger than :data:`MAX_NOTE_BYTES` and ``text`` is its
    start."""

    text: str
    sha256: str
    problem: str | None
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class VaultListing:
    """What a scan found: notes (``.md``, sorted by path), other files (attachments), and
    files and folders it refused (a symlink that leads out, a FIFO or device named
    ``.md``, a name that is not UTF-8), one warning each, sorted by path."""

    notes: list[FileStat]
    attachments: list[str]
    warnings: list[ScanWarning] = field(default_factory=list)


def _folders(
    dirpath: str,
    dirnames: list[str],
    prefix: str,
    real_dirs: dict[str, str],
    real_root: str,
    allowed: Path,
    where: str,
    visited: set[str],
    warnings: list[ScanWarning],
) -> list[str]:
    """The sub-folders of ``dirpath`` to enter, in order; reports the ones refused."""
    plain: list[str] = []
    linked: list[str] = []
    for name in sorted(dirnames):
        if vault_folder_skipped(name):
            continue
        if has_surrogates(name) or has_control_chars(name):
            what = "is not UTF-8" if has_surrogates(name) else "holds a control character"
            warnings.append(
                ScanWarning(
                    escaped_name(prefix + name) + "/",
                    f"folder name {what}; its files are skipped: rename it",
                )
            )
            continue
        (linked if os.path.islink(os.path.join(dirpath, name)) else plain).append(name)
    keep: list[str] = []
    for name in plain:  # real folders first: they keep their own names
        real = os.path.join(real_dirs[dirpath], name)
        if real not in visited:
            visited.add(real)
            real_dirs[os.path.join(dirpath, name)] = real
            keep.append(name)
    for name in linked:
        full = os.path.join(dirpath, name)
        if not is_inside(allowed, Path(full)):
            warnings.append(
                ScanWarning(
                    prefix + name + "/",
                    f"a symlink to a folder outside {where}; rubi does not read it: "
                    "replace the link with the folder itself",
                )
            )
            continue
        real = os.path.realpath(full)
        if not os.path.isdir(real):
            continue
        if real in visited or is_inside(Path(real_root), Path(real)):
            continue  # a loop, or a folder the scan reaches under its own name
        visited.add(real)
        real_dirs[full] = real
        keep.append(name)
    return sorted(keep)


def scan_vault(root: Path, project_root: Path | None = None) -> VaultListing:
    """List the notes and attachments under ``root``.

    Hidden folders and :data:`rubi.core.treerules.SKIP_DIRS` are not entered, hidden files
    are left out (:mod:`rubi.core.treerules`, the rule the watcher shares). A symlinked
    folder is followed when its target is inside the allowed root
    (:func:`allowed_root`) and outside the vault (a folder inside the vault is listed
    under its own name); each real folder is entered once (no loops, no duplicates).
    A file that vanishes during the scan, or a broken symlink, is left out silently.

    Args:
        root: the vault folder.
        project_root: the project holding the vault, or None.

    Returns:
        The :class:`VaultListing`; files that are refused are in its ``warnings``
        (never read): a symlink (file or folder) that leads outside the allowed root,
        a ``.md`` that is a FIFO, device or socket, a name that is not UTF-8.
    """
    allowed, where = allowed_root(root, project_root)
    notes: list[FileStat] = []
    attachments: list[str] = []
    warnings: list[ScanWarning] = []
    if not is_inside(allowed, root):
        warnings.append(
            ScanWarning(
                ".",
                f"the vault folder {root.name} is a symlink to a folder outside {where}; "
                "rubi does not read it: replace the link with the folder itself",
            )
        )
        return VaultListing(notes, attachments, warnings)
    real_root = os.path.realpath(root)
    visited = {real_root}
    real_dirs = {str(root): real_root}  # each folder entered → its real path
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = _folders(
            dirpath, dirnames, prefix, real_dirs, real_root, allowed, where, visited, warnings
        )
        for name in sorted(filenames):
            if vault_file_skipped(name):
                continue
            rel = prefix + name
            if has_surrogates(name):
                warnings.append(ScanWarning(escaped_name(rel), _NOT_UTF8))
                continue
            if has_control_chars(name) and name.lower().endswith(".md"):
                warnings.append(ScanWarning(escaped_name(rel), _CONTROL_NAME))
                continue
            if not name.lower().endswith(".md"):
                attachments.append(rel)
                continue
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                reason = refusal(allowed, Path(full), where=where)
                if reason is not None:
                    warnings.append(ScanWarning(rel, reason))
                    continue
                try:
                    st = os.stat(full)  # a symlink to a regular file inside the root
                except OSError:
                    continue  # a broken link
                if not stat.S_ISREG(st.st_mode):
                    continue
            notes.append(FileStat(rel, st.st_mtime_ns, st.st_size))
    notes.sort(key=lambda f: f.path)
    notes = _one_per_id(notes, warnings)
    attachments.sort()
    warnings.sort(key=lambda w: w.path)
    return VaultListing(notes, attachments, warnings)


def _one_per_id(notes: list[FileStat], warnings: list[ScanWarning]) -> list[FileStat]:
    """``notes`` less the ones whose name differs from another's only in its Unicode
    form (``Résumé.md`` composed and decomposed, possible on Linux): both would be one
    note id (:func:`rubi.core.model.note_id_for_path`). The composed one is kept."""
    by_id: dict[str, list[FileStat]] = {}
    for f in notes:
        if not f.path.isascii():
            by_id.setdefault(note_id_for_path(f.path), []).append(f)
    dropped: set[str] = set()
    for same in by_id.values():
        if len(same) < 2:
            continue
        keep = min(same, key=lambda f: (not unicodedata.is_normalized("NFC", f.path), f.path))
        for f in same:
            if f is not keep:
                dropped.add(f.path)
                warnings.append(
                    ScanWarning(
                        f.path,
                        f"the same name as {keep.path} in another Unicode form; skipped: "
                        "rename or remove one of them",
                    )
                )
    return [f for f in notes if f.path not in dropped] if dropped else notes


def content_hash(data: bytes) -> str:
    """SHA-256 hex digest of a file's bytes."""
    return hashlib.sha256(data).hexdigest()


CUT_LOOKBACK_SHARE = 16
"""A larger note's cut looks for a line end, then a space, only in the last
1/``CUT_LOOKBACK_SHARE`` of the bytes read (62.5 kB of 1 MB): a note of few, long lines
(one line of 5 MB) keeps its first megabyte, not the part before its only newline."""


def _cut(data: bytes, limit: int) -> int:
    """Where a note of more than ``limit`` bytes is cut: after the last newline in the
    last 1/:data:`CUT_LOOKBACK_SHARE` before ``limit``, else after the last space or tab
    there, else at ``limit`` moved back to the start of a UTF-8 character (never inside
    one)."""
    start = limit - limit // CUT_LOOKBACK_SHARE
    for sep in (b"\n", b" ", b"\t"):
        at = data.rfind(sep, start, limit)
        if at > 0:
            return at + 1
    cut = min(limit, len(data))
    lead = cut - 1
    while lead > max(cut - 4, 0) and data[lead] & 0xC0 == 0x80:
        lead -= 1  # a continuation byte: its character starts earlier
    if lead >= 0 and lead + _utf8_length(data[lead]) > cut:
        return lead  # the last character does not end before the cut: leave it out
    return cut


def _utf8_length(lead: int) -> int:
    """How many bytes the UTF-8 character starting with byte ``lead`` takes (1 for a
    byte that starts none: it stands alone)."""
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


def read_note_text(root: Path, rel_path: str, project_root: Path | None = None) -> ReadResult:
    """Read a note's bytes and decode them for parsing.

    The read goes through :func:`rubi.core.safeio.read_bytes`: the file must resolve inside
    the allowed root (:func:`allowed_root`) and be a regular file, and at most
    :data:`MAX_NOTE_BYTES` are read. A larger file is cut at a line end, a space or a
    character's start just before the limit (:func:`_cut`); text that is not UTF-8 is
    decoded with replacement characters. Both are reported in ``problem``, and the file
    itself is never touched.

    Args:
        root: the vault folder.
        rel_path: the note's vault-relative POSIX path.
        project_root: the project holding the vault, or None.

    Raises:
        NoteParseError: the file vanished, cannot be read, is binary (has NUL bytes),
            is refused (a symlink that leads out, a FIFO or device), or its name is
            not UTF-8.
    """
    if has_surrogates(rel_path):
        raise NoteParseError(escaped_name(rel_path), _NOT_UTF8)
    if has_control_chars(rel_path):
        raise NoteParseError(escaped_name(rel_path), _CONTROL_NAME)
    allowed, where = allowed_root(root, project_root)
    try:
        got = read_bytes(
            allowed, root / rel_path, limit=MAX_NOTE_BYTES, label=rel_path, where=where
        )
    except UnsafeFileError as exc:
        raise NoteParseError(rel_path, exc.reason) from exc
    except FileNotFoundError as exc:
        raise NoteParseError(rel_path, GONE) from exc
    except OSError as exc:
        raise NoteParseError(
            rel_path, f"cannot be read ({exc.strerror}); check its permissions"
        ) from exc
    data = got.data
    if b"\x00" in data:
        raise NoteParseError(rel_path, "is a binary file named .md; rename or remove it")
    problems: list[str] = []
    if got.truncated:
        data = data[: _cut(data, MAX_NOTE_BYTES)]
        problems.append(f"larger than {MAX_NOTE_BYTES // 1_000_000} MB; only the start is indexed")
    digest = content_hash(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
        problems.append(
            f"is not valid UTF-8 (byte {exc.start}); indexed with replacement characters"
        )
    return ReadResult(text, digest, "; ".join(problems) or None, got.truncated)
