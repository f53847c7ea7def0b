"""The parts of a search one can explain: re-weighting rules, structured reasons and
their rendering, snippets read only for the hits that are shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.search.hits import WHY_KINDS, Snippet, Why
from rubi.search.nodeweights import (
    GENERATED_PAGE_WEIGHT,
    SECONDARY_FILE_WEIGHT,
    node_weight,
    variant_of,
    wants_tests,
)
from rubi.search.render import WHY_FORMATS, render_compact, result_json, why_line


@pytest.mark.parametrize(
    ("why", "line"),
    [
        (Why("named", "Router"), 'named: "Router"'),
        (
            Why("text", "router (title); middleware (path)"),
            "text match: router (title); middleware (path)",
        ),
        (Why("linked", "Embed files"), 'linked to "Embed files"'),
        (Why("variant_of", "binding/binding.go"), "variant of binding/binding.go"),
        (Why("imported_by", "12"), "imported by 12"),
    ],
)
def test_why_line_renders_each_kind(why: Why, line: str) -> None:
    assert why_line(why) == line


def test_every_kind_has_a_format() -> None:
    assert set(WHY_FORMATS) == set(WHY_KINDS)
    with pytest.raises(KeyError):
        why_line(Why("vibes", "x"))


@pytest.mark.parametrize(
    ("node", "tests_wanted", "weight"),
    [
        ({}, False, 1.0),
        ({"generated": True}, False, GENERATED_PAGE_WEIGHT),
        ({"generated": True, "kind": "file", "path": "tests/t.py"}, False, GENERATED_PAGE_WEIGHT),
        ({"kind": "file", "path": "tests/test_app.py"}, False, SECONDARY_FILE_WEIGHT),
        ({"kind": "file", "path": "tests/test_app.py"}, True, 1.0),
        ({"kind": "file", "path": "examples/hello.py"}, False, SECONDARY_FILE_WEIGHT),
        ({"kind": "file", "path": "src/app.py"}, False, 1.0),
        ({"kind": "note", "path": "tests/notes.md"}, False, 1.0),  # a note is never a test
        # read from the path: a node of a graph built under older rules holds no kind
        ({"kind": "file", "path": "src/main/kotlin/a/specs/Inspector.kt"}, False, 1.0),
    ],
)
def test_node_weight_takes_the_first_rule_that_applies(
    node: dict[str, object], tests_wanted: bool, weight: float
) -> None:
    assert node_weight(node, tests_wanted) == weight


def test_wants_tests_reads_whole_words() -> None:
    assert wants_tests("where are the tests for routing")
    assert wants_tests("an example of middleware")
    assert not wants_tests("contest results")  # a word inside another is not asked for
    assert wants_tests("build script of the browser demo")  # demos/ and samples/ folders
    assert wants_tests("a sample app that stores settings")
    assert not wants_tests("resampled values at a demographic rate")


def test_variant_of_names_the_first_twin_above() -> None:
    assert variant_of(("b.go", "a.go"), {"a.go", "b.go", "c.go"}) == "a.go"
    assert variant_of(("b.go",), {"c.go"}) is None


def test_snippet_is_read_once_on_first_use() -> None:
    calls: list[int] = []

    def read() -> str:
        calls.append(1)
        return "passage"

    s = Snippet(read)
    assert not s.is_read and calls == []
    assert s.text == "passage" and s.text == "passage"
    assert calls == [1] and s.is_read
    assert Snippet.of("known").text == "known"


@pytest.mark.timeout(60)
def test_only_shown_hits_read_their_snippets(help_vault_indexed: Path) -> None:
    paths = app.locate(help_vault_indexed)
    result = app.search(paths, "keyboard shortcuts hotkeys", top_k=10, refresh=False)
    assert len(result.hits) == 10
    assert not any(h.source.is_read for h in result.hits)  # nothing read by the search
    # 150 tokens: the first hit's why-line says why its name voted (rare: in … documents), and
    # the first block must fit whole for the renderer to try the next one.
    rendered = render_compact(result, 150)
    shown = len(rendered.shown)
    assert 0 < shown < 9
    # The renderer reads the shown hits and, at most, the one that did not fit (not even
    # that one when its lines without a passage overflow already), no more.
    reads = [h.source.is_read for h in result.hits]
    assert reads[:shown] == [True] * shown
    assert reads[shown + 1 :] == [False] * (10 - shown - 1)
    assert all(h.snippet for h in rendered.shown)
    data = result_json(result, 100_000)
    assert [h["snippet"] for h in data["hits"]] == [h.snippet for h in result.hits]


@pytest.mark.timeout(60)
def test_reasons_stand_beside_the_why_lines(help_vault_indexed: Path) -> None:
    result = app.search(app.locate(help_vault_indexed), "Aliases", refresh=False)
    for hit in result.hits:
        assert hit.why == tuple(why_line(r) for r in hit.reasons)
        assert {r.kind for r in hit.reasons} <= set(WHY_KINDS)
    # The whole query is the name: it votes whatever its words' rarity.
    assert result.hits[0].reasons[:2] == (Why("named", "Aliases"), Why("text", "aliases (title)"))
    # Inside a longer question a word found in more than 1 note in 20 names nothing
    # (rubi.search.reweighting.name_votes): the note of that title matches as text, and
    # its reason says why the name did not count.
    longer = app.search(
        app.locate(help_vault_indexed), "where do aliases show up in search", refresh=False
    )
    named_in_longer = [r for h in longer.hits for r in h.reasons if r.kind == "named"]
    assert longer.named == 0 and named_in_longer
    assert all(r.evidence.startswith("not counted: common word, in ") for r in named_in_longer)
    named = app.search(
        app.locate(help_vault_indexed), "edit keyboard shortcuts of a plugin", refresh=False
    )
    first = named.hits[0].reasons[0]
    # A rare name inside a longer question votes, and its reason says what was measured.
    assert (first.kind, first.text) == ("named", "keyboard shortcuts")
    assert first.evidence.startswith("rare: in ") and first.evidence.endswith("of the question")
    assert named.hits[0].why[0].startswith('named: "keyboard shortcuts" (rare: in ')


def test_a_paragraph_long_title_does_not_spend_the_budget(tmp_path: Path) -> None:
    """A note whose first heading is a whole paragraph is shown with its title cut,
    so the other hits still fit a small budget."""
    from rubi.search.render import TITLE_CHARS

    from helpers import write

    vault = tmp_path / "v"
    write(vault / "long.md", "# " + "wombat burrow " * 350 + "\n\nwombat facts\n")
    write(vault / "short.md", "# Wombat care\n\nfeeding a wombat\n")
    result = app.search(app.locate(vault), "wombat", top_k=5)
    assert {h.id for h in result.hits} == {"long", "short"}
    rendered = render_compact(result, 1000)
    assert len(rendered.shown) == 2
    # the cut title, its kind's words and the lists' evidence in plain words
    assert all(len(line) < TITLE_CHARS + 120 for line in rendered.text.splitlines())
    assert "…" in rendered.text


@pytest.mark.timeout(60)
def test_the_last_line_names_the_surface_s_options_to_see_more(
    help_vault_indexed: Path,
) -> None:
    """The last line counts the hits left out and says how to see them, in the
    surface's own option names: ``--budget``/``--top-k`` in the CLI, ``budget_tokens``
    in the MCP answer (one rendering); before, both only said how to open a shown hit."""
    from rubi.mcp import calls

    paths = app.locate(help_vault_indexed)
    result = app.search(paths, "keyboard shortcuts hotkeys", top_k=10, refresh=False)
    cli_last = app.render_search(result, 300).splitlines()[-1]
    assert cli_last.startswith("(") and " more not shown; " in cli_last
    assert "`--budget N`" in cli_last and "`--top-k N`" in cli_last
    assert "`rubi read <id>`" in cli_last and "budget_tokens" not in cli_last
    mcp_text = calls.search(paths, "keyboard shortcuts hotkeys", budget_tokens=300).text
    mcp_last = mcp_text.splitlines()[-1]
    assert " more not shown; " in mcp_last and "`budget_tokens`" in mcp_last
    assert "`read(ids)`" in mcp_last and "--top-k" not in mcp_last and "--budget" not in mcp_last


@pytest.mark.timeout(60)
def test_the_last_line_names_only_what_would_show_more(help_vault_indexed: Path) -> None:
    """``--top-k N`` is named only when candidates were left unranked, ``--budget N``
    only when the budget left ranked hits out. Before, ``rubi search --top-k 200
    --budget 50`` named ``--top-k N`` with every ranked hit already returned."""
    from rubi.core.searchdefaults import MAX_TOP_K

    paths = app.locate(help_vault_indexed)
    every = app.search(paths, "keyboard shortcuts hotkeys", top_k=MAX_TOP_K, refresh=False)
    assert len(every.hits) == every.candidates < MAX_TOP_K  # every ranked hit returned
    last = app.render_search(every, 50).splitlines()[-1]
    assert " more not shown; " in last and "`--budget N`" in last
    assert "--top-k" not in last
    few = app.search(paths, "keyboard shortcuts hotkeys", top_k=2, refresh=False)
    assert few.candidates > len(few.hits)  # candidates left unranked
    last = app.render_search(few, 5000).splitlines()[-1]
    assert " more not shown; " in last and "`--top-k N`" in last
    assert "--budget" not in last
