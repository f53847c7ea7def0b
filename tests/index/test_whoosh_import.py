"""Whoosh is imported without ``urllib.request`` (and its ``http.client``, ``ssl``)
and ``asyncio``, which it binds and never calls; later imports of those modules get
the real ones, and a module imported before is used as it is."""

from __future__ import annotations

import os
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


def test_with_another_thread_running_whoosh_still_loads_no_url_or_asyncio_stack() -> None:
    """A server runs several threads: its first search imports Whoosh as a hook does."""
    loaded, later = _probe(
        "import threading; stop = threading.Event(); "
        "threading.Thread(target=stop.wait, daemon=True).start()"
    )
    assert loaded == ""
    assert later == "False urllib.request True False"


_RACE = """
import importlib, sys, threading
names = ("urllib.request", "queue", "calendar", "html", "hashlib", "cached_property",
         "tempfile", "random")
wanted = {"urllib.request": "urlopen", "queue": "Queue", "calendar": "timegm",
          "html": "unescape", "hashlib": "sha256", "cached_property": "threaded_cached_property",
          "tempfile": "mkdtemp", "random": "getrandbits"}
bad, done = [], threading.Event()
def other():
    while not done.is_set():  # imports beside Whoosh's, as a server's other threads do
        for name in names:
            module = sys.modules.get(name)  # maybe one being imported: not filled yet
            if module is not None and module.__spec__ is None:  # a stand-in has none
                bad.append(name)
thread = threading.Thread(target=other)
thread.start()
try:
    import rubi.index.searchindex, rubi.index.analysis
    for name in names:
        if not hasattr(importlib.import_module(name), wanted[name]):
            bad.append(name)
finally:
    done.set()
    thread.join()
import whoosh.compat, whoosh.reading
print(sorted(set(bad)), whoosh.compat.urlretrieve is sys.modules["urllib.request"].urlretrieve)
"""


def test_no_stand_in_is_ever_in_sys_modules_for_another_thread() -> None:
    run = subprocess.run([sys.executable, "-c", _RACE], capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[0] == "[] False"


def test_whoosh_modules_keep_their_own_loaders() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "import rubi.index, whoosh.reading, importlib.machinery as m; "
            "print(type(whoosh.reading.__loader__) is m.SourceFileLoader, "
            "whoosh.reading.__spec__.loader is whoosh.reading.__loader__)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "True True"


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


_TEMP = """
import io, os, sys
import rubi.index.searchindex, rubi.index.analysis
import whoosh.filedb.compound, whoosh.filedb.filestore, whoosh.util
unused = ("tempfile", "shutil", "bz2", "lzma", "random")
print(" ".join(m for m in unused if m in sys.modules))
copied = io.BytesIO()
whoosh.filedb.compound.copyfileobj(io.BytesIO(b"segment"), copied)
storage = whoosh.filedb.filestore.RamStorage().temp_storage("probe")
name = whoosh.util.random_name(12)
import random, tempfile
print(copied.getvalue(), os.path.dirname(storage.folder) == tempfile.gettempdir(), len(name),
      whoosh.util.random is random, len(whoosh.util.random_bytes(5)))
storage.destroy()
"""


def test_whoosh_loads_no_tempfile_shutil_or_random_and_its_writers_still_get_them(
    tmp_path: Path,
) -> None:
    """A search never makes a temporary storage, a segment name nor a compound file:
    ``tempfile`` (with ``bz2``, ``lzma``), ``random`` and ``shutil`` are imported when
    Whoosh first asks."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-c", _TEMP], capture_output=True, text=True, check=True, env=env
    )
    loaded, used = run.stdout.splitlines()
    assert loaded == ""
    assert used == "b'segment' True 12 False 5"


_MORPH = """
import sys
import rubi.index.searchindex, rubi.index.analysis
import whoosh.analysis.morph as morph
unused = ("whoosh.lang.porter", "whoosh.lang.dmetaphone")
print(" ".join(m for m in unused if m in sys.modules))
got = morph.stem("generalizations"), morph.double_metaphone("Thompson")
from whoosh.lang.dmetaphone import double_metaphone
from whoosh.lang.porter import stem
print(got == (stem("generalizations"), double_metaphone("Thompson")), got[0])
"""


def test_whoosh_loads_no_porter_or_metaphone_and_its_filters_still_get_them() -> None:
    """rubi's chains stem through Snowball: Whoosh's Porter stemmer and Double Metaphone,
    bound by its analysis module, are imported on their first call."""
    run = subprocess.run([sys.executable, "-c", _MORPH], capture_output=True, text=True, check=True)
    loaded, used = run.stdout.splitlines()
    assert loaded == ""
    assert used == "True gener"


_SNOWBALL = """
import sys
import rubi.index.searchindex, rubi.index.analysis
from rubi.index.stemming import russian_stem
loaded = sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("whoosh.lang.snowball."))
print(" ".join(loaded))
from whoosh.lang import has_stemmer, stemmer_for_language
words = {"de": "häuser", "fr": "continuellement", "sv": "systemet", "ru": "дисками"}
got = {lang: stemmer_for_language(lang)(w) for lang, w in words.items()}
ru = russian_stem("дисками")
from whoosh.lang.snowball.german import GermanStemmer
from whoosh.lang.snowball.french import FrenchStemmer
from whoosh.lang.snowball.swedish import SwedishStemmer
from whoosh.lang.snowball.russian import RussianStemmer
real = {"de": GermanStemmer, "fr": FrenchStemmer, "sv": SwedishStemmer, "ru": RussianStemmer}
print(got == {lang: real[lang]().stem(w) for lang, w in words.items()}, ru == got["ru"],
      has_stemmer("da"), sys.modules["whoosh.lang.snowball.german"].GermanStemmer is GermanStemmer)
"""


def test_whoosh_loads_only_the_english_snowball_port_and_the_others_still_stem() -> None:
    """rubi stems every language but English and Russian through PyStemmer: of Whoosh's
    fourteen pure-Python Snowball ports, a process that analyses English text loads the
    English one alone; the others (Russian on the first Cyrillic word) are imported on
    their first use and stem as the real classes do."""
    run = subprocess.run(
        [sys.executable, "-c", _SNOWBALL], capture_output=True, text=True, check=True
    )
    loaded, used = run.stdout.splitlines()
    assert loaded == "bases english"
    assert used == "True True True True"
