"""Two kinds of hook that import modules of different packages, in turn (a prompt in
one language, then one naming code): each keeps what the other kept, so neither
imports from source nor writes the file again once both ran; and a module kept from
an earlier run keeps its folder's stamp, so a package made beside it later is the
one imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers import run_kept_code_script

_RUN = """
import importlib, json, sys
sys.path[0:0] = {paths!r}
from rubi.core.modulecode import KeptModules
finder = KeptModules({file!r})
sys.meta_path.insert(0, finder)
mods = [importlib.import_module(name) for name in {names!r}]
print(json.dumps({{
    "loaders": [type(m.__spec__.loader).__name__ for m in mods],
    "files": [m.__file__ for m in mods],
    "saved": finder.save(),
}}))
"""


def _tree(root: Path) -> Path:
    """Two packages, ``ka`` and ``kb``, each with a module, under ``root``."""
    for package in ("ka", "kb"):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
        (root / package / "mod.py").write_text(f"VALUE = {package!r}\n")
    return root


def _run(root: Path, file: Path, names: list[str]) -> dict[str, Any]:
    """Import ``names`` in a fresh process with a finder of ``file`` first, then save
    (:func:`helpers.run_kept_code_script`)."""
    script = _RUN.format(paths=[str(root)], file=str(file), names=names)
    return run_kept_code_script(script, file)


def test_hooks_importing_other_packages_in_turn_keep_each_others_modules(tmp_path: Path) -> None:
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    assert _run(root, file, ["ka.mod"])["saved"] is True
    assert _run(root, file, ["kb.mod"])["saved"] is True  # kb's modules added to ka's
    again = _run(root, file, ["ka.mod"])
    assert again["loaders"] == ["_KeptLoader"]
    assert again["saved"] is False  # not written again: every module came from the file
    assert _run(root, file, ["kb.mod"])["saved"] is False


def test_a_module_kept_from_an_earlier_run_keeps_its_folders_stamp(tmp_path: Path) -> None:
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    _run(root, file, ["ka", "kb.mod"])
    source = root / "ka" / "__init__.py"
    source.write_text("# edited\n")  # in place: no folder's stamp moves
    _run(root, file, ["ka"])  # written again with kb.mod kept from the first run
    (root / "kb" / "mod").mkdir()  # a package beside kb/mod.py: the one Python imports
    (root / "kb" / "mod" / "__init__.py").write_text("VALUE = 'package'\n")
    found = _run(root, file, ["kb.mod"])
    assert found["files"] == [str(root / "kb" / "mod" / "__init__.py")]
