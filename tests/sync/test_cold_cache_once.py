"""A cold run whose edit changes a file's shape opens the parse cache once: the shape
check reads every row, and the reshape after it takes the changed files' rows (and the
parses the check just wrote) from the same open cache, as a cache opened again for
them would give; the map is a build from scratch's."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.codemap import cache as parse_cache
from rubi.sync import codestore
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_edits_as_full_index import HANDLER
from sync.test_cold_map_memory import ColdRepo, project

__all__ = ["project"]  # the fixture, shared

IMPORT = "import org.demo.core.FileResource;\nimport"


def _cold_run(project: Path) -> VaultSync:
    codestore._last_deltas = None  # a new process
    codestore._last_base = None
    vault_sync = VaultSync(app.locate(project / ".rubi"))
    vault_sync.run()
    return vault_sync


def _recorded(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    """Count the cache's connections and its parses decoded from rows."""
    opens: list[int] = []
    decoded: list[int] = []
    connect, from_json = parse_cache._connect, parse_cache._parsed_from_json

    def counted_connect(path: Path) -> object:
        opens.append(1)
        return connect(path)

    def counted_decode(text: str) -> object:
        decoded.append(1)
        return from_json(text)

    monkeypatch.setattr(parse_cache, "_connect", counted_connect)
    monkeypatch.setattr(parse_cache, "_parsed_from_json", counted_decode)
    return opens, decoded


@pytest.mark.parametrize("edit", ["added", "removed"])
def test_a_cold_shape_edit_opens_the_parse_cache_once(
    project: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    repo = ColdRepo(project)
    text = (project / HANDLER).read_text(encoding="utf-8")
    edited = text.replace("import", IMPORT, 1)
    if edit == "removed":
        repo.write(HANDLER, edited)
        _cold_run(project)
    opens, decoded = _recorded(monkeypatch)
    repo.write(HANDLER, edited if edit == "added" else text)
    vault_sync = _cold_run(project)
    held = vault_sync.code_map()
    assert held is not None and not held.stats.reused_shape  # the reshape ran
    assert len(opens) == 1
    assert len(decoded) == 1  # the edited file's parse before it, for the shape check
    assert _graph_of(vault_sync) == _scratch(vault_sync)


def test_a_view_holds_the_rows_asked_for_and_leaves_the_cache_open(tmp_path: Path) -> None:
    from rubi.codemap.model import Parsed

    path = tmp_path / "cache.sqlite"
    cache = parse_cache.open_cache(path)
    entry = parse_cache.CacheEntry("ab" * 32, 3, 10, "python", Parsed(package="p"))
    assert cache.write({"a.py": entry, "b.py": entry}, []) is None
    view = cache.only(["a.py", "c.py"])
    assert list(view.entries) == ["a.py"]
    assert view.parses(["a.py"]) == {"a.py": Parsed(package="p")}
    view.close()
    assert cache.write({}, ["b.py"]) is None  # still open
    assert list(cache.entries) == ["a.py"]
    cache.close()
    again = parse_cache.open_cache(path)
    try:
        assert again.entries == {"a.py": entry.__class__("ab" * 32, 3, 10, "python", None)}
        assert again.parses(["a.py"]) == {"a.py": Parsed(package="p")}
    finally:
        again.close()
