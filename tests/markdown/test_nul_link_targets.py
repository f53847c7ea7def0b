"""A link target holding a NUL names no note or file (no path holds one), and the flat
graph's node ids are NUL-terminated (:mod:`rubi.graph.flatlayout`): such a target is
dropped when the note is parsed, so no dangling node id holds one and the flat graph
is written. Reached without a NUL byte in the file (a note with one is refused as
binary): a wikilink around a code span (the span is blanked to a NUL), ``%00`` in a
markdown link, a YAML escape in the frontmatter."""

from __future__ import annotations

from pathlib import Path

import pytest

from rubi.core.paths import cache_home
from rubi.graph.flat import read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.live import LiveGraph
from rubi.markdown import parse_note

HOSTILE = {
    "code span": "# A\n\nSee [[the `run` command]] and [[beta]].\n",
    "percent": "# A\n\n[x](foo%00bar.md) and [[beta]].\n",
    "yaml wikilink": '---\nup: "[[x\\0y]]"\n---\n# A\n\n[[beta]]\n',
    "yaml unicode escape": '---\nrelated: ["[[x\\u0000y]]"]\n---\n# A\n\n[[beta]]\n',
    "plain supersedes": '---\nsupersedes: "a\\x00b"\n---\n# A\n\n[[beta]]\n',
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_link_target_holding_a_nul_is_dropped_and_the_others_kept(text: str) -> None:
    assert "\x00" not in text
    note = parse_note(text, "notes/a.md")
    assert [link.target for link in note.links] == ["beta"]


def test_a_vault_with_a_wikilink_around_a_code_span_gets_its_flat_graph() -> None:
    """Before: the target became the dangling node ``dangling:the \\x00 run...``, the
    writer refused the graph on every run, and every cold reader read the snapshot."""
    notes = {
        "a": parse_note(HOSTILE["code span"], "a.md"),
        "beta": parse_note("# Beta\n\n[[a]]\n", "beta.md"),
    }
    live = LiveGraph.from_notes(notes)
    assert all("\x00" not in node for node in live.build.graph)
    path: Path = cache_home() / "indexes" / "vault-nul" / "graph.flat"
    write_flat(path, live.build, 1, 0)
    assert list(read_flat(path)[0].graph) == list(live.build.graph)


def test_the_writer_names_the_id_holding_a_nul_and_what_to_do() -> None:
    live = LiveGraph.from_notes({"beta": parse_note("# Beta\n", "beta.md")})
    live.build.graph.add_node("dangling:a\x00b", kind="dangling", title="a")
    path = cache_home() / "indexes" / "vault-nul2" / "graph.flat"
    with pytest.raises(ValueError, match=r"'dangling:a\\x00b'.*rubi index --full"):
        write_flat(path, live.build, 1, 0)
    assert not path.exists()
