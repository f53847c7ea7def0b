"""Register knowledge: create a note, merge into its twin, supersede an older one.

``register(paths, items)`` is what the MCP tool ``register`` and ``rubi note add``
call. All items are validated and every ``supersedes`` target resolved before the
first write; writes hold the vault's note lock, are atomic, and never rewrite a
note whose frontmatter cannot be parsed. A secret in a body is written as
``[REDACTED:<kind>]`` (:mod:`rubi.app.secretguard`) and reported in
:attr:`Registered.redacted`.
"""

from __future__ import annotations

import posixpath
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from filelock import FileLock

from rubi.app.secretguard import refuse_secret, scrub_text
from rubi.core.atomic import sweep_temp_files
from rubi.core.errors import RubiError
from rubi.core.gitrepo import head
from rubi.core.model import Note
from rubi.core.paths import VaultPaths, ensure_private_dir
from rubi.core.safeio import allowed_root
from rubi.core.safepaths import require_inside
from rubi.core.safetext import LINK_FORBIDDEN, link_target
from rubi.graph.build import note_names
from rubi.knowledge.items import MAX_LIST_ITEMS, NoteItem, parse_items
from rubi.knowledge.notefile import edit_note_text, render_note, rewrite, write_new
from rubi.knowledge.personal import PERSONAL_PREFIX, personal_paths
from rubi.knowledge.rules import find_twin, successor
from rubi.knowledge.slug import slugify, title_key
from rubi.markdown import parse_note
from rubi.sync import LOCK_TIMEOUT_S, index_vault, notes_for
from rubi.vault.resolve import LinkResolver

__all__ = ["NOTES_DIR", "Registered", "register", "utc_now"]

NOTES_DIR = "notes"

Action = Literal["created", "merged"]


@dataclass(frozen=True, slots=True)
class Registered:
    """What happened to one item.

    Attributes:
        action: ``created`` (a new note) or ``merged`` (its twin was updated).
        id: the note's id (``personal:``-prefixed in the personal vault).
        path: vault-relative path.
        title: the note's title.
        superseded: ids of notes this one now supersedes.
        dangling: link targets that matched no note (written as unresolved links).
        redacted: the secrets written as ``[REDACTED:<kind>]`` or removed
            (``<private>`` spans), as ``"body line <n>: <kind>"``; never a value.
    """

    action: Action
    id: str
    path: str
    title: str
    superseded: tuple[str, ...] = ()
    dangling: tuple[str, ...] = ()
    redacted: tuple[str, ...] = ()


def utc_now() -> str:
    """Now, as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class _Vault:
    """A vault a registration writes to: its paths, id prefix and notes read so far."""

    paths: VaultPaths
    prefix: str
    notes: dict[str, Note] = field(default_factory=dict)
    commit: str | None = None

    def resolver(self) -> LinkResolver:
        return LinkResolver(note_names(n) for n in self.notes.values())

    def fm_id(self, note: Note) -> str:
        """How rubi names ``note`` in ``supersedes``/``superseded_by``: its file name
        (an ``id:`` left behind by a rename in Obsidian no longer names it)."""
        return note.id.rsplit("/", 1)[-1]

    def by_name(self) -> dict[str, str]:
        """``supersedes``/``superseded_by`` values → note ids: file names, and the
        ``id:`` values older notes were named by."""
        out: dict[str, str] = {}
        for x in self.notes.values():
            value = x.metadata.get("id")
            if isinstance(value, str) and value:
                out.setdefault(value, x.id)
        out.update({self.fm_id(x): x.id for x in self.notes.values()})
        return out

    def link_text(self, note_id: str) -> str:
        """How to write a link to ``note_id``: its file name if that is unambiguous."""
        stem = note_id.rsplit("/", 1)[-1]
        res = self.resolver().resolve(stem)
        return stem if res.status == "resolved" and res.target == note_id else note_id

    def reload(self, rel: str) -> Note:
        text = (self.paths.root / rel).read_text(encoding="utf-8")
        note = parse_note(text, rel)
        self.notes[note.id] = note
        return note


def _resolve_target(vault: _Vault, ref: str, where: str) -> Note:
    res = vault.resolver().resolve(ref.removeprefix(vault.prefix))
    if res.target is None or res.target not in vault.notes:
        raise RubiError(f"{where}: no note named {ref!r}; give an existing note's id or title")
    return vault.notes[res.target]


def _plan_supersedes(vault: _Vault, item: NoteItem, n: int) -> Note | None:
    if item.supersedes is None:
        return None
    old = _resolve_target(vault, item.supersedes, f"notes[{n}].supersedes")
    if old.frontmatter_error:
        raise RubiError(
            f"{old.path}: its frontmatter cannot be parsed, so it cannot be marked superseded; "
            "fix the YAML first"
        )
    newest = successor(vault.notes, old.id, vault.by_name())  # raises on a loop
    if newest != old.id:
        raise RubiError(
            f"notes[{n}].supersedes: {old.id} is already superseded by {vault.prefix}{newest}; "
            "supersede that one (the newest) instead"
        )
    link_target(vault.link_text(old.id), f"notes[{n}].supersedes {old.path}")  # before writing
    return old


def _id_follows_file(note: Note) -> dict[str, str]:
    """``{"id": file name}`` when ``note``'s ``id:`` differs from its file name (it was
    renamed, in Obsidian or by hand): a note rubi rewrites gets its id back in step."""
    value = note.metadata.get("id")
    stem = note.id.rsplit("/", 1)[-1]
    return {"id": stem} if isinstance(value, str) and value != stem else {}


def _refuse_broken_twin(vault: _Vault, item: NoteItem, n: int) -> None:
    """Raise when the note this item would merge into has frontmatter rubi cannot parse
    (same title or file name): writing ``<name>-2.md`` beside it would split the
    knowledge in two without a word.

    Raises:
        RubiError: naming the file to fix.
    """
    if find_twin(item, vault.notes.values()) is not None:
        return
    key, stem = title_key(item.title), slugify(item.type, item.title)
    for note in sorted(vault.notes.values(), key=lambda x: x.id):
        if note.frontmatter_error and (
            title_key(note.title) == key or note.id.rsplit("/", 1)[-1] == stem
        ):
            raise RubiError(
                f"notes[{n}]: {note.path} holds this title but its frontmatter cannot be "
                f"parsed ({note.frontmatter_error}); fix its YAML and register again "
                "(rubi does not write a second note beside it)"
            )


def _links(vault: _Vault, item: NoteItem) -> tuple[list[tuple[str, str]], list[str]]:
    resolver = vault.resolver()
    out: list[tuple[str, str]] = []
    dangling: list[str] = []
    for link in item.links:
        res = resolver.resolve(link.target.removeprefix(vault.prefix))
        if res.target is not None and res.target in vault.notes:
            text = vault.link_text(res.target)
            # A file name that cannot sit inside [[...]]: link by the (checked) name given.
            safe = not LINK_FORBIDDEN.intersection(text) and text == " ".join(text.split())
            out.append((link.relation, text if safe else link.target))
        else:
            out.append((link.relation, link.target))
            dangling.append(link.target)
    return out, dangling


def _apply(vault: _Vault, item: NoteItem, old: Note | None, now: str) -> Registered:
    links, dangling = _links(vault, item)
    chain = set()
    if old is not None:
        chain = {old.id}
    twin = find_twin(item, (n for n in vault.notes.values() if n.id not in chain))
    written: Note | None = None
    action: Action = "created"
    stamp_fields: dict[str, Any] = {"updated": now}
    if vault.commit:
        stamp_fields["commit"] = vault.commit
    if twin is not None:
        try:
            rewrite(
                vault.paths.root / twin.path,
                twin.path,
                lambda text: edit_note_text(
                    text,
                    twin.path,
                    set_fields={
                        "updated": now,
                        **({"commit": vault.commit} if vault.commit else {}),
                        **_id_follows_file(twin),
                    },
                    merge_lists={"files": item.files, "tags": item.tags, "aliases": item.aliases},
                    append_body=item.body,
                    add_links=links,
                ),
            )
            written = vault.reload(twin.path)
            action = "merged"
        except FileNotFoundError:
            vault.notes.pop(twin.id, None)  # deleted meanwhile: the knowledge is created anew
    if written is None:
        stem = slugify(item.type, item.title)
        meta: dict[str, Any] = {
            "id": stem,
            "type": item.type,
            "status": "active",
            "files": list(item.files),
            "commit": vault.commit,
            "created": now,
            "updated": now,
            "tags": list(item.tags),
            "aliases": list(item.aliases),
        }
        all_links = list(links)
        if old is not None:
            meta["supersedes"] = vault.fm_id(old)
            all_links.insert(0, ("supersedes", vault.link_text(old.id)))
        path = write_new(
            vault.paths.root / NOTES_DIR,
            stem,
            lambda final_stem: render_note(
                {**meta, "id": final_stem}, item.title, item.body, all_links
            ),
        )
        written = vault.reload(posixpath.join(NOTES_DIR, path.name))
    elif old is not None:
        rewrite(
            vault.paths.root / written.path,
            written.path,
            lambda text: edit_note_text(
                text,
                written.path if written else "",
                set_fields={"supersedes": vault.fm_id(old)},
                add_links=[("supersedes", vault.link_text(old.id))],
            ),
        )
        written = vault.reload(written.path)
    superseded: tuple[str, ...] = ()
    if old is not None:
        new_fm = vault.fm_id(written)
        rewrite(
            vault.paths.root / old.path,
            old.path,
            lambda text: edit_note_text(
                text,
                old.path,
                set_fields={
                    "status": "superseded",
                    "superseded_by": new_fm,
                    "updated": now,
                    **_id_follows_file(old),
                },
                add_links=[("superseded_by", vault.link_text(written.id))],
            ),
        )
        vault.reload(old.path)
        superseded = (vault.prefix + old.id,)
    return Registered(
        action,
        vault.prefix + written.id,
        written.path,
        written.title,
        superseded,
        tuple(dangling),
    )


def _scrubbed(item: NoteItem, n: int) -> tuple[NoteItem, tuple[str, ...]]:
    """``item`` with the secrets of its body redacted, and what was redacted.

    Raises:
        RubiError: a title, alias, tag, file or link target holds a secret (a name
            is not rewritten; a file and an unresolved link are written as given).
    """
    refuse_secret(item.title, f"notes[{n}].title")
    for i, alias in enumerate(item.aliases):
        refuse_secret(alias, f"notes[{n}].aliases[{i}]")
    for i, tag in enumerate(item.tags):
        refuse_secret(tag, f"notes[{n}].tags[{i}]")
    for i, file in enumerate(item.files):
        refuse_secret(file, f"notes[{n}].files[{i}]")
    for i, link in enumerate(item.links):
        refuse_secret(link.target, f"notes[{n}].links[{i}].target")
    body, redacted = scrub_text(item.body, "body")
    return (replace(item, body=body) if redacted else item), tuple(redacted)


def _refuse_secret_names(items: Sequence[Any]) -> None:
    """Raise when a name of an item as given (its title, an alias, a tag, a file, a
    link target, the note it supersedes) holds a secret: before the item is
    validated, whose errors quote the value, and before a file is normalised
    (``postgres://user:pw@host`` becomes ``postgres:/user:pw@host``, which no longer
    reads as a URL with a password).
    Values that are not text are left for :func:`parse_items` to refuse.

    Raises:
        RubiError: ``"notes[<n>].<field>: holds a secret (<kind>); …"``.
    """
    if isinstance(items, (str, bytes)):
        return  # parse_items refuses it
    for n, item in enumerate(items):
        if isinstance(item, NoteItem):
            fields: dict[str, Any] = {
                "title": item.title,
                "aliases": item.aliases,
                "tags": item.tags,
                "files": item.files,
                "links": [{"target": link.target} for link in item.links],
                "supersedes": item.supersedes,
            }
        elif isinstance(item, Mapping):
            fields = dict(item)
        else:
            continue
        for field_name in ("title", "aliases", "tags", "files", "links", "supersedes"):
            values = fields.get(field_name)
            if isinstance(values, str):
                values = [values]
            if not isinstance(values, (list, tuple)) or len(values) > MAX_LIST_ITEMS:
                continue  # parse_items refuses what is not a short list
            for i, value in enumerate(values):
                where = f"notes[{n}].{field_name}[{i}]"
                if isinstance(value, Mapping):
                    value, where = value.get("target"), f"{where}.target"
                if field_name in ("title", "supersedes"):
                    where = f"notes[{n}].{field_name}"
                if isinstance(value, str):
                    refuse_secret(value, where)


def _open(paths: VaultPaths, prefix: str) -> _Vault:
    # what a killed register left: every register looks (a scan of one folder), not
    # once a minute per process as other writes do, so a retry finds its folder clean
    sweep_temp_files(paths.root / NOTES_DIR, force=True)
    index_vault(paths, verify=False, code=False)
    root = paths.project_root or paths.root
    return _Vault(paths, prefix, notes_for(paths), head(root))


def register(
    paths: VaultPaths,
    items: Sequence[Any],
    *,
    now: str | None = None,
    cwd: Path | None = None,
) -> list[Registered]:
    """Write knowledge into the vault (personal items into the personal vault).

    Args:
        paths: the project vault.
        items: note objects (mappings with type, title, body, and optionally files,
            links, supersedes, tags, aliases, scope) or :class:`NoteItem` values.
        now: the timestamp to stamp (default: the current UTC time).
        cwd: the folder relative ``files`` are taken from (the CLI's working folder);
            None: the project root (MCP arguments, JSON). Either way a path is stored
            relative to the project root and refused when it leaves the project.

    Returns:
        One :class:`Registered` per item, in order.

    Raises:
        RubiError: an invalid item (a file outside the project, text that is not
            Unicode or would forge a note's structure, a title, alias or tag holding a
            secret), a ``supersedes`` that names no
            note or would loop, or a note that cannot be parsed and so cannot be
            updated. Nothing is written when validation fails.
        OSError: the vault folder cannot be written (the message names it).
    """
    _refuse_secret_names(items)
    scrubbed = [
        _scrubbed(item, n)
        for n, item in enumerate(parse_items(items, root=paths.project_root or paths.root, cwd=cwd))
    ]
    parsed = [item for item, _ in scrubbed]
    stamp = now or utc_now()
    groups: dict[str, list[tuple[int, NoteItem]]] = {}
    for n, item in enumerate(parsed):
        groups.setdefault(item.scope, []).append((n, item))
    results: dict[int, Registered] = {}
    with ExitStack() as locks:
        # Lock, open and validate every vault involved before writing to any of them.
        planned = []
        for scope in sorted(groups, key=lambda s: s != "project"):
            target, prefix = paths, ""
            if scope == "personal":
                personal = personal_paths(paths, create=True)
                if personal is not None:
                    target, prefix = personal, PERSONAL_PREFIX
            ensure_private_dir(target.index_dir)
            locks.enter_context(
                FileLock(str(target.index_dir / "notes.lock"), timeout=LOCK_TIMEOUT_S)
            )
            allowed, where = allowed_root(target.root, target.project_root)
            require_inside(allowed, target.root / NOTES_DIR, what=f"{NOTES_DIR}/", where=where)
            vault = _open(target, prefix)
            for n, item in groups[scope]:
                _refuse_broken_twin(vault, item, n)
            plans = [(n, item, _plan_supersedes(vault, item, n)) for n, item in groups[scope]]
            planned.append((vault, plans))
        for vault, plans in planned:
            for n, item, old in plans:
                results[n] = replace(_apply(vault, item, old, stamp), redacted=scrubbed[n][1])
            index_vault(vault.paths, verify=False, code=False)
    return [results[n] for n in range(len(parsed))]
