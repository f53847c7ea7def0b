"""Text analysis for the index: one chain for notes and code, stemmed per language.

``tokenize → split identifiers → lower-case → stop words, CJK bigrams
and stems of the chain's language`` (:class:`LanguageFilter`). A note's prose is
analysed in the language detected for it (:mod:`rubi.index.language`): Snowball's
stemmer and stop words of each Latin-script language whoosh has both for
(:data:`PROSE_LANGUAGES`), English for the rest. English stemming is Porter2
with ``-ery`` nouns joined to their verb; code fields add one step for the agent
nouns code is full of (:func:`stem_code`: ``router``, ``handler``, ``parser`` stem
like ``routing``, ``handling``, ``parsing``).
Identifiers are split at camelCase, snake_case, kebab-case and dots, and the joined
form is kept too, so ``parseWikiLinks`` matches ``parse``, ``wiki``, ``links`` and
``parsewikilinks``. Chinese, Japanese and Korean runs, which have no spaces, become
overlapping character bigrams (the usual approach, as in Lucene's CJKBigramFilter).
Russian and Arabic words are stemmed by their script in every chain but Persian's
(Snowball's Russian stemmer and stop words; ISRI for Arabic, Taghva et al. 2005), so
``диск`` meets ``диске`` and ``كتاب`` meets ``الكتب``; Greek, Hebrew and others pass
through as words."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from whoosh.analysis import Analyzer, Filter, LowercaseFilter, RegexTokenizer, Token

from rubi.core.lazyregex import Rx
from rubi.index.language import ADDED_LANGUAGES, SCRIPT_CHAIN_LANGUAGES, VOTING_LANGUAGES
from rubi.index.persian import persian_readings
from rubi.index.stemming import stem_code, stem_en
from rubi.index.wordparts import contraction_head, mixed_case_pieces, word_parts
from rubi.index.wordterm import STOP_LIST_OF, chain_stop_words, word_terms
from rubi.index.wordterm import fold as _fold

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "LANGUAGES",
    "PROSE_LANGUAGES",
    "TOKEN_PATTERN",
    "WORD_CHARS",
    "CJKBigramFilter",
    "IdentifierSplitFilter",
    "LanguageFilter",
    "LanguageNameFilter",
    "TermAnalyzer",
    "analyze",
    "chain_language",
    "function_words_only",
    "is_cjk",
    "languages_in_use",
    "query_words",
    "stem_code",
    "stem_en",
    "text_analyzer",
]

WORD_CHARS = r"\w\u0300-\u036f\u0900-\u0963\u0b80-\u0bff"
"""The characters of a word, as a regular expression's class body (see
:data:`TOKEN_PATTERN`)."""
TOKEN_PATTERN = rf"\b[CcFf](?:\+\+|#)(?![\w+#])|[{WORD_CHARS}]+(?:[.'’][{WORD_CHARS}]+)*"
"""Words, keeping dotted names (``app.py``, ``os.path``) and apostrophes together, and
the language names C++, C# and F#, which would otherwise lose their symbols and then
their one letter. The vowel signs and viramas of Devanagari and Tamil (U+0900-U+0963,
U+0B80-U+0BFF) belong to their word too: they are marks, not letters, and cut
``किताबें`` into four pieces. A combining accent (U+0300-U+036F) belongs to its word: text written
decomposed (``e`` + U+0301, as macOS file names and some editors save it) is not cut
at each accent (``été`` was ``e`` and ``te``); the word is composed (NFC) by
:class:`IdentifierSplitFilter` before anything reads its letters."""
_LANGUAGE_NAMES = {"c++": "cpp", "c#": "csharp", "f#": "fsharp"}
"""Language names spelled with symbols → the word their files and tools use."""

_CJK_RE = Rx(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
"""Han, kana and Hangul; compiled on first use (a table of some 40,000 code points,
2–3 ms): an ASCII text holds none and is not searched (:func:`_has_cjk`)."""


def _has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Han, kana or Hangul character."""
    return not text.isascii() and _CJK_RE.search(text) is not None


def _has_indic(text: str) -> bool:
    """Whether ``text`` holds Devanagari or Tamil, whose vowel signs are marks: such a
    word is no identifier to split (``लड़कों`` is one word, not ``लड`` and ``कों``)."""
    return not text.isascii() and any(
        0x0900 <= ord(c) <= 0x097F or 0x0B80 <= ord(c) <= 0x0BFF for c in text
    )


def identifier_parts(word: str) -> list[str]:
    """The pieces an identifier is split into (``HTTPServer`` → HTTP, Server); a plain
    word gives itself."""
    parts = word_parts(word)
    return parts if len(parts) > 1 else [word]


class IdentifierSplitFilter(Filter):  # type: ignore[misc]
    """Emit an identifier's parts after the whole token (all at the token's position),
    the token composed first (NFC: ``e`` + U+0301 is ``é``). A token of one part other
    than itself gives that part too: markdown's emphasis ``_frobnicate_`` and
    ``__bold__``, Python's ``__init__`` (kept whole only, a search for ``frobnicate``
    did not find the note: ``docs/benchmarks-history.md``, "issue 28: underscore
    words and plural acronyms, fourteenth pass")."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            if not text.isascii():  # one form of each accented letter (NFC)
                text = t.text = unicodedata.normalize("NFC", text)
            parts = (
                word_parts(text)
                if (not text.isalpha() or not (text.islower() or text.isupper() or text.istitle()))
                and not _has_indic(text)
                else [text]
            )
            yield t
            if len(parts) > 1 or (parts and parts[0] != text):
                for part in parts:
                    t.text = part
                    yield t


class LanguageNameFilter(Filter):  # type: ignore[misc]
    """``C++`` → ``cpp``, ``C#`` → ``csharp``, ``F#`` → ``fsharp``: "C++ api" finds ``api.cpp``."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            t.text = _LANGUAGE_NAMES.get(t.text, t.text)
            yield t


def is_cjk(term: str) -> bool:
    """Whether ``term`` holds Han, kana or Hangul (a CJK bigram or unigram)."""
    return _has_cjk(term)


class CJKBigramFilter(Filter):  # type: ignore[misc]
    """Split runs of Han, kana and Hangul into overlapping bigrams (unigram if alone)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            if not _has_cjk(text):
                yield t
                continue
            for run in _cjk_runs(text):
                if not _CJK_RE.match(run) or len(run) == 1:
                    t.text = run
                    yield t
                else:
                    for i in range(len(run) - 1):
                        t.text = run[i : i + 2]
                        yield t


PROSE_LANGUAGES: tuple[str, ...] = VOTING_LANGUAGES
"""Languages whose prose has a chain of its own: the Latin-script languages with a
Snowball stemmer and a stop-word list (da, nl, en, fi, fr, de, hu, it, no, pt, es, sv
from whoosh; ca, cs, id, pl, ro, tr through :mod:`rubi.index.snowball`). A note in
another language is analysed by ``en``'s chain, which treats each word by its script
(:func:`chain_language`)."""

LANGUAGES: tuple[str, ...] = (*PROSE_LANGUAGES, *SCRIPT_CHAIN_LANGUAGES, "code")
"""Analysis chains: prose in each of :data:`PROSE_LANGUAGES` and Persian
(:data:`rubi.index.language.SCRIPT_CHAIN_LANGUAGES`), and code (English with the
agent-noun step of :func:`stem_code`)."""
_LAZY_CHAINS = frozenset((*ADDED_LANGUAGES, *SCRIPT_CHAIN_LANGUAGES))  # named once made

_MADE: set[str] = set()
"""The chains made in this process (:class:`TermAnalyzer`)."""


def languages_in_use() -> list[str]:
    """The chains a query's words are mapped in for its why-lines, English first: whoosh's
    languages and code always (their lists are loaded with whoosh), and each added one
    (:data:`rubi.index.language.ADDED_LANGUAGES`, Persian) whose chain this process made, as
    the search of an index holding such notes does. A query in an index of English notes
    loads no other language's stemmer or stop words for its why-lines."""
    return [lang for lang in LANGUAGES if lang not in _LAZY_CHAINS or lang in _MADE]


def chain_language(lang: str) -> str:
    """The analysis chain for a note detected as ``lang``
    (:func:`rubi.index.language.detect_language`): its own for
    :data:`PROSE_LANGUAGES` and Persian, else ``en`` (Cyrillic words stemmed as Russian,
    Arabic-script ones by ISRI, CJK ones cut into bigrams, Latin ones as English)."""
    return lang if lang in PROSE_LANGUAGES or lang in SCRIPT_CHAIN_LANGUAGES else "en"


def function_words_only(text: str, langs: Iterable[str]) -> bool:
    """Whether every word of ``text`` (at least one) is a stop word of one of the
    analysis chains ``langs`` (:data:`LANGUAGES`; code's and Persian's are English's): words the
    index drops from the prose of those languages, so no document frequency measures
    how rare they are (French ``du`` is a note's name in a vault of shell commands,
    and a stop word of its French prose). The name list gives such a name no vote:
    lang-tldr-es 0.499 -> 0.582 and -fr 0.668 -> 0.733 MRR@10 on the development
    halves, no other set moved (``docs/benchmarks-history.md``, "issue 28: language
    analysis, sixth pass")."""
    stops = [chain_stop_words(STOP_LIST_OF.get(lang, lang)) for lang in dict.fromkeys(langs)]
    words = [w for w in re.findall(r"[^\W\d_]+", text.lower()) if not is_cjk(w)]
    return bool(words) and all(any(w in s or _fold(w) in s for s in stops) for w in words)


class LanguageFilter(Filter):  # type: ignore[misc]
    """A language's end of the chain: tokens shorter than 2 letters dropped, then each
    CJK run cut into bigrams (:class:`CJKBigramFilter`) and every other word made its
    terms by :func:`rubi.index.wordterm.word_terms` (stop words dropped, stemmed)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.terms = word_terms(lang)

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        terms = self.terms
        for t in tokens:
            text = t.text
            if len(_fold(text)) < 2:
                continue
            for run in _cjk_pieces(text) if _has_cjk(text) else (text,):
                for found in (_fold(run),) if is_cjk(run) else terms(run):
                    t.text = found
                    yield t


def _cjk_runs(text: str) -> list[str]:
    """The runs of ``text`` (a token holding CJK): each run of Han, kana or Hangul, and
    each run of other letters or digits between them, in order. A word of another
    script with a particle or a word written against it (``API로``, ``CMS의``,
    ``Pythonで使っている``, ``HTTPクライアント``, ``Code里``) is two runs: the word
    and the CJK after it. Korean and Japanese write particles against a Latin word
    as a rule, and read as one run (``\\w`` holds Hangul and kana) the whole token
    was one term no page or question wrote apart: ``API로`` matched no ``API``, and
    ``で使っている`` gave no bigram."""
    return re.findall(rf"(?:{_CJK_RE.pattern})+|(?:(?!{_CJK_RE.pattern})[^\W_])+", text)


def _cjk_pieces(text: str) -> list[str]:
    """A token holding CJK as its pieces: overlapping bigrams of each CJK run (a lone
    character alone), and each other run of letters or digits."""
    out: list[str] = []
    for run in _cjk_runs(text):
        if not _CJK_RE.match(run) or len(run) == 1:
            out.append(run)
        else:
            out += [run[i : i + 2] for i in range(len(run) - 1)]
    return out


def _whoosh_chain(lang: str, last: LanguageFilter | None = None) -> Analyzer:
    """The chain as Whoosh filters, token by token (see the module docstring); ``last``:
    its :class:`LanguageFilter` when made already."""
    return (
        RegexTokenizer(TOKEN_PATTERN)
        | IdentifierSplitFilter()
        | LowercaseFilter()
        | LanguageNameFilter()
        | (last or LanguageFilter(lang))
    )


TERM_CACHE_SIZE = 150_000
"""Distinct words whose terms one :class:`TermAnalyzer` remembers (about 170 bytes
each, so 25 MB at most per chain; as many of words' parts besides); words met after
that are analysed each time. A generated vault of 5,000 real notes has 8,000 distinct
words; 10,000 Python files have about 300,000 in their code, the frequent ones met
early."""


def _token(text: str) -> Token:
    """One token of ``text``, as the tokenizer makes it for indexing."""
    token = Token(removestops=True, mode="index")
    token.text = text
    token.boost = 1.0
    return token


class TermAnalyzer(Analyzer):  # type: ignore[misc]
    """The text analyzer of one chain (one of :data:`LANGUAGES`), with a fast path
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
        _MADE.add(lang)
        # Whoosh's filters are put together on first use: a query's terms in each
        # chain (terms_of) need its last filter only (0.6 ms of a cold recall's 19).
        self._language = LanguageFilter(lang)
        self._whoosh: tuple[Analyzer, tuple[Any, ...]] | None = None
        # The tokenizer's own pattern: Whoosh compiles it with ``re.UNICODE`` (the
        # default for a text pattern, so the same matches), and ``re``'s cache keys on
        # the flags: without them, every process compiled it twice (0.4–0.8 ms).
        self._findall = re.compile(TOKEN_PATTERN, re.UNICODE).findall
        self._table: dict[str, tuple[str, ...]] = {}
        self._surface_terms: dict[str, tuple[str, ...]] = {}  # terms_of's, as _table
        self._part_terms: dict[str, tuple[str, ...]] = {}  # a word's parts' (_learn)

    def _made(self) -> tuple[Analyzer, tuple[Any, ...]]:
        if self._whoosh is None:
            chain = _whoosh_chain(self.lang, self._language)
            self._whoosh = (chain, tuple(chain.items[1:]))
        return self._whoosh

    @property
    def _chain(self) -> Analyzer:
        """The chain as Whoosh's filters (:func:`_whoosh_chain`), made on first use."""
        return (self._whoosh or self._made())[0]

    @property
    def _filters(self) -> tuple[Any, ...]:
        """The chain's filters after its tokenizer."""
        return (self._whoosh or self._made())[1]

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
        """The terms of a word met first: the split filter gives the word and its
        parts, and each piece goes through the rest of the chain alone (those filters
        look at one token at a time), the parts' terms remembered: a code base's
        words are mostly new names of known parts (``org.springframework.util``,
        ``getBeanFactory``), and the stemmer was most of learning them."""
        split, *rest = self._filters
        pieces = [t.text for t in split(iter((_token(word),)))]
        terms = list(self._tail(pieces[0], rest))  # the word whole: new, as the word is
        parts = self._part_terms
        for piece in pieces[1:]:
            found = parts.get(piece)
            if found is None:
                found = self._tail(piece, rest)
                if len(parts) < TERM_CACHE_SIZE:
                    parts[piece] = found
            terms += found  # a list: a tuple grown part by part was quadratic (a 1 MB
            # camelCase word of 333,000 parts: 15.4 s, bench/hostile_notes.py's camel)
        got = tuple(terms)
        if len(self._table) < TERM_CACHE_SIZE:
            self._table[word] = got
        return got

    @staticmethod
    def _tail(piece: str, filters: list[Any]) -> tuple[str, ...]:
        """The terms of one piece of a word through the filters after the split."""
        stream: Iterator[Any] = iter((_token(piece),))
        for f in filters:
            stream = f(stream)
        return tuple(t.text for t in stream if not t.stopped)

    def surface(self, text: str) -> list[str]:
        """The tokens of ``text`` before stop words and stemming, in order: words and
        an identifier's parts, lower-cased, CJK runs as bigrams; the same in every
        chain (its stop words and stemmer come after, in :meth:`terms_of`)."""
        split, lower, names, _ = self._filters
        out: list[str] = []
        for word in self._findall(text):
            token = Token(removestops=True, mode="query")
            token.text = contraction_head(word)
            token.boost = 1.0
            stream: Iterator[Any] = iter((token,))
            for f in (split, lower, names):
                stream = f(stream)
            for t in stream:
                if len(_fold(t.text)) < 2:
                    continue
                out += _cjk_pieces(t.text) if _has_cjk(t.text) else [t.text]
        return out

    def terms_of(self, surface: str) -> tuple[str, ...]:
        """The terms a token of :meth:`surface` becomes in this chain (none: a stop
        word)."""
        if surface in self._surface_terms:
            return self._surface_terms[surface]
        found = (_fold(surface),) if is_cjk(surface) else self._language.terms(surface)
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


def text_analyzer(lang: str = "en") -> TermAnalyzer:
    """The analyzer for text fields: one of :data:`LANGUAGES` (one shared instance per
    language, however it is asked for: ``text_analyzer()`` was a cache key of its own,
    so an index of all 19 chains evicted one analyzer, with its word table, per call
    in turn).

    Raises:
        ValueError: a language whoosh has no stemmer for.
    """
    return _analyzer(lang)


@lru_cache(maxsize=len(LANGUAGES))
def _analyzer(lang: str) -> TermAnalyzer:
    return TermAnalyzer(lang)


def analyze(text: str, lang: str = "en") -> list[str]:
    """The terms ``text`` becomes in the index in the chain of ``lang`` (a note's
    language: :func:`chain_language`), in order (duplicates kept)."""
    return text_analyzer(chain_language(lang) if lang != "code" else lang).terms(text)


def query_words(
    text: str, langs: Iterable[str], surfaces: Sequence[str] | None = None, join: bool = False
) -> list[dict[str, list[str]]]:
    """The words of a query as BM25F weighs them, in order of first appearance: each
    token of ``text`` (:meth:`TermAnalyzer.surface`: a word, an identifier's part, a
    CJK bigram) with the terms it becomes in each chain of ``langs`` that keeps it.
    Tokens that become one term in some chain are one word (``routing`` and
    ``router`` meet in the code chain): their fields saturate together. Tokens every
    chain drops are left out. Per chain, the terms are those of :func:`analyze`,
    without repeats. ``surfaces``: :meth:`TermAnalyzer.surface` of ``text``, when the
    caller has it already (the same in every chain). ``join``: the pieces of a word
    written with capitals inside it are that word (:func:`mixed_case_pieces`). Persian:
    :func:`rubi.index.persian.persian_readings`."""
    chains = [text_analyzer(lang) for lang in dict.fromkeys(langs)]
    if not chains:
        return []
    tokens = chains[0].surface(text) if surfaces is None else surfaces
    surfaces = list(dict.fromkeys(tokens))
    per = [{c.lang: t for c in chains if (t := c.terms_of(s))} for s in surfaces]
    per = persian_readings(text, surfaces, per, lambda: text_analyzer("fa").terms_of)
    parent = list(range(len(per)))  # union-find: tokens sharing a term, lowest first

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = i = parent[parent[i]]
        return i

    joined = mixed_case_pieces(text) if join else {}
    first: dict[tuple[str, str], int] = {}
    for i, terms in enumerate(per):
        keys = [(lang, t) for lang, found in terms.items() for t in found]
        if joined:  # a word written with capitals inside it: one word with its pieces
            keys.append(("", joined.get(surfaces[i], surfaces[i])))
        for key in keys:
            a, b = root(i), root(first.setdefault(key, i))
            parent[max(a, b)] = min(a, b)
    words: dict[int, dict[str, list[str]]] = {}
    for i, terms in enumerate(per):
        word = words.setdefault(root(i), {}) if terms else {}
        for lang, found in terms.items():
            for term in found:
                if term not in word.setdefault(lang, []):
                    word[lang].append(term)
    return [w for w in words.values() if w]
