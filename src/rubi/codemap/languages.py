"""Which files are code, and in which language.

Languages with an import resolver are listed in :data:`RESOLVED_LANGUAGES`; the others
are mapped (rank, module, index) with no imports and no symbols.
"""

from __future__ import annotations

__all__ = ["EXTENSIONS", "RESOLVED_LANGUAGES", "language_of"]

EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".vue": "javascript",
    ".svelte": "javascript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".php": "php",
    ".rb": "ruby",
    ".rake": "ruby",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".ipp": "cpp",
    ".m": "objc",
    ".mm": "objc",
    ".css": "css",
    ".scss": "scss",
    ".sass": "scss",
    ".less": "less",
    ".dart": "dart",
    # Mapped without import resolution.
    ".cs": "csharp",
    ".swift": "swift",
    ".scala": "scala",
    ".lua": "lua",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hs": "haskell",
    ".ml": "ocaml",
    ".clj": "clojure",
    ".r": "r",
    ".jl": "julia",
    ".zig": "zig",
    ".nim": "nim",
    ".sh": "shell",
    ".bash": "shell",
    ".sql": "sql",
}
"""File extension (lower case) → language."""

RESOLVED_LANGUAGES = frozenset(
    {
        "python",
        "javascript",
        "typescript",
        "go",
        "rust",
        "java",
        "kotlin",
        "php",
        "ruby",
        "c",
        "cpp",
        "objc",
        "css",
        "scss",
        "less",
        "dart",
    }
)
"""Languages whose imports are resolved to repository files."""

_SPECIAL_NAMES = {"Rakefile": "ruby", "Gemfile": "ruby"}


def language_of(path: str) -> str | None:
    """Return the language of a repository path, or None when it is not code.

    Args:
        path: repository-relative POSIX path.

    Returns:
        A language name from :data:`EXTENSIONS`, or None (docs, data, images, locks).
    """
    name = path.rpartition("/")[2]  # string methods: called for every listed file
    special = _SPECIAL_NAMES.get(name)
    if special:
        return special
    stem = name.lstrip(".")  # leading dots start no extension (os.path.splitext's rule)
    dot = stem.rfind(".")
    return EXTENSIONS.get(stem[dot:].lower()) if dot >= 0 else None
