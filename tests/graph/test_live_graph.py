"""The graph updated change by change equals the graph rebuilt from the files.

A scripted (seeded) sequence of adds, edits, renames, deletes, link changes, alias
changes and attachment changes runs on a small vault whose names collide on purpose
(two ``Plan`` notes, an alias shared with a file name, links by path, by relative
path, by alias, to attachments and to notes that do not exist yet). After every step
the live graph must equal :func:`build_graph` on the same notes: nodes with their
attributes, edges, the exact-name table, the link problems and PageRank.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rubi.core.model import Note
from rubi.core.pagerank import pagerank
from rubi.graph.build import GraphBuild
from rubi.graph.live import LiveGraph, build_graph
from rubi.markdown import parse_note

NAMES = ["Plan", "plan", "Alpha", "Beta", "Gamma", "Delta", "Router", "Notes", "Index"]
FOLDERS = ["", "projects/", "projects/old/", "areas/"]
ATTACHMENTS = ["img/diagram.png", "spec.pdf", "data.csv", "projects/plan.csv"]


def _text(rng: random.Random, title: str, all_ids: list[str]) -> str:
    lines = ["---", f"title: {title}"]
    if rng.random() < 0.4:
        lines.append(f"aliases: [{rng.choice(NAMES)}, {rng.choice(NAMES)} {rng.randint(0, 2)}]")
    if rng.random() < 0.2:
        lines.append(f"id: {rng.choice(NAMES).lower()}-{rng.randint(0, 3)}")
    if rng.random() < 0.2:
        lines.append(f"superseded_by: '[[{rng.choice(NAMES)}]]'")
    lines += ["---", f"# {title}", ""]
    for _ in range(rng.randint(0, 5)):
        kind = rng.random()
        if kind < 0.3 and all_ids:
            target = rng.choice(all_ids)  # by path
        elif kind < 0.45 and all_ids:
            target = "../" + rng.choice(all_ids).rsplit("/", 1)[-1]  # relative
        elif kind < 0.6:
            target = rng.choice(ATTACHMENTS).rsplit("/", 1)[-1]
        elif kind < 0.7:
            target = f"Missing {rng.randint(0, 4)}"
        else:
            target = rng.choice(NAMES) + rng.choice(["", " 1", " 2"])
        if rng.random() < 0.2:
            lines.append(f"- supersedes [[{target}]]")
        else:
            lines.append(f"See [[{target}]] and more.")
    return "\n".join(lines) + "\n"


def _note(rng: random.Random, note_id: str, ids: list[str]) -> Note:
    title = rng.choice(NAMES) + rng.choice(["", "", " 1", " 2"])
    return parse_note(_text(rng, title, ids), note_id + ".md")


def _pagerank(build: GraphBuild) -> dict[str, float]:
    g = build.graph
    return pagerank(g.nodes, ((u, v, 1.0) for u, v in g.edges()))


def _snapshot(build: GraphBuild) -> dict[str, Any]:
    g = build.graph
    nodes = {}
    for n, data in g.nodes(data=True):
        attrs = dict(data)
        if attrs.get("kind") == "dangling":
            attrs["title"] = attrs["title"].casefold()  # first writer's spelling
        nodes[n] = attrs
    return {
        "nodes": nodes,
        "edges": Counter((u, v, k) for u, v, k in g.edges(keys=True)),
        "names": build.names,
        "problems": build.problems,
        "type_names": build.type_names,
    }


def _assert_same(live: LiveGraph, notes: dict[str, Note], attachments: set[str]) -> None:
    full = build_graph(notes, sorted(attachments))
    got, want = _snapshot(live.build), _snapshot(full)
    for key in want:
        assert got[key] == want[key], key
    ranks_live, ranks_full = _pagerank(live.build), _pagerank(full)
    assert ranks_live.keys() == ranks_full.keys()
    for node, rank in ranks_full.items():
        assert ranks_live[node] == pytest.approx(rank, abs=1e-9)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_scripted_changes_match_a_rebuild(seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"{rng.choice(FOLDERS)}{rng.choice(NAMES).lower()}-{i}" for i in range(14)]
    ids += ["plan", "projects/plan", "areas/Plan"]  # same file name in three folders
    notes = {i: _note(rng, i, ids) for i in ids}
    attachments = set(ATTACHMENTS[:2])
    live = LiveGraph.from_notes(notes, sorted(attachments))
    _assert_same(live, notes, attachments)
    for step in range(60):
        op = rng.random()
        current = sorted(notes)
        if op < 0.3 or not current:  # add
            new_id = f"{rng.choice(FOLDERS)}{rng.choice(NAMES)}"
            if rng.random() < 0.5:
                new_id += f" {step}"
            note = _note(rng, new_id, current)
            notes[note.id] = note
            live.apply(upserts=[note])
        elif op < 0.6:  # edit: links, title, aliases may all change
            note_id = rng.choice(current)
            note = _note(rng, note_id, current)
            notes[note_id] = note
            live.apply(upserts=[note])
        elif op < 0.75:  # delete
            note_id = rng.choice(current)
            del notes[note_id]
            live.apply(removes=[note_id])
        elif op < 0.9:  # rename: a delete and an add in one change
            old_id = rng.choice(current)
            new_id = f"{rng.choice(FOLDERS)}{rng.choice(NAMES)} r{step}"
            body = _text(rng, notes[old_id].title, current)
            del notes[old_id]
            note = parse_note(body, new_id + ".md")
            notes[note.id] = note
            live.apply(upserts=[note], removes=[old_id])
        else:  # an attachment comes or goes
            path = rng.choice(ATTACHMENTS)
            if path in attachments:
                attachments.discard(path)
                live.apply(attachments_removed=[path])
            else:
                attachments.add(path)
                live.apply(attachments_added=[path])
        _assert_same(live, notes, attachments)


def test_an_edit_relinks_only_what_it_can_redirect() -> None:
    notes = {f"n{i}": parse_note(f"# N{i}\n\nSee [[n{i + 1}]].\n", f"n{i}.md") for i in range(200)}
    live = LiveGraph.from_notes(notes)
    body_only = parse_note("# N5\n\nSee [[n6]]. More words.\n", "n5.md")
    assert live.apply(upserts=[body_only]) == 1
    renamed = parse_note("---\naliases: [Hub]\n---\n# N7\n\nSee [[n8]].\n", "n7.md")
    # its new alias can redirect links reading "hub": none do; the note itself relinks
    assert live.apply(upserts=[renamed]) == 1
    assert live.apply(removes=["n100"]) == 1  # n99 linked to it: it now dangles
    assert ("n99", "dangling:n100") in live.build.graph.edges()
    back = parse_note("# N100\n\nSee [[n101]].\n", "n100.md")
    assert live.apply(upserts=[back]) == 2
    assert "dangling:n100" not in live.build.graph
