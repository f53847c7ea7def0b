"""``pathlib`` imported for a hook leaves ``urllib.parse`` (and ``ipaddress``)
unimported until a path is made a ``file:`` URI; later imports get the real module."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
{before}
from rubi.core.pathlibimport import import_pathlib
import_pathlib()
from pathlib import Path, PurePosixPath
print(' '.join(m for m in ('urllib.parse', 'ipaddress') if m in sys.modules) or '-')
print(PurePosixPath('/tmp/a b').as_uri())
import urllib.parse
print(urllib.parse.urlsplit('http://x/y').path, hasattr(urllib.parse, 'unquote'))
"""


def probe(before: str = "") -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(before=before)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def test_pathlib_defers_urllib_parse_until_a_uri_is_made() -> None:
    assert probe() == ["-", "file:///tmp/a%20b", "/y True"]


def test_a_urllib_parse_imported_before_is_used_as_it_is() -> None:
    loaded, uri, later = probe("import urllib.parse")
    assert "urllib.parse" in loaded.split()
    assert (uri, later) == ("file:///tmp/a%20b", "/y True")
