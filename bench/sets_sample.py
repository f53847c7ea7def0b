"""Draw the candidate answer notes of a notes set at random, seeded, so anyone can redo it.

Usage::

    python bench/sets_sample.py CHECKOUT FOLDER --seed N --count K [--only NAME]
                                [--min-words W]

Candidates are the ``.md`` files under ``CHECKOUT/FOLDER`` (symlinks and non-files
skipped), minus index pages (``index.md``, ``_index.md``, ``README.md``, any case) and
stubs (fewer than ``--min-words`` words, default 80, once a leading ``---`` frontmatter
block is removed). ``--only article.md`` keeps just files of that name (the article
pages of a tutorial, not its exercises); a name given to ``--only`` is kept even when it
is an index name (``--only index.md`` on a site whose every article is
``<slug>/index.md``), stubs still left out. The candidates are sorted by their
folder-relative POSIX path and ``random.Random(N).sample(candidates, K)`` picks the notes
in order; one path a line goes to stdout, the candidate count to stderr.

The question writer then reads the picked notes in that order, writes one question for
each note that can carry one, and records in the set's README the picked notes skipped
(people's own pages, generated tables, pages moved elsewhere, untranslated pages).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

INDEX_NAMES = frozenset({"index.md", "_index.md", "readme.md"})
FRONTMATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def candidates(base: Path, *, min_words: int = 80, only: str | None = None) -> list[str]:
    """The folder-relative POSIX paths of the notes under ``base`` that may be picked.

    Args:
        base: the folder of the corpus (a checkout joined with the set's folder).
        min_words: a note with fewer whitespace-separated words (frontmatter removed) is
            a stub and is left out.
        only: when given, only files with exactly this name are kept, even an index
            name (a site whose articles are all ``<slug>/index.md``).

    Returns:
        Sorted paths, relative to ``base``.
    """
    found = []
    for path in base.rglob("*.md"):
        if path.is_symlink() or not path.is_file():
            continue
        if only is not None and path.name != only:
            continue
        if only is None and path.name.lower() in INDEX_NAMES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if len(FRONTMATTER.sub("", text, count=1).split()) < min_words:
            continue
        found.append(path.relative_to(base).as_posix())
    return sorted(found)


def pick(paths: list[str], seed: int, count: int) -> list[str]:
    """``count`` paths drawn without replacement by ``random.Random(seed)``, in draw order."""
    return random.Random(seed).sample(paths, min(count, len(paths)))


def main(argv: list[str] | None = None) -> int:
    """Print the picked notes, one path a line; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("folder", help="the set's folder inside the checkout, or ''")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--only", help="keep only files with this name, e.g. article.md")
    parser.add_argument("--min-words", type=int, default=80)
    args = parser.parse_args(argv)
    base = args.checkout / args.folder
    if not base.is_dir():
        print(f"{base}: not a folder; give a checkout and the set's folder inside it")
        return 2
    paths = candidates(base, min_words=args.min_words, only=args.only)
    print(f"{len(paths)} candidates", file=sys.stderr)
    for path in pick(paths, args.seed, args.count):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
