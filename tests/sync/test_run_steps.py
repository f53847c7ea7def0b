"""A sync run's plan and its steps, each taken alone on a real store and index: what
kind of run the flags make, and what each step leaves for the next."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.index.searchindex import SearchIndex
from rubi.sync.code import CodeRun
from rubi.sync.manifest import IndexReport, VaultState, state_from_store
from rubi.sync.plan import RunPlan, plan_changes, plan_run
from rubi.sync.rows import Store, open_store
from rubi.sync.steps import SyncRun
from rubi.vault.scan import scan_vault

from helpers import write


@pytest.mark.parametrize(
    ("flags", "kind", "code", "moves", "first", "in_run"),
    [
        ({"full": True, "code": False, "project": False}, "streamed", True, False, False, False),
        ({"full": True, "code": False, "project": True}, "full", True, False, True, False),
        ({"full": False, "code": True, "project": True}, "incremental", True, True, False, True),
        ({"full": False, "code": False, "project": True}, "incremental", False, False, False, True),
        ({"full": False, "code": True, "project": False}, "incremental", True, False, False, False),
        (
            {"full": False, "code": True, "project": True, "watched": True},
            "watched",
            True,
            True,
            False,
            True,
        ),
    ],
)
def test_the_flags_make_one_kind_of_run(
    flags: dict[str, bool], kind: str, code: bool, moves: bool, first: bool, in_run: bool
) -> None:
    plan = plan_run(verify=False, **{"watched": False, **flags})
    assert (plan.kind, plan.code, plan.moves_code_nodes) == (kind, code, moves)
    assert (plan.pages_first, plan.pages_in_run) == (first, in_run)
    assert plan.full == flags["full"] and plan.streamed == (kind == "streamed")


def test_a_run_plan_is_frozen() -> None:
    plan = plan_run(full=False, code=True, verify=True, project=True, watched=False)
    with pytest.raises(AttributeError):
        plan.kind = "full"  # type: ignore[misc]


@pytest.fixture
def vault(tmp_path: Path) -> VaultPaths:
    root = tmp_path / "vault"
    write(root / "a.md", "# A\n\nSee [[b]].\n")
    write(root / "b.md", "# B\n\nBeta words.\n")
    write(root / "keep.md", "# Keep\n\nKept as it is.\n")
    paths = app.locate(root)
    app.index(paths)
    return paths


@pytest.fixture
def store(vault: VaultPaths) -> Iterator[Store]:
    opened = open_store(vault.store_file, create=False)
    assert opened is not None
    yield opened
    opened.rollback()
    opened.close()


def _run(paths: VaultPaths, store: Store, plan: RunPlan) -> SyncRun:
    """A run as the vault sync makes one (a full build starts from an empty manifest)."""
    old = VaultState(gen=store.gen()) if plan.full else state_from_store(store)
    assert old is not None
    changes = plan_changes(old, listing := scan_vault(paths.root))
    index = SearchIndex(paths.whoosh_dir)
    return SyncRun(paths, plan, store, index, old, changes, listing.attachments, IndexReport())


INCREMENTAL = plan_run(full=False, code=False, verify=False, project=False, watched=False)


def test_each_step_leaves_what_the_next_reads(vault: VaultPaths, store: Store) -> None:
    write(vault.root / "a.md", "# A\n\nNo link now.\n")
    (vault.root / "b.md").unlink()
    write(vault.root / "c.md", "# C\n\nGamma words.\n")
    run = _run(vault, store, INCREMENTAL)
    gen = run.old.gen

    run.read_notes()
    assert sorted(run.changed) == ["a", "c"] and run.reading.relink
    assert (run.report.added, run.report.updated, run.report.unchanged) == (1, 1, 1)

    run.find_deletes()
    assert run.deletes == ["b"] and run.report.deleted == 1

    run.take_code(CodeRun(), None)
    assert not run.reshaped and not run.wants_pages  # a plain vault has no pages
    assert run.changed_anything and run.graph_changed

    run.index_text()
    assert run.new.gen == gen + 1
    index = SearchIndex(vault.whoosh_dir)
    try:
        assert index.doc_count() == 3  # a, c, keep
    finally:
        index.close()
    assert store.gen() == gen  # Whoosh first, the store's rows after

    run.commit_rows()
    assert store.gen() == gen + 1
    assert sorted(store.notes()) == ["a", "c", "keep"]

    run.commit_vectors()
    assert run.vectors is None
    assert run.graph_records() is None  # not a streamed build


def test_a_run_of_touched_identical_files_keeps_only_their_times(
    vault: VaultPaths, store: Store
) -> None:
    path = vault.root / "keep.md"
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 10**9))
    run = _run(vault, store, INCREMENTAL)
    run.read_notes()
    run.find_deletes()
    run.take_code(CodeRun(), None)
    assert not run.changed_anything and not run.graph_changed
    assert run.keep_times()
    assert run.new.indexed_at == run.old.indexed_at
    assert run.new.files["keep.md"].mtime_ns == info.st_mtime_ns + 10**9


def test_an_unchanged_vault_has_no_times_to_keep(vault: VaultPaths, store: Store) -> None:
    run = _run(vault, store, INCREMENTAL)
    run.read_notes()
    run.find_deletes()
    run.take_code(CodeRun(), None)
    assert not run.changed_anything and not run.keep_times()


def test_a_streamed_build_indexes_and_stores_each_note_as_it_reads_it(
    vault: VaultPaths, store: Store
) -> None:
    plan = plan_run(full=True, code=False, verify=False, project=False, watched=False)
    run = _run(vault, store, plan)
    run.read_notes()
    assert run.changed == {}  # nothing kept in memory but the graph records
    index = SearchIndex(vault.whoosh_dir)
    try:
        assert index.doc_count() == 3
    finally:
        index.close()
    assert run.report.added == 3
    records = run.graph_records()
    assert records is not None and sorted(records) == ["a", "b", "keep"]
    assert run.graph_records() is None  # handed over once
