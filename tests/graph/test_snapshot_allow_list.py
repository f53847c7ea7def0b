"""A graph snapshot that passes the owner and place check (``check_trusted``) is still
read by an allow-list unpickler: a planted pickle that calls ``os.system``, in the
header or in a row, is refused with a line naming the file and ``rubi index --full``,
and never runs."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from rubi.core.errors import IndexCorruptError
from rubi.core.paths import cache_home
from rubi.core.picklefiles import check_trusted
from rubi.graph import snapshot
from rubi.graph.live import LiveGraph
from rubi.markdown import parse_note


class _Planted:
    """Pickles as a call of ``os.system`` with a command that creates ``canary``."""

    def __init__(self, canary: Path) -> None:
        self.command = f"touch {canary}"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (self.command,)


def _plant(path: Path, *pickles: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        for value in pickles:
            pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.chmod(path, 0o600)
    check_trusted(path)  # the first barrier lets it through: the owner's, in the cache


@pytest.fixture
def snapshot_path() -> Path:
    return cache_home() / "indexes" / "vault-1" / "graph.pickle"


@pytest.mark.parametrize("where", ["header", "row", "dict chunk"])
def test_a_planted_os_system_call_is_refused_and_never_runs(
    snapshot_path: Path, tmp_path: Path, where: str
) -> None:
    canary = tmp_path / "canary"
    evil = _Planted(canary)
    header = (snapshot.GRAPH_FORMAT, 1)
    shapes: dict[str, tuple[object, ...]] = {
        "header": (evil,),
        "row": (header, ("value", evil)),
        "dict chunk": (header, ("dict", None, 1), {"note": evil}),
    }
    _plant(snapshot_path, *shapes[where])

    with pytest.raises(IndexCorruptError) as caught:
        snapshot.load_snapshot(snapshot_path)

    message = str(caught.value)
    assert message.startswith(f"{snapshot_path}: names ")
    assert "system" in message and "run `rubi index --full`" in message
    assert "\n" not in message
    assert not canary.exists()


def test_a_planted_builtin_outside_the_list_is_refused(snapshot_path: Path) -> None:
    class Evaluated:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return eval, ("1 + 1",)

    _plant(snapshot_path, (snapshot.GRAPH_FORMAT, 1), ("value", Evaluated()))
    with pytest.raises(IndexCorruptError, match=r"names builtins\.eval"):
        snapshot.load_snapshot(snapshot_path)


def test_every_global_a_saved_snapshot_names_is_on_the_list(snapshot_path: Path) -> None:
    texts = {
        "plan": "---\naliases: [Roadmap]\n---\n# Plan\n\nSee [[alpha]], [[Missing one]].\n",
        "alpha": "# Alpha\n\n[[Roadmap]] [[plan]] [[spec.pdf]] [[gone.png]] [[#h]]\n",
    }
    live = LiveGraph.from_notes(
        {k: parse_note(v, k + ".md") for k, v in texts.items()}, ["spec.pdf"]
    )
    snapshot.save_snapshot(snapshot_path, live, 7)
    loaded, gen = snapshot.load_snapshot(snapshot_path)
    assert gen == 7 and set(loaded.build.graph.nodes) == set(live.build.graph.nodes)
