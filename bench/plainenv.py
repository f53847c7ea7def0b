"""A plain install of rubi for the benches: this interpreter's packages without the
``semantic`` extra's numpy, as ``pip install -e .`` (the README's first command) leaves
them.

``RUBI_SEMANTIC=0`` is not the same thing: numpy stays importable, so
``rubi.semantic.unavailable`` finds it and anything that imports numpy for itself
still can, and ``rubi index`` run without the variable builds the vectors a plain
user never has. :func:`plain_env` makes a virtual environment (no pip) whose
``site-packages`` holds a link to every entry of this interpreter's except numpy's,
and a ``rubi`` script of its own; a process started from its ``bin`` cannot import
numpy at all, whatever its environment says.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

__all__ = ["WITHHELD", "plain_env"]

WITHHELD = ("numpy",)
"""Top-level names (and their ``.libs``, ``-x.y.dist-info``) not linked: the
``semantic`` extra (``pyproject.toml``)."""

SCRIPT = """#!{python}
import sys
from rubi.entry import main
sys.exit(main())
"""


def _withheld(name: str) -> bool:
    stem = name.split("-", 1)[0].split(".", 1)[0]
    return stem.lower() in WITHHELD


def plain_env(folder: Path) -> Path:
    """A plain environment in ``folder`` (made once); returns its ``bin`` (put it first
    on ``PATH``: its ``python`` and ``rubi``).

    Raises:
        RuntimeError: its interpreter can still import a withheld package.
    """
    bindir = folder / "bin"
    python = bindir / "python"
    if not python.exists():
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run(
            [base, "-m", "venv", "--without-pip", "--symlinks", str(folder)],
            check=True,
            capture_output=True,
        )
        ours = Path(sysconfig.get_paths()["purelib"])
        theirs = Path(
            subprocess.run(
                [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
        for entry in sorted(ours.iterdir()):
            if not _withheld(entry.name) and not (theirs / entry.name).exists():
                (theirs / entry.name).symlink_to(entry)
        rubi = bindir / "rubi"
        rubi.write_text(SCRIPT.format(python=python), encoding="utf-8")
        rubi.chmod(0o755)
    probe = "import importlib.util as u, sys; sys.exit(any(u.find_spec(n) for n in sys.argv[1:]))"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHOME"}
    if subprocess.run([str(python), "-c", probe, *WITHHELD], env=env).returncode != 0:
        raise RuntimeError(f"{folder}: the plain environment still imports {WITHHELD}")
    return bindir
