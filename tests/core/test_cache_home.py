"""The user's rubi cache and config folders are where platformdirs says they are, for
every shape of ``HOME`` and ``XDG_CACHE_HOME`` / ``XDG_CONFIG_HOME``, whether rubi
answers it or platformdirs does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from platformdirs import user_cache_path, user_config_path, user_state_path

from rubi.core.paths import cache_home, config_home, state_home
from rubi.knowledge.userconfig import user_config_file

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")


SHAPES = [
    ("/home/ann", None),
    ("/home/ann/", None),
    ("/", None),
    ("/home/ann", ""),
    ("/home/ann", "/var/tmp/cache"),
    ("/home/ann", "/var/tmp/cache/"),
    ("/home/ann", "relative/cache"),
    ("/home/ann", "~/cache"),
    ("relative-home", "/var/tmp/cache"),
    ("relative-home", None),
    ("", None),
    (None, "/var/tmp/cache"),
    (None, None),
]


@pytest.mark.parametrize(("home", "xdg"), SHAPES)
def test_the_cache_folder_is_the_one_platformdirs_names(
    monkeypatch: pytest.MonkeyPatch, home: str | None, xdg: str | None
) -> None:
    for name, value in (("HOME", home), ("XDG_CACHE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    expected = user_cache_path("rubi", appauthor=False)
    assert cache_home() == expected
    assert isinstance(cache_home(), Path)


@pytest.mark.parametrize("variable", ["XDG_CONFIG_HOME", "XDG_STATE_HOME"])
@pytest.mark.parametrize(("home", "xdg"), SHAPES)
def test_the_config_and_state_folders_are_the_ones_platformdirs_names(
    monkeypatch: pytest.MonkeyPatch, home: str | None, xdg: str | None, variable: str
) -> None:
    for name, value in (("HOME", home), (variable, xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    if variable == "XDG_CONFIG_HOME":
        assert config_home() == user_config_path("rubi", appauthor=False)
        assert user_config_file() == config_home() / "config.toml"
    else:
        assert state_home() == user_state_path("rubi", appauthor=False)


def test_a_search_asks_for_the_user_config_without_platformdirs_or_tomllib(
    tmp_path: Path,
) -> None:
    """Whether the personal vault is searched is asked by every search: on Linux with
    an absolute ``HOME`` and no user config, neither platformdirs nor tomllib loads."""
    import os
    import subprocess

    code = (
        "import sys\n"
        "from rubi.knowledge.personal import personal_searched\n"
        "assert personal_searched(None) is True\n"
        "print('platformdirs' in sys.modules, 'tomllib' in sys.modules)\n"
    )
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False"]
