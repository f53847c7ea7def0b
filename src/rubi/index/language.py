"""Guess the language a note is written in, once, when it is indexed.

Two cheap steps, no model:

1. The script most of the note's letters are in (code left out: fenced blocks, inline
   code, addresses). Cyrillic is ``ru``, Arabic ``ar`` (``fa`` when Persian's own
   letters outnumber those Persian does not write,
   :func:`rubi.index.persian.persian_letters`), Greek ``el``, Armenian ``hy``,
   Devanagari ``hi`` (Hindi, not Nepali: the far more common), Tamil ``ta``; Chinese,
   Japanese and Korean are ``zh``, ``ja`` (any kana) and ``ko`` (mostly Hangul). A
   CJK character counts as :data:`CJK_LETTERS` letters: it is about a word.
2. In Latin script, a vote of function words (Cavnar & Trenkle 1994 found them the
   most telling n-grams; the stop-word vote is the usual cheap form): each word counts
   for every language whose stop words hold it, among the languages with a Snowball
   stemmer and a stop-word list (:data:`VOTING_LANGUAGES`). The
   language with most votes wins if it has at least :data:`MIN_VOTES` (two different
   words at least), more than English, and :data:`MIN_SHARE` of the words; else the
   note is English (a tie, too
   little text, or a note of names and code). A note of too little prose for a vote
   is voted on again with its code, whose comments are in the note's language.

The result names the analysis a note's prose gets (:func:`rubi.index.analysis.
chain_language`): a Latin-script language's stop words and stemmer, or, for the others,
each word by its script (Cyrillic words the Russian stemmer, CJK bigrams, Latin words
English).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from rubi.core.lazyregex import Rx
from rubi.index.persian import persian_letters
from rubi.index.snowball import STOP_WORD_SOURCES, fold_marks, stop_words
from rubi.index.wordterm import chain_stop_words, fold

__all__ = [
    "CJK_LETTERS",
    "MIN_SHARE",
    "MIN_VOTES",
    "SCRIPT_CHAIN_LANGUAGES",
    "VOTING_LANGUAGES",
    "detect_language",
    "query_chain",
    "query_language",
    "stop_word_votes",
]

WHOOSH_LANGUAGES: tuple[str, ...] = (
    "da",
    "nl",
    "en",
    "fi",
    "fr",
    "de",
    "hu",
    "it",
    "no",
    "pt",
    "es",
    "sv",
)
"""Latin-script languages with a Snowball stemmer and stop words in whoosh, in whoosh's
order (Russian is told by its script). Written out, and checked against whoosh's
lists by a test: asking whoosh imported its stop-word lists in every process (0.4–0.5
ms of a cold recall whose stop words are kept, :mod:`rubi.index.keptstops`)."""
ADDED_LANGUAGES: tuple[str, ...] = ("ca", "cs", "id", "pl", "ro", "tr")
"""Latin-script languages Snowball has a stemmer for (through PyStemmer) and a
maintained stop-word list exists for (:mod:`rubi.index.snowball`): Catalan, Czech,
Indonesian, Polish, Romanian, Turkish. Snowball's other Latin-script languages (Basque,
Esperanto, Estonian, Irish, Lithuanian, Sesotho, Serbian) have no list to vote with:
their notes are still read as English."""
VOTING_LANGUAGES: tuple[str, ...] = (*WHOOSH_LANGUAGES, *ADDED_LANGUAGES)
"""The languages a Latin-script note or query is voted among: whoosh's, then the
added ones (a tie goes to the first)."""

SCRIPT_CHAIN_LANGUAGES: tuple[str, ...] = ("fa",)
"""Languages told by their letters, not their stop words, that have an analysis chain
of their own: Persian, written in the Arabic script with letters Arabic does not use
(:func:`rubi.index.persian.persian_letters`), is stemmed by Snowball's Persian
stemmer, where every other Arabic-script word is ISRI's (an Arabic root extractor:
``تابعی`` "a function" → ``بعی``)."""

MIN_VOTES = 3
"""Stop words a language other than English needs before a note is counted as it."""
MIN_SHARE = 0.08
"""Share of a note's words that must be the winning language's stop words (prose runs
at 30-50%; a list of names, links and code at a few percent)."""
CJK_LETTERS = 3
"""Latin letters a CJK character weighs in the script count (a Chinese word is one
or two characters, an English one five letters)."""
SAMPLE_CHARS = 20_000
"""Characters of a note read (its beginning)."""

_CODE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`", re.S)
# a dotted name starts at a word's start, its runs possessive: ``\w+(?:\.\w+)+`` tried
# every position of a long run (a 20,000-letter token, a hash) and backtracked each:
# 3.8 s of CPU a note, quadratic; now linear (0.5 ms), the same matches
_NOT_WORDS = re.compile(
    r"</?[A-Za-z][A-Za-z0-9-]*+(?:\s[^<>\n]*+)?/?>|\]\([^)\n]*\)|https?://\S+|(?<!\w)\w++(?:\.\w++)+"
)
"""HTML tags, link targets, addresses and dotted names (``docs.example.com``:
Portuguese ``com``). A tag's name and attributes are markup, not prose: documentation
written in Markdown anchors its headings with ``<a name="...">`` and lays out tables
with ``<ul><li>``, and ``a`` is a stop word of English, Italian, Portuguese, Romanian
and Hungarian, ``li`` of Italian and Romanian: with them, 110 of lang-d365fin-fi's 671
Finnish pages were read as another language, 62 without (``docs/benchmarks-history.md``,
"issue 28: Finnish below its BM25, pages read as another language, twenty-seventh
pass")."""
_WORD = re.compile(r"[^\W\d_]+")
_SCRIPTS: tuple[tuple[str, Rx], ...] = (
    ("ru", Rx(r"[\u0400-\u04ff]")),
    ("el", Rx(r"[\u0370-\u03ff\u1f00-\u1fff]")),
    ("hy", Rx(r"[\u0531-\u0587]")),
    ("hi", Rx(r"[\u0900-\u097f]")),
    ("ta", Rx(r"[\u0b80-\u0bff]")),
    ("ar", Rx(r"[\u0600-\u06ff\u0750-\u077f]")),
    ("kana", Rx(r"[\u3040-\u30ff]")),
    ("hangul", Rx(r"[\uac00-\ud7af]")),
    ("han", Rx(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")),
)
"""Compiled on first use: only indexing detects a note's script (a query's language
is voted by stop words, :func:`query_language`)."""
_LATIN = Rx(r"[a-zA-Z\u00c0-\u024f]")


@lru_cache(maxsize=len(VOTING_LANGUAGES))
def _stop_words(lang: str) -> frozenset[str]:
    """The stop words ``lang`` votes with, read when a vote first needs them."""
    return stop_words(lang)


def stop_word_votes(
    words: list[str], langs: Iterable[str] = VOTING_LANGUAGES, *, folded: bool = False
) -> Counter[str]:
    """Each of ``langs``' (voting languages) count of ``words`` (lower-case) in its
    stop words. For the lists of :data:`rubi.index.snowball.STOP_WORD_SOURCES` (the
    Romanian one is written without diacritics) a word also counts without its marks
    (``și`` → ``si``). ``folded``: each list read as its analysis chain reads it
    (:func:`rubi.index.wordterm.chain_stop_words`: a word also counts with its accents
    folded, ``cómo`` as ``como``), once per word: what a query's chain drops."""
    counts = Counter(fold(w) for w in words) if folded else Counter(words)
    marked: dict[str, str] | None = None
    votes: Counter[str] = Counter()
    for lang in langs:
        stops = chain_stop_words(lang) if folded else _stop_words(lang)
        if lang in STOP_WORD_SOURCES:
            if marked is None:
                marked = {w: fold_marks(w) for w in counts}
            n = sum(c for w, c in counts.items() if w in stops or marked[w] in stops)
        else:
            n = sum(c for w, c in counts.items() if w in stops)
        if n:
            votes[lang] = n
    return votes


def _script(prose: str) -> str | None:
    """The language named by the note's script when most letters are not Latin."""
    latin = len(_LATIN.findall(prose))
    found = {name: len(rx.findall(prose)) for name, rx in _SCRIPTS}
    kana, hangul = found.pop("kana"), found.pop("hangul")
    cjk = kana + hangul + found["han"]
    found["han"] = cjk * CJK_LETTERS
    name, most = max(found.items(), key=lambda kv: kv[1])
    if most <= latin:
        return None
    if name != "han":
        return name
    if kana:
        return "ja"
    return "ko" if hangul * 2 > cjk else "zh"


def detect_language(text: str) -> str:
    """The language of ``text`` (a note's title and body) as an ISO 639-1 code: one of
    :data:`VOTING_LANGUAGES`, or ``ru``, ``ar``, ``fa``, ``el``, ``hy``, ``hi``, ``ta``, ``zh``,
    ``ja``, ``ko`` by script; ``en`` on a tie or too little text (see the module docstring)."""
    sample = _NOT_WORDS.sub(" ", text[:SAMPLE_CHARS])
    prose = _CODE.sub(" ", sample)
    script = _script(prose)
    if script == "ar" and persian_letters(prose):
        return "fa"
    if script is not None:
        return script
    found = _vote(_WORD.findall(prose.lower()))
    if found is None and prose != sample:  # too little prose: its code's comments vote
        found = _vote([w for w in _WORD.findall(sample.lower()) if len(w) > 1])
    return found or "en"


def _vote(words: list[str]) -> str | None:
    """The language of ``words`` by their stop words, or None when no language wins
    clearly enough (see the module docstring); English only when it has the most."""
    votes = stop_word_votes(words)
    if not votes:
        return None
    english = votes.get("en", 0)
    lang, most = max(votes.items(), key=lambda kv: (kv[1], kv[0] == "en"))
    if most < MIN_VOTES or most < MIN_SHARE * len(words):
        return None
    stops = _stop_words(lang)
    if len({w for w in words if w in stops or fold_marks(w) in stops}) < 2:  # one word said again
        return None
    if lang == "en" or most <= english:
        return "en"
    return lang


def query_language(text: str, candidates: Iterable[str]) -> str | None:
    """The language a query is written in, among ``candidates`` (the languages of an
    index's notes): the one whose stop words it holds most, by a margin over every
    other candidate; None when none holds any or two tie (``map set``, ``la de`` in
    an index of Spanish and French). A query is too short for :func:`detect_language`'s
    thresholds, but it is read against the languages its index has; only their stop
    words are read (a query in an index of English notes reads no list of another
    language)."""
    wanted = [c for c in dict.fromkeys(candidates) if c in VOTING_LANGUAGES]
    if not wanted:
        return None
    # Each word is read as the analysis chains read it, accents folded too: a
    # question written with them (Spanish "cómo", the list's "como") votes for the
    # language whose chain drops it. Unfolded, "cómo cocinar arroz" voted for no
    # language and its "cómo" was searched in every chain that keeps it.
    votes = stop_word_votes(_WORD.findall(text.lower()), wanted, folded=True)
    ranked = sorted(((votes.get(c, 0), c) for c in wanted), reverse=True)
    if ranked[0][0] == 0 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def query_chain(text: str, langs: Sequence[str]) -> str:
    """The analysis chain a question ``text`` is read in, among an index's chains
    ``langs`` (:meth:`rubi.index.searchindex.SearchIndex.languages`): its language
    (:func:`query_language`), else Persian when the index has Persian notes and the
    question is written in Persian's letters (:func:`rubi.index.persian.persian_letters`),
    else English when the index has it or has none, else the index's first. One rule
    for every reader of a question's content words: the
    note window's (:func:`rubi.search.notewindow.note_question`) and recall's length
    of a prompt (:func:`rubi.app.recall.content_terms`)."""
    found = query_language(text, langs)
    if found is not None:
        return found
    if "fa" in langs and not text.isascii() and persian_letters(text):
        return "fa"  # told by its letters (SCRIPT_CHAIN_LANGUAGES), as its notes are
    return "en" if "en" in langs or not langs else langs[0]
