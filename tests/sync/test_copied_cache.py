"""A cache folder copied or restored (``cp -a``, rsync, a backup, a home folder moved)
keeps the code map's recent changes: its delta and kept-shape edits are tied to the
map file by ids written inside the files, which a copy keeps, not by the map file's
inode, which a copy changes. A delta that cannot be tied to its map (an older rubi's,
keyed by a stat, beside a copied map) makes the run rebuild, never read an older map."""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest

from codemap.test_codemap_reshape import assert_same
from rubi import app
from rubi.codemap import CodeMap, build_code_map
from rubi.core.paths import cache_home
from rubi.core.picklefiles import load_pickle, save_pickle
from rubi.sync import forget_vault_syncs
from rubi.sync.codestore import CodeMapDelta, delta_file, edits_file, read_code_map
from rubi.sync.vaultsync import VaultSync
from sync.test_code_graph_sync import _graph_of, _scratch
from sync.test_cold_map_memory import ColdRepo, _answers, _fresh_copy, project

__all__ = ["project"]  # the fixture, shared

HANDLER = "web/src/main/java/org/demo/web/Handler.java"


def _copy_cache(to: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Copy the whole cache folder as ``cp -a`` does (new inodes, mtimes kept) and point
    the process at the copy, as after a restore or a home folder moved."""
    shutil.copytree(cache_home(), to / "rubi", copy_function=shutil.copy2, symlinks=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(to))
    forget_vault_syncs()


def _import_added(root: Path) -> None:
    original = (root / HANDLER).read_text(encoding="utf-8")
    ColdRepo(root).write(
        HANDLER, original.replace("import", "import org.demo.core.FileResource;\nimport", 1)
    )
    VaultSync(app.locate(root / ".rubi")).run()  # a cold run: the new shape in the delta


def _fields(code_map: CodeMap) -> dict[str, object]:
    return {f.name: getattr(code_map, f.name) for f in dataclasses.fields(CodeMap) if f.compare}


@pytest.mark.parametrize("edit", ["a comment elsewhere", "the import removed"])
def test_a_copied_cache_keeps_the_delta_an_edit_then_gives_a_full_builds_answers(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    paths = app.locate(project / ".rubi")
    original = (project / HANDLER).read_text(encoding="utf-8")
    _import_added(project)
    assert delta_file(paths).exists() and paths.codemap_file.exists()
    before = read_code_map(paths)
    assert before is not None
    _copy_cache(tmp_path / "copied-cache", monkeypatch)
    paths = app.locate(project / ".rubi")
    assert delta_file(paths).exists() and "copied-cache" in str(paths.codemap_file)
    after = read_code_map(paths)
    assert after is not None and _fields(after) == _fields(before)  # the delta applies
    repo = ColdRepo(project)
    if edit == "a comment elsewhere":
        util = "core/src/main/java/org/demo/core/Loader.java"
        repo.write(util, (project / util).read_text(encoding="utf-8") + "// restored\n")
    else:
        repo.write(HANDLER, original)
    cold = VaultSync(paths)
    cold.run()
    code_map = cold.code_map()
    assert code_map is not None
    assert_same(code_map, build_code_map(project))
    assert _graph_of(cold) == _scratch(cold)
    forget_vault_syncs()
    answers = _answers(project)
    assert all(answers) and answers == _answers(_fresh_copy(project, tmp_path / "fresh"))


def test_kept_shape_edits_after_a_shape_delta_survive_a_copy(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = app.locate(project / ".rubi")
    _import_added(project)
    ColdRepo(project).write(HANDLER, (project / HANDLER).read_text(encoding="utf-8") + "// x\n")
    VaultSync(paths).run()
    assert edits_file(paths).exists()  # a kept-shape edit on top of the shape delta
    before = read_code_map(paths)
    assert before is not None
    assert before.files[HANDLER].size == (project / HANDLER).stat().st_size
    _copy_cache(tmp_path / "copied-cache", monkeypatch)
    after = read_code_map(app.locate(project / ".rubi"))
    assert after is not None and _fields(after) == _fields(before)


def test_an_older_rubis_delta_is_read_in_place_and_rebuilt_after_a_copy(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache an older rubi wrote: the map pickled alone, its delta keyed by the map
    file's ``(inode, mtime_ns, size)``. In place it reads as the delta says; copied,
    the key no longer matches and the map reads as absent (the run rebuilds), never
    as the map without its delta."""
    paths = app.locate(project / ".rubi")
    _import_added(project)
    current = read_code_map(paths)
    full = build_code_map(project)
    assert current is not None
    stale = dataclasses.replace(current, files={}, edges={})  # not what the files say
    save_pickle(paths.codemap_file, stale)  # an older rubi's map file: no header
    st = paths.codemap_file.stat()
    old_delta = CodeMapDelta(
        (st.st_ino, st.st_mtime_ns, st.st_size),
        dict(current.files),
        current.stats,
        (),
        dataclasses.replace(current, files={}),
    )
    save_pickle(delta_file(paths), old_delta)
    edits_file(paths).unlink(missing_ok=True)
    in_place = read_code_map(paths)
    assert in_place is not None
    assert_same(in_place, full)
    _copy_cache(tmp_path / "copied-cache", monkeypatch)
    paths = app.locate(project / ".rubi")
    assert read_code_map(paths) is None  # cannot be tied to the map: rebuild
    cold = VaultSync(paths)
    cold.run()
    code_map = cold.code_map()
    assert code_map is not None
    assert_same(code_map, full)
    assert _graph_of(cold) == _scratch(cold)


def test_a_delta_older_than_the_map_is_left_out(project: Path) -> None:
    """A run stopped between writing the whole map and removing the delta leaves a delta
    that names the map before: the map already holds it."""
    paths = app.locate(project / ".rubi")
    _import_added(project)
    stale = load_pickle(delta_file(paths))
    app.index(paths, full=True)  # the whole map written, the delta removed
    assert not delta_file(paths).exists()
    save_pickle(delta_file(paths), stale)
    os.utime(delta_file(paths))
    got = read_code_map(paths)
    assert got is not None
    assert_same(got, build_code_map(project))


def test_an_older_rubis_map_file_is_written_again_by_the_next_run(project: Path) -> None:
    """Nothing changed, the map file an older rubi's (no header): the run reads it with
    its delta and writes it in this format, so the next runs skip the code again."""
    from rubi.sync.codestore import has_current_map

    paths = app.locate(project / ".rubi")
    _import_added(project)
    current = read_code_map(paths)
    assert current is not None and has_current_map(paths)
    save_pickle(paths.codemap_file, current)  # the map pickled alone, as before
    delta_file(paths).unlink()
    edits_file(paths).unlink(missing_ok=True)
    assert not has_current_map(paths)
    forget_vault_syncs()
    VaultSync(paths).run()
    assert has_current_map(paths)
    got = read_code_map(paths)
    assert got is not None
    assert_same(got, build_code_map(project))


def test_a_map_rewritten_while_read_is_never_read_without_its_delta(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run writes the map whole (and removes its delta) between a reader's load of
    the map and its read of the delta: the reader reads again, never the old map alone
    (which lacks the delta's changes)."""
    import rubi.sync.codestore as codestore

    paths = app.locate(project / ".rubi")
    _import_added(project)
    assert delta_file(paths).exists()
    current = read_code_map(paths)
    assert current is not None
    read_deltas = codestore._read_deltas
    rewrites: list[int] = []

    def rewritten_meanwhile(*args: object) -> object:
        if not rewrites:  # another process's run, once: the map whole, its delta removed
            rewrites.append(1)
            codestore._write_map(paths.codemap_file, current)
            delta_file(paths).unlink()
        return read_deltas(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(codestore, "_read_deltas", rewritten_meanwhile)
    got = read_code_map(paths)
    assert rewrites and got is not None
    assert _fields(got) == _fields(current)
