"""A flat graph written over one whose name tables hold the same content copies those
tables' sections instead of encoding them again, and is the same file as one written
afresh; a changed table, a replaced file that is damaged, of another format or
without digests, has its tables encoded."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.test_flat_graph import _flipped, _old_format, live, path
from rubi.graph import flatwrite
from rubi.graph.flat import read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.live import LiveGraph

__all__ = ["live", "path"]  # the fixtures, shared


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name tables encoded (not copied), by name, as writes go."""
    names: list[str] = []
    table = flatwrite._Writer._table

    def recorded(self: object, name: str, *args: object) -> None:
        names.append(name)
        table(self, name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(flatwrite._Writer, "_table", recorded)
    return names


def _fresh(live: LiveGraph, path: Path) -> bytes:
    """What a write with no file to replace gives (every table encoded)."""
    other = path.with_name("fresh.flat")
    other.unlink(missing_ok=True)
    write_flat(other, live.build, 7, 3)
    return other.read_bytes()


def test_unchanged_name_tables_are_copied_into_the_same_bytes(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    write_flat(path, live.build, 7, 3)
    assert encoded == ["names", "type_names", "defined_names", "problems"]
    live.build.graph.nodes["src/app.py"]["rank"] = 0.5  # an edit moved every rank
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["problems"]  # the three name tables copied
    assert path.read_bytes() == _fresh(live, path)
    build, _, _ = read_flat(path)
    assert build.names["alpha"] == live.build.names["alpha"]
    assert dict(build.defined_names) == live.build.defined_names


def test_a_table_of_other_content_is_encoded_and_one_only_reordered_is_copied(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    write_flat(path, live.build, 7, 3)
    live.build.type_names["Router"] = ["src/app.py", "plan"]  # a value changed
    live.build.defined_names = dict(reversed(live.build.defined_names.items()))  # same content
    live.build.names["zeta new"] = ["plan"]  # a key added
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["names", "type_names", "problems"]
    assert path.read_bytes() == _fresh(live, path)
    build, _, _ = read_flat(path)
    assert build.type_names["Router"] == ["src/app.py", "plan"] and build.names["zeta new"]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: _flipped(data, "names_vals"),  # damaged: its CRC differs
        lambda data: _flipped(data, "tables"),
        _old_format,
        lambda data: data[:-9],  # truncated
    ],
    ids=["names", "tables", "format", "truncated"],
)
def test_a_replaced_file_that_fails_its_checks_gives_nothing_to_copy(
    live: LiveGraph, path: Path, encoded: list[str], spoil: object
) -> None:
    write_flat(path, live.build, 7, 3)
    assert callable(spoil)
    path.write_bytes(spoil(path.read_bytes()))
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["names", "type_names", "defined_names", "problems"]
    assert path.read_bytes() == _fresh(live, path)


def test_a_file_written_without_digests_gives_nothing_to_copy(
    live: LiveGraph, path: Path, encoded: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:  # as an older rubi wrote it
        patch.setattr(flatwrite, "table_digest", lambda order, table: "")
        write_flat(path, live.build, 7, 3)
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["names", "type_names", "defined_names", "problems"]
    assert path.read_bytes() == _fresh(live, path)


def test_a_change_past_the_digest_s_first_chunk_is_seen(
    live: LiveGraph, path: Path, encoded: list[str]
) -> None:
    from rubi.graph import flatreuse

    for i in range(flatreuse._CHUNK + 50):
        live.build.names[f"name {i:05}"] = ["plan", f"n{i}"]
    write_flat(path, live.build, 7, 3)
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["problems"]
    live.build.names[f"name {flatreuse._CHUNK + 40:05}"] = ["plan", "other"]
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["names", "problems"]
    assert path.read_bytes() == _fresh(live, path)
    assert read_flat(path)[0].names[f"name {flatreuse._CHUNK + 40:05}"] == ["plan", "other"]
