"""Prepare one folder of a Hugo documentation site as a notes corpus, stubs left out.

Usage::

    python bench/hugo_docs_corpus.py CHECKOUT FOLDER OUT [--drop SUBFOLDER ...]
                                     [--min-words N]

The ``.md`` pages under ``CHECKOUT/FOLDER`` are copied, unchanged, to ``OUT/FOLDER/<same
path>``, so ``OUT`` mirrors the checkout's layout and a set's ``folder`` names the corpus
in both. Nothing outside ``FOLDER`` is copied (other versions or translations of the same
pages stay out). Left out, one line each on stderr:

- ``--drop SUBFOLDER`` (relative to ``FOLDER``, repeatable): a whole subfolder, for
  fragments that other pages include (``shared/``, ``_includes/``) and are never a page
  of their own;
- redirect pages: frontmatter with a ``redirect:`` key (a menu entry that sends the
  reader to another site; Hugo renders no body);
- stubs: a body (frontmatter, Hugo shortcodes ``{{< ... >}}``/``{{% ... %}}`` and HTML
  comments removed) of fewer than ``--min-words`` words (default 20): an empty section
  page, a page that is only a shared-content include, a one-line pointer elsewhere.

``OUT/FOLDER`` must not exist yet (a stale page would join the corpus). Symlinks and
non-files are skipped. Exit status 0 with the counts on stderr; 2 on a usage error.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path, PurePosixPath

FRONTMATTER = re.compile(r"\A---\n(.*?)\n---\n?", re.S)
REDIRECT = re.compile(r"^redirect:", re.M)
SHORTCODE = re.compile(r"\{\{[<%].*?[>%]\}\}", re.S)
COMMENT = re.compile(r"<!--.*?-->", re.S)


def left_out(text: str, min_words: int) -> str | None:
    """Why a page is left out (``"redirect"``, ``"stub"``), or None to keep it."""
    match = FRONTMATTER.match(text)
    head, body = (match.group(1), text[match.end() :]) if match else ("", text)
    if REDIRECT.search(head):
        return "redirect"
    words = COMMENT.sub(" ", SHORTCODE.sub(" ", body)).split()
    if len(words) < min_words:
        return "stub"
    return None


def _relative(path: str) -> PurePosixPath:
    pure = PurePosixPath(path)
    if not path or pure.is_absolute() or ".." in pure.parts or "\\" in path:
        raise ValueError(f"{path!r}: give a relative folder without '..'")
    return pure


def prepare(checkout: Path, folder: str, out: Path, drop: list[str], min_words: int) -> int:
    """Copy the kept pages; return how many were written.

    Raises:
        ValueError: a folder that is absolute or climbs out with ``..``.
        FileExistsError: ``OUT/FOLDER`` exists already.
    """
    base = checkout / _relative(folder)
    dropped = [_relative(d).parts for d in drop]
    target = out / _relative(folder)
    if target.exists():
        raise FileExistsError(f"{target}: exists already")
    target.mkdir(parents=True)
    written = 0
    for page in sorted(base.rglob("*.md")):
        if page.is_symlink() or not page.is_file():
            continue
        relative = page.relative_to(base)
        if any(relative.parts[: len(d)] == d for d in dropped):
            print(f"left out (dropped folder): {relative.as_posix()}", file=sys.stderr)
            continue
        reason = left_out(page.read_text(encoding="utf-8"), min_words)
        if reason is not None:
            print(f"left out ({reason}): {relative.as_posix()}", file=sys.stderr)
            continue
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target / relative)
        written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    """Prepare the corpus; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("folder", help="the pages' folder inside the checkout")
    parser.add_argument("out", type=Path, help="a new folder for the corpus")
    parser.add_argument("--drop", action="append", default=[], metavar="SUBFOLDER")
    parser.add_argument("--min-words", type=int, default=20)
    args = parser.parse_args(argv)
    try:
        if not (args.checkout / _relative(args.folder)).is_dir():
            print(f"{args.checkout / args.folder}: not a folder; give a checkout and a folder")
            return 2
        written = prepare(args.checkout, args.folder, args.out, args.drop, args.min_words)
    except (ValueError, FileExistsError) as exc:
        print(f"{exc}; give a relative folder and an OUT that holds no copy of it yet")
        return 2
    except OSError as exc:
        print(f"{exc.filename}: {exc.strerror}; check the checkout and OUT")
        return 2
    print(f"{written} pages written under {args.out / args.folder}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
