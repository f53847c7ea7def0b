"""English stems for prose and code, and the stemmers of the scripts every chain
stems by script (Russian for Cyrillic, ISRI for Arabic): the word-level steps of
:mod:`rubi.index.analysis`."""

from __future__ import annotations

from collections.abc import Callable

from whoosh.lang import stemmer_for_language

__all__ = ["arabic_stem", "russian_stem", "stem_code", "stem_en"]

_porter2 = stemmer_for_language("en")

_russian: Callable[[str], str] | None = None
_arabic: Callable[[str], str] | None = None


def russian_stem(word: str) -> str:
    """The stem of a Russian word (one lower-case word): Whoosh's port of Snowball's
    Russian stemmer, made on the first such word (its module is imported then: a cold
    recall whose prompt has no Cyrillic word loads none of Whoosh's ports but the
    English one, :mod:`rubi.index.whooshimport`)."""
    global _russian
    if _russian is None:
        _russian = stemmer_for_language("ru")
    return _russian(word)


def arabic_stem(word: str) -> str:
    """The ISRI root of an Arabic-script word (Taghva et al. 2005): Whoosh's stemmer,
    made on the first such word (it imports ``whoosh.lang.isri`` and compiles its
    patterns: 0.6 ms of every cold recall, whose prompt has no Arabic word)."""
    global _arabic
    if _arabic is None:
        _arabic = stemmer_for_language("ar")
    return _arabic(word)


def _script_stem(word: str) -> str | None:
    """The stem of a Cyrillic (Russian Snowball) or Arabic-script (ISRI) word, judged
    by its first letter; None for any other word."""
    first = ord(word[0])
    if 0x0400 <= first <= 0x04FF:
        return str(russian_stem(word))
    if 0x0600 <= first <= 0x06FF or 0x0750 <= first <= 0x077F:
        return str(arabic_stem(word))
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
_NOT_AGENTS = frozenset(w[:-1] + "i" if w.endswith("ery") else w for w in _NOT_AGENT_WORDS)
"""Porter2 stems left alone by :func:`stem_en` and :func:`stem_code`: common words
their ``-ery`` and agent-noun steps would fold into a false friend. Written as Porter2
stems them (``-ery`` → ``-eri``, these ``-er`` words whole; a test checks them against
the stemmer) rather than stemmed at import: 55 pure-Python stems, 0.7 ms of every
process that analyses a word."""


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
