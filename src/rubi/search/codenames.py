"""Which of a query's written identifiers name code of this project.

A long prompt (a pasted GitHub issue, a log) shares as many common words with the files
of any project as with its own: an issue of another Python library matched 0.31–0.59 of
its content words in this project's best file, its own issues 0.14–0.76
(``docs/benchmarks-history.md``, "Recall on issue prompts"), so no word-overlap bar told
them apart, and the recall hook named files of this project for every pasted issue,
relevant or not. What differs is the identifiers: an issue of this project writes the
names of its code (``click.echo_via_pager``, ``PrefixLoader``, ``ds.save_as``,
``site-packages/attr/_funcs.py``), an issue of another library writes that library's
(``attr.ib``, ``httpx.Client``, ``m.fields.String``), which this project does not
define. :func:`project_names` finds the first kind, from the code map's tables only
(the exact-name table of file names and symbols, the module names); the words no one
coins (``TypeError``, ``np.nan``, a URL) name nothing here.

A written word (:func:`rubi.search.longquery.written_words`) that reads as an
identifier (:func:`rubi.search.longquery.is_identifier`) names this project's code when

- a path or URL (it holds ``/``): its file name is a code file's name and its last two
  segments end that file's path (``site-packages/attr/_funcs.py`` names
  ``src/attr/_funcs.py``; ``jinja2/_compat.py`` does not name ``httpx/_compat.py``);
- a dotted name: its first part is one of the project's modules (``click.option``,
  ``rich.console``: the package as imported), or the whole name or its last part is
  a file or symbol name of at most :data:`~rubi.search.names.MAX_NAME_OWNERS` code
  files (``f.write_usage``, ``loaders.py``);
- any other identifier (``snake_case``, ``CamelCase``): it is such a name;

and a plain word names it when it is the project's main package (its most central
module, :func:`_main_package`) written as the package is, case and all: ``[sqlfluff]``
in a pasted configuration, "pvlib cannot compute ..." (the issues of this project that
write no identifier of it), but not "Click to expand" (the folded details block of
rich's issue template, which named click's files when matched without case). A word
written as a compound of the main package's letters (a capital inside it, a hyphen or
an underscore between its parts) names it too: the project's name as its users write
it, ``pip-tools`` for ``piptools``, ``WeasyPrint`` for ``weasyprint``, ``rich-click``
for ``rich_click`` (:func:`_spells_package`); "Click" is no compound.

Every spelling of a word is looked at, not only its first (``written_words`` with
``spellings``): an issue titled "... when I am using Arrow.get()" writes ``arrow.get``
in its example, and only the second names the module ``arrow``. A path's line and column
(``site-packages/black/__init__.py:767:``, a warning's or a linter's form) are left
out before its segments are matched.

Measured on the development halves of the eleven issue sets (``bench/issue_recall.py
--cross``, "issue 28: recall that stays silent on another project's issue, fifteenth
pass"): see :func:`rubi.app.recall` for the rule it serves.
"""

from __future__ import annotations

import re

from rubi.search.longquery import is_identifier, written_words
from rubi.search.names import MAX_NAME_OWNERS
from rubi.vault.names import normalize_name

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from rubi.graph.build import GraphBuild

__all__ = ["project_names"]


def project_names(query: str, build: GraphBuild) -> tuple[str, ...]:
    """The written identifiers of ``query`` that name a code file, a symbol or a module
    of ``build``'s project, in written order (every spelling of each), then the
    project's main package when ``query`` writes it as a word or as a compound of its
    letters (see the module)."""
    words = written_words(query, spellings=True)  # Arrow.get and arrow.get both
    found = [w for w in words if is_identifier(w) and _names_code(w, build)]
    package = _package_written(query, words, build)
    return (*found, package) if package is not None else tuple(found)


def _package_written(query: str, words: list[str], build: GraphBuild) -> str | None:
    """The main package as ``query`` writes it: the package's name when written as it
    is, else the first of ``words`` that is a compound of its letters; None when
    neither. The modules are scanned for the main package only when a plain word is a
    module (without case) or a word is written as a compound of a module's letters."""
    nodes = build.graph.nodes
    plain = [w for w in words if not is_identifier(w)]
    spelled = [w for w in words if _COMPOUND.search(w) and not _NOT_A_NAME.search(w)]
    spelled = [w for w in spelled if any("module:" + v in nodes for v in _module_keys(w))]
    if not spelled and not any("module:" + v in nodes for w in plain for v in {w, w.casefold()}):
        return None
    package = _main_package(build)
    if package is None:
        return None
    if re.search(rf"(?<!\w){re.escape(package)}(?!\w)", query):
        return package
    return next((w for w in spelled if _spells_package(w, package)), None)


_COMPOUND = re.compile(r"[a-z0-9][A-Z]|[A-Za-z0-9][-_][A-Za-z0-9]")
"""A word written as a compound: a capital after a lower-case letter or a digit, or a
hyphen or underscore between letters or digits (``WeasyPrint``, ``pip-tools``)."""
_SEPARATORS = re.compile(r"[-_]")
_NOT_A_NAME = re.compile(r"[./:]")
"""A dotted name, a path or a URL is not a package's name written as a compound."""
_LINE_SUFFIX = re.compile(r"(?::[0-9]+)+$")
"""A path's ``:line`` and ``:line:column`` (``core.py:767``, ``core.py:12:5``)."""


def _module_keys(word: str) -> set[str]:
    """The module names the compound ``word`` may spell: its letters alone, and with
    its hyphens as underscores, case-folded (``pip-tools``: ``piptools``,
    ``pip_tools``)."""
    folded = word.casefold()
    return {_SEPARATORS.sub("", folded), folded.replace("-", "_")}


def _spells_package(word: str, package: str) -> bool:
    """Whether the compound ``word`` is ``package``'s letters, hyphens and underscores
    left out and case ignored (``pip-tools`` and ``piptools``)."""
    return _SEPARATORS.sub("", word).casefold() == _SEPARATORS.sub("", package).casefold()


def _main_package(build: GraphBuild) -> str | None:
    """The name of the project's most central top-level module (the highest ``rank``
    of the code map's modules whose name has no ``/``,
    :attr:`rubi.codemap.model.CodeMap.module_rank`: the package the rest imports,
    ``sqlfluff``, ``pvlib``); None without one. Top-level only: in
    pvlib-python the most central module is ``pvlib/spa_c_files`` (0.41, its C code
    the Python wraps), then ``pvlib`` (0.34); the root is no package."""
    nodes = build.graph.nodes
    best: tuple[float, str] | None = None
    for node in nodes:
        if node.startswith("module:") and node != "module:(root)" and "/" not in node:
            rank = float(nodes[node].get("rank", 0.0) or 0.0)
            if best is None or rank > best[0]:
                best = (rank, node.removeprefix("module:"))
    return best[1] if best is not None else None


def _code_owners(key: str, build: GraphBuild) -> list[str]:
    """The code files the exact-name table gives for ``key`` (notes left out)."""
    nodes = build.graph.nodes
    owners = build.names.get(normalize_name(key), ())
    return [o for o in owners if o in nodes and nodes[o].get("kind") == "file"]


def _names_code(word: str, build: GraphBuild) -> bool:
    """Whether the identifier ``word`` names code of ``build``'s project."""
    if "/" in word:
        parts = [p for p in _LINE_SUFFIX.sub("", word).split("/") if p]
        if not parts:
            return False
        owners = _code_owners(parts[-1], build)
        if len(parts) == 1:
            return 0 < len(owners) <= MAX_NAME_OWNERS
        tail = "/".join(parts[-2:]).casefold()
        return any(o.casefold() == tail or o.casefold().endswith("/" + tail) for o in owners)
    if "." in word:
        first, _, rest = word.partition(".")
        if first and rest and "module:" + first in build.graph.nodes:
            return True
        last = word.rsplit(".", 1)[-1]
        return any(0 < len(_code_owners(k, build)) <= MAX_NAME_OWNERS for k in (word, last) if k)
    return 0 < len(_code_owners(word, build)) <= MAX_NAME_OWNERS
