"""Match notes' ``files:`` to mapped files (for ``about_file`` edges and the pages)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rubi.codemap.model import CodeMap, NoteRef

__all__ = ["files_for_note", "normalize_repo_path", "notes_about"]


def normalize_repo_path(entry: str) -> str:
    """A ``files:`` entry as a repository-relative POSIX path: backslashes become
    ``/``, leading ``./`` and ``/`` go, a trailing ``/`` stays (it marks a folder)."""
    path = entry.strip().replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.lstrip("/")


def files_for_note(code_map: CodeMap, entries: Iterable[str]) -> tuple[str, ...]:
    """Mapped files a note's ``files:`` name.

    Args:
        code_map: the map.
        entries: the note's ``files:`` as written; an entry naming a folder (with or
            without a trailing ``/``) covers every mapped file under it.

    Returns:
        Sorted repository paths; entries that name nothing mapped are left out.
    """
    found: set[str] = set()
    for entry in entries:
        path = normalize_repo_path(entry)
        if not path:
            continue
        if path in code_map.files:
            found.add(path)
            continue
        prefix = path.rstrip("/") + "/"
        found.update(p for p in code_map.files if p.startswith(prefix))
    return tuple(sorted(found))


def notes_about(
    code_map: CodeMap, notes: Sequence[NoteRef], paths: Iterable[str]
) -> list[tuple[NoteRef, tuple[str, ...]]]:
    """Notes about any of ``paths``, each with the matching paths, in input order."""
    wanted = set(paths)
    out: list[tuple[NoteRef, tuple[str, ...]]] = []
    for note in notes:
        hits = tuple(p for p in files_for_note(code_map, note.files) if p in wanted)
        if hits:
            out.append((note, hits))
    return out
