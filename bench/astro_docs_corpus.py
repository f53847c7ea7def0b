"""Prepare one language of the Astro documentation (withastro/docs) as a notes corpus.

Usage::

    python bench/astro_docs_corpus.py CHECKOUT OUT LANG

The pages of ``CHECKOUT/src/content/docs/LANG`` are ``.mdx``; rubi (and the baselines,
which read the notes rubi indexed) take ``.md`` files. Each page is copied, unchanged,
to ``OUT/src/content/docs/LANG/<same path>.md``, so ``OUT`` mirrors the checkout's
layout and a set's ``folder`` (``src/content/docs/LANG``) names the corpus in both.
Left out, one line each on stderr:

- stub pages: frontmatter ``stub: true`` (the docs' own mark for a page that is a
  title, one sentence and links);
- retired integration pages: under ``guides/integrations-guide/`` with a body
  (frontmatter removed) under 1,000 characters; they only point to what replaced them
  (Tailwind's Vite plugin, built-in prefetch, Deno's own adapter, ...).

``OUT/src/content/docs/LANG`` must not exist yet (a stale page would join the corpus).
Exit status 0 with the count of pages written on stderr; 2 on a usage error.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

FRONTMATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
STUB = re.compile(r"^stub:\s*true\s*$", re.M)
LANG = re.compile(r"^[a-z]{2}(-[a-z]{2})?$")
RETIRED_FOLDER = ("guides", "integrations-guide")
RETIRED_CHARS = 1000


def left_out(relative: Path, text: str) -> str | None:
    """Why a page is left out of the corpus (``"stub"``, ``"retired"``), or None."""
    match = FRONTMATTER.match(text)
    head, body = (match.group(1), text[match.end() :]) if match else ("", text)
    if STUB.search(head):
        return "stub"
    if relative.parts[:2] == RETIRED_FOLDER and len(body.strip()) < RETIRED_CHARS:
        return "retired"
    return None


def prepare(checkout: Path, out: Path, lang: str) -> int:
    """Copy the kept ``.mdx`` pages of ``lang`` as ``.md``; return how many were written."""
    base = checkout / "src" / "content" / "docs" / lang
    target_base = out / "src" / "content" / "docs" / lang
    target_base.mkdir(parents=True)
    written = 0
    for page in sorted(base.rglob("*.mdx")):
        if page.is_symlink() or not page.is_file():
            continue
        relative = page.relative_to(base)
        text = page.read_text(encoding="utf-8")
        reason = left_out(relative, text)
        if reason is not None:
            print(f"left out ({reason}): {relative.as_posix()}", file=sys.stderr)
            continue
        target = target_base / relative.with_suffix(".md")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    """Prepare the corpus; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: python bench/astro_docs_corpus.py CHECKOUT OUT LANG", file=sys.stderr)
        return 2
    checkout, out, lang = Path(args[0]), Path(args[1]), args[2]
    if not LANG.match(lang):
        print(f"{lang!r}: not a language folder name such as fr or zh-cn", file=sys.stderr)
        return 2
    if not (checkout / "src" / "content" / "docs" / lang).is_dir():
        print(f"{checkout}: no src/content/docs/{lang}; give a withastro/docs checkout")
        return 2
    if (out / "src" / "content" / "docs" / lang).exists():
        print(f"{out}/src/content/docs/{lang} exists already; give a fresh OUT folder")
        return 2
    print(f"{prepare(checkout, out, lang)} pages written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
