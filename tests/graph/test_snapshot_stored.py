"""A graph snapshot a user's cache already holds loads after rubi's graph modules move
code around: the pickles name their records by module and class
(``rubi.graph.live.GraphNote``) and the live graph's state by attribute, so a module
split that moved a record or renamed an attribute would refuse every snapshot of the
same format and rebuild it.

``data/graph-format-14.pickle`` was written by ``save_snapshot`` at commit 4ef6bfc,
before ``rubi.graph.live`` was split in three modules, from the notes of :data:`TEXTS`
with the attachment ``spec.pdf``, at generation 7. A change of the snapshot's format
(``GRAPH_FORMAT``) makes that file an old one, which is rebuilt: the file and this test
go then."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from rubi.core.paths import cache_home
from rubi.graph import snapshot
from rubi.graph.live import LiveGraph
from rubi.markdown import parse_note

STORED = Path(__file__).parent / "data" / "graph-format-14.pickle"

TEXTS = {
    "plan": (
        "---\naliases: [Roadmap]\nsuperseded_by: plan-2\n---\n# Plan\n\n"
        "See [[alpha]], [[Missing one]] and [[spec.pdf]].\n"
    ),
    "alpha": (
        "---\nid: a-1\nstatus: done\nfiles: [src/app.py]\n---\n# Alpha\n\n"
        "[[Roadmap]] [[beta]] [[gone.png]]\n"
    ),
    "beta": "# Beta\n\n- supersedes [[alpha]]\n[[Missing one]] [[#heading]]\n",
    "areas/gamma": "# Gamma\n\n[[../alpha]] [[plan]] [[Delta]]\n",
}


def _state(live: LiveGraph) -> dict[str, Any]:
    """Everything a snapshot keeps of ``live``, comparable (the graph's nodes, edges and
    their order; every other attribute with its type)."""
    g = live.build.graph
    state = live.__getstate__()
    build = state.pop("build")
    return {
        "nodes": list(g.nodes(data=True)),
        "succ": [(u, list(nbrs.items())) for u, nbrs in g._succ.items()],
        "pred": [(v, list(nbrs.items())) for v, nbrs in g._pred.items()],
        "build": {k: v for k, v in vars(build).items() if k != "graph"},
        "resolver": {k: (type(v), v) for k, v in vars(state.pop("_resolver")).items()},
        **{k: (type(v), v) for k, v in state.items()},
    }


def test_a_stored_snapshot_of_this_format_loads_as_the_graph_built_afresh() -> None:
    path = cache_home() / "indexes" / "vault-1" / "graph.pickle"
    path.parent.mkdir(parents=True)
    shutil.copyfile(STORED, path)
    os.chmod(path, 0o600)
    assert snapshot.GRAPH_FORMAT == 14, "a new format: remove this test and its file"
    loaded, gen = snapshot.load_snapshot(path)
    notes = {k: parse_note(v, k + ".md") for k, v in TEXTS.items()}
    assert gen == 7
    assert _state(loaded) == _state(LiveGraph.from_notes(notes, ["spec.pdf"]))
    alpha = parse_note("# Alpha\n\n[[plan]]\n", "alpha.md")
    loaded.apply(upserts=[alpha])
    assert sorted(loaded.build.graph.successors("alpha")) == ["plan"]
