"""Text analysis for the index: one chain for notes and code, stemmed per field.

``tokenize → split identifiers → lower-case → fold accents → stop words → CJK bigrams
→ stem``. English stemming is Porter2 with ``-ery`` nouns joined to their verb; code
fields add one step for the agent nouns code is full of (:func:`stem_code`:
``router``, ``handler``, ``parser`` stem like ``routing``, ``handling``, ``parsing``).
Identifiers are split at camelCase, snake_case, kebab-case and dots, and the joined
form is kept too, so ``parseWikiLinks`` matches ``parse``, ``wiki``, ``links`` and
``parsewikilinks``. Chinese, Japanese and Korean runs, which have no spaces, become
overlapping character bigrams (the usual approach, as in Lucene's CJKBigramFilter).
Russian and Arabic words are stemmed by their script, in every chain that stems
English (Snowball's Russian stemmer; ISRI for Arabic, Taghva et al. 2005), so ``диск``
meets ``диске`` and ``كتاب`` meets ``الكتب``; Hebrew and other scripts pass through as
words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    Filter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
)
from whoosh.lang import stemmer_for_language, stopwords_for_language
from whoosh.support.charset import accent_map

__all__ = [
    "LANGUAGES",
    "CJKBigramFilter",
    "IdentifierSplitFilter",
    "LanguageNameFilter",
    "TermAnalyzer",
    "analyze",
    "is_cjk",
    "query_words",
    "stem_code",
    "stem_en",
    "text_analyzer",
]

_TOKEN_PATTERN = r"\b[CcFf](?:\+\+|#)(?![\w+#])|\w+(?:[.'’]\w+)*"
"""Words, keeping dotted names (``app.py``, ``os.path``) and apostrophes together, and
the language names C++, C# and F#, which would otherwise lose their symbols and then
their one letter."""
_LANGUAGE_NAMES = {"c++": "cpp", "c#": "csharp", "f#": "fsharp"}
"""Language names spelled with symbols → the word their files and tools use."""

_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_a-zA-Z]+")
"""Pieces of an identifier: ``HTTPServer`` → HTTP, Server; ``parse_v2`` → parse, v, 2."""

_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def identifier_parts(word: str) -> list[str]:
    """The pieces an identifier is split into (``HTTPServer`` → HTTP, Server); a plain
    word gives itself."""
    parts: list[str] = _PART_RE.findall(word)
    return parts if len(parts) > 1 else [word]


class IdentifierSplitFilter(Filter):  # type: ignore[misc]
    """Emit an identifier's parts after the whole token (all at the token's position)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            parts = (
                _PART_RE.findall(text)
                if not text.isalpha() or not (text.islower() or text.isupper() or text.istitle())
                else [text]
            )
            yield t
            if len(parts) > 1:
                for part in parts:
                    t.text = part
                    yield t


class LanguageNameFilter(Filter):  # type: ignore[misc]
    """``C++`` → ``cpp``, ``C#`` → ``csharp``, ``F#`` → ``fsharp`` (after lower-casing),
    so "C++ bindings" finds ``bindings.cpp``."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            t.text = _LANGUAGE_NAMES.get(t.text, t.text)
            yield t


def is_cjk(term: str) -> bool:
    """Whether ``term`` holds Han, kana or Hangul (a CJK bigram or unigram)."""
    return _CJK_RE.search(term) is not None


class CJKBigramFilter(Filter):  # type: ignore[misc]
    """Split runs of Han, kana and Hangul into overlapping bigrams (unigram if alone)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            if not _CJK_RE.search(text):
                yield t
                continue
            for run in re.findall(rf"(?:{_CJK_RE.pattern})+|[^\W_]+", text):
                if not _CJK_RE.match(run) or len(run) == 1:
                    t.text = run
                    yield t
                else:
                    for i in range(len(run) - 1):
                        t.text = run[i : i + 2]
                        yield t


_porter2 = stemmer_for_language("en")
_russian = stemmer_for_language("ru")
_arabic = stemmer_for_language("ar")


def _script_stem(word: str) -> str | None:
    """The stem of a Cyrillic (Russian Snowball) or Arabic-script (ISRI) word, judged
    by its first letter; None for any other word."""
    first = ord(word[0])
    if 0x0400 <= first <= 0x04FF:
        return str(_russian(word))
    if 0x0600 <= first <= 0x06FF or 0x0750 <= first <= 0x077F:
        return str(_arabic(word))
    return None


_NOT_AGENT_WORDS = (
    # -er words that name no doer of a verb, where folding would meet another word
    # (letter → let, former → form, header → head, master → mast)
    "answer",
    "banner",
    "better",
    "bitter",
    "border",
    "brother",
    "butter",
    "center",
    "chapter",
    "copper",
    "corner",
    "danger",
    "dinner",
    "father",
    "feather",
    "finger",
    "flower",
    "folder",
    "former",
    "gender",
    "hammer",
    "header",
    "ladder",
    "leather",
    "letter",
    "manner",
    "master",
    "matter",
    "member",
    "monster",
    "mother",
    "number",
    "powder",
    "proper",
    "quarter",
    "shower",
    "silver",
    "sister",
    "summer",
    "weather",
    "whisper",
    "winter",
    "wonder",
    "zipper",
    # -ery words that are not the noun of an -er verb (battery → bat)
    "artery",
    "battery",
    "cemetery",
    "flattery",
    "gallery",
    "lottery",
    "mystery",
    "pottery",
    "scenery",
    "slavery",
    "surgery",
)
_NOT_AGENTS = frozenset(_porter2(w) for w in _NOT_AGENT_WORDS)
"""Porter2 stems left alone by :func:`stem_en` and :func:`stem_code`: common words
their ``-ery`` and agent-noun steps would fold into a false friend."""


def stem_en(word: str) -> str:
    """English stem of ``word`` for prose: Porter2, with ``-ery`` nouns joined to their
    verb (a Cyrillic or Arabic word gets its own language's stem instead).

    Porter2 (M. F. Porter, "Snowball: A language for stemming algorithms", 2001; the
    English stemmer, snowballstem.org/algorithms/english/stemmer.html) leaves
    ``recovery`` as ``recoveri``, apart from ``recover``; here it becomes ``recov``
    like the verb (and ``discovery``, ``delivery``). Common words that are no such
    noun keep their stem (``battery``, ``gallery``).

    Args:
        word: one lower-case token.

    Returns:
        The stem (lower-case).
    """
    if word and not word.isascii():
        other = _script_stem(word)
        if other is not None:
            return other
    stem: str = _porter2(word)
    if stem in _NOT_AGENTS:
        return stem
    if len(stem) >= 7 and stem.endswith("eri") and stem[:-1] not in _NOT_AGENTS:
        stem = _porter2(stem[:-3] + "ing")
    return stem


def stem_code(word: str) -> str:
    """English stem of ``word`` in code: :func:`stem_en`, then agent nouns folded into
    their activity.

    Porter2 strips ``-er`` only inside the word's R2 region, so ``router``,
    ``handler``, ``parser`` and ``logger`` keep it and never meet ``routing``,
    ``handling``, ``parsing`` and ``logging``. Code names its types after the agent
    (``Router``, ``Logger``) while questions name the activity ("routing", "logging"),
    so a stem still ending in ``-er`` (six letters or more) is stemmed again as its
    ``-ing`` form: ``router`` → ``routing`` → ``rout``, ``logger`` → ``log``,
    ``wrapper`` → ``wrap``. Common words where that would meet a false friend
    (``letter`` → ``let``, ``header`` → ``head``) keep their Porter2 stem (a fixed list;
    rarer ones still fold). Prose is left alone: in a product's documentation "Web
    viewer" and "Quick switcher" name features that the far more common "view" and
    "switch" would drown.

    Args:
        word: one lower-case token.

    Returns:
        The stem (lower-case).
    """
    stem = stem_en(word)
    if len(stem) >= 6 and stem.endswith("er") and stem not in _NOT_AGENTS:
        stem = _porter2(stem[:-2] + "ing")
    return stem


def _stop_words(lang: str) -> frozenset[str]:
    # Each language drops only its own stop words: Portuguese "os" is a Python module.
    return frozenset(stopwords_for_language(lang))


LANGUAGES = ("en", "pt", "code")
"""Analysis chains: English prose, Portuguese prose, and code (English with the
agent-noun step of :func:`stem_code`)."""


STEM_CACHE_SIZE = 65_536
"""Tokens whose stem each chain remembers (least recently used dropped; about 8 MB).
The word table of :class:`TermAnalyzer` learns every distinct word, but a code
identifier is split into parts (``AbstractBeanFactory``: abstract, bean, factory)
that recur across thousands of words: without this, spring-framework's code
stemmed 1.1 million tokens, 15% of a first index."""

_cached_stem_en = lru_cache(maxsize=STEM_CACHE_SIZE)(stem_en)
_cached_stem_code = lru_cache(maxsize=STEM_CACHE_SIZE)(stem_code)


def _whoosh_chain(lang: str) -> Analyzer:
    """The chain as Whoosh filters, token by token (see the module docstring)."""
    stemmer = {"en": _cached_stem_en, "code": _cached_stem_code}.get(lang)
    return (
        RegexTokenizer(_TOKEN_PATTERN)
        | IdentifierSplitFilter()
        | LowercaseFilter()
        | LanguageNameFilter()
        | CharsetFilter(accent_map)
        | StopFilter(stoplist=_stop_words("en" if lang == "code" else lang), minsize=2)
        | CJKBigramFilter()
        # Whoosh's own stem cache off: the English ones are cached above
        | (
            StemFilter(stemfn=stemmer, cachesize=0)
            if stemmer
            else StemFilter(lang=lang, cachesize=0)
        )
    )


TERM_CACHE_SIZE = 150_000
"""Distinct words whose terms one :class:`TermAnalyzer` remembers (about 170 bytes
each, so 25 MB at most per chain); words met after that are analysed each time. A
generated vault of 5,000 real notes has 8,000 distinct words; 10,000 Python files have
about 300,000 in their code, the frequent ones met early."""


class TermAnalyzer(Analyzer):  # type: ignore[misc]
    """The text analyzer of one chain (``en``, ``pt`` or ``code``), with a fast path
    for indexing.

    Every filter after the tokenizer looks at one token at a time, so a word always
    becomes the same terms. :meth:`terms` runs the tokenizer's regular expression
    over the text and looks each word up in a table of the terms it became (up to
    :data:`TERM_CACHE_SIZE` words), running the Whoosh filters (one token through the
    chain) only for a word it has not seen:
    the same terms as the chain, about 5x faster than a generator stage per filter
    and a token object per word. Called as a Whoosh analyzer it is the chain itself
    (Token objects, positions and character offsets when asked).

    Pickled by its language (Whoosh keeps the schema in its table of contents), so
    an index never carries the table.
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._chain = _whoosh_chain(lang)
        self._filters = tuple(self._chain.items[1:])
        self._findall = re.compile(_TOKEN_PATTERN).findall
        self._table: dict[str, tuple[str, ...]] = {}
        self._surface_terms: dict[str, str | None] = {}  # term_of's, as _table

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return text_analyzer, (self.lang,)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TermAnalyzer) and other.lang == self.lang

    def __hash__(self) -> int:
        return hash((TermAnalyzer, self.lang))

    def __repr__(self) -> str:
        return f"TermAnalyzer({self.lang!r})"

    def __call__(self, value: str, **kwargs: Any) -> Iterator[Any]:
        return self._chain(value, **kwargs)  # type: ignore[no-any-return]

    def _learn(self, word: str) -> tuple[str, ...]:
        token = Token(removestops=True, mode="index")
        token.text = word
        token.boost = 1.0
        stream: Iterator[Any] = iter((token,))
        for f in self._filters:
            stream = f(stream)
        got = tuple(t.text for t in stream if not t.stopped)
        if len(self._table) < TERM_CACHE_SIZE:
            self._table[word] = got
        return got

    def surface(self, text: str) -> list[str]:
        """The tokens of ``text`` before stop words and stemming, in order: words and
        an identifier's parts, lower-cased and accent-folded, CJK runs as bigrams; the
        same in every chain (its stop words and stemmer come after)."""
        split, lower, names, fold, stop, cjk, _ = self._filters
        out: list[str] = []
        for word in self._findall(text):
            token = Token(removestops=True, mode="query")
            token.text = word
            token.boost = 1.0
            stream: Iterator[Any] = iter((token,))
            for f in (split, lower, names, fold):
                stream = f(stream)
            # The stop filter's size floor comes before the bigrams, as in the chain.
            stream = (t for t in stream if len(t.text) >= stop.min)
            out += [t.text for t in cjk(stream)]
        return out

    def term_of(self, surface: str) -> str | None:
        """The term a token of :meth:`surface` becomes in this chain (None: a stop
        word)."""
        if surface in self._surface_terms:
            return self._surface_terms[surface]
        _, _, _, _, stop, _, stem = self._filters
        token = Token(removestops=True, mode="query")
        token.text = surface
        token.boost = 1.0
        got = [t.text for t in stem(stop(iter((token,)))) if not t.stopped]
        found = got[0] if got else None
        if len(self._surface_terms) < TERM_CACHE_SIZE:
            self._surface_terms[surface] = found
        return found

    def terms(self, text: str) -> list[str]:
        """The terms of ``text`` in order, duplicates kept (what the chain yields)."""
        table = self._table
        words = self._findall(text)
        try:
            return [term for word in words for term in table[word]]
        except KeyError:
            out: list[str] = []
            for word in words:
                terms = table.get(word)
                out += self._learn(word) if terms is None else terms
            return out

    def term_counts(self, text: str) -> dict[str, int]:
        """Each term of ``text`` with how many times the chain yields it, in order of
        first appearance."""
        table = self._table
        counts: dict[str, int] = {}
        get = counts.get
        for word, n in Counter(self._findall(text)).items():
            terms = table.get(word)
            if terms is None:
                terms = self._learn(word)
            for term in terms:
                counts[term] = get(term, 0) + n
        return counts


@lru_cache(maxsize=4)
def text_analyzer(lang: str = "en") -> TermAnalyzer:
    """The analyzer for text fields: ``en`` or ``pt`` prose, or ``code`` (one shared
    instance per language).

    Raises:
        ValueError: a language whoosh has no stemmer for.
    """
    return TermAnalyzer(lang)


def analyze(text: str, lang: str = "en") -> list[str]:
    """The terms ``text`` becomes in the index, in order (duplicates kept)."""
    return text_analyzer(lang).terms(text)


def query_words(
    text: str, langs: Iterable[str], surfaces: Sequence[str] | None = None
) -> list[dict[str, list[str]]]:
    """The words of a query as BM25F weighs them, in order of first appearance: each
    token of ``text`` (:meth:`TermAnalyzer.surface`: a word, an identifier's part, a
    CJK bigram) with the terms it becomes in each chain of ``langs`` that keeps it.
    Tokens that become one term in some chain are one word (``routing`` and
    ``router`` meet in the code chain): their fields saturate together. Tokens every
    chain drops are left out. Per chain, the terms are those of :func:`analyze`,
    without repeats. ``surfaces``: :meth:`TermAnalyzer.surface` of ``text``, when the
    caller has it already (the same in every chain)."""
    chains = [text_analyzer(lang) for lang in dict.fromkeys(langs)]
    if not chains:
        return []
    tokens = chains[0].surface(text) if surfaces is None else surfaces
    surfaces = list(dict.fromkeys(tokens))
    per = [{c.lang: t for c in chains if (t := c.term_of(s)) is not None} for s in surfaces]
    parent = list(range(len(per)))  # union-find: tokens sharing a term, lowest first

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = i = parent[parent[i]]
        return i

    first: dict[tuple[str, str], int] = {}
    for i, terms in enumerate(per):
        for key in terms.items():
            a, b = root(i), root(first.setdefault(key, i))
            parent[max(a, b)] = min(a, b)
    words: dict[int, dict[str, list[str]]] = {}
    for i, terms in enumerate(per):
        word = words.setdefault(root(i), {}) if terms else {}
        for lang, term in terms.items():
            if term not in word.setdefault(lang, []):
                word[lang].append(term)
    return [w for w in words.values() if w]
