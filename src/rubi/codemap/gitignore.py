"""``.gitignore`` matching for folders that are not git repositories.

The matching itself is :class:`pathspec.GitIgnoreSpec` (gitignore(5): comments,
escapes, trailing spaces, ``!`` re-includes, ``dir/`` matches folders only, a ``/``
before the end anchors to the ``.gitignore``'s folder, ``*``/``?``/``[...]`` never
cross ``/``, ``**`` spans folders). This module adds what one spec cannot know: which
folder each ``.gitignore`` sits in. A file's rules apply to paths under its folder, the
last matching rule wins, deeper files after shallower ones. As in git, a file inside an
ignored folder cannot be re-included (the walk never enters the folder).

The walk is only the fallback for folders without git; ``git ls-files`` does the real
work everywhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pathspec import GitIgnoreSpec

__all__ = ["IgnoreRules", "IgnoreSpec", "parse_gitignore"]


@dataclass(frozen=True, slots=True)
class IgnoreSpec:
    """The compiled lines of one ``.gitignore``.

    Attributes:
        base: folder of the ``.gitignore`` ("" for the root), POSIX, no trailing ``/``.
        spec: its patterns, matched against paths relative to ``base``.
    """

    base: str
    spec: GitIgnoreSpec


def parse_gitignore(text: str, base: str = "") -> IgnoreSpec:
    """Compile one ``.gitignore``.

    Args:
        text: the file's content.
        base: its folder, repository-relative POSIX ("" for the root).

    Returns:
        Its rules; a line that is not a valid pattern is left out (git ignores it too).
    """
    lines: list[str] = []
    for line in text.splitlines():
        try:
            GitIgnoreSpec.from_lines([line])
        except (ValueError, re.error):  # GitIgnorePatternError is a ValueError
            continue
        lines.append(line)
    return IgnoreSpec(base.strip("/"), GitIgnoreSpec.from_lines(lines))


class IgnoreRules:
    """The rules of every ``.gitignore`` met so far, in precedence order."""

    def __init__(self) -> None:
        self._specs: list[IgnoreSpec] = []

    def add(self, spec: IgnoreSpec) -> None:
        """Add a deeper (or later) ``.gitignore``; its rules take precedence."""
        self._specs.append(spec)

    def ignored(self, path: str, is_dir: bool) -> bool:
        """True when ``path`` (repository-relative POSIX) is ignored.

        Args:
            path: the file or folder.
            is_dir: whether it is a folder (``dir/`` patterns match folders only).
        """
        result = False
        for spec in self._specs:
            if spec.base:
                if not path.startswith(spec.base + "/"):
                    continue
                rel = path[len(spec.base) + 1 :]
            else:
                rel = path
            include = spec.spec.check_file(rel + "/" if is_dir else rel).include
            if include is not None:
                result = include
        return result
