"""The code map's pages as the facade serves them: level 0 (``map.md``) or one module's
page, read safely (:func:`map_text`), and a curated summary written into one
(:func:`write_summary`); regeneration keeps the summary."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rubi.app.searching import ensure_index as _ensure
from rubi.core.atomic import atomic_write_text
from rubi.core.errors import RubiError
from rubi.core.pagenames import MAP_PAGE, MODULES_DIR
from rubi.core.paths import VaultPaths
from rubi.core.safeio import allowed_root
from rubi.core.safepaths import require_inside, safe_child
from rubi.core.safetext import check_text

__all__ = ["MAX_MODULE_CHARS", "StoredSummary", "map_text", "write_summary"]


@dataclass(frozen=True, slots=True)
class StoredSummary:
    """A summary written: the page, and the secrets redacted from it
    (``"summary line <n>: <kind>"``, never a value)."""

    path: Path
    redacted: tuple[str, ...] = ()


def _project(paths: VaultPaths) -> Path:
    if paths.project_root is None:
        raise RubiError(
            f"{paths.root}: not a project vault; the code map lives in a project's "
            ".rubi/ (run `rubi init` in the project)"
        )
    return paths.project_root


MODULES_NAMED = 12
"""Modules an unknown module's error names, the most central first (typer's 13th by
name was ``typer`` itself, left out without a word)."""
MAX_MODULE_CHARS = 300
"""A module is named by a folder path or its slug: longer names are refused before the
lookup (and never echoed back whole)."""


def _module_page(paths: VaultPaths, module: str) -> Path:
    """The page of the module named ``module`` (by name, slug or folder).

    Raises:
        RubiError: no code map yet, or no such module (the message lists some).
    """
    from rubi.sync import load_code_map

    if len(module) > MAX_MODULE_CHARS or any(ch in module for ch in "\x00\r\n"):
        raise RubiError(
            f"{module[:60]!r}: no such module (a module name is one line of at most "
            f"{MAX_MODULE_CHARS} characters); `rubi map` lists them"
        )
    code_map = load_code_map(paths)
    if code_map is None:
        raise RubiError(f"{paths.root}: no code map yet; run `rubi index`")
    wanted = module.strip().strip("/").casefold()
    for m in code_map.modules.values():
        if wanted in (m.name.casefold(), m.slug.casefold(), m.folder.casefold()):
            # The slug comes from the code map (derived data), never from the caller;
            # checked all the same, so no module page is read from outside the vault.
            page = safe_child(paths.root / MODULES_DIR, f"{m.slug}.md", what="module page")
            return _inside(paths, page, f"{MODULES_DIR}/{m.slug}.md")
    ranked = code_map.ranked_modules()  # the most central first: a cut keeps the main ones
    names = ", ".join(ranked[:MODULES_NAMED])
    more = len(ranked) - MODULES_NAMED
    tail = f", and {more} more (`rubi map` lists them)" if more > 0 else ""
    raise RubiError(f"{module}: no such module; modules are: {names}{tail}")


def _inside(paths: VaultPaths, page: Path, rel: str) -> Path:
    """``page``, checked to resolve inside the project (or the vault): a generated page
    or its folder that a cloned tree made a link to elsewhere is neither read nor
    written."""
    allowed, where = allowed_root(paths.root, paths.project_root)
    return require_inside(allowed, page, what=rel, where=where)


def map_text(paths: VaultPaths, module: str | None = None) -> str:
    """Level 0 (``map.md``) or one module's page, indexing first if never done. A
    blank ``module`` (an MCP client's ``""`` for an optional argument) is no module:
    the map, not the repository root's page it matched as a folder.

    Raises:
        RubiError: not a project vault, or no such module.
    """
    _project(paths)
    _ensure(paths, refresh=False)
    page = (
        _inside(paths, paths.root / MAP_PAGE, MAP_PAGE)
        if module is None or not module.strip()
        else _module_page(paths, module)
    )
    return _read_page(paths, page)


def _read_page(paths: VaultPaths, page: Path) -> str:
    """A generated page's text, read through :mod:`rubi.core.safeio` (a regular file inside
    the project, at most ``MAX_NOTE_BYTES``).

    Raises:
        RubiError: not generated yet, refused (a symlink out of the project, a FIFO or
            device), larger than the limit, not UTF-8, or unreadable.
    """
    from rubi.core.safeio import MAX_NOTE_BYTES, allowed_root, read_bytes

    allowed, where = allowed_root(paths.root, paths.project_root)
    rel = page.relative_to(paths.root).as_posix()
    try:
        got = read_bytes(allowed, page, limit=MAX_NOTE_BYTES, label=rel, where=where)
    except FileNotFoundError as exc:
        raise RubiError(f"{page}: not generated yet; run `rubi index`") from exc
    except OSError as exc:
        raise RubiError(f"{rel}: cannot be read ({exc.strerror}); check its permissions") from exc
    if got.truncated:
        raise RubiError(
            f"{rel}: larger than {MAX_NOTE_BYTES // 1_000_000} MB, not a page rubi generated; "
            "move it away and run `rubi index`"
        )
    try:
        return got.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RubiError(
            f"{rel}: not valid UTF-8 (byte {exc.start}); fix it or move it away and run "
            "`rubi index`"
        ) from exc


def write_summary(paths: VaultPaths, target: str, text: str) -> StoredSummary:
    """Store a curated summary in ``map.md`` (``target="map"``) or a module page
    (``target="module:<name>"``); regeneration keeps it. A secret in ``text`` is
    written as ``[REDACTED:<kind>]`` (:mod:`rubi.app.secretguard`).

    Returns:
        The page written and what was redacted.

    Raises:
        RubiError: a bad target, an empty text, one holding a summary marker or a
            control character, or a page whose summary markers are broken (fix them
            first; nothing is overwritten).
    """
    from rubi.knowledge.items import MAX_BODY_CHARS
    from rubi.sync import index_vault

    _project(paths)
    _ensure(paths, refresh=False)
    if target == "map":
        page = _inside(paths, paths.root / MAP_PAGE, MAP_PAGE)
    elif target.startswith("module:") and target[7:].strip():
        page = _module_page(paths, target[7:])
    else:
        raise RubiError(f"{target[:80]!r}: target must be 'map' or 'module:<name>'")
    check_text(text, "summary")
    if len(text) > MAX_BODY_CHARS:
        raise RubiError(
            f"summary: {len(text):,} characters; at most {MAX_BODY_CHARS:,}: a summary is "
            "what a newcomer reads first"
        )
    if not text.strip():
        raise RubiError("empty summary; write what a newcomer should know first")
    from rubi.codemap import SUMMARY_END, SUMMARY_START, extract_curated

    if SUMMARY_START in text or SUMMARY_END in text:
        raise RubiError("the summary contains a rubi:summary marker; remove it and retry")
    from rubi.app.secretguard import scrub_text

    text, redacted = scrub_text(text, "summary")
    old = _read_page(paths, page)
    extract_curated(old, page.name)  # raises on broken markers: never lose text
    start, end = old.index(SUMMARY_START), old.index(SUMMARY_END)
    new = old[: start + len(SUMMARY_START)] + "\n" + text.strip() + "\n" + old[end:]
    atomic_write_text(page, new)
    index_vault(paths, verify=False, code=False)
    return StoredSummary(page, tuple(redacted))
