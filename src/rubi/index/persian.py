"""Persian told from Arabic by its letters, and a Persian question's words read as
Persian.

Persian is written in the Arabic script, and rubi stems every Arabic-script word by
ISRI (Taghva et al. 2005), an Arabic root extractor: a Persian word lost letters that
are no affix of it (``تابعی`` "a function" → ``بعی``, ``ورودی`` "input" → ``رودی``) and
distinct words met at one root (``فرستاده`` "sent", ``فرستادن`` "to send" → ``رستاد``).
A note whose Arabic-script letters are Persian's (:func:`persian_letters`) is analysed
in Persian's chain (``fa``: Snowball's Persian stemmer, :mod:`rubi.index.wordterm`),
and so are a Persian question's words (:func:`persian_readings`). Figures:
``docs/benchmarks-history.md``, "issue 28: Persian read by its own stemmer,
twenty-ninth pass".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["arabic_script", "persian_letters", "persian_readings"]

_PERSIAN_ONLY = frozenset("\u06cc\u06a9\u067e\u0686\u0698\u06af")
"""Letters Persian writes and Arabic does not: Farsi yeh ``ی`` and keheh ``ک`` (where
Arabic writes ``ي`` and ``ك``), ``پ``, ``چ``, ``ژ``, ``گ``."""
_ARABIC_ONLY = frozenset("\u064a\u0643\u0629\u0649")
"""Arabic's yeh, kaf, teh marbuta and alef maksura: Arabic-script letters Persian does
not write."""
_URDU_ONLY = frozenset("\u0679\u0688\u0691\u06ba\u06be\u06c1\u06d2")
"""Urdu's tteh, ddal, rreh, noon ghunna, do-chashmi heh, heh goal and yeh barree,
which Persian does not write either. Urdu writes Persian's six letters too, about as
often as these seven (27 against 25 in a paragraph of plain Urdu), so each of them
counts twice in :func:`persian_letters`: once for itself and once for the shared
letter it stands beside; Urdu stays with ISRI."""


def arabic_script(word: str) -> bool:
    """Whether ``word`` starts with an Arabic-script letter (U+0600-U+06FF,
    U+0750-U+077F): a word :mod:`rubi.index.wordterm` stems by its script."""
    first = ord(word[0]) if word else 0
    return 0x0600 <= first <= 0x06FF or 0x0750 <= first <= 0x077F


def persian_letters(text: str) -> bool:
    """Whether ``text`` holds more of the letters only Persian writes
    (:data:`_PERSIAN_ONLY`) than of the Arabic-script letters Persian does not write
    (:data:`_ARABIC_ONLY`, and :data:`_URDU_ONLY` counted twice): a property of the
    script, counted, no list of words. A text with neither (a short question of shared
    letters) is not Persian. In fa.javascript.info's 466 pages 119,964 against 7; in
    ar.javascript.info's 310, none against 52,107 (and its teh marbuta); tldr's 443
    ``pages.fa`` pages all Persian (none holds an Urdu letter), its 437 ``pages.ar``
    none."""
    persian = other = 0
    for c in text:
        if c in _PERSIAN_ONLY:
            persian += 1
        elif c in _ARABIC_ONLY:
            other += 1
        elif c in _URDU_ONLY:
            other += 2
    return persian > other


def persian_readings(
    text: str,
    surfaces: Sequence[str],
    readings: list[dict[str, tuple[str, ...]]],
    terms_of: Callable[[], Callable[[str], tuple[str, ...]]],
) -> list[dict[str, tuple[str, ...]]]:
    """A question's ``readings`` (for each token of ``surfaces``, its terms in each
    chain that keeps it, as :func:`rubi.index.analysis.query_words` finds them), each
    Arabic-script token's replaced by its Persian terms in every chain of its entry
    (none when Persian drops it) when the question ``text`` is written in Persian's
    letters (:func:`persian_letters`) and the index has Persian's chain (one entry
    holds ``fa``); else ``readings`` as they are. ``terms_of`` gives Persian's chain's
    term function, asked only then. The other chains' readings of a Persian word are
    ISRI's roots, which joined distinct words of the question into one and matched
    other words' roots (lang-jsinfo-fa q020: 5th with them, 1st without)."""
    if text.isascii() or not any("fa" in r for r in readings) or not persian_letters(text):
        return readings
    persian = terms_of()
    out = list(readings)
    for i, surface in enumerate(surfaces):
        if arabic_script(surface):
            found = persian(surface)
            out[i] = {lang: found for lang in readings[i]} if found else {}
    return out
