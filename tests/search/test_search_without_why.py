"""A search for a caller that shows no why-line (the recall hook) makes none: the
same hits, in the same order, with the same passages, and no query word mapped back
to its terms (every word analysed in every chain in use)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.index.queryanalysis import QueryAnalysis

from helpers import rubi_project, write

LOADER = (
    "import os\n\n\ndef load_settings(defaults):\n"
    "    # read at startup: environment variables merged over the defaults\n"
    "    merged = dict(defaults)\n    for key in defaults:\n"
    "        if key in os.environ:\n            merged[key] = os.environ[key]\n"
    "    return merged\n"
)


@pytest.mark.parametrize("scope", ["notes", "code", "all"])
def test_the_same_hits_without_their_reasons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scope: str
) -> None:
    root = rubi_project(tmp_path / "proj", {"src/loader.py": LOADER, "src/other.py": "x = 1\n"})
    vault = root / ".rubi"
    write(
        vault / "notes" / "settings.md", "# Settings\n\nEnvironment variables override defaults.\n"
    )
    write(vault / "notes" / "startup.md", "# Startup\n\nThe loader reads settings at startup.\n")
    paths = app.locate(vault)
    app.index(paths)
    query = "how are settings loaded from environment variables at startup"
    shown = app.search(paths, query, scope=scope, top_k=5, personal=False)
    assert shown.hits and all(h.why and h.reasons for h in shown.hits)

    def no_map(self: QueryAnalysis, text: str) -> tuple[dict[str, str], set[str]]:
        raise AssertionError("a word map for no why-line")

    monkeypatch.setattr(QueryAnalysis, "word_map", no_map)
    bare = app.search(paths, query, scope=scope, top_k=5, personal=False, why=False)
    assert [(h.id, h.score, h.matched) for h in bare.hits] == [
        (h.id, h.score, h.matched) for h in shown.hits
    ]
    assert [h.passages for h in bare.hits] == [h.passages for h in shown.hits]
    assert all(h.why == () and h.reasons == () for h in bare.hits)
    assert (bare.relevant, bare.coverage, bare.named) == (
        shown.relevant,
        shown.coverage,
        shown.named,
    )


def test_the_recall_maps_no_word_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rubi.app.recall import recall

    root = rubi_project(tmp_path / "proj", {"src/loader.py": LOADER})
    vault = root / ".rubi"
    write(
        vault / "notes" / "settings.md", "# Settings\n\nEnvironment variables override defaults.\n"
    )
    paths = app.locate(vault)
    app.index(paths)
    prompt = "Read src/loader.py: how does load_settings merge environment variables?"
    before = recall(paths, prompt, max_tokens=600)
    assert before and "src/loader.py" in before and "Settings" in before

    def no_map(self: QueryAnalysis, text: str) -> tuple[dict[str, str], set[str]]:
        raise AssertionError("a word map for no why-line")

    monkeypatch.setattr(QueryAnalysis, "word_map", no_map)
    assert recall(paths, prompt, max_tokens=600) == before
