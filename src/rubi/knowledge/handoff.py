"""Handoffs: where a session left off, so the next one (or a person) picks it up.

``handoffs/<YYYY-MM-DD-HHMM>.md`` in the project vault: goal, state, next steps, the
files and notes that matter. The newest file name is the last handoff, looked for in
every git worktree of the project on this machine (handoffs are the user's, not the
branch's: :mod:`rubi.knowledge.worktrees`).

Handoffs are each person's own. ``handoffs/.gitignore`` (:data:`HANDOFFS_GITIGNORE`,
from the vault template, or written by the first save when missing) keeps them out of
git unless someone adds one on purpose (``git add -f``); each handoff names its
``author`` (git ``user.email``, else ``user.name``, else the login name), and
:func:`last_handoff` passes over a handoff another person wrote, so a teammate's
committed handoff is never "the last one" of this user. A handoff without an author
(written before this rule) still counts. The SessionStart hook, the CLI and the MCP
tool all ask :func:`last_handoff`: one rule for "the latest".
"""

from __future__ import annotations

import getpass
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.core.atomic import create_exclusive
from rubi.core.errors import RubiError
from rubi.core.gitrepo import head, user_identity
from rubi.core.model import DEFAULT_RELATION
from rubi.core.pagenames import HANDOFFS_DIR
from rubi.core.paths import VaultPaths
from rubi.core.safeio import MAX_NOTE_BYTES, allowed_root, read_text
from rubi.core.safepaths import require_inside
from rubi.core.safetext import check_text, link_target, one_line
from rubi.knowledge.items import MAX_BODY_CHARS, MAX_LIST_ITEMS, repo_path

__all__ = [
    "HANDOFFS_DIR",
    "HANDOFFS_GITIGNORE",
    "Handoff",
    "author_of",
    "current_author",
    "last_handoff",
    "save_handoff",
    "teammate_handoff",
]

HANDOFFS_GITIGNORE = (
    "# Handoffs are each person's own: git leaves them out unless you add one on\n"
    "# purpose (git add -f .rubi/handoffs/<name>.md). To share them all, delete the\n"
    "# line below.\n"
    "*.md\n"
)
"""``handoffs/.gitignore`` as the vault template ships it and a first save writes it."""
_AUTHOR_KEY = "author:"
_FRONTMATTER_LINES = 40
"""How far into a handoff its ``author:`` line is looked for."""


def current_author(root: Path) -> str:
    """Who saves a handoff here: git ``user.email``, else ``user.name``, else the
    login name; "" when none is known."""
    found = user_identity(root)
    if found:
        return found
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return ""


def author_of(text: str) -> str:
    """The ``author:`` of a handoff's frontmatter ("" when it has none)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return ""
    for line in lines[1:_FRONTMATTER_LINES]:
        if line.strip() == "---":
            break
        if line.startswith(_AUTHOR_KEY):
            return line[len(_AUTHOR_KEY) :].strip().strip("'\"")
    return ""


@dataclass(frozen=True, slots=True)
class Handoff:
    """A handoff on disk: vault-relative path, its markdown, and when it was written;
    ``worktree`` is the folder of the other git worktree it was saved in ("" for this
    one); ``redacted``: what a save took out of the text it was given (``"state line
    2: password"``, never a value)."""

    path: str
    text: str
    created: str
    worktree: str = ""
    redacted: tuple[str, ...] = ()


def save_handoff(
    paths: VaultPaths,
    goal: str,
    state: str,
    next_steps: Sequence[str] = (),
    files: Sequence[str] = (),
    notes: Sequence[str] = (),
    *,
    now: float | None = None,
    cwd: Path | None = None,
) -> Handoff:
    """Write a handoff.

    Args:
        paths: the project vault.
        goal: what the work is for (one or two sentences).
        state: where it stands: done, half-done, broken.
        next_steps: what to do next, in order.
        files: repository paths that matter.
        notes: ids or titles of notes that matter (written as wikilinks).
        now: Unix time to stamp (default: now).
        cwd: the folder relative ``files`` are taken from (the CLI's working folder);
            None: the project root. Paths are stored relative to the project root.

    Returns:
        The :class:`Handoff` written.

    Raises:
        RubiError: ``goal`` or ``state`` empty; text that is not Unicode or holds
            control characters; a step that is not one line of text; a file outside
            the project; a note reference that cannot be written as a wikilink; a
            ``handoffs/`` folder that links outside the project. Nothing is written
            then.
    """
    goal, state, next_steps, files, notes = _checked(goal, state, next_steps, files, notes)
    files = [
        repo_path(f, f"files[{i}]", paths.project_root or paths.root, cwd)
        for i, f in enumerate(files)
    ]
    when = time.gmtime(now if now is not None else time.time())
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", when)
    stem = time.strftime("%Y-%m-%d-%H%M", when)
    allowed, where = allowed_root(paths.root, paths.project_root)
    folder = require_inside(
        allowed, paths.root / HANDOFFS_DIR, what=f"{HANDOFFS_DIR}/", where=where
    )
    body = [f"## Goal\n{goal.strip()}", f"## State\n{state.strip()}"]
    if next_steps:
        body.append(
            "## Next steps\n" + "\n".join(f"{i}. {s.strip()}" for i, s in enumerate(next_steps, 1))
        )
    if files:
        body.append("## Files\n" + "\n".join(f"- `{f}`" for f in files))
    root = paths.project_root or paths.root
    meta = {
        "type": "note",
        "status": "active",
        "files": list(files),
        "commit": head(root),
        "created": created,
        "author": current_author(root),
        "tags": ["handoff"],
    }
    if not meta["author"]:
        del meta["author"]
    links = [(DEFAULT_RELATION, n) for n in notes]
    from rubi.knowledge.notefile import render_note  # YAML: only when one is written

    text = render_note(meta, f"Handoff {created[:16].replace('T', ' ')}", "\n\n".join(body), links)
    if not (folder / ".gitignore").exists():  # a user's own (or emptied) one is kept
        create_exclusive(folder / ".gitignore", HANDOFFS_GITIGNORE)
    n = 1
    while True:  # the name is claimed exclusively: parallel saves never overwrite
        path = folder / (f"{stem}.md" if n == 1 else f"{stem}-{n}.md")
        if create_exclusive(path, text):
            return Handoff(f"{HANDOFFS_DIR}/{path.name}", text, created)
        n += 1


def _checked(
    goal: str,
    state: str,
    next_steps: Sequence[str],
    files: Sequence[str],
    notes: Sequence[str],
) -> tuple[str, str, list[str], list[str], list[str]]:
    """The arguments checked: goal and state are text, a step one line, a note a link
    target; blank entries dropped."""
    for name, value in (("goal", goal), ("state", state)):
        if not isinstance(value, str):
            raise RubiError(f"{name}: must be text")
        check_text(value, name)
    if not goal.strip():
        raise RubiError("goal: required; say what the work is for")
    if not state.strip():
        raise RubiError("state: required; say where the work stands")
    lists: dict[str, list[str]] = {}
    for name, values in (("next_steps", next_steps), ("files", files), ("notes", notes)):
        if isinstance(values, str) or not all(isinstance(v, str) for v in values):
            raise RubiError(f"{name}: expected a list of strings")
        if len(values) > MAX_LIST_ITEMS:
            raise RubiError(f"{name}: {len(values)} entries; at most {MAX_LIST_ITEMS}")
        lists[name] = [v for v in values if v.strip()]
    steps = [one_line(s, f"next_steps[{i}]") for i, s in enumerate(lists["next_steps"])]
    size = len(goal) + len(state) + sum(len(s) for s in steps)
    if size > MAX_BODY_CHARS:
        raise RubiError(
            f"handoff: {size:,} characters of goal, state and steps; at most "
            f"{MAX_BODY_CHARS:,}: say where the work stands, link notes for the rest"
        )
    refs = [link_target(n, f"notes[{i}]") for i, n in enumerate(lists["notes"])]
    return goal, state, steps, lists["files"], refs


def last_handoff(paths: VaultPaths) -> Handoff | None:
    """The newest handoff (by file name) of any git worktree of the project that this
    user wrote (or that names no author), this worktree's on a tie
    (:attr:`Handoff.worktree` names another), or None.

    Read through :mod:`rubi.core.safeio`: at most :data:`rubi.core.safeio.MAX_NOTE_BYTES`, and
    only a regular file inside the project (or the vault).

    Raises:
        rubi.core.safeio.UnsafeFileError: the newest handoff is a symlink that leads out of
            the project, or not a regular file (the message says what to do).
        RubiError: it cannot be read.
    """
    return _newest(paths, teammates=False)


def _newest(paths: VaultPaths, *, teammates: bool) -> Handoff | None:
    """:func:`last_handoff` (``teammates`` False) or :func:`teammate_handoff`."""
    from rubi.knowledge.worktrees import other_vaults

    places = [(paths.root, paths.project_root, "")]
    places += [(o.vault, o.worktree, str(o.worktree)) for o in other_vaults(paths)]
    found: list[tuple[tuple[str, int, str], Path, Path, Path | None, str]] = []
    for vault, project, worktree in places:
        folder = vault / HANDOFFS_DIR
        for page in folder.glob("*.md") if folder.is_dir() else ():
            found.append(
                ((page.stem[:15], len(page.stem), page.stem), page, vault, project, worktree)
            )
    me: str | None = None
    for _, newest, vault, project, worktree in sorted(found, key=lambda f: f[0], reverse=True):
        rel = f"{HANDOFFS_DIR}/{newest.name}"
        allowed, where = allowed_root(vault, project)
        try:
            text = read_text(allowed, newest, limit=MAX_NOTE_BYTES, label=rel, where=where)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise RubiError(
                f"{rel}: cannot be read ({exc.strerror}); check its permissions"
            ) from exc
        author = author_of(text)
        if author:
            if me is None:
                me = current_author(paths.project_root or paths.root)
            if me and author != me:
                if teammates and not worktree:  # this vault's: `rubi read` opens it
                    return Handoff(rel, text, newest.stem[:15], worktree)
                continue  # a teammate's, committed on purpose: not this user's last
        if not teammates:
            return Handoff(rel, text, newest.stem[:15], worktree)
    return None


def teammate_handoff(paths: VaultPaths) -> Handoff | None:
    """The newest handoff another author wrote (one a teammate committed on purpose
    and a pull brought) in this vault, or None: never this user's to resume, but named
    when this user has none, so "no handoff" is not said beside one in the folder. Not
    one in another worktree's vault: its id would name a note this vault has not."""
    return _newest(paths, teammates=True)
