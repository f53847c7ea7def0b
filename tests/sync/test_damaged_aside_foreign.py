"""Something foreign where a damaged code-map delta is set aside
(``codemap-damaged.pickle``): a folder, a symlink. ``rubi index`` still writes the map
and ends; nothing of the user's is removed."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.sync import forget_vault_syncs
from rubi.sync.codestore import damaged_file, delta_file, has_current_map, read_code_map
from rubi.sync.vaultsync import VaultSync
from sync.test_cold_map_memory import ColdRepo, project
from sync.test_copied_cache import HANDLER, _import_added

__all__ = ["project"]  # the fixture, shared


def test_a_folder_named_as_the_aside_file_does_not_stop_the_index(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    _import_added(project)
    aside = damaged_file(paths)
    aside.mkdir()
    (aside / "keep.txt").write_text("mine", encoding="utf-8")
    ColdRepo(project).write(HANDLER, (project / HANDLER).read_text(encoding="utf-8") + "// y\n")
    forget_vault_syncs()
    VaultSync(paths).run()  # writes the map whole: the aside is not a file of rubi's
    forget_vault_syncs()
    assert read_code_map(paths) is not None
    assert (aside / "keep.txt").read_text(encoding="utf-8") == "mine"  # nothing lost
    assert has_current_map(paths)  # a folder there is no file set aside


def test_a_damaged_delta_beside_a_folder_named_as_the_aside_file(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    _import_added(project)
    assert delta_file(paths).exists()
    damaged_file(paths).mkdir()
    delta_file(paths).write_bytes(b"\x80\x05garbage")
    forget_vault_syncs()
    code_map = read_code_map(paths)
    assert code_map is not None and code_map.files
    forget_vault_syncs()
    VaultSync(paths).run()
    forget_vault_syncs()
    assert read_code_map(paths) is not None
