"""A long query reduced to its discriminative words, instead of refused.

A GitHub issue, a pasted log or a long prompt is a document, not a question: scored
word by word, its many common words ("when", "using", "results", "like") each add a
little to every file, and together they outvote the few words that name the thing (an
identifier, an exception). The title alone of an issue found its changed files better
than the whole issue. So a query of more than :data:`LONG_QUERY_WORDS` distinct words
keeps only :data:`KEPT_WORDS` of them, chosen the way term selection for query
expansion chooses (Robertson 1990, "On term selection for query expansion"; the
"query scrubbing" of long queries in Kumaran & Carvalho 2009, "Reducing long queries
using query quality predictors"): identifiers and exception names first (camelCase,
snake_case, dotted names, file paths: words no prose writer coins), then the rest, each
group by its inverse document frequency in this index (``log(N / (df + 1)) + 1``, the
scorer's own, :meth:`rubi.index.termscore.TermScorer.idf`), rarest first. A word no
document holds is left out (it cannot match). The kept words stay in the order they
were written.

The cost stays bounded: the reduction reads at most :data:`MAX_SCANNED_WORDS` distinct
words (one document-frequency lookup each), and what it keeps is within
:data:`~rubi.search.limits.MAX_QUERY_WORDS` distinct words and identifier pieces, the
count whose search time was measured (``bench/query_cap.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from rubi.index.analysis import analyze, identifier_parts

__all__ = [
    "KEPT_WORDS",
    "LONG_QUERY_WORDS",
    "MAX_SCANNED_WORDS",
    "MAX_WORD_CHARS",
    "bounded_word",
    "is_identifier",
    "reduce_query",
    "written_words",
]

LONG_QUERY_WORDS = 32
"""Distinct written words above which a query is reduced. A question is a sentence (the
notes sets' questions have at most about 25 words); more is a document pasted whole."""

KEPT_WORDS = 32
"""Written words a long query keeps: as many as the longest question it is not reduced
from, so a reduced query weighs no more words than a question does."""

MAX_SCANNED_WORDS = 2_000
"""Distinct written words the reduction weighs, in order of first appearance; later
ones are not read. Each costs one document-frequency lookup (microseconds); 2,000 is
more than a long issue with its stack trace holds."""

MAX_WORD_CHARS = 100
"""Longer "words" (a base64 blob, a minified line, a hash chain) name nothing: left out,
except a path or URL, which keeps its last segments (:func:`bounded_word`)."""

_TOKEN = re.compile(r"[^\s`'\"()\[\]{}<>,;!?*=|#@$%^&~+\\]+")
"""A written word: a run between spaces and the punctuation that surrounds words and
call arguments; dots, slashes, underscores, hyphens and colons stay inside it (a
dotted name, a path, ``snake_case``, ``--flag``, ``mod:func``)."""
_DIGITS = re.compile(r"[0-9]+")
"""A run of digits: words that differ only here are one word (:func:`written_words`)."""
_EDGE = ".:-/"
"""Stripped from a word's ends: a sentence's full stop, a label's colon, a flag's dashes."""
_IDENTIFIER = re.compile(r"[A-Za-z0-9]_|_[A-Za-z0-9]|[a-z0-9][A-Z]|[A-Za-z0-9][./][A-Za-z_]")
"""What marks a word as an identifier: an inner underscore, a lower-to-upper case change
(``camelCase``, ``ValueError``), or a dot or slash between name characters (a dotted
name, a file path)."""


TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Protocol

    class Frequencies(Protocol):
        """What the reduction reads of an index
        (:meth:`rubi.index.searchindex.SearchIndex.term_df`)."""

        def term_df(self, terms: Iterable[str], field: str = "body") -> tuple[int, dict[str, int]]:
            """Live documents, and each analysed term's document frequency in ``field``."""
            ...


def written_words(text: str, *, spellings: bool = False) -> list[str]:
    """The distinct written words of ``text``, in order of first appearance (case kept,
    the first spelling; with ``spellings``, each spelling that differs in case once),
    at most :data:`MAX_SCANNED_WORDS`, each shorter than :data:`MAX_WORD_CHARS`. Words
    that differ only in their digits are one word, its first spelling: the frames of a
    pasted traceback (``app/module7.py``, line numbers, ``handler12``) or numbered
    names say one thing, and counted apart they would fill every place of a reduced
    query and push out the words around them."""
    seen: dict[str, str] = {}
    for m in _TOKEN.finditer(text):
        word = bounded_word(m.group().strip(_EDGE))
        if not word:
            continue
        seen.setdefault(_DIGITS.sub("0", word if spellings else word.casefold()), word)
        if len(seen) >= MAX_SCANNED_WORDS:
            break
    return list(seen.values())


def bounded_word(word: str) -> str:
    """``word`` itself when it has at most :data:`MAX_WORD_CHARS` characters; a longer
    one written as a path or URL (two or more ``/``-separated segments, the last two
    not empty) as those last two segments when they fit, "" for anything else. A link
    to a file at a commit (``https://github.com/o/r/blob/<40 hex digits>/pkg/mod.py``)
    or a deep traceback path is longer than a word, yet its last two segments name the
    file the issue points at, as :mod:`rubi.search.names` reads a written path
    (``pkg/mod.py``); the host, owner and commit before them name nothing in the
    project. A base64 blob or a minified line names nothing."""
    if len(word) <= MAX_WORD_CHARS:
        return word
    segments = word.split("/")
    if len(segments) < 2 or not segments[-1] or not segments[-2]:
        return ""
    tail = f"{segments[-2]}/{segments[-1]}".strip(_EDGE)
    return tail if len(tail) <= MAX_WORD_CHARS else ""


def is_identifier(word: str) -> bool:
    """Whether ``word`` is written as code: ``snake_case``, ``camelCase``, a dotted name
    or a path (and holds a letter: ``3.7`` is a version, not a name)."""
    return _IDENTIFIER.search(word) is not None and any(c.isalpha() for c in word)


def reduce_query(query: str, index: Frequencies) -> str:
    """``query`` itself when it has at most :data:`LONG_QUERY_WORDS` distinct written
    words; else its :data:`KEPT_WORDS` most discriminative words in ``index``
    (identifiers first, then by IDF; see the module), in written order, joined by
    spaces, within :data:`~rubi.search.limits.MAX_QUERY_WORDS` distinct words and
    identifier pieces."""
    from rubi.search.limits import MAX_QUERY_WORDS

    if not _longer_than(query, LONG_QUERY_WORDS):
        return query
    words = written_words(query)
    analysed = {w: analyze(w) for w in words}
    total, df = index.term_df(t for terms in analysed.values() for t in terms)
    ranked: list[tuple[int, float, int, str]] = []
    for position, word in enumerate(words):
        held = [df[t] for t in analysed[word] if df.get(t, 0) > 0]
        if not held:
            continue  # a stop word, or no document holds it: it cannot match
        idf = math.log(total / (min(held) + 1)) + 1
        ranked.append((0 if is_identifier(word) else 1, -idf, position, word))
    ranked.sort()
    kept: list[tuple[int, str]] = []
    counted: set[str] = set()
    for _, _, position, word in ranked:
        more = counted | _counted(word)
        if len(more) > MAX_QUERY_WORDS:
            continue
        counted = more
        kept.append((position, word))
        if len(kept) >= KEPT_WORDS:
            break
    return " ".join(word for _, word in sorted(kept))


def _longer_than(text: str, count: int) -> bool:
    """Whether ``text`` has more than ``count`` distinct written words (case-folded;
    numbered variants count apart here: 30 frames are a long prompt, reduced to their
    first)."""
    seen: set[str] = set()
    for m in _TOKEN.finditer(text):
        word = bounded_word(m.group().strip(_EDGE))
        if word:
            seen.add(word.casefold())
            if len(seen) > count:
                return True
    return False


def _counted(word: str) -> set[str]:
    """A word and its identifier pieces, case-folded (what the query cap counts)."""
    return {word.casefold(), *(p.casefold() for p in identifier_parts(word))}
