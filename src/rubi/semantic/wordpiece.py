"""BERT's uncased WordPiece tokenizer in plain Python (the model's own vocabulary).

The same steps as the ``tokenizers`` package's ``BertNormalizer``,
``BertPreTokenizer`` and ``WordPiece`` model for an uncased vocabulary: control
characters dropped, CJK ideographs split, lower case, accents stripped, words split
at white space and punctuation, each word cut greedily into the longest vocabulary
pieces (``##`` marks a piece inside a word), a word with no cut ``[UNK]``. Written
here so the ``semantic`` extra needs numpy alone (the ``tokenizers`` package brings a
model-hub client with it); it gave the same ids as the reference on every line of the
shared vaults (12,248 lines).

Two ways to the same ids. :meth:`WordPiece.encode_whole` runs the steps above on the
whole text (the definition). :meth:`WordPiece.encode`, the one the model uses, cuts
the text at white space first and remembers the ids of each distinct chunk, so a
chunk seen before ("the", "note.", "[[Daily") costs one dict lookup and only new
chunks are normalized and split. Every step is per character or per word, and white
space ends a word and the context of a lower-case final sigma, so the chunks' ids
joined are the whole text's (tests compare the two on real notes).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from rubi.core.lazyregex import Rx

__all__ = ["MAX_WORD_CHARS", "WordPiece"]

MAX_WORD_CHARS = 100
"""A longer word is ``[UNK]`` (BERT's ``max_input_chars_per_word``)."""

_CACHE_MAX = 100_000
"""Distinct words whose pieces are remembered (for chunks not seen before)."""

_CHUNKS_MAX = 100_000
"""Distinct white-space-separated chunks whose ids are remembered (then new chunks are
computed and not kept): about 15 MB when full, and a vault's common chunks come early."""

# White space that normalization drops (control characters) where other white space
# becomes a space; str.split() would cut at it, so it goes first.
_DROPPED_SPACE = re.compile("[\x0b\x0c\x1c-\x1f\x85]")
_ASCII_CONTROL = re.compile("[\x00-\x1f\x7f]")

# Words: runs of letters and digits (and marks and symbols, which BERT keeps inside
# words); punctuation, ASCII symbols and CJK ideographs one character each.
_CJK = (
    "\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f"
    "\U0002b740-\U0002b81f\U0002b820-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f"
)
_ASCII_PUNCT = re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SPLIT = Rx(rf"[{_CJK}]|[{_ASCII_PUNCT}]|[^\s{_ASCII_PUNCT}{_CJK}]+")
"""Compiled on first use (its CJK ranges cost 2 ms of CPU): only a text that is not
ASCII is split with it."""
_ASCII_SPLIT = re.compile(rf"[{_ASCII_PUNCT}]|[^\s{_ASCII_PUNCT}]+")
""":data:`_SPLIT` for ASCII text, which holds no CJK character: the same matches."""


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch).startswith("P")


def _clean(text: str, *, ascii_text: bool | None = None) -> str:
    """Control characters out, white space as spaces, lower case, accents stripped.

    An all-ASCII text (``ascii_text``, by default ``text.isascii()``) is only lower-cased:
    its control characters stay, as they always have here (BERT's normalizer drops
    them; the cached vectors were made this way, so :meth:`WordPiece.encode` keeps it).
    """
    if ascii_text is None:
        ascii_text = text.isascii()
    if not ascii_text:
        text = "".join(
            " " if ch.isspace() else ch
            for ch in text
            if (ch not in "\x00\ufffd" and unicodedata.category(ch) not in ("Cc", "Cf"))
            or ch in "\t\n\r"
        )
        text = unicodedata.normalize("NFD", text.lower())
        return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return text.lower()


class WordPiece:
    """A vocabulary and its tokenizer (see the module docstring).

    Thread-safe for reading; the word cache is a plain dict (a race costs a recompute).
    """

    def __init__(self, vocab: dict[str, int], unk: str = "[UNK]") -> None:
        self.vocab = vocab
        self.unk_id = vocab[unk]
        self._cache: dict[str, tuple[int, ...]] = {}
        self._chunks: dict[str, tuple[int, ...]] = {}

    @classmethod
    def from_vocab_file(cls, path: Path) -> WordPiece:
        """The vocabulary of a ``vocab.txt`` file (one token a line, the line number its
        id), as BERT ships it.

        Raises:
            OSError: unreadable. KeyError: no ``[UNK]`` token.
        """
        tokens = path.read_text(encoding="utf-8").split("\n")
        if tokens and tokens[-1] == "":
            tokens.pop()
        return cls({t: i for i, t in enumerate(tokens)})

    def words(self, text: str, *, ascii_text: bool | None = None) -> list[str]:
        """The pre-tokenized words of ``text`` (normalized, split at punctuation);
        ``ascii_text`` as for :func:`_clean`."""
        found = []
        clean = _clean(text, ascii_text=ascii_text)
        for token in (_ASCII_SPLIT if clean.isascii() else _SPLIT).findall(clean):
            if token.isascii() or not any(_is_punct(ch) for ch in token):
                found.append(token)
            else:  # Unicode punctuation inside a run: one token each
                found.extend(t for t in re.split(r"(\W)", token) if t)
        return found

    def encode(self, text: str) -> list[int]:
        """The vocabulary ids of ``text`` (no special tokens): those of
        :meth:`encode_whole`, computed chunk by chunk with a cache (module docstring)."""
        ascii_text = text.isascii()
        if not ascii_text:
            text = _DROPPED_SPACE.sub("", text)
        ids: list[int] = []
        chunks = self._chunks
        for chunk in text.split():
            found = chunks.get(chunk)
            if found is None:
                found, keep = self._chunk_ids(chunk, ascii_text)
                if keep and len(chunks) < _CHUNKS_MAX:
                    chunks[chunk] = found
            ids += found
        return ids

    def _chunk_ids(self, chunk: str, ascii_text: bool) -> tuple[tuple[int, ...], bool]:
        """The ids of one chunk of a text (``ascii_text``: the whole text is ASCII), and
        whether they may be cached: an ASCII chunk with a control character is cut in
        its text's way (see :func:`_clean`), so its ids depend on the text."""
        if not chunk.isascii():
            return tuple(self._ids(self.words(chunk, ascii_text=False))), True
        low = chunk.lower()
        if low.isalnum():  # one word: the common case
            return tuple(self._ids([low])), True
        if _ASCII_CONTROL.search(chunk) is None:
            return tuple(self._ids(_ASCII_SPLIT.findall(low))), True
        return tuple(self._ids(self.words(chunk, ascii_text=ascii_text))), False

    def encode_whole(self, text: str) -> list[int]:
        """The vocabulary ids of ``text`` by the steps of the module docstring applied to
        the whole text: the reference :meth:`encode` equals."""
        return self._ids(self.words(text))

    def _ids(self, words: list[str]) -> list[int]:
        ids: list[int] = []
        cache = self._cache
        for word in words:
            pieces = cache.get(word)
            if pieces is None:
                pieces = self._pieces(word)
                if len(cache) < _CACHE_MAX:
                    cache[word] = pieces
            ids.extend(pieces)
        return ids

    def _pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD_CHARS:
            return (self.unk_id,)
        whole = self.vocab.get(word)
        if whole is not None:
            return (whole,)
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    pieces.append(found)
                    break
                end -= 1
            else:
                return (self.unk_id,)
            start = end
        return tuple(pieces)
