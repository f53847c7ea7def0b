"""A stand-in asked for during the import it stands in for (an import hook reads the
deferred module then) answers with the real module, not with itself until the
recursion limit: ``traceback`` for ``logging``, ``inspect`` for ``dataclasses``,
``urllib.parse`` for ``pathlib``."""

from __future__ import annotations

import subprocess
import sys

import pytest

_PROBE = """
import sys
class Hook:
    def find_spec(self, name, path=None, target=None):
        if name == {trigger!r} and {deferred!r} in sys.modules:
            print('read', {read})
        return None
sys.meta_path.insert(0, Hook())
from rubi.core.{loader} import {function}
{function}()
print('done', {deferred!r} in sys.modules)
"""

CASES = [
    (
        "loggingimport",
        "import_logging",
        "traceback",
        "string",
        "sys.modules['traceback'].format_exc.__module__",
    ),
    (
        "dataclassimport",
        "import_dataclasses",
        "inspect",
        "copy",
        "sys.modules['inspect'].signature.__module__",
    ),
]


@pytest.mark.parametrize(("loader", "function", "deferred", "trigger", "read"), CASES)
def test_a_stand_in_read_during_its_import_gives_the_real_module(
    loader: str, function: str, deferred: str, trigger: str, read: str
) -> None:
    code = _PROBE.format(
        loader=loader, function=function, deferred=deferred, trigger=trigger, read=read
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout.splitlines() == [f"read {deferred}", "done True"], done.stdout


def test_pathlib_s_quote_from_bytes_asked_while_pathlib_imports() -> None:
    code = (
        "import sys\n"
        "class Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'fnmatch' and 'urllib.parse' in sys.modules:\n"
        "            print(sys.modules['urllib.parse'].quote_from_bytes(b'a b'))\n"
        "        return None\n"
        "sys.meta_path.insert(0, Hook())\n"
        "from rubi.core.pathlibimport import import_pathlib\n"
        "import_pathlib()\n"
        "import pathlib\n"
        "print(pathlib.Path('/a b').as_uri())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout.splitlines() == ["a%20b", "file:///a%20b"], done.stdout
