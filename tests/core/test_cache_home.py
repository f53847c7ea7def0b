"""The user's rubi cache folder is where platformdirs says it is, for every shape of
``HOME`` and ``XDG_CACHE_HOME``, whether rubi answers it or platformdirs does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from platformdirs import user_cache_path

from rubi.core.paths import cache_home

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the XDG layout")


@pytest.mark.parametrize(
    ("home", "xdg"),
    [
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
    ],
)
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
