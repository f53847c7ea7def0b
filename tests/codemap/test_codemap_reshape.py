"""An edit that changes files' shape, applied from the kept memory of the last build
(:func:`rubi.codemap.incremental.reshape_code_map`): after every step of a scripted
sequence the updated map equals a full build from scratch."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from codemap.codemap_helpers import age_files, git_init
from rubi.codemap import CodeMap, build_code_map
from rubi.codemap.build import build_parts
from rubi.codemap.files import list_files, stat_files
from rubi.codemap.incremental import MapMemory, memory_of, remember, reshape_code_map
from rubi.codemap.lang import RepoIndex, jvm

from helpers import write

FILES: dict[str, str] = {
    # Java: a package used by name (same-package references), a wildcard importer
    "core/src/main/java/org/demo/core/Resource.java": "package org.demo.core;\n\n"
    "public interface Resource { String name(); }\n",
    "core/src/main/java/org/demo/core/FileResource.java": "package org.demo.core;\n\n"
    'public class FileResource implements Resource { public String name() { return "f"; } }\n',
    "core/src/main/java/org/demo/core/Loader.java": "package org.demo.core;\n\n"
    "public class Loader { Resource load() { return new FileResource(); } }\n",
    "web/src/main/java/org/demo/web/Handler.java": "package org.demo.web;\n\n"
    "import org.demo.core.Loader;\n\npublic class Handler { Loader loader; }\n",
    "web/src/main/java/org/demo/web/All.java": "package org.demo.web;\n\n"
    "import org.demo.core.*;\n\npublic class All { Resource r; }\n",
    "web/src/main/kotlin/org/demo/web/Routes.kt": "package org.demo.web\n\n"
    "import org.demo.core.Loader\n\nfun routes(): Loader = Loader()\n",
    # Python: a package that re-exports
    "py/pkg/__init__.py": "from .app import App\n",
    "py/pkg/app.py": "from .util import helper\n\n\nclass App:\n    pass\n",
    "py/pkg/util.py": "def helper(x):\n    return x\n",
    "py/pkg/cli.py": "from pkg import App\n",
    # TypeScript: a barrel
    "ts/package.json": '{"name": "demo-ts"}\n',
    "ts/src/index.ts": 'export { Button } from "./button";\n',
    "ts/src/button.ts": "export class Button {}\n",
    "ts/src/page.ts": 'import { Button } from "./index";\nexport const p = new Button();\n',
    # Go: a module with two packages
    "go/go.mod": "module example.com/tool\n\ngo 1.22\n",
    "go/command.go": "package tool\n\ntype Command struct{}\n",
    "go/args.go": "package tool\n\nfunc NoArgs(c *Command) error { return nil }\n",
    "go/format.go": 'package tool\n\nfunc (c *Command) String() string { return "c" }\n',
    "go/flag.go": "package tool\n\ntype Flag struct{}\n\n"
    'func (f *Flag) String() string { return "f" }\n',
    "go/use.go": "package tool\n\n"
    "func Show(s interface{ String() string }) string { return s.String() }\n",
    "go/doc/man.go": "package doc\n\n"
    'import tool "example.com/tool"\n\nfunc Gen(c *tool.Command) {}\n',
    "README.md": "# demo\n",
}


class Repo:
    """A repository, its kept memory, and a clock for its edits."""

    def __init__(self, root: Path, cache: Path) -> None:
        self.root = root
        self.cache = cache
        self.tick = 0
        listing = list_files(root)
        stats = stat_files(root, listing.paths)
        code_map, parts = build_parts(root, cache, listing=listing, stats=stats)
        assert parts is not None
        self.memory: MapMemory = remember(code_map, parts, stats)
        self.full_builds = 0

    def write(self, rel: str, content: str | bytes | None) -> None:
        """Write (None: delete) a file, dated after every earlier edit."""
        path = self.root / rel
        if content is None:
            path.unlink()
            return
        write(path, content)
        self.tick += 1
        stamp = path.stat().st_mtime_ns - 1_800_000_000_000 + self.tick * 1_000_000
        os.utime(path, ns=(stamp, stamp))

    def update(self) -> CodeMap:
        """The map brought up to date from the memory (in full when it declines)."""
        listing = list_files(self.root)
        stats = stat_files(self.root, listing.paths)
        got = reshape_code_map(self.root, self.cache, self.memory, listing, stats)
        if got is None:
            self.full_builds += 1
            code_map, parts = build_parts(self.root, self.cache, listing=listing, stats=stats)
            assert parts is not None
            self.memory = remember(code_map, parts, stats)
            return code_map
        code_map, self.memory = got
        self.check_indexes()
        return code_map

    def check_indexes(self) -> None:
        """The JVM index and the lookups, updated in place, equal fresh ones; the
        edges are in order (ranks and module weights are summed in it)."""
        resolved = self.memory.resolved
        edges = list(self.memory.code_map.edges)
        assert edges == sorted(edges)
        if "jvm" in resolved.repo._memo:  # made this step, or kept from the last
            kept = jvm.packages_index(resolved.repo)
            fresh = jvm.packages_index(
                RepoIndex(self.root, resolved.code, self.memory.listing.paths)
            )
            assert isinstance(kept, jvm._Packages) and isinstance(fresh, jvm._Packages)
            assert kept.fqn == fresh.fqn and kept.owners == fresh.owners
            assert dict(kept.packages) == dict(fresh.packages)
        lookups = self.memory.lookups
        if lookups is not None:
            again = jvm.Lookups(resolved.code)
            assert lookups.names == again.names and lookups.packages == again.packages


def assert_same(updated: CodeMap, fresh: CodeMap) -> None:
    """Equal maps: every compared field but the build figures, ranks within the
    tolerance (a shape id names one map's shape and is not compared)."""
    for f in dataclasses.fields(CodeMap):
        a, b = getattr(updated, f.name), getattr(fresh, f.name)
        if f.name in ("file_rank", "module_rank"):
            assert a.keys() == b.keys()
            assert a == pytest.approx(b, abs=1e-6), f.name
        elif f.name != "stats" and f.compare:
            assert a == b, f.name


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    root = tmp_path / "repo"
    for rel, content in FILES.items():
        write(root / rel, content)
    git_init(root)  # a deleted file stays listed until the deletion is committed
    age_files(root)
    return Repo(root, tmp_path / "cache.sqlite")


JAVA = "core/src/main/java/org/demo/core/"
WEB = "web/src/main/java/org/demo/web/"

Step = Callable[[Repo], None]

STEPS: list[tuple[str, Step]] = [
    (
        "a Java import added",
        lambda r: r.write(
            WEB + "Handler.java",
            "package org.demo.web;\n\nimport org.demo.core.Loader;\n"
            "import org.demo.core.FileResource;\n\npublic class Handler { Loader loader; }\n",
        ),
    ),
    ("a Python import removed", lambda r: r.write("py/pkg/app.py", "class App:\n    pass\n")),
    (
        "a Java class renamed",
        lambda r: r.write(
            JAVA + "Loader.java",
            "package org.demo.core;\n\npublic class Loading { Resource load() { return null; } }\n",
        ),
    ),
    (
        "a new Java file in a package seen by wildcard",
        lambda r: r.write(
            JAVA + "UrlResource.java",
            "package org.demo.core;\n\npublic class UrlResource implements Resource {\n"
            '  public String name() { return "u"; } Loader l;\n}\n',
        ),
    ),
    (
        "a file that names a missing class appears",
        lambda r: r.write(
            JAVA + "Loader.java", "package org.demo.core;\n\npublic class Loader {}\n"
        ),
    ),
    ("a Java file deleted", lambda r: r.write(JAVA + "FileResource.java", None)),
    ("a Go file that shares a name deleted", lambda r: r.write("go/flag.go", None)),
    (  # a Go import leads to the files whose names the importer uses
        "a Go importer names a function no file defines yet",
        lambda r: r.write(
            "go/doc/man.go",
            'package doc\n\nimport tool "example.com/tool"\n\n'
            "func Gen(c *tool.Command) { tool.Later() }\n",
        ),
    ),
    (
        "another file of the package defines it",
        lambda r: r.write(
            "go/use.go",
            "package tool\n\nfunc Later() {}\n\n"
            "func Show(s interface{ String() string }) string { return s.String() }\n",
        ),
    ),
    (
        "a Java file moved",
        lambda r: (
            r.write(WEB + "All.java", None),
            r.write(
                "web/src/main/java/org/demo/web/more/All.java",
                "package org.demo.web.more;\n\nimport org.demo.core.*;\n\npublic class All {}\n",
            ),
        ),
    ),
    (
        "a Java package changed",
        lambda r: r.write(
            WEB + "Handler.java",
            "package org.demo.core;\n\npublic class Handler { Loader loader; Resource r; }\n",
        ),
    ),
    (
        "a barrel's export changed",
        lambda r: r.write("ts/src/index.ts", 'export { Button as B } from "./button";\n'),
    ),
    ("a Python module added", lambda r: r.write("py/pkg/extra.py", "from .util import helper\n")),
    (
        "a re-export changed",
        lambda r: r.write("py/pkg/__init__.py", "from .extra import helper as App\n"),
    ),
    ("a non-code file added", lambda r: r.write("docs/notes.txt", "notes\n")),
    ("a code file turned binary", lambda r: r.write("go/args.go", b"\x00\x01binary")),
    ("a TypeScript file turned binary", lambda r: r.write("ts/src/page.ts", b"\x00binary")),
    (  # left out for another reason: only the warnings change
        "a left-out file minified",
        lambda r: r.write("ts/src/page.ts", "export const p = 1;" * 400),
    ),
    (
        "a Go file added to a package",
        lambda r: r.write("go/run.go", "package tool\n\nfunc Run(c *Command) { NoArgs(c) }\n"),
    ),
    ("a body edit", lambda r: r.write("go/run.go", "package tool\n\nfunc Run(c *Command) {}\n")),
    (
        "a manifest changed",
        lambda r: r.write("go/go.mod", "module example.com/other\n\ngo 1.22\n"),
    ),
    (
        "after the manifest, an import added again",
        lambda r: r.write(
            "go/doc/man.go",
            'package doc\n\nimport tool "example.com/other"\n\nfunc Gen(c *tool.Command) {}\n',
        ),
    ),
]


def test_every_step_equals_a_full_build(repo: Repo, tmp_path: Path) -> None:
    for number, (name, step) in enumerate(STEPS):
        step(repo)
        updated = repo.update()
        fresh = build_code_map(repo.root, tmp_path / f"fresh-{number}.sqlite")
        try:
            assert_same(updated, fresh)
        except AssertionError as exc:
            raise AssertionError(f"after {name!r}: {exc}") from exc
    assert repo.full_builds == 1  # the manifest alone


def test_a_memory_made_from_the_cache_serves_every_step(repo: Repo, tmp_path: Path) -> None:
    """What a watcher makes after its catch-up run (a map read back from disk): the
    same steps, none built in full but the manifest's."""
    listing = list_files(repo.root)
    stats = stat_files(repo.root, listing.paths)
    saved = build_code_map(repo.root, repo.cache, listing=listing, stats=stats)
    made = memory_of(repo.root, repo.cache, saved, listing, stats)
    assert made is not None and made.code_map is saved
    kept = repo.memory
    assert made.resolved.out == kept.resolved.out and made.module_of == kept.module_of
    assert made.stamps == kept.stamps and made.scan_warnings == kept.scan_warnings
    repo.memory = made
    test_every_step_equals_a_full_build(repo, tmp_path)


def test_no_memory_of_a_map_the_files_moved_on_from(repo: Repo) -> None:
    listing = list_files(repo.root)
    stats = stat_files(repo.root, listing.paths)
    saved = build_code_map(repo.root, repo.cache, listing=listing, stats=stats)
    repo.write("py/pkg/util.py", "import os\n")
    moved = build_code_map(repo.root, repo.cache)  # the cache's rows are the new file's
    assert memory_of(repo.root, repo.cache, saved, listing, stats) is None
    assert memory_of(repo.root, None, saved, listing, stats) is None
    listing = list_files(repo.root)
    stats = stat_files(repo.root, listing.paths)
    assert memory_of(repo.root, repo.cache, moved, listing, stats) is not None


def test_shape_kinds(repo: Repo) -> None:
    repo.write("go/command.go", "package tool\n\n// a comment\ntype Command struct{}\n")
    kept = repo.update()
    assert kept.stats.reused_shape
    repo.write(
        WEB + "Handler.java", FILES[WEB + "Handler.java"] + "import org.demo.core.Resource;\n"
    )
    moved = repo.update()
    assert not moved.stats.reused_shape
    assert (WEB + "Handler.java", JAVA + "Resource.java") in moved.edges


def test_an_import_edit_resolves_only_the_changed_file(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolved: list[str] = []
    real = jvm.resolve

    def spy(path: str, parsed: object, index: object) -> object:
        resolved.append(path)
        return real(path, parsed, index)  # type: ignore[arg-type]

    import rubi.codemap.lang as lang

    monkeypatch.setitem(lang._RESOLVERS, "java", spy)
    monkeypatch.setitem(lang._RESOLVERS, "kotlin", spy)
    repo.write(
        WEB + "Handler.java", FILES[WEB + "Handler.java"] + "import org.demo.core.Resource;\n"
    )
    repo.update()
    assert resolved == [WEB + "Handler.java"]
    resolved.clear()
    repo.write(JAVA + "Extra.java", "package org.demo.core;\n\npublic class Extra {}\n")
    repo.update()
    # the new file, and the wildcard importer of its package; not Handler or Routes
    assert sorted(resolved) == [JAVA + "Extra.java", WEB + "All.java"]


def test_a_manifest_edit_declines(repo: Repo) -> None:
    repo.write("ts/package.json", '{"name": "renamed"}\n')  # no resolver read it
    repo.update()
    assert repo.full_builds == 0
    repo.write("go/go.mod", "module example.com/tool\n\ngo 1.23\n")
    repo.update()
    assert repo.full_builds == 1
