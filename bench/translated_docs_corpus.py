"""Prepare one language of a translated documentation site as a notes corpus.

Usage::

    python bench/translated_docs_corpus.py CHECKOUT FOLDER OUT LANG

Translation repositories (the language editions of react.dev, the localized folders of
opentelemetry.io) hold pages not translated yet, still in English, and pages that only
redirect elsewhere. This copies, unchanged, the ``.md`` pages of ``CHECKOUT/FOLDER``
written in ``LANG`` to ``OUT/FOLDER/<same path>``, so ``OUT`` mirrors the checkout's
layout and a set's ``folder`` names the corpus in both. Left out, one line each on
stderr:

- redirect stubs: a frontmatter key ``redirect:`` (Hugo's mark for a page rendered only
  as a link to another address) or a body (frontmatter removed) with no prose at all;
- pages not written in ``LANG``: the page's prose (frontmatter, fenced and inline
  code, HTML/JSX tags, link targets and URLs removed) is measured by :func:`share`,
  and a page whose share is under :data:`THRESHOLD` is left out.

The share is, for ``ja`` and ``ko``, the fraction of the prose's letters that are of
the language's script (kana and CJK ideographs; Hangul syllables and jamo), the other
letters being Latin (English left untranslated, product and API names); for the languages with
a Latin script (``fr``, ``de``, ...), the fraction of the prose's stop words (the
``stop-words`` package's list of the language, and of English, words in both lists not
counted) that are the language's rather than English's.

``OUT/FOLDER`` must not exist yet (a stale page would join the corpus). Exit status 0
with the counts on stderr; 2 on a usage error.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path, PurePosixPath

from stop_words import get_stop_words

THRESHOLD = 0.5
FRONTMATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
REDIRECT = re.compile(r"^redirect:", re.M)
FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1", re.S | re.M)
SHORTCODE = re.compile(r"\{\{[%<].*?[%>]\}\}", re.S)
ANCHOR = re.compile(r"\{#[^}]*\}|\{/\*.*?\*/\}")
LINK_DEFINITION = re.compile(r"^[ \t]*\[[^\]]+\]:.*$", re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
TAG = re.compile(r"</?[A-Za-z][^>]*>")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
URL = re.compile(r"https?://\S+")
LETTER = re.compile(r"[^\W\d_]")
MIN_LETTERS = 20
SCRIPTS = {
    "ja": re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]"),
}
STOP_LISTS = {"fr": "french", "de": "german", "es": "spanish", "it": "italian", "pt": "portuguese"}
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
LANG = re.compile(r"^[a-z]{2}$")


def prose(text: str) -> str:
    """A page's prose: ``text`` without frontmatter, code, tags, link targets and URLs."""
    match = FRONTMATTER.match(text)
    body = text[match.end() :] if match else text
    for pattern in (FENCE, SHORTCODE, ANCHOR, LINK_DEFINITION, INLINE_CODE, TAG, LINK_TARGET, URL):
        body = pattern.sub(" ", body)
    return body


def share(text: str, lang: str) -> float:
    """How much of a page's prose is in ``lang``, from 0.0 to 1.0 (0.0 without prose).

    Raises:
        ValueError: ``lang`` is neither ``ja``/``ko`` nor a language of :data:`STOP_LISTS`.
    """
    body = prose(text)
    if lang in SCRIPTS:
        lines = [line for line in body.splitlines() if len(LETTER.findall(line)) >= MIN_LETTERS]
        own = sum(bool(SCRIPTS[lang].search(line)) for line in lines)
        return own / len(lines) if lines else 0.0
    if lang not in STOP_LISTS:
        raise ValueError(f"{lang!r}: no rule for this language; use ja, ko or {STOP_LISTS}")
    own_words = set(get_stop_words(STOP_LISTS[lang]))
    english = set(get_stop_words("english"))
    own_words, english = own_words - english, english - own_words
    words = [w.lower() for w in WORD.findall(body)]
    own = sum(w in own_words for w in words)
    total = own + sum(w in english for w in words)
    return own / total if total else 0.0


def left_out(text: str, lang: str) -> str | None:
    """Why a page is left out (``"redirect"``, ``"not <lang>: share 0.12"``), or None."""
    match = FRONTMATTER.match(text)
    head = match.group(1) if match else ""
    if REDIRECT.search(head) or not prose(text).strip():
        return "redirect or empty"
    measured = share(text, lang)
    if measured < THRESHOLD:
        return f"not {lang}: share {measured:.2f}"
    return None


def prepare(checkout: Path, folder: str, out: Path, lang: str) -> tuple[int, int, int]:
    """Copy the kept pages; return (written, redirects left out, other languages left out)."""
    base = checkout / folder
    target_base = out / folder
    target_base.mkdir(parents=True)
    written = redirects = foreign = 0
    for page in sorted(base.rglob("*.md")):
        if page.is_symlink() or not page.is_file():
            continue
        relative = page.relative_to(base)
        text = page.read_text(encoding="utf-8")
        reason = left_out(text, lang)
        if reason is not None:
            print(f"left out ({reason}): {relative.as_posix()}", file=sys.stderr)
            redirects += reason == "redirect or empty"
            foreign += reason != "redirect or empty"
            continue
        target = target_base / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written += 1
    return written, redirects, foreign


def main(argv: list[str] | None = None) -> int:
    """Prepare the corpus; return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    usage = "usage: python bench/translated_docs_corpus.py CHECKOUT FOLDER OUT LANG"
    if len(args) != 4:
        print(usage, file=sys.stderr)
        return 2
    checkout, folder, out, lang = Path(args[0]), args[1], Path(args[2]), args[3]
    pure = PurePosixPath(folder)
    if pure.is_absolute() or ".." in pure.parts or not folder:
        print(f"{folder!r}: give the folder relative to the checkout, without '..'")
        return 2
    if not LANG.match(lang) or (lang not in SCRIPTS and lang not in STOP_LISTS):
        print(f"{lang!r}: not one of {', '.join([*SCRIPTS, *STOP_LISTS])}", file=sys.stderr)
        return 2
    if not (checkout / folder).is_dir():
        print(f"{checkout / folder}: not a folder; give a checkout and a folder inside it")
        return 2
    if (out / folder).exists():
        print(f"{out / folder} exists already; give a fresh OUT folder")
        return 2
    written, redirects, foreign = prepare(checkout, folder, out, lang)
    print(
        f"{written} pages written; left out: {redirects} redirects, {foreign} not in {lang}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
