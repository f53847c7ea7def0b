"""The modules a cold hook imports are found and loaded from one kept file in later
processes, as the path finder and the source loader would give them; a changed
source, a module that would now shadow a kept one, another search path and a file
that is damaged or writable by others are never answered from the file."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from rubi.core.modulecode import cache_file

from helpers import run_kept_code_script

_RUN = """
import json, sys
sys.path[0:0] = {paths!r}
from rubi.core.modulecode import KeptModules
finder = KeptModules({file!r})
sys.meta_path.insert(0, finder)
import kx.mod, kx.sub.leaf, top, cmath
print(json.dumps({{
    "extension": [type(cmath.__spec__.loader).__name__, cmath.__file__, "cmath" in finder._served],
    "loaders": [type(m.__spec__.loader).__name__ for m in (kx, kx.mod, kx.sub, kx.sub.leaf, top)],
    "values": [kx.mod.VALUE, kx.sub.leaf.VALUE, top.VALUE],
    "files": [m.__file__ for m in (kx.mod, kx.sub.leaf, top)],
    "paths": [list(kx.__path__), list(kx.sub.__path__)],
    "cached": kx.mod.__cached__,
    "saved": finder.save(),
}}))
"""


def _tree(root: Path) -> Path:
    """A package ``kx`` (a module, a subpackage with a module) and a top-level
    module ``top`` under ``root``."""
    (root / "kx" / "sub").mkdir(parents=True)
    (root / "kx" / "__init__.py").write_text("")
    (root / "kx" / "mod.py").write_text("VALUE = 'mod one'\n")
    (root / "kx" / "sub" / "__init__.py").write_text("")
    (root / "kx" / "sub" / "leaf.py").write_text("VALUE = 'leaf one'\n")
    (root / "top.py").write_text("VALUE = 'top one'\n")
    return root


def _run(paths: list[Path], file: Path) -> dict[str, Any]:
    """Import the tree's modules in a fresh process with a finder of ``file`` first,
    then save (:func:`helpers.run_kept_code_script`)."""
    return run_kept_code_script(_RUN.format(paths=[str(p) for p in paths], file=str(file)), file)


KEPT = ["_KeptLoader"] * 5
SOURCE = ["SourceFileLoader"] * 5


def test_modules_imported_from_source_are_kept_then_loaded_from_the_file(tmp_path: Path) -> None:
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    first = _run([root], file)
    assert first["loaders"] == SOURCE
    assert first["saved"] is True
    assert file.stat().st_mode & 0o777 == 0o600
    second = _run([root], file)
    assert second["loaders"] == KEPT
    assert second["saved"] is False  # nothing imported from source: not written again
    for key in ("values", "files", "paths", "cached"):
        assert second[key] == first[key]
    # an extension module is found from the file, loaded by its own loader
    assert first["extension"][::2] == ["ExtensionFileLoader", False]  # type: ignore[index]
    assert second["extension"] == [*first["extension"][:2], True]  # type: ignore[index]
    assert first["paths"] == [[str(root / "kx")], [str(root / "kx" / "sub")]]


def test_a_changed_source_is_imported_from_source_and_kept_again(tmp_path: Path) -> None:
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    _run([root], file)
    leaf = root / "kx" / "sub" / "leaf.py"
    leaf.write_text("VALUE = 'leaf two'\n")  # the same size: the stamp tells
    os.utime(leaf, ns=(leaf.stat().st_atime_ns, leaf.stat().st_mtime_ns + 1))
    second = _run([root], file)
    assert second["values"] == ["mod one", "leaf two", "top one"]
    assert second["loaders"] == [
        "_KeptLoader",
        "_KeptLoader",
        "_KeptLoader",
        "SourceFileLoader",
        "_KeptLoader",
    ]
    assert second["saved"] is True
    third = _run([root], file)
    assert third["loaders"] == KEPT
    assert third["values"] == ["mod one", "leaf two", "top one"]


def test_a_module_that_would_shadow_a_kept_one_is_the_one_imported(tmp_path: Path) -> None:
    early, late = tmp_path / "early", _tree(tmp_path / "late")
    early.mkdir()
    file = tmp_path / "cache" / "kept.bin"
    assert _run([early, late], file)["values"] == ["mod one", "leaf one", "top one"]
    (early / "top.py").write_text("VALUE = 'shadow'\n")  # first on the path from now on
    second = _run([early, late], file)
    assert second["values"] == ["mod one", "leaf one", "shadow"]
    assert second["files"][2] == str(early / "top.py")  # type: ignore[index]
    assert second["loaders"] == SOURCE  # the folder changed: nothing answered
    # a module added in a kept package's folder: the same
    (late / "kx" / "sub" / "leaf").mkdir()
    (late / "kx" / "sub" / "leaf" / "__init__.py").write_text("VALUE = 'package'\n")
    third = _run([early, late], file)
    assert third["values"] == ["mod one", "package", "shadow"]


def test_another_search_path_is_not_answered(tmp_path: Path) -> None:
    root = _tree(tmp_path / "a")
    other = tmp_path / "other"
    other.mkdir()
    file = tmp_path / "cache" / "kept.bin"
    _run([root], file)
    assert _run([other, root], file)["loaders"] == SOURCE


@pytest.mark.parametrize("damage", ["group-writable", "garbage", "truncated", "another shape"])
def test_a_damaged_or_untrusted_file_is_never_run(tmp_path: Path, damage: str) -> None:
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    first = _run([root], file)
    if damage == "group-writable":
        file.chmod(0o660)
    elif damage == "garbage":
        file.write_bytes(b"\x00not marshal")
    elif damage == "truncated":
        file.write_bytes(file.read_bytes()[:1000])
    else:
        import marshal

        file.write_bytes(marshal.dumps({"kx.mod": "print('run')"}))
    again = _run([root], file)
    assert again["loaders"] == SOURCE
    assert again["values"] == first["values"]


def test_kept_code_is_run_only_for_the_source_it_was_compiled_from(tmp_path: Path) -> None:
    """A kept entry names its source's stamp: code kept for another file (a file
    renamed over it keeps no stamp) is not run."""
    root = _tree(tmp_path / "a")
    file = tmp_path / "cache" / "kept.bin"
    _run([root], file)
    top = root / "top.py"
    replacement = tmp_path / "new-top.py"
    replacement.write_text(textwrap.dedent("VALUE = 'replaced'\n"))
    os.replace(replacement, top)
    assert _run([root], file)["values"] == ["mod one", "leaf one", "replaced"]


def test_the_file_is_named_for_the_interpreter_and_the_role(tmp_path: Path) -> None:
    name = Path(cache_file("hook-UserPromptSubmit")).name
    assert name.startswith(f"module-code-{sys.implementation.cache_tag}-f")
    assert name.rsplit("-", 1)[0].endswith("-hook-UserPromptSubmit")
    assert len(name.rsplit("-", 1)[1]) == len("01234567.bin")
