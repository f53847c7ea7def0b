"""The embedding's fast path (chunk cache, one gather per document) gives the ids and
vectors of the reference path (the tokenizer on the whole text, one text at a time),
to the last bit, on real notes and on awkward text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rubi import semantic
from rubi.index.documents import note_document
from rubi.markdown.parse import parse_note
from rubi.semantic.encoder import MAX_TEXT_CHARS, Encoder, load_encoder
from rubi.semantic.passages import doc_passages
from rubi.semantic.wordpiece import WordPiece

from helpers import VAULTS, require_data

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

SAMPLE_EVERY = 4
"""Every 4th note of each shared vault (about 70 notes)."""

AWKWARD = [
    "",
    "   \n\t ",
    "plain ascii words, with punctuation. And [[links]]!",
    "ascii with control\x01chars\x1b[31m and \x0bvertical\x0ctabs\x1c",
    "café naïve — “quoted” text with\x01control and\x0bspaces\x85here",
    "ΟΔΥΣΣΕΥΣ AΣ Σ ΑΣ, ὈΔΥΣΣΕΎΣ. σς",
    "İstanbul ǅemal ẞtraße ﬁle",
    "soft\xadhyphen zero\u200bwidth joiner\u200dhere bom\ufeffin replacement\ufffdchar",
    "中文字符和English混合。日本語のテキスト、한국어",
    "line\u2028separator para\u2029sep nbsp\xa0here ideographic\u3000space",
    "e\u0301 a\u0300\u0316 combining marks \u0345 ypogegrammeni",
    "emoji 🙂👍🏽 and math 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ∑∫ and arrows → ⇒",
    "a" * 150 + " " + "long" * 40,
    "\x00null\x00bytes\x7fdel",
]


def _sample_texts() -> list[list[str]]:
    """The passages of every 4th note of both shared vaults, as the sync embeds them."""
    docs = []
    for name in ("obsidian-help-en", "kepano-obsidian"):
        root = require_data(VAULTS / name)
        paths = sorted(Path(root).rglob("*.md"))[::SAMPLE_EVERY]
        for path in paths:
            rel = path.relative_to(root).as_posix()
            note = parse_note(path.read_text(encoding="utf-8"), rel, strict=False)
            docs.append([p.text for p in doc_passages(note_document(note))])
    return docs


def _reference_sums(encoder: Encoder, texts: list[str]) -> Any:
    """Token sums one text at a time, tokenized whole, rows converted to float32 first:
    the path the fast one replaced."""
    import numpy as np

    vectors, scales, tokenizer = encoder._vectors, encoder._scales, encoder._tokenizer
    sums = np.zeros((len(texts), encoder.dims), dtype=np.float32)
    for i, text in enumerate(texts):
        ids = tokenizer.encode_whole(text[:MAX_TEXT_CHARS])
        if ids:
            sums[i] = np.einsum("i,ij->j", scales[ids], vectors[ids].astype(np.float32))
    return sums


def _fresh_encoder() -> Encoder:
    """The shipped model with empty tokenizer caches (the cached chunks of other tests
    would hide the first-seen path)."""
    loaded = load_encoder()
    tokenizer = WordPiece(loaded._tokenizer.vocab)
    return Encoder(loaded.model_id, loaded.dims, loaded._vectors, loaded._scales, tokenizer)


def test_ids_and_vectors_equal_the_reference_on_real_notes() -> None:
    import numpy as np

    encoder = _fresh_encoder()
    docs = _sample_texts()
    assert len(docs) > 50
    for _ in range(2):  # chunks seen for the first time, then from the cache
        for texts in docs:
            for text in texts:
                assert encoder._tokenizer.encode(text) == encoder._tokenizer.encode_whole(text)
            sums, counts = encoder.token_sums(texts)
            assert np.array_equal(sums, _reference_sums(encoder, texts))
            assert counts.tolist() == [
                len(encoder._tokenizer.encode_whole(t[:MAX_TEXT_CHARS])) for t in texts
            ]


@pytest.mark.parametrize("text", AWKWARD)
def test_ids_equal_the_reference_on_awkward_text(text: str) -> None:
    tokenizer = _fresh_encoder()._tokenizer
    # alone, then after its chunks were cached from texts of the other kind (ASCII or not)
    assert tokenizer.encode(text) == tokenizer.encode_whole(text)
    for other in AWKWARD:
        tokenizer.encode(other)
    assert tokenizer.encode(text) == tokenizer.encode_whole(text)
    joined = " ".join(AWKWARD)
    assert tokenizer.encode(joined) == tokenizer.encode_whole(joined)


def test_a_batch_sums_each_text_by_itself() -> None:
    import numpy as np

    encoder = _fresh_encoder()
    sums, counts = encoder.token_sums(AWKWARD)
    assert np.array_equal(sums, _reference_sums(encoder, AWKWARD))
    assert counts[0] == 0 and not sums[0].any()
    for i, text in enumerate(AWKWARD):
        alone, _ = encoder.token_sums([text])
        assert np.array_equal(alone[0], sums[i])
