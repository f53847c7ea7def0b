"""Level 1: ``.rubi/modules/<slug>.md``, one page per module.

Pure and deterministic like level 0. Module pages link each other (``Used by`` and
``Uses``) and the map, so Obsidian's graph view draws the architecture.

Pages are committed and two people regenerate them on their own branches, so every
list is one item per line in an order that does not depend on rank (rank only picks
which items a capped list shows): an import added changes the lines of the two files
and modules it joins, not the order of the page, and two notes added on two branches
are two inserted lines that merge (with the ``merge=union`` rule rubi ships for the
pages, even when they are neighbours).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rubi.codemap.curated import curated_block
from rubi.codemap.errors import CodeMapError
from rubi.codemap.model import CodeMap, NoteRef
from rubi.codemap.notefiles import files_for_note
from rubi.codemap.render import GENERATED_COMMENT, counted, link, short_symbols

__all__ = [
    "MODULE_PAGE_MAX_EXTERNAL",
    "MODULE_PAGE_MAX_FILES",
    "MODULE_PAGE_MAX_NEIGHBOURS",
    "MODULE_PAGE_SYMBOLS_PER_FILE",
    "MODULE_PAGE_SYMBOL_FILES",
    "PageIndex",
    "page_index",
    "render_module_page",
]

MODULE_PAGE_MAX_FILES = 30
"""Files listed (the most central, by path); the rest are counted (a 200-file page is
not read)."""
MODULE_PAGE_SYMBOL_FILES = 15
"""Files whose symbols are listed: the most central, by path."""
MODULE_PAGE_SYMBOLS_PER_FILE = 10
"""Symbols listed per file."""
MODULE_PAGE_MAX_EXTERNAL = 12
"""External dependencies listed: the most used, by name."""
MODULE_PAGE_MAX_NEIGHBOURS = 25
"""Modules listed under ``Used by`` and under ``Uses``: the most linked, by name."""


@dataclass(frozen=True, slots=True)
class PageIndex:
    """What every module page reads from the whole map and notes, computed once for a
    run of pages (:func:`page_index`).

    Attributes:
        users: module → ``(imports, module)`` of the modules importing it.
        used: module → ``(imports, module)`` of the modules it imports.
        about: each note with a mapped file, with its files (``files_for_note``), in
            the notes' order.
    """

    users: dict[str, list[tuple[int, str]]]
    used: dict[str, list[tuple[int, str]]]
    about: list[tuple[NoteRef, tuple[str, ...]]]


def page_index(code_map: CodeMap, notes: Sequence[NoteRef]) -> PageIndex:
    """The :class:`PageIndex` of ``code_map`` and ``notes``."""
    users: dict[str, list[tuple[int, str]]] = {}
    used: dict[str, list[tuple[int, str]]] = {}
    for (a, b), n in code_map.module_edges().items():
        users.setdefault(b, []).append((n, a))
        used.setdefault(a, []).append((n, b))
    about = [(note, files) for note in notes if (files := files_for_note(code_map, note.files))]
    return PageIndex(users, used, about)


def _relative(path: str, folder: str) -> str:
    return path[len(folder) + 1 :] if folder and path.startswith(folder + "/") else path


def render_module_page(
    code_map: CodeMap,
    module: str,
    notes: Sequence[NoteRef],
    curated: str | None,
    index: PageIndex | None = None,
) -> str:
    """Render one module's page.

    Args:
        code_map: the ranked map.
        module: the module's name (a key of ``code_map.modules``).
        notes: the vault's notes; those about the module's files are listed.
        curated: the summary to keep, or None.
        index: :func:`page_index` of ``code_map`` and ``notes`` when rendering many
            pages (computed here when None).

    Returns:
        Markdown: title, curated summary block, folder and census, its files ("used
        by N, imports M"), modules that use it and that it uses (wikilinks with import
        counts), external dependencies (with the number of files importing each),
        symbols of its central files, and notes about its files; each list one item
        per line, by path or name.

    Raises:
        CodeMapError: no module of that name.
        CuratedSummaryError: ``curated`` contains a summary marker.
    """
    if module not in code_map.modules:
        raise CodeMapError(f"{module}: no such module; `rubi map` lists the modules")
    if index is None:
        index = page_index(code_map, notes)
    mod = code_map.modules[module]
    ranked = code_map.ranked_files(module)
    folder = f"`{mod.folder}`" if mod.folder else "the repository root"
    lines = [f"# {module}", "", GENERATED_COMMENT, curated_block(curated), ""]
    lines.append(f"{folder} · {counted(len(mod.files), 'file')} · {link('map', 'code map')}")
    lines += ["", "## Files"]
    for path in sorted(ranked[:MODULE_PAGE_MAX_FILES]):
        lines.append(
            f"- `{_relative(path, mod.folder)}` — used by {code_map.in_degree.get(path, 0)}, "
            f"imports {code_map.out_degree.get(path, 0)}"
        )
    if len(ranked) > MODULE_PAGE_MAX_FILES:
        lines.append(f"- … {counted(len(ranked) - MODULE_PAGE_MAX_FILES, 'more file')}")
    lines += _neighbours(code_map, module, index)
    external = Counter(name for path in mod.files for name in code_map.files[path].external)
    if external:
        top = sorted(external.items(), key=lambda item: (-item[1], item[0]))
        lines += ["", "## External dependencies"]
        for name, n in sorted(top[:MODULE_PAGE_MAX_EXTERNAL]):
            lines.append(f"- {name} ({counted(n, 'file')})")
        if len(top) > MODULE_PAGE_MAX_EXTERNAL:
            lines.append(f"- … {len(top) - MODULE_PAGE_MAX_EXTERNAL} more")
    symbol_lines = []
    for path in sorted(ranked[:MODULE_PAGE_SYMBOL_FILES]):
        names = short_symbols(code_map.files[path], MODULE_PAGE_SYMBOLS_PER_FILE)
        if names:
            symbol_lines.append(f"- `{_relative(path, mod.folder)}`: " + ", ".join(names))
    if symbol_lines:
        lines += ["", "## Symbols", *symbol_lines]
    wanted = set(mod.files)
    about = [
        (note, hits)
        for note, files in index.about
        if (hits := tuple(p for p in files if p in wanted))
    ]
    if about:
        lines += ["", "## Notes"]
        about.sort(
            key=lambda item: (item[0].status != "active", item[0].type, item[0].title, item[0].id)
        )
        for note, hits in about:
            flag = "" if note.status == "active" else f" ({note.status})"
            where = ", ".join(f"`{_relative(p, mod.folder)}`" for p in hits[:3])
            more = f" +{len(hits) - 3}" if len(hits) > 3 else ""
            lines.append(f"- {note.type}{flag}: {link(note.id, note.title)} — {where}{more}")
    return "\n".join(lines) + "\n"


def _neighbours(code_map: CodeMap, module: str, index: PageIndex) -> list[str]:
    """``Used by`` and ``Uses`` sections: modules linked by import edges (the most
    linked, by name)."""
    users = sorted(index.users.get(module, ()), key=lambda x: (-x[0], x[1]))
    used = sorted(index.used.get(module, ()), key=lambda x: (-x[0], x[1]))
    lines: list[str] = []
    for title, items in (("Used by", users), ("Uses", used)):
        if items:
            lines += ["", f"## {title}"]
            shown = sorted(items[:MODULE_PAGE_MAX_NEIGHBOURS], key=lambda x: x[1])
            for n, name in shown:
                target = code_map.modules[name]
                lines.append(f"- {link('modules/' + target.slug, name)} — {counted(n, 'import')}")
            if len(items) > MODULE_PAGE_MAX_NEIGHBOURS:
                more = len(items) - MODULE_PAGE_MAX_NEIGHBOURS
                lines.append(f"- … {counted(more, 'more module')}")
    return lines
