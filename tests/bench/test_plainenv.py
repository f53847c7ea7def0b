"""bench/plainenv.py: a plain install for the session benches, numpy withheld (what
``RUBI_SEMANTIC=0`` leaves importable), and the session bench's user environment
starting at its ``bin``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers import REPO

pytest.importorskip("numpy")  # the environment withholds it: only meaningful where present


@pytest.fixture(scope="module")
def bench() -> tuple[ModuleType, ModuleType]:
    sys.path.insert(0, str(REPO / "bench"))
    import plainenv
    import session_bench

    return plainenv, session_bench


def test_the_plain_environment_cannot_import_numpy_and_runs_rubi_with_the_channel_off(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path
) -> None:
    plainenv, _ = bench
    bindir = plainenv.plain_env(tmp_path / "plain")
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUBI")}
    env["PYTHONPATH"] = str(REPO / "src")
    probe = (
        "import importlib.util as u, rubi.semantic as s, click; "
        "print(u.find_spec('numpy') is None, s.enabled(), s.unavailable())"
    )
    out = subprocess.run(
        [str(bindir / "python"), "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("True False numpy is not installed")  # not RUBI_SEMANTIC=0's "off"
    here = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert here.startswith("False True None")  # this interpreter has the extra
    version = subprocess.run(
        [str(bindir / "rubi"), "--version"], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "rubi" in version
    assert plainenv.plain_env(tmp_path / "plain") == bindir  # made once, checked again


def test_a_session_case_finds_its_rubi_first_on_path(
    bench: tuple[ModuleType, ModuleType], tmp_path: Path
) -> None:
    _, sb = bench
    env = sb.rubi_env(tmp_path / "home", tmp_path / "plain" / "bin")
    assert env["PATH"].split(os.pathsep)[0] == str(tmp_path / "plain" / "bin")
    env = sb.rubi_env(tmp_path / "home")
    assert env["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
