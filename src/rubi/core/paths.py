"""Where a vault and its derived data live.

A project vault is the ``.rubi/`` folder found from the current folder upward; any
folder of markdown (an Obsidian vault) can be named with ``--vault``.

Derived data (the Whoosh index, the graph, caches, manifests, hook state and log) lives
in the user's cache folder, one folder per vault keyed by the vault's resolved path:
``platformdirs.user_cache_dir("rubi")/indexes/<name>-<sha256[:12]>`` (on Linux
``$XDG_CACHE_HOME/rubi``, default ``~/.cache/rubi``). Never inside the vault: anything
in a vault can arrive by ``git clone`` or a synced folder, and derived data is loaded
with ``pickle`` (Whoosh's table of contents too), which runs what a file says. A
``.index/`` folder left in a vault by an older rubi, or committed by someone, is never
read; ``rubi doctor`` says it can be deleted. A read-only vault needs nothing special.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from rubi.core.cachefolder import cache_home
from rubi.core.digest import sha256_hex
from rubi.core.errors import VaultNotFoundError, VaultRefusedError
from rubi.core.vaultwalk import VAULT_DIRNAME, VaultWalk

__all__ = [
    "LEGACY_INDEX_DIRNAME",
    "PROJECT_VAULT_DIRNAME",
    "VaultPaths",
    "cache_home",
    "cache_slug",
    "ensure_private_dir",
    "find_vault",
    "index_dir_for",
    "state_home",
    "walked_vault",
]

PROJECT_VAULT_DIRNAME = VAULT_DIRNAME

LEGACY_INDEX_DIRNAME = ".index"
"""Where an early rubi kept derived data inside the vault; now ignored (never read)."""


def config_home() -> Path:
    """The user's rubi config folder (``platformdirs.user_config_dir("rubi")``; on
    Linux ``$XDG_CONFIG_HOME/rubi``, default ``~/.config/rubi``:
    :func:`rubi.core.cachefolder.config_folder`)."""
    from rubi.core.cachefolder import config_folder

    return Path(config_folder())


def state_home() -> Path:
    """The user's rubi state folder (``platformdirs.user_state_dir("rubi")``; on Linux
    ``$XDG_STATE_HOME/rubi``, default ``~/.local/state/rubi``:
    :func:`rubi.core.cachefolder.state_folder`): what must outlive a cleared cache,
    such as the HTTP server's bearer token."""
    from rubi.core.cachefolder import state_folder

    return Path(state_folder())


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` and each missing folder above it readable by the user alone
    (mode 0700 where the OS has modes: ``mkdir -p`` would make the parents 0755, and
    ``~/.cache/rubi/indexes`` would list every project's name to other users); an
    existing folder is left as it is. Returns ``path``."""
    missing: list[Path] = []
    here = path
    while not here.exists() and here.parent != here:
        missing.append(here)
        here = here.parent
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True, mode=0o700)
    path.mkdir(exist_ok=True, mode=0o700)
    return path


@dataclass(frozen=True, slots=True)
class VaultPaths:
    """The folders of one vault.

    Attributes:
        root: the vault folder (absolute).
        index_dir: where derived data lives.
        project_root: the folder holding ``.rubi/`` for a project vault, else None.
    """

    root: Path
    index_dir: Path
    project_root: Path | None = None

    @property
    def whoosh_dir(self) -> Path:
        return self.index_dir / "whoosh"

    @property
    def store_file(self) -> Path:
        """The manifest and parsed notes, a row each (:mod:`rubi.sync.rows`)."""
        return self.index_dir / "store.sqlite"

    @property
    def codemap_file(self) -> Path:
        return self.index_dir / "codemap.pickle"

    @property
    def codemap_cache(self) -> Path:
        """The per-file parse cache (:mod:`rubi.codemap.cache`)."""
        return self.index_dir / "codemap-cache.sqlite"

    @property
    def stale_cache(self) -> Path:
        return self.index_dir / "stale.pickle"

    @property
    def graph_file(self) -> Path:
        return self.index_dir / "graph.pickle"

    @property
    def lock_file(self) -> Path:
        return self.index_dir / "index.lock"


SLUG_MAX_CHARS = 40
"""How much of the vault's name a cache folder's name keeps (before the hash)."""


def cache_slug(name: str) -> str:
    """The readable part of a cache folder's name: ``name`` (NFC) with every run of
    characters that are not Unicode letters or digits (categories L*, N*) made one
    ``-``, trimmed, at most :data:`SLUG_MAX_CHARS` characters, ``vault`` when nothing
    is left. A visible combining mark (Mn, Mc) stays on the letter or digit it follows
    (the vowel signs of Devanagari, Tamil or Thai: ``हिंदी नोट्स`` gives ``हिंदी-नोट्स``,
    not ``ह-द-न-ट-स``). ``Заметки été`` gives ``Заметки-été``; a path separator, dot,
    control, format (bidi) or invisible character never survives, nor a mark with no
    letter under it, so the slug is always one plain path component (at most 160
    bytes of UTF-8)."""
    import unicodedata

    text = unicodedata.normalize("NFC", name)
    kept: list[str] = []
    for c in text:
        kind = unicodedata.category(c)
        if kind[0] in "LN" or (
            kind in ("Mn", "Mc") and kept and kept[-1] != "-" and not _invisible_mark(c)
        ):
            kept.append(c)
        else:
            kept.append("-")
    return re.sub(r"-{2,}", "-", "".join(kept)).strip("-")[:SLUG_MAX_CHARS] or "vault"


def _invisible_mark(c: str) -> bool:
    """Whether the mark ``c`` is a default-ignorable one, which shows nothing
    (Unicode's DerivedCoreProperties: the grapheme joiner U+034F, the Khmer inherent
    vowels U+17B4-17B5, the Mongolian and other variation selectors)."""
    o = ord(c)
    return (
        o == 0x034F
        or 0x17B4 <= o <= 0x17B5
        or 0x180B <= o <= 0x180F
        or 0xFE00 <= o <= 0xFE0F
        or 0xE0100 <= o <= 0xE01EF
    )


def index_dir_for(root: Path) -> Path:
    """The derived-data folder of the vault at ``root``: under :func:`cache_home`,
    named after the vault (its project folder for a ``.rubi/`` vault; see
    :func:`cache_slug`) and keyed by the SHA-256 of its resolved path, so two clones or
    worktrees never share one."""
    real = Path(os.path.realpath(root))
    name = real.parent.name if real.name == PROJECT_VAULT_DIRNAME else real.name
    slug = cache_slug(name)
    key = os.fsencode(str(real))
    digest = sha256_hex(key)[:12]
    return cache_home() / "indexes" / f"{slug}-{digest}"


def find_vault(vault: Path | str | None = None, cwd: Path | None = None) -> VaultPaths:
    """Locate the vault to work on.

    Args:
        vault: an explicit vault folder (``--vault``); None to search for ``.rubi/``
            from ``cwd`` upward.
        cwd: where to start the upward search (default: the current folder).

    Returns:
        The :class:`VaultPaths`.

    Raises:
        VaultNotFoundError: ``vault`` is not an existing folder, no ``.rubi/`` is
            found above ``cwd``, or the one found is a symlink that leads outside its
            project (a cloned repository must not make rubi write into another folder).

    A ``vault`` named ``.rubi`` that is a symlink to a folder inside its project is
    that project's vault, as the walk finds it (:func:`_linked_project_vault`).
    """
    if vault is not None:
        root = Path(vault).expanduser()
        linked = _linked_project_vault(root)
        if linked is not None:
            return linked
        if not root.exists():
            raise VaultNotFoundError(f"{root}: no such folder; pass an existing vault folder")
        if not root.is_dir():
            raise VaultNotFoundError(f"{root}: not a folder; pass the vault folder, not a file")
        root = root.resolve()
        project = root.parent if root.name == PROJECT_VAULT_DIRNAME else None
        if (root / PROJECT_VAULT_DIRNAME).is_dir() and not any(root.glob("*.md")):
            # `--vault .` in a project: mean its .rubi/ vault.
            project, root = root, root / PROJECT_VAULT_DIRNAME
        return VaultPaths(root, index_dir_for(root), project)
    return walked_vault(VaultWalk.from_folder(str(cwd or Path.cwd())))


def _linked_project_vault(given: Path) -> VaultPaths | None:
    """The project vault ``--vault`` names through a ``.rubi`` symlink whose folder
    lies inside the project (``.rubi -> docs/memory``): the vault the walk up from the
    project finds (:func:`walked_vault`: its project is the folder holding the link),
    whoever owns it (the user named it), or None for anything else. A ``.rubi`` linked
    out of its project is left to the plain ``--vault`` case (a vault of its own, no
    project), as before: only a link whose target stays inside makes the folder
    holding it the project."""
    if given.name != PROJECT_VAULT_DIRNAME or not given.is_symlink():
        return None
    from rubi.core.safepaths import is_inside

    folder = Path(os.path.realpath(given.absolute().parent))
    link = folder / PROJECT_VAULT_DIRNAME
    if not link.is_dir() or not is_inside(folder, link):
        return None
    # named by the user: used whoever owns it, as a plain --vault is (the refusal of
    # another user's vault says to pass --vault PATH)
    return VaultPaths(link, index_dir_for(link), folder)


def walked_vault(walk: VaultWalk) -> VaultPaths:
    """The project vault a walk found (:class:`~rubi.core.vaultwalk.VaultWalk`): what
    :func:`find_vault` gives from the folder the walk started at, without walking again.

    Raises:
        VaultNotFoundError: the walk found no ``.rubi/``; or (a
            :class:`~rubi.core.errors.VaultRefusedError`) the one found is a symlink
            that leads outside its project (a cloned repository must not make rubi
            write into another folder); it is at the filesystem's root (its project
            would be every file of the machine); or it is another user's (as git
            refuses a repository another user owns: a ``/tmp/.rubi`` planted on a
            shared machine would otherwise give its notes to, and take the notes of,
            everyone working below ``/tmp``).
    """
    if walk.found is None:
        raise VaultNotFoundError(
            f"{walk.start}: no {PROJECT_VAULT_DIRNAME}/ here or above; run `rubi init` or "
            "pass --vault PATH"
        )
    from rubi.core.safepaths import is_inside

    candidate = Path(walk.found)
    folder = candidate.parent
    if folder.parent == folder:
        raise VaultRefusedError(
            f"{candidate}: a vault at the filesystem's root; rubi does not use it (its "
            "project would be every file here): run `rubi init` in your project"
        )
    if not _owned_by_user(candidate) and not declared_safe(folder):
        if _sudo_users(candidate):
            raise VaultRefusedError(
                f"{candidate}: the vault of the user who ran sudo, and rubi runs as root; "
                "rubi does not use it: run rubi without sudo, or pass --vault PATH to use "
                "it as root"
            )
        raise VaultRefusedError(
            f"{candidate}: owned by another user; rubi does not use it: run `rubi init` "
            f"in your project, pass --vault PATH, or set {SAFE_VAULTS_ENV}={folder} if "
            "you trust it (a container's mounted checkout)"
        )
    if not is_inside(folder, candidate):  # a cloned `.rubi -> ~/diary`
        raise VaultRefusedError(
            f"{candidate}: a symlink to a folder outside the project; rubi does not "
            "use it: replace the link with the folder itself"
        )
    return VaultPaths(candidate, index_dir_for(candidate), folder)


def trusted_vault(candidate: Path) -> bool:
    """Whether rubi may read ``candidate`` (a ``.rubi`` folder, or its link) as a
    project vault it did not walk to, by the walk's own rule (:func:`walked_vault`):
    not at the filesystem's root, not a link leading out of its project folder (that
    worktree's own files would refuse every read below it, and a handoff read there
    fails the session's), and the user's own (the entry and, when a link, the folder
    it leads to) or its project folder listed in :data:`SAFE_VAULTS_ENV`. For
    another git worktree's vault (:func:`rubi.knowledge.worktrees.other_vaults`):
    ``git worktree list`` names folders this repository once had, and one removed
    without ``git worktree prune`` can be made again by another user."""
    from rubi.core.safepaths import is_inside

    folder = Path(os.path.realpath(candidate.absolute().parent))
    if folder.parent == folder or not is_inside(folder, candidate):
        return False
    return _owned_by_user(candidate) or declared_safe(folder)


SAFE_VAULTS_ENV = "RUBI_SAFE_VAULTS"
"""Project folders (separated by :data:`os.pathsep`; ``*`` for any) whose ``.rubi/``
the walk uses whoever owns it, as git's ``safe.directory``: a checkout mounted into a
container whose files belong to the host's user id, not the container's."""


def declared_safe(folder: Path) -> bool:
    """Whether ``folder`` (a project folder, resolved) is listed in
    :data:`SAFE_VAULTS_ENV`, or the variable is ``*``."""
    listed = os.environ.get(SAFE_VAULTS_ENV, "")
    for entry in listed.split(os.pathsep):
        entry = entry.strip()
        if entry == "*":
            return True
        if entry and os.path.realpath(os.path.expanduser(entry)) == str(folder):
            return True
    return False


def _owned_by_user(folder: Path) -> bool:
    """Whether ``folder`` belongs to the user running rubi: the entry itself and, when
    it is a link, the folder it leads to (git checks the entry with ``lstat``; a link
    another user planted to a folder of the user's, ``/tmp/.rubi -> /tmp/my-checkout``,
    would otherwise make that checkout the vault and ``/tmp`` its project). True where
    the system has no user ids (Windows) or it cannot be read (the caller's next read
    says why)."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    try:
        owners = {os.lstat(folder).st_uid, os.stat(folder).st_uid}
    except OSError:
        return True
    return owners == {getuid()}


def _sudo_users(folder: Path) -> bool:
    """Whether rubi runs as root through ``sudo`` and ``folder`` is the invoking
    user's (``$SUDO_UID``, which sudo sets). git trusts such a repository (its commit
    ae9abbb63e, 2022); rubi still refuses it, since what it writes there (session
    records, notes, the index in root's cache) would be root's, but says so, for a
    ``sudo rubi ...`` typed in one's own project."""
    getuid = getattr(os, "getuid", None)
    sudo_uid = os.environ.get("SUDO_UID", "")
    if getuid is None or getuid() != 0 or not sudo_uid.isdigit():
        return False
    try:
        return os.stat(folder).st_uid == int(sudo_uid)
    except OSError:
        return False
