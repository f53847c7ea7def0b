"""The methods ``dataclasses`` writes are compiled once and run from the kept code in
later processes; the classes made that way are the ones compiled anew, and a kept
file that is damaged or writable by others is never run."""

from __future__ import annotations

import importlib.util
import marshal
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rubi.core.dataclasscode import CodeCache, cache_file

_COPIES = iter(range(1_000_000))


def private_dataclasses(cache: CodeCache) -> ModuleType:
    """A copy of the ``dataclasses`` module of its own, compiling through ``cache`` (the
    real one stays as it is for the rest of the tests). It stays in ``sys.modules``
    (it looks itself up there) under a name of its own."""
    import dataclasses

    name = f"dataclasses_copy_{next(_COPIES)}"
    spec = importlib.util.spec_from_file_location(name, dataclasses.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    module.exec = cache.exec  # type: ignore[attr-defined]
    return module


def make_classes(dc: Any) -> tuple[Any, Any]:
    """A frozen slotted class and a mutable ordered one with a default factory."""

    @dc.dataclass(frozen=True, slots=True)
    class Point:
        """A point."""

        x: int
        y: int = 0

    @dc.dataclass(order=True)
    class Bag:
        """A bag."""

        name: str
        items: list[int] = dc.field(default_factory=list)

    return Point, Bag


def behaviour(point: Any, bag: Any) -> list[Any]:
    import dataclasses

    p = point(1)
    frozen = False
    try:
        p.x = 2
    except dataclasses.FrozenInstanceError:
        frozen = True
    except Exception as exc:  # the copy's own FrozenInstanceError class
        frozen = type(exc).__name__ == "FrozenInstanceError"
    return [
        repr(p),
        p == point(1, 0),
        hash(p) == hash(point(1)),
        frozen,
        point.__slots__,
        repr(bag("a")),
        bag("a") < bag("b"),
        bag("a").items is not bag("a").items,
        point.__init__.__annotations__,
        bag.__init__.__annotations__,
    ]


def test_classes_made_from_kept_code_are_the_ones_compiled_anew(tmp_path: Path) -> None:
    import dataclasses

    path = tmp_path / "code.bin"
    first = CodeCache(path)
    made = make_classes(private_dataclasses(first))
    assert first.compiled > 0
    assert first.save() and path.is_file()
    second = CodeCache(path)
    again = make_classes(private_dataclasses(second))
    assert second.compiled == 0
    expected = behaviour(*make_classes(dataclasses))
    assert behaviour(*made) == expected
    assert behaviour(*again) == expected


def test_nothing_is_written_when_nothing_new_was_compiled(tmp_path: Path) -> None:
    path = tmp_path / "code.bin"
    first = CodeCache(path)
    make_classes(private_dataclasses(first))
    first.save()
    stamp = path.stat().st_mtime_ns
    second = CodeCache(path)
    make_classes(private_dataclasses(second))
    assert second.save() is False
    assert path.stat().st_mtime_ns == stamp


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners")
def test_a_kept_file_others_could_write_is_never_run(tmp_path: Path) -> None:
    path = tmp_path / "code.bin"
    first = CodeCache(path)
    make_classes(private_dataclasses(first))
    compiled = first.compiled
    assert first.save()
    path.chmod(0o666)
    second = CodeCache(path)
    make_classes(private_dataclasses(second))
    assert second.compiled == compiled > 0


@pytest.mark.parametrize(
    "content",
    [b"", b"not marshal at all", b"\xe9\x00\x00", b"N", marshal.dumps({"def f(): pass": b"x"})],
)  # b"N": marshal's None; the last: a text whose bytes hold no code
def test_a_damaged_kept_file_is_compiled_anew_and_replaced(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "code.bin"
    path.write_bytes(content)
    cache = CodeCache(path)
    point, _ = make_classes(private_dataclasses(cache))
    assert cache.compiled > 0
    assert point(3) == point(3, 0)
    assert cache.save()
    table = marshal.loads(path.read_bytes())
    assert isinstance(table, dict) and table and all(isinstance(k, str) for k in table)
    again = CodeCache(path)
    make_classes(private_dataclasses(again))
    assert again.compiled == 0


def test_a_hook_process_runs_from_the_code_an_earlier_one_kept(tmp_path: Path) -> None:
    """Two fresh processes set up as a hook is (``import_dataclasses``): the first
    compiles its classes' methods and keeps them in the cache folder, the second
    compiles none."""
    code = (
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()\n"
        "import dataclasses\n"
        "from rubi.core import dataclasscode\n"
        "@dataclasses.dataclass(frozen=True, slots=True)\n"
        "class Point:\n"
        "    'A point.'\n"
        "    x: int\n"
        "    y: int = 0\n"
        "assert repr(Point(1)) == 'Point(x=1, y=0)'\n"
        "print(dataclasscode._INSTALLED.compiled, dataclasscode.save())\n"
    )

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    first = run().split()
    assert int(first[0]) > 0 and first[1] == "True"
    assert cache_file().is_file()
    assert run() == "0 False"


def test_the_kept_file_is_looked_for_only_when_a_class_is_made() -> None:
    """A hook an engine answers makes no class: it neither names the cache folder (nor
    imports ``pathlib`` for it) nor reads the file."""
    code = (
        "import sys\n"
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()\n"
        "print('pathlib' in sys.modules, 'rubi.core.cachefolder' in sys.modules)\n"
        "import dataclasses\n"
        "@dataclasses.dataclass\n"
        "class Point:\n"
        "    'A point.'\n"
        "    x: int\n"
        "print('rubi.core.cachefolder' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "True"]


def test_a_command_keeps_the_code_of_the_classes_it_made() -> None:
    """``rubi <command>`` (here ``--help``) runs the dataclasses it makes from the kept
    code too, and keeps what it compiled when it exits."""
    code = "import sys\nfrom rubi.entry import main\nsys.argv = ['rubi', '--help']\nmain()\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    table = marshal.loads(cache_file().read_bytes())
    assert isinstance(table, dict) and len(table) > 10


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners")
def test_the_kept_file_is_read_back_under_a_group_writable_umask(tmp_path: Path) -> None:
    path = tmp_path / "code.bin"
    old = os.umask(0o002)
    try:
        first = CodeCache(path)
        make_classes(private_dataclasses(first))
        assert first.save()
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o600
    second = CodeCache(path)
    make_classes(private_dataclasses(second))
    assert second.compiled == 0


def test_each_hook_event_keeps_its_own_code_files(tmp_path: Path) -> None:
    """``rubi hook <event>`` reads and writes its event's own files (the classes' methods
    and the patterns it makes), never the file every command and other hook shares: a
    cold recall loaded 590 KB and 220 KB of others' code (0.9 and 0.5 ms) before. An
    event name that is not plain letters keeps its code as ``hook``."""
    from rubi.core import regexcode

    code = "import sys\nfrom rubi.entry import main\nsys.argv = ['rubi', 'hook', 'Stop']\nmain()\n"
    done = subprocess.run(
        [sys.executable, "-c", code], input="{}", capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    table = marshal.loads(cache_file("hook-Stop").read_bytes())
    assert isinstance(table, dict) and table
    assert Path(regexcode.cache_file("hook-Stop")).is_file()
    assert not cache_file().exists() and not Path(regexcode.cache_file()).exists()
    assert regexcode.role_of("SessionStart") == "hook-SessionStart"
    assert regexcode.role_of("../x") == regexcode.role_of("é") == regexcode.role_of("") == "hook"
