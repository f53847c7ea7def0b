"""A module's logger imports ``logging`` only when something is logged, and logs as
the logger it stands for."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from rubi.core.lazylog import get_logger


def test_records_reach_the_named_logger(caplog: pytest.LogCaptureFixture) -> None:
    log = get_logger("rubi.test.lazy")
    with caplog.at_level(logging.WARNING, logger="rubi.test.lazy"):
        log.warning("channel skipped: %s", "damaged")
        log.debug("not shown")
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("rubi.test.lazy", "WARNING", "channel skipped: damaged")
    ]
    assert log.isEnabledFor(logging.ERROR)
    assert log.name == "rubi.test.lazy"


def test_the_recall_search_stack_imports_no_logging() -> None:
    """The modules a cold recall hook imports to search leave ``logging`` (and the
    ``traceback``, ``tokenize`` and ``textwrap`` it brings) unimported, set up as a hook
    is (``inspect`` deferred)."""
    code = (
        "import sys\n"
        "from rubi.core.dataclassimport import import_dataclasses\n"
        "import_dataclasses()  # as a hook imports it\n"
        "import rubi.claude.hooks.recall, rubi.search.engine, rubi.app.recall\n"
        "import rubi.index.warm, rubi.semantic.dense, rubi.search.dense, rubi.app.pagetext\n"
        "import rubi.search.hittext, rubi.dates.hitdays, rubi.semantic.sync\n"
        "import rubi.sync.snapshots, rubi.index.searchindex\n"
        "names = ('logging', 'traceback', 'tokenize', 'textwrap')\n"
        "print(sorted(m for m in names if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def _logged(verbose: int, message: str = "notes/a.md: damaged; rebuilt") -> str:
    """What a process that set up logging with ``verbose`` prints for one warning."""
    code = (
        "import logging; from rubi.core.lazylog import log_to_stderr; "
        f"log_to_stderr({verbose}); "
        f"logging.getLogger('rubi.sync.manifest').warning('%s', {message!r})"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stderr


def test_a_warning_is_one_plain_line_without_the_logger_name() -> None:
    assert _logged(0) == "warning: notes/a.md: damaged; rebuilt\n"


def test_verbose_lines_name_their_level_and_logger() -> None:
    assert _logged(1) == "WARNING rubi.sync.manifest: notes/a.md: damaged; rebuilt\n"


@pytest.mark.parametrize("verbose", [0, 1])
def test_a_warning_shows_terminal_sequences_as_escapes(verbose: int) -> None:
    """A folder name holding an escape sequence (``rubi serve`` below a refused vault
    names it) reaches the terminal as text, not as a command to it."""
    logged = _logged(verbose, "/srv/x\x1b]0;owned\x07\x1b[2J\r/.rubi: refused")
    assert "\x1b" not in logged and "\x07" not in logged and "\r" not in logged
    assert logged.endswith("/srv/x\\x1b]0;owned\\x07\\x1b[2J\\r/.rubi: refused\n")
