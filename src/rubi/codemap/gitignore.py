"""A small ``.gitignore`` matcher for folders that are not git repositories.

Follows gitignore(5): blank lines and ``#`` comments are skipped, ``\\#``/``\\!`` escape,
trailing spaces are dropped, ``!`` re-includes, a trailing ``/`` matches folders only,
a pattern with a ``/`` before its end is anchored to its ``.gitignore``'s folder,
``*``/``?``/``[...]`` never cross ``/``, and ``**`` spans folders. The last matching
rule wins, deeper files after shallower ones. As in git, a file inside an ignored
folder cannot be re-included (the walk never enters the folder).

Written here instead of depending on ``pathspec`` because the walk is only the fallback
for folders without git; ``git ls-files`` does the real work everywhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["IgnoreRule", "IgnoreRules", "parse_gitignore"]


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One compiled line of a ``.gitignore``.

    Attributes:
        base: folder of the ``.gitignore`` ("" for the root), POSIX, no trailing ``/``.
        pattern: compiled against the path relative to ``base``.
        negate: True for ``!pattern``.
        dir_only: True when the pattern ended with ``/``.
    """

    base: str
    pattern: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(glob: str) -> str:
    """Regex source for a gitignore glob (without anchoring)."""
    out: list[str] = []
    i, n = 0, len(glob)
    while i < n:
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        c = glob[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        elif c == "[":
            start = i + 2 if glob[i + 1 : i + 2] in ("!", "^") else i + 1
            j = glob.find("]", start + 1)  # a "]" right after "[" or "[!" is literal
            if j < 0:
                out.append(re.escape(c))
            else:
                body = glob[i + 1 : j]
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def parse_gitignore(text: str, base: str = "") -> list[IgnoreRule]:
    """Compile the lines of one ``.gitignore``.

    Args:
        text: the file's content.
        base: its folder, repository-relative POSIX ("" for the root).

    Returns:
        Rules in file order; lines that cannot be compiled are skipped.
    """
    rules: list[IgnoreRule] = []
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        while line.endswith(" ") and not line.endswith("\\ "):
            line = line[:-1]
        negate = line.startswith("!")
        if negate or line.startswith("\\!") or line.startswith("\\#"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        source = _translate(line)
        prefix = "^" if anchored else "^(?:.*/)?"
        try:
            pattern = re.compile(prefix + source + "$", re.DOTALL)
        except re.error:
            continue
        rules.append(IgnoreRule(base, pattern, negate, dir_only))
    return rules


class IgnoreRules:
    """The rules of every ``.gitignore`` met so far, in precedence order."""

    def __init__(self) -> None:
        self._rules: list[IgnoreRule] = []

    def add(self, rules: list[IgnoreRule]) -> None:
        """Append rules of a deeper (or later) ``.gitignore``; they take precedence."""
        self._rules.extend(rules)

    def ignored(self, path: str, is_dir: bool) -> bool:
        """True when ``path`` (repository-relative POSIX) is ignored.

        Args:
            path: the file or folder.
            is_dir: whether it is a folder (``dir/`` patterns match folders only).
        """
        result = False
        for rule in self._rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.base:
                if not path.startswith(rule.base + "/"):
                    continue
                rel = path[len(rule.base) + 1 :]
            else:
                rel = path
            if rule.pattern.match(rel):
                result = not rule.negate
        return result
