"""``rubi map NAME`` with a name that is no module names the modules, the most
central first, and says how many it left out: typer's thirteen modules were cut to
the first twelve by name, which left out ``typer``, the package itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.errors import RubiError

from helpers import rubi_project

FILES = {
    **{f"typer/m{i}.py": "" for i in range(4)},
    "typer/__init__.py": "from . import m0, m1, m2, m3\n",
    **{
        f"aa{n:02d}/t{i}.py": "import typer\n" if i == 0 else ""
        for n in range(12)
        for i in range(3)
    },
}


def test_an_unknown_module_s_error_names_the_central_ones_and_the_count_left_out(
    tmp_path: Path,
) -> None:
    root = rubi_project(tmp_path / "p", FILES)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    with pytest.raises(RubiError) as raised:
        app.map_text(paths, "nosuch")
    message = str(raised.value)
    listed = message.split("modules are: ", 1)[1]
    assert listed.startswith("typer, ")  # imported by every other module
    assert listed.endswith(", and 1 more (`rubi map` lists them)")
