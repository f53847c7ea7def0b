"""Group files into modules the way people talk about a codebase.

The rule, in order:

1. **Package roots** anchor modules: the repository root, every folder with a manifest
   (``package.json``, ``Cargo.toml``, ``go.mod``, ``pyproject.toml``...), every child of
   a container folder (``packages/*``, ``apps/*``, ``crates/*``, ``libs/*``,
   ``examples/*``...), and every top-level Python package (``src/flask``).
2. Below a root, a folder's **depth** counts only significant segments: source-layout
   folders (``src``, ``lib``, ``main``, ``java``...), pass-through folders (no files,
   one subfolder), the reverse domain under a JVM source folder (``org/example``) and
   a folder named as the segment before it (``gson/.../com/google/gson``) do not count.
3. A file belongs to its deepest enclosing folder that is a root, the repository's own
   source folder (``src/`` at the top, apart from root scripts and configs), at depth
   ≤ :data:`MAX_MODULE_DEPTH`, or holds at least :data:`SPLIT_MODULE_FILES` files.
4. **Tiny modules merge upward**: fewer than :data:`MIN_MODULE_FILES` files join the
   nearest enclosing module, unless they are a package (a manifest, a top-level
   Python package): a two-file crate is still the crate people name.

A module's name is its package root's name followed by its significant segments
(``packages/eslint-plugin/src/rules`` → ``eslint-plugin/rules``, ``src/flask`` →
``flask``, ``spring-core/src/main/java/org/springframework/util`` →
``spring-core/util``, ``gson/src/main/java/com/google/gson/stream`` → ``gson/stream``);
the root is ``(root)``; a segment never repeats the one before it. Folders that get the same name (a
package split over ``src/main/java`` and ``src/main/kotlin``) form one module.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from collections.abc import Iterable

from rubi.codemap.model import Module

__all__ = [
    "GROUPING_VERSION",
    "MAX_MODULE_DEPTH",
    "MIN_MODULE_FILES",
    "RESOLVER_VERSION",
    "SPLIT_MODULE_FILES",
    "group_modules",
    "slugify",
]

GROUPING_VERSION = 2
"""Which rules group files into modules and name them; a map saved under another
version is grouped again at the next run (:func:`rubi.sync.code.code_fingerprint`).
2: a segment that repeats the one before it does not count (``gson``, not ``gson/gson``)."""
RESOLVER_VERSION = 9
"""Which rules the resolvers (:mod:`rubi.codemap.lang`) follow, where an import leads;
kept here, beside the grouping's, so that checking a map's rules imports no parser. A
map saved under another version is mapped again at the next run, from the cached
parses. 2: a standard library name is not resolved against another root's packages
(``import enum`` in ``typer/main.py`` is not ``docs_src/parameter_types/enum/``).
3: a Go import leads to the package's files that define a name the importer uses.
4: no resolver rule changed; the map is made again so that the C++ symbols of
:data:`rubi.codemap.lang.PARSER_VERSION` 6 reach a project none of whose files changed.
5: no resolver rule changed; made again with ``PARSER_VERSION`` 7.
6: no resolver rule changed; made again with ``PARSER_VERSION`` 8.
7: no resolver rule changed; made again so that the test files
:func:`rubi.core.filekinds.is_test_path` now reads (Kotlin's ``commonTest/``, Swift's
``MoyaTests/``) are weighed as tests in a project none of whose files changed.
8: no resolver rule changed; made again because :func:`rubi.core.filekinds.is_test_path`
reads a singular ``xTest/`` folder as a test source set only under ``src/`` (a package
``abTest/`` is code again) and any folder ending in ``Tests/`` as tests (``Tests/``,
``MyAppUITests/``).
9: no resolver rule changed; made again because :func:`rubi.core.filekinds.is_test_path`
reads PHPUnit's ``XTest.php`` as a test and a folder below a Gradle or Maven main source
set (``src/main/``, ``src/commonMain/``) as a package (kotlinpoet's ``specs/``)."""
MIN_MODULE_FILES = 3
"""A module of fewer files is noise on the map; it joins its parent."""
MAX_MODULE_DEPTH = 1
"""Folders this many significant levels below a package root are modules (``router``
in ``src/router``); deeper ones join them, so the map stays at the level people name."""
SPLIT_MODULE_FILES = 40
"""A deeper folder this large is a module of its own (``django/contrib/admin``): a module
of hundreds of files says nothing."""

MANIFESTS = frozenset(
    {
        "package.json",
        "Cargo.toml",
        "go.mod",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "composer.json",
        "pubspec.yaml",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "deno.json",
    }
)
_MANIFEST_SUFFIXES = (".gemspec", ".gradle", ".gradle.kts", ".csproj")
CONTAINERS = frozenset(
    {"packages", "apps", "crates", "libs", "services", "plugins", "extensions", "examples", "cmd"}
)
"""Folders whose children are separate packages."""
_NAME_STRIP = frozenset({"packages", "apps", "crates", "libs"})
SOURCE_DIRS = frozenset({"src", "lib", "source", "sources", "main", "java", "kotlin", "scala"})
"""Source-layout folders: not counted as depth, dropped from names."""
_JVM_DIRS = frozenset({"java", "kotlin", "scala", "groovy"})
_TLDS = frozenset(
    [
        "com",
        "org",
        "net",
        "io",
        "dev",
        "edu",
        "gov",
        "me",
        "co",
        "app",
        "info",
        "biz",
        "de",
        "uk",
        "fr",
        "nl",
        "ch",
        "jp",
        "cn",
        "ru",
        "br",
        "eu",
    ]
)
"""First segments of reverse-domain package paths (``org/springframework``)."""


def slugify(name: str) -> str:
    """File-name-safe slug of a module name (``eslint-plugin/rules`` → ``eslint-plugin-rules``)."""
    slug = re.sub(r"[^\w.-]+", "-", name.lower().replace("/", "-")).strip("-.")
    return re.sub(r"-{2,}", "-", slug) or "module"


def _dirname(path: str) -> str:
    """``posixpath.dirname`` of a normalised relative path, without its generality."""
    return path.rpartition("/")[0]


def _basename(path: str) -> str:
    """``posixpath.basename`` of a normalised relative path."""
    return path.rpartition("/")[2]


class _Layout:
    """The folders of the code files, their package roots, and what is significant."""

    def __init__(self, paths: list[str], listed: Iterable[str]) -> None:
        self.own: dict[str, int] = defaultdict(int)
        self.total: dict[str, int] = defaultdict(int)
        self.children: dict[str, set[str]] = defaultdict(set)
        for path in paths:
            self.own[_dirname(path)] += 1
        for start, count in list(self.own.items()):
            folder = start
            while True:
                self.total[folder] += count
                if not folder:
                    break
                parent = _dirname(folder)
                self.children[parent].add(folder)
                folder = parent
        self.packages: set[str] = set()
        for path in listed:
            name = _basename(path)
            if name in MANIFESTS or name.endswith(_MANIFEST_SUFFIXES):
                self.packages.add(_dirname(path))
        self.anchors = self.packages | {""}
        for folder in list(self.total):
            if _basename(_dirname(folder)) in CONTAINERS and folder:
                self.anchors.add(folder)
        code = set(paths)
        for path in sorted(code):
            package = _dirname(path)
            parent = _dirname(package)
            if _basename(path) != "__init__.py" or not package:
                continue
            if posixpath.join(parent, "__init__.py") in code or (
                not parent and "__init__.py" in code
            ):
                continue  # a subpackage
            outer = _dirname(parent) if _basename(parent) in SOURCE_DIRS else None
            if parent in self.anchors or (outer is not None and outer in self.anchors):
                self.packages.add(package)
                self.anchors.add(package)
        self._anchor: dict[str, str] = {}
        self._significant: dict[str, bool] = {}

    def anchor_of(self, folder: str) -> str:
        """The package root enclosing ``folder`` (itself if it is one)."""
        if folder not in self._anchor:
            self._anchor[folder] = (
                folder if folder in self.anchors else self.anchor_of(_dirname(folder))
            )
        return self._anchor[folder]

    def significant(self, folder: str) -> bool:
        """Whether ``folder``'s own segment counts as depth and shows in names."""
        known = self._significant.get(folder)
        if known is None:
            known = self._significant[folder] = self._is_significant(folder)
        return known

    def _is_significant(self, folder: str) -> bool:
        if folder in self.anchors:
            return True
        name = _basename(folder)
        if name in SOURCE_DIRS:
            return False
        if self.own.get(folder, 0) == 0 and len(self.children.get(folder, ())) == 1:
            return False  # pass-through
        parent = _dirname(folder)
        grand = _dirname(parent)
        if _basename(parent) in _JVM_DIRS and name in _TLDS:
            return False
        if _basename(grand) in _JVM_DIRS and _basename(parent) in _TLDS:
            return False
        return name != self._named_above(parent)

    def _named_above(self, folder: str) -> str:
        """The last segment the name has at ``folder``: its own if it is significant
        (or a package root), else that of the nearest one above; ``""`` at the root.
        A folder of that same name adds nothing: a Maven or Gradle module ``gson``
        whose package is ``com.google.gson`` (the reverse domain is dropped, the
        project's own segment repeats the module's), ``spring-test``'s
        ``src/test/.../springframework/test``, a Python ``foo/foo/``."""
        while folder not in self.anchors and not self.significant(folder):
            folder = _dirname(folder)
        return _basename(folder)

    def below(self, folder: str) -> list[str]:
        """Significant segments between ``folder``'s package root and ``folder``."""
        anchor = self.anchor_of(folder)
        segments: list[str] = []
        while folder != anchor:
            if self.significant(folder):
                segments.append(_basename(folder))
            folder = _dirname(folder)
        return segments[::-1]

    def eligible(self, folder: str) -> bool:
        """Whether ``folder`` can hold a module (rule 3 above)."""
        if folder in self.anchors:
            return True
        if _basename(folder) in SOURCE_DIRS:  # src/ of the repository is the
            # product, apart from the root's scripts and configs; elsewhere it is
            # part of its package
            return _dirname(folder) == self.anchor_of(folder) == "" and self.own[folder] > 0
        if not self.significant(folder):
            return False
        return (
            len(self.below(folder)) <= MAX_MODULE_DEPTH
            or self.total.get(folder, 0) >= SPLIT_MODULE_FILES
        )

    def display(self, folder: str) -> str:
        """Module name for ``folder``: package root name, then significant segments."""
        if not folder:
            return "(root)"
        anchor = self.anchor_of(folder)
        parts = anchor.split("/") if anchor else []
        head = [
            p
            for i, p in enumerate(parts)
            if not (i == 0 and p in _NAME_STRIP) and p not in SOURCE_DIRS
        ]
        named = [p for i, p in enumerate(head) if i == 0 or p != head[i - 1]]
        return "/".join(named + self.below(folder)) or _basename(folder)


def group_modules(
    paths: Iterable[str], listed: Iterable[str]
) -> tuple[dict[str, str], dict[str, Module]]:
    """Assign every code file to a module.

    Args:
        paths: the code files (repository-relative POSIX).
        listed: every listed file, for manifests.

    Returns:
        ``({path: module name}, {module name: Module})``, modules sorted by name.
    """
    files = sorted(paths)
    layout = _Layout(files, listed)
    memo: dict[str, str] = {}

    def home(folder: str) -> str:
        if folder not in memo:
            memo[folder] = folder if layout.eligible(folder) else home(_dirname(folder))
        return memo[folder]

    members: dict[str, list[str]] = defaultdict(list)
    for path in files:
        members[home(_dirname(path))].append(path)
    changed = True
    while changed:  # a merge can leave its target tiny too: repeat until stable
        changed = False
        sizes: dict[str, int] = defaultdict(int)  # by name: java/ and kotlin/ halves add up
        for folder, paths in members.items():
            sizes[layout.display(folder)] += len(paths)
        for folder in sorted(members, key=lambda f: (-f.count("/") - bool(f), f)):
            small = sizes[layout.display(folder)] < MIN_MODULE_FILES
            if folder and folder not in layout.packages and small:
                members[home(_dirname(folder))].extend(members.pop(folder))
                changed = True
    return _named(members, layout)


def _named(
    members: dict[str, list[str]], layout: _Layout
) -> tuple[dict[str, str], dict[str, Module]]:
    """Name the groups; groups with the same name (one package split over
    ``src/main/java`` and ``src/main/kotlin``) become one module, whose folder is the
    one holding most of its files."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for folder in sorted(members):
        by_name[layout.display(folder)].append(folder)
    slugs: set[str] = set()
    modules: dict[str, Module] = {}
    assignment: dict[str, str] = {}
    for name in sorted(by_name):
        folders = by_name[name]
        main = min(folders, key=lambda f: (-len(members[f]), f))
        slug = base = slugify(name)
        n = 2
        while slug in slugs:
            slug, n = f"{base}-{n}", n + 1
        slugs.add(slug)
        paths = sorted(p for f in folders for p in members[f])
        modules[name] = Module(name, main, slug, tuple(paths))
        for path in paths:
            assignment[path] = name
    return assignment, modules
