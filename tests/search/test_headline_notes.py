"""A short question after a short first paragraph that is no title ("Quick question",
"Hi!", "Context") is searched as one text: its first paragraph's own search is fused
only for a query long enough to be reduced (a pasted issue). Fused for a short one too
(the twenty-eighth pass's short-issue headline, since reverted), the greeting's own
hits came first: on two knowledge bases' development halves MRR@10 fell from
0.797-0.843 to 0.494-0.754 (kb-simonw-til) with such a paragraph before each
question."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.search.longquery import LONG_QUERY_WORDS, written_words

from helpers import filler_notes, notes_vault

NOTES = {
    "signing-keys.md": (
        "# Rotate the signing keys\n\nTo rotate the signing keys run the rotation "
        "script; the old keys stay valid for a day.\n"
    ),
    "api-keys.md": "# API keys\n\nEach service reads its API keys from the vault at start.\n",
    "quick-start.md": (
        "# Quick start\n\nA quick question list for newcomers: a quick answer to every "
        "question a newcomer asks first.\n"
    ),
    **filler_notes(12),
}
QUESTION = "how do I rotate the signing keys?"


def _order(paths: app.VaultPaths, query: str, scope: str) -> list[str]:
    return [h.path for h in app.search(paths, query, scope=scope, top_k=5).hits]


def test_a_first_paragraph_that_is_no_title_does_not_rank_a_notes_search(tmp_path: Path) -> None:
    paths = notes_vault(tmp_path / "v", NOTES)
    app.index(paths)
    asked = f"Quick question\n\n{QUESTION}"
    assert len(written_words(asked)) <= LONG_QUERY_WORDS  # not reduced
    assert _order(paths, QUESTION, "notes")[0] == "signing-keys.md"
    for scope in ("notes", "all"):
        # the same order as the text written as one paragraph: the greeting's own
        # search (the quick-start page first) is not fused in
        assert _order(paths, asked, scope) == _order(paths, f"Quick question {QUESTION}", scope)
        assert _order(paths, asked, scope)[0] == "signing-keys.md"
