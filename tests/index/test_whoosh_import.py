"""Whoosh is imported without ``urllib.request`` (and its ``http.client``, ``ssl``)
and ``asyncio``, which it binds and never calls; later imports of those modules get
the real ones, and a module imported before is used as it is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_PROBE = """
import sys
{before}
import rubi.index.searchindex, rubi.index.analysis
import whoosh.compat, whoosh.reading
heavy = ("urllib.request", "http.client", "ssl", "asyncio", "cached_property")
print(" ".join(m for m in heavy if m in sys.modules))
import urllib.request, cached_property
print(whoosh.compat.urlretrieve is urllib.request.urlretrieve,
      urllib.request.urlretrieve.__module__, hasattr(cached_property, "threaded_cached_property"),
      whoosh.reading.cached_property is cached_property.cached_property)
"""


def _probe(before: str = "") -> list[str]:
    run = subprocess.run(
        [sys.executable, "-c", _PROBE.format(before=before)],
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout.splitlines()


def test_whoosh_loads_no_url_or_asyncio_stack_and_later_imports_are_real() -> None:
    loaded, later = _probe()
    assert loaded == ""
    assert later == "False urllib.request True False"


def test_modules_imported_before_whoosh_are_used_as_they_are() -> None:
    loaded, later = _probe("import urllib.request, cached_property")
    assert set(loaded.split()) >= {"urllib.request", "cached_property"}
    assert later == "True urllib.request True True"


def test_the_segment_readers_cached_property_keeps_its_value(tmp_path: Path) -> None:
    from whoosh import fields, index

    import rubi.index  # noqa: F401  (Whoosh imported the way rubi imports it)

    ix = index.create_in(str(tmp_path), fields.Schema(id=fields.ID(stored=True, unique=True)))
    with ix.writer() as w:
        w.add_document(id="a")
        w.add_document(id="b")
    with ix.writer() as w:
        w.delete_by_term("id", "a")
    with ix.reader() as r:
        first = r.deleted_docs_set
        assert first is r.deleted_docs_set and len(first) == 1


def test_with_another_thread_running_whoosh_is_imported_as_it_is() -> None:
    """A server imports in several threads at once: another thread importing
    ``urllib.request`` while the stand-in sat in ``sys.modules`` would get the stand-in,
    so with a second thread alive no stand-in is placed."""
    loaded, later = _probe(
        "import threading; stop = threading.Event(); "
        "threading.Thread(target=stop.wait, daemon=True).start()"
    )
    assert "urllib.request" in loaded.split()
    assert later.startswith("True urllib.request")


_UNUSED = """
import sys
import rubi.index.searchindex, rubi.index.analysis
import whoosh.compat, whoosh.filedb.filetables, whoosh.util.times
unused = ("calendar", "locale", "queue", "html", "html.entities", "hashlib", "_hashlib")
print(" ".join(m for m in unused if m in sys.modules))
import calendar, hashlib, html, queue
print(whoosh.util.times.calendar.monthrange(2024, 2)[1], whoosh.compat.htmlescape("<a & b>"),
      whoosh.filedb.filetables.md5(b"abc").hexdigest() == hashlib.md5(b"abc").hexdigest(),
      whoosh.compat.queue.Empty is queue.Empty, calendar.__name__, html.escape("<"))
"""


def test_whoosh_loads_no_calendar_queue_html_or_openssl_and_they_still_work() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _UNUSED], capture_output=True, text=True, check=True
    )
    loaded, used = run.stdout.splitlines()
    assert loaded == ""
    assert used == "29 &lt;a &amp; b&gt; True True calendar &lt;"
