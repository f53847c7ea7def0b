"""``logging`` imported for ``rubi serve`` leaves ``traceback`` (and ``linecache``,
``tokenize``) unimported until a traceback or a stack is written; the record is the
same, and later imports get the real module."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
{before}
from rubi.core.loggingimport import import_logging
import_logging()
import logging
print(' '.join(m for m in ('traceback', 'linecache', 'tokenize') if m in sys.modules) or '-')
logging.basicConfig(stream=sys.stdout, format='%(levelname)s %(message)s')
logging.getLogger('probe').warning('plain')
print(' '.join(m for m in ('traceback', 'linecache', 'tokenize') if m in sys.modules) or '-')
try:
    1 / 0
except ZeroDivisionError:
    logging.getLogger('probe').exception('failed')
logging.getLogger('probe').warning('stack', stack_info=True)
import traceback
print(type(traceback.print_exc).__name__, traceback is sys.modules['traceback'])
"""


def probe(before: str = "") -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(before=before)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def test_logging_defers_traceback_until_one_is_written() -> None:
    lines = probe()
    assert lines[:3] == ["-", "WARNING plain", "-"]
    assert lines[3:5] == ["ERROR failed", "Traceback (most recent call last):"]
    assert "ZeroDivisionError: division by zero" in lines
    assert "WARNING stack" in lines
    assert "Stack (most recent call last):" in lines
    assert lines[-1] == "function True"


def test_a_traceback_imported_before_is_used_as_it_is() -> None:
    lines = probe("import traceback")
    assert lines[0] == "traceback linecache tokenize"
    assert "Traceback (most recent call last):" in lines
    assert lines[-1] == "function True"


def test_a_logging_imported_before_is_left_alone() -> None:
    lines = probe("import logging")
    assert lines[0] == "traceback linecache tokenize"
