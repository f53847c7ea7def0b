"""Render a new note's markdown, edit an existing note's text, write either safely.

Edits go through ``python-frontmatter`` (keys rubi does not know are kept; YAML
comments inside the frontmatter are not), the body is only ever appended to, and a
write re-checks the file's content hash right before the atomic rename so a
concurrent edit (Obsidian, another session) is merged instead of overwritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import frontmatter

from rubi.core.atomic import ChangedMeanwhile, atomic_write_bytes, create_exclusive
from rubi.core.errors import RubiError
from rubi.core.safetext import UnsafeTextError, link_target
from rubi.knowledge.textlayout import split_layout

__all__ = [
    "LINKS_HEADING",
    "WRITE_ATTEMPTS",
    "NoteChangedError",
    "edit_note_text",
    "link_line",
    "render_note",
    "rewrite",
    "write_new",
]

LINKS_HEADING = "## Links"
WRITE_ATTEMPTS = 3
"""Times an edit is re-applied when the file keeps changing under it."""


class NoteChangedError(RubiError):
    """A note kept changing on disk while rubi tried to update it."""


def _dump(meta: dict[str, Any], content: str) -> str:
    post = frontmatter.Post(content, **meta)
    return frontmatter.dumps(post, sort_keys=False).rstrip("\n") + "\n"


def render_note(
    meta: dict[str, Any], title: str, body: str, links: Sequence[tuple[str, str]]
) -> str:
    """The markdown of a new note: frontmatter, ``# title``, body, ``## Links``.

    The title is folded to one line and every link checked (:func:`link_line`), so
    neither can add a heading, a frontmatter key or a typed link.

    Raises:
        UnsafeTextError: a link target or relation that would break its line.
    """
    parts = [f"# {' '.join(title.split())}"]
    if body.strip():
        parts.append(body.strip("\n"))
    if links:
        parts.append(LINKS_HEADING + "\n" + "\n".join(link_line(r, t) for r, t in links))
    return _dump({k: v for k, v in meta.items() if v not in (None, [], "")}, "\n\n".join(parts))


def _append_body(content: str, addition: str) -> str:
    squashed = " ".join(addition.split())
    if not squashed or squashed in " ".join(content.split()):
        return content
    m = re.search(rf"^{re.escape(LINKS_HEADING)}\s*$", content, re.M)
    if m is None:
        return content.rstrip("\n") + "\n\n" + addition.strip("\n") + "\n"
    head = content[: m.start()].rstrip("\n")
    return head + "\n\n" + addition.strip("\n") + "\n\n" + content[m.start() :]


def link_line(relation: str, target: str) -> str:
    """``- relation [[target]]``, the line of a typed link.

    Raises:
        UnsafeTextError: ``relation`` is not one word, or ``target`` holds a line break
            or a character that ends or splits a wikilink (``[ ] | # ^``): written, it
            could forge a heading or another typed link (a note whose file name holds
            them cannot be linked to by rubi; rename it).
    """
    if not relation or not relation.replace("_", "").isalnum():
        raise UnsafeTextError(f"link relation {relation!r}: one word, like about or fixes")
    return f"- {relation} [[{link_target(target, 'link target')}]]"


def _add_links(content: str, links: Sequence[tuple[str, str]]) -> str:
    lines = [link_line(r, t) for r, t in links]
    lines = [ln for ln in lines if ln not in content.splitlines()]
    if not lines:
        return content
    m = re.search(rf"^{re.escape(LINKS_HEADING)}\s*$", content, re.M)
    if m is None:
        return content.rstrip("\n") + "\n\n" + LINKS_HEADING + "\n" + "\n".join(lines) + "\n"
    nxt = re.search(r"^#{1,2} ", content[m.end() :], re.M)
    end = m.end() + nxt.start() if nxt else len(content)
    section = content[:end].rstrip("\n") + "\n" + "\n".join(lines) + "\n"
    rest = content[end:]
    return section + ("\n" + rest if rest else "")


def edit_note_text(
    text: str,
    path: str,
    *,
    set_fields: dict[str, Any] | None = None,
    merge_lists: dict[str, Sequence[str]] | None = None,
    append_body: str = "",
    add_links: Sequence[tuple[str, str]] = (),
) -> str:
    """Apply an edit to a note's text.

    Args:
        text: the note as it is on disk.
        path: for error messages.
        set_fields: frontmatter keys to set.
        merge_lists: frontmatter list keys to extend (duplicates skipped).
        append_body: text to add before ``## Links`` (skipped if already there).
        add_links: ``(relation, target)`` lines to add under ``## Links``.

    Raises:
        RubiError: the frontmatter cannot be parsed (the note is never rewritten).
    """
    try:
        post = frontmatter.loads(text.lstrip("\ufeff"))
    except Exception as exc:
        raise RubiError(
            f"{path}: its frontmatter cannot be parsed ({type(exc).__name__}); rubi will not "
            "rewrite it: fix the YAML first"
        ) from exc
    meta = dict(post.metadata)
    for key, value in (set_fields or {}).items():
        meta[key] = value
    for key, values in (merge_lists or {}).items():
        current = meta.get(key)
        existing: list[Any] = (
            [current]
            if isinstance(current, str)
            else list(current)
            if isinstance(current, list)
            else []
        )
        for v in values:
            if v not in existing:
                existing.append(v)
        if existing:
            meta[key] = existing
    content = post.content
    if append_body:
        content = _append_body(content, append_body)
    if add_links:
        content = _add_links(content, add_links)
    return _dump(meta, content)


def write_new(folder: Path, stem: str, render: Callable[[str], str]) -> Path:
    """Write a new note as ``folder/<stem>.md``, or ``<stem>-2.md``… if taken.

    The note appears complete or not at all (:func:`rubi.core.atomic.create_exclusive`). A
    name counts as taken only by a different note: a file there with exactly the text
    to write (a retry after a crash) is returned as written, and an empty one (left by
    an older rubi killed mid-write) is filled.

    Args:
        folder: where notes go (created if missing).
        stem: the wanted file name without ``.md``.
        render: the note's text for the file name finally chosen.

    Returns:
        The path written.

    Raises:
        OSError: the folder cannot be written.
    """
    n = 1
    while True:
        final = stem if n == 1 else f"{stem}-{n}"
        path = folder / f"{final}.md"
        if create_exclusive(path, render(final)):
            return path
        n += 1


def rewrite(path: Path, rel: str, edit: Callable[[str], str]) -> str:
    """Apply ``edit`` to the note at ``path`` and write it atomically.

    ``edit`` sees the note's text with ``\\n`` line endings and no byte order mark; the
    file is written back in its own layout (CRLF or LF, its BOM, with or without a
    final newline: :class:`rubi.knowledge.textlayout.TextLayout`). The file is read, edited,
    and its bytes compared again just before the write; if they changed in between
    (someone saved it), the edit is re-applied to the new text, up to
    :data:`WRITE_ATTEMPTS` times.

    Returns:
        The text written, as ``edit`` returned it (``\\n`` line endings, no BOM).

    Raises:
        FileNotFoundError: the note is gone.
        NoteChangedError: it kept changing.
        RubiError: the note is not UTF-8, or from ``edit`` (an unparseable note);
            either way it is left as it is.
    """
    for _ in range(WRITE_ATTEMPTS):
        raw = path.read_bytes()
        try:
            before, layout = split_layout(raw)
        except UnicodeDecodeError as exc:
            raise RubiError(
                f"{rel}: not UTF-8 (byte {exc.start}); rubi will not rewrite it: save it as UTF-8"
            ) from exc
        after = edit(before)
        if after == before:
            return after
        try:
            atomic_write_bytes(path, layout.encode(after), expect=raw)
        except ChangedMeanwhile:
            continue  # someone saved it meanwhile: apply the edit to their version
        return after
    raise NoteChangedError(f"{rel}: kept changing while rubi updated it; try again")
