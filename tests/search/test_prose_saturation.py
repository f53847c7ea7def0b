"""A plain-words question of notes saturates a word's frequency at BM25_PROSE_K1 (its
best window measures how many of its words meet); a name or a few keywords, a search
of code alone and one of captured sessions at BM25_K1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rubi.search.engine as engine
from rubi import app
from rubi.index.bm25params import BM25_K1, BM25_PROSE_FIELD_B, BM25_PROSE_K1
from rubi.search.notewindow import NoteQuestion, question_bm25, question_k1
from rubi.semantic import DISABLE_ENV

from helpers import notes_vault

QUESTION = "how do I retry a failed request after the server answers with a timeout"


def _asked(n: int) -> NoteQuestion:
    terms = tuple(f"w{i}" for i in range(n))
    return NoteQuestion("en", terms, terms, tuple(1.0 for _ in terms))


@pytest.mark.parametrize(
    ("n", "k1"),
    [(1, BM25_K1), (5, BM25_K1), (6, BM25_PROSE_K1), (20, BM25_PROSE_K1), (21, BM25_K1)],
)
def test_a_question_the_window_reorders_saturates_later(n: int, k1: float) -> None:
    assert BM25_PROSE_K1 > BM25_K1
    assert question_k1(_asked(n)) == k1
    assert question_k1(None) is None  # not a search of notes: the index's own
    # the body's length normalisation goes with the prose saturation, and only with it
    assert question_bm25(_asked(n)) == (k1, BM25_PROSE_FIELD_B if k1 == BM25_PROSE_K1 else None)
    assert question_bm25(None) == (None, None)


@pytest.mark.parametrize(
    ("scope", "query", "k1"),
    [
        ("notes", QUESTION, BM25_PROSE_K1),
        ("all", QUESTION, BM25_PROSE_K1),
        ("notes", "retry timeout", BM25_K1),
        ("code", QUESTION, None),
        ("sessions", QUESTION, None),
    ],
)
def test_the_search_asks_the_index_for_its_saturation_and_body_b(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str, query: str, k1: float | None
) -> None:
    monkeypatch.setenv(DISABLE_ENV, "0")
    paths = notes_vault(
        tmp_path,
        {"retries.md": "# Retries\n\nRetry a failed request when the server times out.\n"},
    )
    app.index(paths)
    asked: list[Any] = []
    real = engine.text_list

    def text_list(*args: Any) -> Any:
        asked.append((args[9], args[10]) if len(args) > 10 else None)
        return real(*args)

    monkeypatch.setattr(engine, "text_list", text_list)
    app.search(paths, query, scope=scope, refresh=False, personal=False)
    assert asked == [(k1, BM25_PROSE_FIELD_B if k1 == BM25_PROSE_K1 else None)]
