"""What ``rubi doctor`` says about the dense channel: on or off, and how to change it."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from rubi.core.picklefiles import UntrustedCacheError

__all__ = ["status_line"]


def status_line(index_dir: Path) -> str:
    """One line: ``on: N documents embedded (model); where the list votes`` (per
    script, as measured on the vault's own titles: :mod:`rubi.semantic.separation`),
    or ``off: why; how to turn it on`` (the extra missing, ``RUBI_SEMANTIC=0``, or
    nothing embedded yet)."""
    from rubi import semantic
    from rubi.semantic.sync import vectors_file
    from rubi.semantic.vectors import open_vectors

    missing = semantic.unavailable()
    if missing:
        return f"off: {missing}"
    if os.environ.get(semantic.DISABLE_ENV, "1") == "0":
        return f"off: {semantic.DISABLE_ENV}=0 is set"
    try:
        store = open_vectors(vectors_file(index_dir), create=False)
    except (OSError, sqlite3.Error, UntrustedCacheError) as exc:
        return f"off: the vectors are unreadable ({exc}); run `rubi index --full`"
    if store is None:
        return "off: nothing embedded yet; run `rubi index --full`"
    try:
        count, model = len(store.digests()), store.meta("model")
    finally:
        store.close()
    if not count:
        return "off: nothing embedded yet; run `rubi index --full`"
    return f"on: {count} documents embedded ({model}); {_votes(index_dir)}"


def _votes(index_dir: Path) -> str:
    """Where the dense list takes part in searches, as measured on this vault
    (:mod:`rubi.semantic.separation`)."""
    from rubi.semantic.separation import SCRIPTS, read_separation

    found = read_separation(index_dir)
    if found is None:
        return "its votes not measured yet (every query scores it; `rubi index` measures them)"
    shut = [name for name in SCRIPTS if name in found.scripts and not found.votes_for(name)]
    if shut and len(shut) == len(found.scripts):
        # only the scripts measured are shut: a query in another one (a Russian question
        # where every file name is Latin) still scores the list and lets it decide
        return (
            f"the list is left out of queries in {', '.join(shut)}, its votes on this "
            f"vault's own titles too often wrong ({found.describe()}); a query in "
            "another script decides per query"
        )
    return f"the list takes part for the scripts it was measured right on: {found.describe()}"
