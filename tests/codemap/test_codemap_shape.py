"""An edit that keeps a file's shape (imports, package, identifiers, symbol names)
keeps the previous map's resolution and ranks, and gives the map a full build gives."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rubi.codemap import build_code_map
from rubi.codemap.model import CodeMap

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from . import b\n\n\ndef run():\n    return b.helper()\n",
    "pkg/b.py": "import os\n\n\ndef helper():\n    return os.sep\n",
    "pkg/c.py": "from .a import run\n\n\nclass Runner:\n    pass\n",
}


def _same(a: CodeMap, b: CodeMap) -> None:
    for f in dataclasses.fields(CodeMap):
        if f.name != "stats" and f.compare:
            assert getattr(a, f.name) == getattr(b, f.name), f.name


def test_a_body_edit_keeps_the_shape(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    first = build_code_map(repo, cache)
    (repo / "pkg" / "b.py").write_text(
        "import os\n\n# a comment that moves the function down\n\n\ndef helper():\n"
        "    return os.sep * 2\n"
    )
    kept = build_code_map(repo, cache, previous=first)
    assert kept.stats.reused_shape
    assert kept.files["pkg/b.py"].sha256 != first.files["pkg/b.py"].sha256
    assert [s.line for s in kept.files["pkg/b.py"].symbols] == [6]
    _same(kept, build_code_map(repo, tmp_path / "fresh.json"))


def test_a_new_import_or_symbol_rebuilds(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    first = build_code_map(repo, cache)
    (repo / "pkg" / "b.py").write_text("import os\nfrom . import c\n\n\ndef helper():\n    pass\n")
    changed = build_code_map(repo, cache, previous=first)
    assert not changed.stats.reused_shape
    assert ("pkg/b.py", "pkg/c.py") in changed.edges
    _same(changed, build_code_map(repo, tmp_path / "fresh.json"))
    (repo / "pkg" / "c.py").write_text("from .a import run\n\n\nclass Walker:\n    pass\n")
    renamed = build_code_map(repo, cache, previous=changed)
    assert not renamed.stats.reused_shape
    _same(renamed, build_code_map(repo, tmp_path / "fresh2.json"))


def test_build_stats_pickled_before_a_later_field_load_with_its_default() -> None:
    import pickle

    from rubi.codemap.model import BuildStats

    stats = BuildStats(listed=3, mapped=2, reused_shape=True, kept_graph=True)
    older = stats.__getstate__()[:-1]  # the state an older rubi pickled: no kept_graph
    restored = BuildStats.__new__(BuildStats)
    restored.__setstate__(older)
    assert restored == dataclasses.replace(stats, kept_graph=False)
    assert pickle.loads(pickle.dumps(stats)) == stats
