"""A small real project for the viewer's tests: a few notes of the Obsidian Help vault,
a hostile note, two code files, indexed; and a running ``rubi view`` server on it."""

from __future__ import annotations

import hashlib
import shutil
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from helpers import VAULTS, require_data, rubi_project, write

HELP_NOTES = (
    "Home.md",
    "Getting started/Back up your Obsidian files.md",
    "Getting started/Create your first note.md",
    "Getting started/Link notes.md",
    "Getting started/Update Obsidian.md",
)
HOSTILE_TITLE = '<script>document.title="owned"</script><img src=x onerror=alert(1)>'


def small_project(root: Path) -> Path:
    """A committed project with ``.rubi/`` holding :data:`HELP_NOTES`, a note titled
    :data:`HOSTILE_TITLE` that links to Home, and ``app.py`` importing ``util.py``;
    indexed."""
    from rubi import app

    source = require_data(VAULTS / "obsidian-help-en")
    project = rubi_project(
        root / "proj",
        {"app.py": "import util\n\nutil.run()\n", "util.py": "def run():\n    pass\n"},
    )
    notes = project / ".rubi" / "notes"
    for rel in HELP_NOTES:
        (notes / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, notes / rel)
    write(
        notes / "hostile.md",
        f"---\ntitle: '{HOSTILE_TITLE}'\ntype: decision\n---\n"
        "Backup policy: see [[Home]] and [[Back up your Obsidian files]].\n",
    )
    app.index(app.locate(None, cwd=project))
    return project


def tree_hash(root: Path) -> str:
    """A digest of every file's path and bytes under ``root`` (``.git`` left out)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and ".git" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@contextmanager
def serving(project: Path) -> Iterator[str]:
    """``rubi view`` of ``project`` on a free loopback port, in a thread; yields its
    URL."""
    from rubi import app
    from rubi.view import make_server

    server = make_server(app.locate(None, cwd=project))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def get(
    url: str, headers: Mapping[str, str] | None = None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one real HTTP request (error statuses included)."""
    request = urllib.request.Request(url, headers=dict(headers or {}), method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
