"""A damaged code-map delta (or kept-shape edits file) beside an intact map: the map is
read without it (one warning line), never as absent, and the next ``rubi index``
brings it up to date even when no file changed since (its "nothing changed" shortcut
is skipped once). Before, the map read as absent until a code file changed: code hits
without symbols and an empty ``rubi map``."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from codemap.test_codemap_reshape import assert_same
from rubi import app
from rubi.codemap import build_code_map
from rubi.sync import forget_vault_syncs
from rubi.sync.codestore import (
    damaged_file,
    delta_file,
    edits_file,
    has_current_map,
    read_code_map,
)
from rubi.sync.vaultsync import VaultSync
from sync.test_cold_map_memory import ColdRepo, project
from sync.test_copied_cache import HANDLER, _import_added

__all__ = ["project"]  # the fixture, shared


@pytest.mark.parametrize("which", ["delta", "edits"])
@pytest.mark.parametrize("damage", [b"\x80\x05garbage", b"", "not a delta"])
def test_a_damaged_delta_is_set_aside_and_the_map_read_without_it(
    project: Path, caplog: pytest.LogCaptureFixture, which: str, damage: bytes | str
) -> None:
    paths = app.locate(project / ".rubi")
    _import_added(project)  # a shape delta
    ColdRepo(project).write(HANDLER, (project / HANDLER).read_text(encoding="utf-8") + "// x\n")
    VaultSync(paths).run()  # a kept-shape edit on top of it
    target = delta_file(paths) if which == "delta" else edits_file(paths)
    assert target.exists() and paths.codemap_file.exists()
    if isinstance(damage, str):
        from rubi.core.picklefiles import save_pickle

        save_pickle(target, damage)  # a readable pickle that is not a delta
    else:
        target.write_bytes(damage)
    forget_vault_syncs()
    with caplog.at_level(logging.WARNING, logger="rubi.sync.codestore"):
        code_map = read_code_map(paths)
    assert code_map is not None and code_map.files  # never a missing map
    lines = [r.getMessage() for r in caplog.records if r.name == "rubi.sync.codestore"]
    assert len(lines) == 1 and "set aside" in lines[0] and target.name in lines[0]
    assert not target.exists() and damaged_file(paths).exists()  # kept aside, not lost
    assert not has_current_map(paths)  # the map may be behind its files
    # Nothing changed since: the next run still brings the map up to date, whole.
    cold = VaultSync(paths)
    cold.run()
    assert not damaged_file(paths).exists() and has_current_map(paths)
    assert not delta_file(paths).exists() and not edits_file(paths).exists()
    forget_vault_syncs()
    again = read_code_map(paths)
    assert again is not None
    assert_same(again, build_code_map(project))
