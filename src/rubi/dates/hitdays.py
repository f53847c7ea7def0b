"""The date of a hit (the window ``--since/--until`` keeps: :mod:`rubi.dates.window`).

A note's date is its frontmatter's (``updated``, else ``modified``, ``lastmod``,
``created``, ``date``: :func:`rubi.dates.days.note_day`), else the day its file name
starts with (a daily note), else its file's modification time; a code file's is the
day of the newest commit that changed it (:func:`commit_days`), else its modification
time. Days are ISO strings
(``YYYY-MM-DD``, UTC), compared as strings.
"""

from __future__ import annotations

import _thread  # threading's Lock, without its import
from collections.abc import Collection, Mapping
from pathlib import Path

from rubi.core.lazylog import get_logger
from rubi.core.safeio import has_surrogates
from rubi.dates.days import file_day, name_day, parse_day

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DAY_SOURCES", "Days", "commit_days"]

DAY_SOURCES = ("frontmatter", "file name", "commit", "file time")
"""Where a hit's day comes from (:meth:`Days.source`), best first: the note's own
frontmatter date, the day its file name starts with, the day of the last commit that
changed the file (an edit not committed yet is not in it), the file's modification
time (a copied vault's or a fresh clone's notes all carry the day they were copied)."""

log = get_logger(__name__)


_COMMIT_DAYS: dict[tuple[str, str], dict[str, str]] = {}
"""Each file's newest commit day, by (work tree, HEAD commit): a new commit makes a new
key, so an answer is never stale, and drops the work tree's older key (one HEAD kept
per work tree: a long-lived process does not keep a table per commit it saw); a path
is asked of git once per key."""
_COMMIT_LOCK = _thread.allocate_lock()


def commit_days(root: Path, paths: Collection[str]) -> dict[str, str]:
    """The day of the newest commit that changed each of ``paths`` (POSIX, relative
    to ``root``); paths no commit changed (untracked) are left out.

    One ``git log`` from HEAD back, read until every path asked for was seen; what it
    found is kept for this process per folder and HEAD, so a later search asks git
    again only about paths not seen yet. Nothing of a path reaches git: the log is
    of the whole folder. {} outside a repository, without git, or when git fails.
    """
    from rubi.core.gitrepo import head  # git (subprocess): only for a search that asks

    commit = head(root)
    if not commit:
        return {}
    key = (str(root), commit)
    with _COMMIT_LOCK:
        known = _COMMIT_DAYS.get(key)
        if known is None:
            for older in [k for k in _COMMIT_DAYS if k[0] == key[0]]:
                del _COMMIT_DAYS[older]
            known = _COMMIT_DAYS[key] = {}
        missing = {p for p in paths if p not in known}
        if missing:
            _read_log(root, missing, known)
            for p in missing:
                known.setdefault(p, "")  # not in history: asked once
        return {p: known[p] for p in paths if known.get(p)}


def _read_log(root: Path, wanted: set[str], known: dict[str, str]) -> None:
    """Fill ``known`` from ``git log`` (newest first) until ``wanted`` were all seen."""
    from rubi.core.gitrepo import git_lines

    day = ""
    left = set(wanted)
    for line in git_lines(
        root,
        "log",
        "--no-renames",
        "--relative",
        "--format=%x00%cs",
        "--name-only",
        "HEAD",
        "--",
        ".",
    ):
        if line.startswith("\x00"):
            if not left:
                break
            day = line[1:].strip()
        elif line and day and line not in known and not has_surrogates(line):
            known[line] = day
            left.discard(line)


class Days:
    """The days of one search's nodes, each found once, and where each came from
    (:meth:`source`): ``date`` from the node's attributes (a note's frontmatter), else
    a note's file name, a code file's commit, else the file's modification time.
    Code files asked for together share one ``git log``.

    Args:
        attrs: node id → its graph attributes.
        vault_root: the vault folder (notes' paths are relative to it).
        project_root: the project folder (code files' paths), or None.
    """

    def __init__(
        self,
        attrs: Mapping[str, Mapping[str, Any]],
        vault_root: Path,
        project_root: Path | None,
    ) -> None:
        self._attrs = attrs
        self._vault = vault_root
        self._project = project_root
        self._found: dict[str, str] = {}
        self._sources: dict[str, str] = {}
        self._asked: set[str] = set()

    def prefetch(self, nodes: Collection[str]) -> None:
        """Find the days of ``nodes`` now, code files in one ``git log`` (a node asked
        for before is not looked at again: every shown hit asks for all of them)."""
        code = {}
        for node in nodes:
            if node in self._asked:
                continue
            self._asked.add(node)
            a = self._attrs.get(node, {})
            if node not in self._found and not a.get("date") and a.get("kind") == "file":
                code[node] = str(a.get("path", node))
        if code and self._project is not None:
            days = commit_days(self._project, set(code.values()))
            for node, path in code.items():
                day = days.get(path)
                self._found[node] = day or file_day(self._project / path)
                self._sources[node] = "commit" if day else "file time"

    def keep(self, nodes: Collection[str]) -> None:
        """Keep the attributes of ``nodes`` as they are now and forget the others' (a
        search's hits, whose days the renderer asks for after the search let go of
        the graph, which a save may then change)."""
        attrs = self._attrs
        self._attrs = {n: attrs.get(n, {}) for n in nodes}

    def of(self, node: str) -> str:
        """The day of ``node`` ("" when none can be found)."""
        found = self._found.get(node)
        if found is None:
            a = self._attrs.get(node, {})
            found = parse_day(a.get("date"))
            source = "frontmatter"
            if not found and a.get("kind") == "file":
                self.prefetch([node])
                found = self._found.get(node, "")
                source = self._sources.get(node, "")
            elif not found:
                path = str(a.get("path", node))
                found = name_day(path)
                source = "file name"
                if not found:
                    found, source = file_day(self._vault / path), "file time"
            self._found[node] = found
            self._sources[node] = source if found else ""
        return found

    def source(self, node: str) -> str:
        """Where the day of ``node`` (:meth:`of`) comes from: one of
        :data:`DAY_SOURCES`, "" when it has none."""
        self.of(node)
        return self._sources.get(node, "")
