"""Level 0: ``.rubi/map.md``, the ~500-token map injected at every session start.

Pure: strings in, string out. Deterministic: the same code and notes give the same
bytes (no dates, no floating-point ranks, ties broken by path), so regenerating it
makes no git churn. Fitted to :data:`MAP_BUDGET_TOKENS` by dropping detail in a fixed
order (symbols, then files, modules, per-module files, notes) until it fits.

The page is committed, so what differs per person stays out of it: notes are listed
by type and title, one a line, with no count of the others and no stale flag (that
depends on each clone's working tree; search and read show it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rubi.codemap.curated import curated_block
from rubi.codemap.model import CodeFile, CodeMap, NoteRef
from rubi.codemap.notefiles import files_for_note
from rubi.core.filekinds import is_test_path
from rubi.core.pagenames import GENERATED_COMMENT
from rubi.core.tokens import estimate_tokens

__all__ = [
    "GENERATED_COMMENT",
    "MAP_BUDGET_TOKENS",
    "MAP_NOTE_TYPES",
    "counted",
    "link",
    "render_map",
    "short_symbols",
]

MAP_BUDGET_TOKENS = 500
"""Level 0 is paid for at every session start: about a screen of text."""
MAP_NOTE_TYPES = ("decision", "gotcha")
"""Active notes of these types are listed on the map: what a session must not redo
or trip over."""
_CAPS = {"modules": 10, "files": 8, "notes": 6, "per_module": 3, "symbols": 3}
_STEPS = (
    ("symbols", 2),
    ("files", 5),
    ("modules", 6),
    ("per_module", 2),
    ("symbols", 1),
    ("notes", 3),
    ("files", 3),
    ("modules", 4),
    ("per_module", 1),
    ("symbols", 0),
    ("notes", 1),
    ("per_module", 0),
    ("files", 1),
    ("modules", 1),
    ("notes", 0),
)
"""Order in which detail is dropped to fit the budget: (what, down to)."""
_TYPE_KINDS = frozenset(
    {"class", "struct", "interface", "trait", "enum", "type", "object", "module"}
)
_CALLABLE_KINDS = frozenset({"function", "macro", "mixin"})


def counted(n: int, word: str) -> str:
    """``n`` and ``word`` in the plural unless ``n`` is 1: ``1 file``, ``3 files``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def link(target: str, label: str) -> str:
    """An Obsidian wikilink ``[[target|label]]`` with ``|``, ``]`` and newlines made safe."""
    clean = " ".join(label.replace("|", "/").replace("]", ")").replace("[", "(").split())
    return f"[[{target}|{clean}]]"


def short_symbols(file: CodeFile, limit: int) -> list[str]:
    """Up to ``limit`` names a reader would look for in a file: public top-level
    definitions, types before functions before values, each in source order."""
    seen: set[str] = set()
    ranked = []
    for index, symbol in enumerate(file.symbols):
        if symbol.kind == "method" or symbol.name in seen:
            continue
        seen.add(symbol.name)
        private = symbol.name.startswith("_")
        group = 0 if symbol.kind in _TYPE_KINDS else 1 if symbol.kind in _CALLABLE_KINDS else 2
        ranked.append((private, group, index, symbol.name))
    ranked.sort()
    return [name for *_, name in ranked[:limit]]


def _relative(path: str, folder: str) -> str:
    return path[len(folder) + 1 :] if folder and path.startswith(folder + "/") else path


def _map_notes(code_map: CodeMap, notes: Sequence[NoteRef]) -> list[tuple[NoteRef, str]]:
    """Active decisions and gotchas, those about central files first, with the most
    central file each is about ("" if none)."""
    picked = []
    for note in notes:
        if note.type not in MAP_NOTE_TYPES or note.status != "active":
            continue
        files = sorted(files_for_note(code_map, note.files), key=lambda p: _rank_key(code_map, p))
        top = files[0] if files else ""
        rank = round(code_map.file_rank.get(top, 0.0), 12)
        picked.append((-rank, MAP_NOTE_TYPES.index(note.type), note.title, note.id, note, top))
    picked.sort(key=lambda item: item[:4])
    return [(item[4], item[5]) for item in picked]


def _note_order(note: NoteRef) -> tuple[int, str, str]:
    """How listed notes are ordered: by type, then title (rank only picks which)."""
    return (MAP_NOTE_TYPES.index(note.type), note.title.casefold(), note.id)


def _rank_key(code_map: CodeMap, path: str) -> tuple[float, str]:
    return (-round(code_map.file_rank.get(path, 0.0), 12), path)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What every fitting attempt of :func:`render_map` reads from the map, computed
    once (ranking 10,000 files per attempt cost a render 0.5 s)."""

    modules: list[str]
    langs: str
    per_module: dict[str, list[str]]
    """Module → its top files (tests last), at most :data:`_CAPS` ``per_module``."""
    central: list[str]
    """Files by rank that a file imports, tests left out: at most :data:`_CAPS`
    ``files``."""


def _language_counts(code_map: CodeMap) -> Counter[str]:
    """Files per language, a ``.h`` header (counted as C: its extension says no more)
    counted with the C-family language whose sources outnumber the others': C++ for
    spdlog's and fmt's headers, Objective-C for an app's, C where C sources are as
    many. Extensions in any case, as :func:`rubi.codemap.languages.language_of` reads
    them."""
    languages = Counter(f.language for f in code_map.files.values())
    headers = sum(1 for p in code_map.files if p.lower().endswith(".h"))
    if not headers:
        return languages
    sources = {
        "c": languages["c"] - headers,
        "cpp": languages["cpp"],
        "objc": languages["objc"],
    }
    owner = max(("cpp", "objc"), key=lambda lang: sources[lang])
    if sources[owner] > sources["c"]:
        languages["c"] -= headers
        languages[owner] += headers
        if languages["c"] <= 0:
            del languages["c"]
    return languages


def _facts(code_map: CodeMap) -> _Facts:
    modules = code_map.ranked_modules()
    languages = _language_counts(code_map)
    langs = ", ".join(
        f"{lang} {n}" for lang, n in sorted(languages.items(), key=lambda x: (-x[1], x[0]))[:3]
    )
    per_module: dict[str, list[str]] = {}
    for name in modules[: _CAPS["modules"]]:
        files = code_map.ranked_files(name)
        top = [p for p in files if not is_test_path(p)] or files
        per_module[name] = top[: _CAPS["per_module"]]
    used = code_map.in_degree
    central: list[str] = []
    for path in code_map.ranked_files():
        if len(central) == _CAPS["files"]:
            break
        if used.get(path, 0) and not is_test_path(path):
            central.append(path)
    return _Facts(modules, langs, per_module, central)


MORE_NAMES_CHARS = 160
"""The most characters of module names the map's "… N more" line holds (about 40
tokens); the rest are counted."""


def _more_modules(rest: list[str]) -> str:
    """The line for the modules the map leaves out: their names by rank, as many as
    :data:`MORE_NAMES_CHARS` holds, so that ``rubi map <module>`` can open any of them
    (it pointed at ``rubi map``, the command that had printed the page)."""
    names: list[str] = []
    used = 0
    for name in rest:
        used += len(name) + 2
        if names and used > MORE_NAMES_CHARS:
            break
        names.append(f"`{name}`")
    left = len(rest) - len(names)
    return f"- … {len(rest)} more: {', '.join(names)}" + (f" and {left} others" if left else "")


def _compose(
    code_map: CodeMap,
    facts: _Facts,
    notes: list[tuple[NoteRef, str]],
    block: str,
    caps: dict[str, int],
) -> str:
    modules, langs = facts.modules, facts.langs
    lines = ["# Code map", "", GENERATED_COMMENT, block, ""]
    lines.append(
        f"{counted(len(code_map.files), 'file')} in {counted(len(modules), 'module')}"
        + (f" ({langs})." if langs else ".")
    )
    if modules and caps["modules"]:
        lines += ["", "## Modules"]
        for name in modules[: caps["modules"]]:
            module = code_map.modules[name]
            count = len(module.files)
            line = f"- {link('modules/' + module.slug, name)} {counted(count, 'file')}"
            top = facts.per_module[name][: caps["per_module"]]
            if top:
                line += ": " + ", ".join(_relative(p, module.folder) for p in top)
            lines.append(line)
        if len(modules) > caps["modules"]:
            lines.append(_more_modules(modules[caps["modules"] :]))
    ranked = facts.central
    if ranked and caps["files"]:
        lines += ["", "## Central files"]
        for path in ranked[: caps["files"]]:
            line = f"- `{path}` (used by {code_map.in_degree.get(path, 0)})"
            names = short_symbols(code_map.files[path], caps["symbols"])
            if names:
                line += ": " + ", ".join(names)
            lines.append(line)
    if notes and caps["notes"]:
        lines += ["", "## Decisions and gotchas"]
        shown = sorted(notes[: caps["notes"]], key=lambda item: _note_order(item[0]))
        for note, central in shown:
            about = f" (`{central}`)" if central else ""
            lines.append(f"- {note.type}: {link(note.id, note.title)}{about}")
        if len(notes) > caps["notes"]:
            lines.append("- … more: `rubi search decision`, `rubi search gotcha`")
    lines += [
        "",
        'Search notes and code: `rubi search "words"`; a module\'s page: `rubi map <module>`.',
    ]
    return "\n".join(lines) + "\n"


def render_map(
    code_map: CodeMap,
    notes: Sequence[NoteRef],
    curated: str | None,
    *,
    budget_tokens: int = MAP_BUDGET_TOKENS,
) -> str:
    """Render level 0, ``map.md``.

    Args:
        code_map: the ranked map.
        notes: the vault's notes (only active decisions and gotchas are listed).
        curated: the summary to keep (from :func:`rubi.codemap.extract_curated`), or None.
        budget_tokens: the most the page may cost (``rubi.core.tokens.estimate_tokens``).

    Returns:
        Markdown: title, the curated summary block, a one-line census, modules by
        rank with their central files (wikilinks to ``modules/<slug>``), the most
        central files with "used by N" and key symbols, active decisions and gotchas
        (the ones about the most central files, by type and title; wikilinks to the
        notes), and how to search. Within budget unless the curated
        summary alone exceeds it (it is never cut). Files nothing imports are not
        "central" and are not listed there.

    Raises:
        CuratedSummaryError: ``curated`` contains a summary marker.
    """
    block = curated_block(curated)
    picked = _map_notes(code_map, notes)
    caps = dict(_CAPS)
    facts = _facts(code_map)
    text = _compose(code_map, facts, picked, block, caps)
    for field, floor in _STEPS:
        while estimate_tokens(text) > budget_tokens and caps[field] > floor:
            caps[field] -= 1
            text = _compose(code_map, facts, picked, block, caps)
    return text
