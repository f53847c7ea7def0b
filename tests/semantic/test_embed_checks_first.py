"""A note fed again with the same passages is compared before anything is loaded:
neither numpy nor the model is imported for it (a rewritten map page whose passages
did not change, a note's metadata edited)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi import semantic
from rubi.core.paths import cache_home
from rubi.index.indexdoc import IndexDoc
from rubi.semantic.encoder import load_encoder, model_id
from rubi.semantic.sync import VectorSink

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

_FEED_AGAIN = """
import sys
from pathlib import Path
from rubi.index.indexdoc import IndexDoc
from rubi.semantic.sync import VectorSink

sink = VectorSink(Path(sys.argv[1]), full=False)
doc = IndexDoc("soup", "note", "soup.md", "note", "active",
               {"title": "Soup", "body": sys.argv[2]})
list(sink.feed([doc]))
sink.commit([])
print(sink.active, sink.embedded, "numpy" in sys.modules)
"""


def _doc(body: str) -> IndexDoc:
    return IndexDoc("soup", "note", "soup.md", "note", "active", {"title": "Soup", "body": body})


def _feed_again(index_dir: Path, body: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", _FEED_AGAIN, str(index_dir), body],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return out.stdout.strip()


def test_unchanged_passages_load_neither_numpy_nor_the_model() -> None:
    index_dir = cache_home() / "indexes" / "embed-checks-first"
    index_dir.mkdir(parents=True)
    body = "A lentil soup with cumin.\n\n## Steps\n\nSoak the lentils overnight.\n"
    sink = VectorSink(index_dir, full=False)
    list(sink.feed([_doc(body)]))
    sink.commit([])
    assert sink.embedded == 1
    assert _feed_again(index_dir, body) == "True 0 False"
    # changed passages are embedded, which needs numpy
    assert _feed_again(index_dir, body + "\nServe it hot.\n") == "True 1 True"


def test_the_model_id_read_alone_is_the_loaded_model_s() -> None:
    assert model_id() == load_encoder().model_id
