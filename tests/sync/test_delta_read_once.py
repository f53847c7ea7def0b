"""A cold run whose edit changes files' shape reads the code map's delta once: the
read of the map before the run and the save after it share it (on spring-framework
the delta holds the map's ranks, 2.5 MB of pickle), while a delta or edits file
replaced since that read is read again."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from rubi import app
from rubi.core import picklefiles
from rubi.sync import codestore
from rubi.sync.codestore import delta_file, edits_file, read_code_map
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_edits_as_full_index import HANDLER
from sync.test_cold_map_memory import ColdRepo, project

__all__ = ["project"]  # the fixture, shared

IMPORT = "import org.demo.core.FileResource;\nimport"


def _delta_reads(monkeypatch: pytest.MonkeyPatch, delta: Path) -> list[Path]:
    """Record every unpickling of the ``delta`` file."""
    reads: list[Path] = []
    load = picklefiles.load_pickle

    def recorded(path: Path, *args: object, **kwargs: object) -> object:
        if Path(path) == delta:
            reads.append(Path(path))
        return load(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(codestore, "load_pickle", recorded)
    return reads


def _cold_run(project: Path) -> VaultSync:
    codestore._last_deltas = None  # a new process
    codestore._last_base = None
    vault_sync = VaultSync(app.locate(project / ".rubi"))
    vault_sync.run()
    return vault_sync


def test_a_cold_shape_edit_reads_the_delta_once(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    text = (project / HANDLER).read_text(encoding="utf-8")
    repo.write(HANDLER, text.replace("import", IMPORT, 1))
    _cold_run(project)  # the import added: a delta with the map's other fields
    assert delta_file(paths).exists()
    reads = _delta_reads(monkeypatch, delta_file(paths))
    repo.write(HANDLER, text)
    vault_sync = _cold_run(project)  # removed: the map read before, the delta saved after
    assert len(reads) == 1
    assert _graph_of(vault_sync) == _scratch(vault_sync)
    held = vault_sync.code_map()
    codestore._last_deltas = None
    codestore._last_base = None
    assert held is not None and read_code_map(paths) == held  # what a new process reads


def test_a_delta_replaced_since_it_was_read_is_read_again(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    repo = ColdRepo(project)
    text = (project / HANDLER).read_text(encoding="utf-8")
    repo.write(HANDLER, text.replace("import", IMPORT, 1))
    _cold_run(project)
    first = read_code_map(paths)
    assert first is not None and codestore._last_deltas is not None
    delta = pickle.loads(delta_file(paths).read_bytes())
    stats = replace(delta.stats, listed=delta.stats.listed + 1)
    picklefiles.save_pickle(delta_file(paths), replace(delta, stats=stats))
    again = read_code_map(paths)
    assert again is not None and again.stats.listed == first.stats.listed + 1
    assert not edits_file(paths).exists()
    # kept-shape edits written beside the delta since are read too
    edits = codestore.CodeMapDelta(delta.ident, {}, replace(stats, listed=7))
    picklefiles.save_pickle(edits_file(paths), edits)
    latest = read_code_map(paths)
    assert latest is not None and latest.stats.listed == 7
