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


@pytest.fixture
def digested(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the tables given a sorted digest (rubi.graph.flatreuse.table_digest)."""
    sizes: list[int] = []
    digest = flatwrite.table_digest

    def recorded(order: list[str], table: dict[str, list[str]]) -> str:
        sizes.append(len(order))
        return digest(order, table)

    monkeypatch.setattr(flatwrite, "table_digest", recorded)
    return sizes


def test_a_table_held_in_the_same_order_is_copied_without_a_sorted_digest(
    live: LiveGraph, path: Path, encoded: list[str], digested: list[int]
) -> None:
    write_flat(path, live.build, 7, 3)
    assert len(digested) == 3
    live.build.graph.nodes["src/app.py"]["rank"] = 0.5
    encoded.clear()
    digested.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["problems"] and digested == []  # found by their held digests
    assert path.read_bytes() == _fresh(live, path)  # the sorted digests written again
    live.build.names = dict(reversed(live.build.names.items()))  # same content, other order
    live.build.type_names["Router"] = ["plan"]  # same order, a value changed
    encoded.clear()
    digested.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["type_names", "problems"]  # names found by its sorted digest
    assert digested == [len(live.build.names), len(live.build.type_names)]
    assert path.read_bytes() == _fresh(live, path)
    build, _, _ = read_flat(path)
    assert build.type_names["Router"] == ["plan"]
    assert all(build.names[k] == v for k, v in live.build.names.items())


def test_a_file_written_without_held_digests_is_copied_by_its_sorted_ones(
    live: LiveGraph, path: Path, encoded: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:  # as the previous rubi wrote it
        patch.setattr(flatwrite, "held_digest", lambda table: "")
        write_flat(path, live.build, 7, 3)
    encoded.clear()
    write_flat(path, live.build, 7, 3)
    assert encoded == ["problems"]
    assert path.read_bytes() == _fresh(live, path)


def test_held_digests_tell_order_and_content_apart() -> None:
    from rubi.graph.flatreuse import held_digest

    table = {"a": ["x", "y"], "b": ["z"]}
    assert held_digest(table) == held_digest({"a": ["x", "y"], "b": ["z"]})
    assert held_digest(table) != held_digest({"b": ["z"], "a": ["x", "y"]})
    assert held_digest(table) != held_digest({"a": ["y", "x"], "b": ["z"]})
    assert held_digest(table) != held_digest({"a": ["x", "y"], "b": ["z"], "c": []})
    assert held_digest({"a": [object()]}) == ""  # not marshal's: no digest, nothing found


def test_a_held_digest_sees_a_change_past_its_first_chunk() -> None:
    from rubi.graph.flatreuse import _CHUNK, held_digest

    table = {f"name {i:05}": ["plan", f"n{i}"] for i in range(_CHUNK + 10)}
    before = held_digest(table)
    assert before == held_digest(dict(table)) and before != held_digest({})
    table[f"name {_CHUNK + 5:05}"] = ["plan", "other"]
    assert held_digest(table) != before
