"""The relevance floor on long prompts: a pasted document is held to it, a long question is not.

Recall held a prompt of more than ``LONG_PROMPT_TERMS`` content words to its three-word
bar alone, without the relevance floor: a long question's many words no note holds
would keep it silent whatever the vault has. A prompt long enough to be reduced (more
than ``LONG_QUERY_WORDS`` distinct words: a pasted issue, a log) is searched for its
rarest words *that the index holds*, at most a question's worth, so that reason does
not hold for it; without the floor, another project's issue got the vault's README on
nothing but chance overlap (14 of 31 development issues in a code project). Its words
not written as code may clear the floor instead (``tests/hooks/test_handlers.py``'s
pasted traceback under a sentence about the note).
"""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.app.recall import LONG_PROMPT_TERMS
from rubi.index.warm import index_at
from rubi.search.limits import fit_query
from rubi.search.longquery import LONG_QUERY_WORDS, reduce_query

from helpers import write

COMMON = "river stone lantern"
"""Words every page holds."""
RARE = [
    "quokka",
    "marmalade",
    "zeppelin",
    "trombone",
    "glacier",
    "saffron",
    "walrus",
    "origami",
    "pelican",
    "tangerine",
    "harmonica",
    "cactus",
]
"""Words one page each holds."""
FILLER = "meadow copper window harbor pepper candle orchard ladder velvet marble "

PASTED = (
    "Crash when exporting the report. Steps: open the dashboard, choose "
    f"{' '.join(RARE)}, then {COMMON} and press export. Expected a spreadsheet with "
    "every column filled; got an exception from the serializer instead. Version 4.2 "
    "on Debian bookworm, Python interpreter upgraded yesterday, reinstalled twice, "
    "cleared caches, rebooted laptop, nothing helped whatsoever."
)
"""A pasted issue: more than ``LONG_QUERY_WORDS`` distinct words, most held by no page;
the ones some page holds are scattered one to a page."""

QUESTION = (
    f"Why would {COMMON} {' '.join(RARE[:9])} stop showing up after I reorganised "
    "everything yesterday?"
)
"""A long question (not reduced) of the same words."""


def _vault(vault: Path) -> Path:
    for i in range(40):
        write(vault / f"page{i:02d}.md", f"# Page {i}\n\n{FILLER * 8}{COMMON}\n")
    for i, word in enumerate(RARE):
        write(vault / f"rare{i:02d}.md", f"# Rare {i}\n\n{FILLER * 8}{COMMON} {word}\n")
    return vault


def test_a_pasted_document_below_the_floor_gets_no_note(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path / "v"))
    app.index(paths)
    query = reduce_query(fit_query(PASTED), index_at(paths.whoosh_dir))
    assert query != PASTED  # reduced: a pasted document
    assert len(query.split()) > LONG_PROMPT_TERMS  # and still a long prompt
    result = app.search(paths, query, scope="notes", refresh=False)
    assert result.hits and not result.relevant
    assert app.recall(paths, PASTED, max_tokens=700) is None


def test_a_long_question_keeps_the_three_word_bar_alone(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path / "v"))
    app.index(paths)
    assert len(set(QUESTION.split())) <= LONG_QUERY_WORDS  # not reduced
    assert not app.search(paths, QUESTION, scope="notes", refresh=False).relevant
    block = app.recall(paths, QUESTION, max_tokens=700)
    assert block is not None and "(id rare" in block
