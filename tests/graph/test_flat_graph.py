"""The flat graph a one-shot reader opens reads as the graph it was written from
(nodes and their attributes, neighbours and edge keys in networkx's orders, the name
tables, the link problems), and a file that is truncated, damaged, of another format,
planted or untrusted is refused with one line, never half read."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from rubi.core.errors import IndexCorruptError
from rubi.core.paths import cache_home
from rubi.graph import flat, flatlayout
from rubi.graph.build import GraphBuild
from rubi.graph.flat import FlatGraph, read_flat
from rubi.graph.flatwrite import write_flat
from rubi.graph.live import LiveGraph

from helpers import graph_notes


@pytest.fixture
def live() -> LiveGraph:
    live = LiveGraph.from_notes(graph_notes(), ["spec.pdf"])
    build = live.build
    # a code file's attributes and weighted edge, as the code map adds them
    build.graph.add_node("src/app.py", kind="file", title="app.py", rank=0.25, imported_by=3)
    build.graph.add_edge("plan", "src/app.py", key="about_file", relation="about_file")
    build.graph.add_edge("src/app.py", "alpha", key="imports", relation="imports", weight=0.5)
    build.type_names["Router"] = ["src/app.py"]
    build.defined_names["Depends"] = ["src/app.py", "plan"]
    build.graph.graph["built"] = "now"
    return live


@pytest.fixture
def path() -> Path:
    return cache_home() / "indexes" / "vault-1" / "graph.flat"


def _written(live: LiveGraph, path: Path) -> tuple[GraphBuild, FlatGraph]:
    write_flat(path, live.build, 7, 3)
    build, gen, stamp = read_flat(path)
    assert (gen, stamp) == (7, 3)
    assert isinstance(build.graph, FlatGraph)
    return build, build.graph


def test_a_flat_graph_reads_as_the_graph_it_was_written_from(live: LiveGraph, path: Path) -> None:
    g = live.build.graph
    build, f = _written(live, path)
    assert list(f) == list(g) and len(f) == len(g) and f.graph == g.graph
    assert path.stat().st_mode & 0o777 == 0o600
    for n in g:
        assert n in f and n in f.nodes and n in f.succ
        assert f.nodes[n] == g.nodes[n] and f.nodes.get(n) == g.nodes.get(n)
        for key, value in g.nodes[n].items():
            assert type(f.nodes[n][key]) is type(value)  # a tuple stays a tuple
        assert list(f.succ[n].items()) == list(g.succ[n].items())
        assert list(f.pred[n].items()) == list(g.pred[n].items())
        assert list(f.adj[n]) == list(g.adj[n])
        assert f.in_degree(n) == g.in_degree(n)
        assert f.out_edges(n, keys=True) == list(g.out_edges(n, keys=True))
    assert f.succ["src/app.py"]["alpha"] == {"imports": {"relation": "imports", "weight": 0.5}}
    assert "nowhere" not in f and f.nodes.get("nowhere") is None and f.succ.get("x") is None
    assert ["a", "list"] not in f  # unhashable: no node, as networkx says
    for table in ("names", "type_names", "defined_names"):
        expected: dict[str, list[str]] = getattr(live.build, table)
        got = getattr(build, table)
        assert len(got) == len(expected) and sorted(got) == sorted(expected)
        assert all(got[k] == v and got.get(k) == v for k, v in expected.items())
        assert got.get("no such name") is None and "no such name" not in got
    assert build.problems == live.build.problems and build.problems
    assert f.thaw().number_of_edges() == g.number_of_edges()  # networkx for the rest
    assert sorted(f.edges(keys=True)) == sorted(g.edges(keys=True))


def _sections(data: bytes) -> dict[str, tuple[int, int]]:
    return flat._spans(data)


def _resealed(data: bytearray) -> bytes:
    """``data`` with its header's CRCs made right again (what a planted file does)."""
    fields = list(flatlayout.HEADER.unpack_from(data))
    lazy_from = _sections(bytes(data))[flatlayout.LAZY_FROM][0]
    fields[6] = zlib.crc32(memoryview(data)[flatlayout.HEADER.size : flatlayout.BODY])
    fields[7] = zlib.crc32(memoryview(data)[flatlayout.BODY : lazy_from])
    fields[8] = zlib.crc32(memoryview(data)[lazy_from:])
    data[: flatlayout.HEADER.size] = flatlayout.HEADER.pack(*fields)
    return bytes(data)


def _flipped(data: bytes, section: str = "attrs") -> bytes:
    start, size = _sections(data)[section]
    at = start + size // 2
    return data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :]


def _moved_section(data: bytes) -> bytes:
    section = flatlayout.SECTION
    at = flatlayout.HEADER.size + flatlayout.SECTIONS.index("succ_nbr") * section.size
    return data[:at] + section.pack(len(data) - 4, 8) + data[at + section.size :]


def _old_format(data: bytes) -> bytes:
    return data[:8] + struct.pack("<I", flatlayout.FLAT_FORMAT - 1) + data[12:]


def _newer_format(data: bytes) -> bytes:
    """A later rubi's file, met when an older rubi runs again (a downgrade)."""
    return data[:8] + struct.pack("<I", flatlayout.FLAT_FORMAT + 1) + data[12:]


@pytest.mark.parametrize(
    ("case", "damage", "said"),
    [
        ("empty", lambda d: b"", "truncated"),
        ("truncated", lambda d: d[: len(d) // 2], "truncated"),
        ("a byte changed", _flipped, "checksum"),
        ("a neighbour changed", lambda d: _flipped(d, "succ_nbr"), "checksum"),
        ("a section moved", _moved_section, "checksum"),
        ("another file", lambda d: b"not a graph at all, but long enough" * 30, "not a flat"),
        ("a pickle", lambda d: b"\x80\x05\x95" + d[3:], "not a flat"),
        ("an older format", _old_format, f"old format ({flatlayout.FLAT_FORMAT - 1})"),
        ("a newer format", _newer_format, f"newer format ({flatlayout.FLAT_FORMAT + 1})"),
    ],
)
def test_a_damaged_flat_file_is_refused_with_one_line(
    case: str, damage: Any, said: str, live: LiveGraph, path: Path
) -> None:
    write_flat(path, live.build, 7, 3)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(IndexCorruptError) as caught:
        read_flat(path)
    line = str(caught.value)
    assert "\n" not in line and str(path) in line and said in line, case


def test_damaged_link_problems_are_refused_when_first_read(live: LiveGraph, path: Path) -> None:
    """No search reads them: they are checked when read, not when the file is opened."""
    write_flat(path, live.build, 7, 3)
    path.write_bytes(_flipped(path.read_bytes(), "problems_vals"))
    build, _, _ = read_flat(path)
    assert build.graph.nodes["plan"]["title"] == "Plan"
    with pytest.raises(IndexCorruptError, match="checksum of the link problems"):
        build.problems  # noqa: B018


@pytest.mark.parametrize("value", [b' {"kind":"note"} ', b'{"kind":"note"}{}', b"", b"\xff"])
def test_a_node_whose_bytes_are_not_exactly_one_json_value_is_damage(
    value: bytes, live: LiveGraph, path: Path
) -> None:
    """The writer writes each node's attributes as one JSON value and nothing else; a
    sealed file holding more, less or other bytes there is refused where it is read."""
    write_flat(path, live.build, 7, 3)
    data = bytearray(path.read_bytes())
    ids = list(live.build.graph)
    spans = _sections(bytes(data))
    start, size = spans["attrs"]
    off_start = spans["attr_off"][0]
    ends = struct.unpack_from(f"<{len(ids) + 1}q", data, off_start)
    first = data[start : start + ends[1]]
    rest = data[start + ends[1] : start + size]
    data[start : start + size] = value + rest + b" " * (len(first) - len(value))
    shift = len(value) - ends[1]
    struct.pack_into(
        f"<{len(ids)}q", data, off_start + 8, *(e + shift for e in ends[1:-1]), ends[-1]
    )
    path.write_bytes(_resealed(data))
    build, _, _ = read_flat(path)
    assert build.graph.nodes[ids[1]] == live.build.graph.nodes[ids[1]]
    with pytest.raises(IndexCorruptError, match="damaged"):
        build.graph.nodes[ids[0]]


@pytest.mark.parametrize("value", [b'{"kind" 1}', b'{"kind":"a\x01"}'])
def test_a_bad_json_value_is_damage_in_a_process_without_json(value: bytes) -> None:
    """A cold hook imports no ``json``: there the C scanner meets a bad value with a
    ``SystemError``, which must still be the index error a reader handles, in json's
    words."""
    script = (
        "import sys\n"
        "from rubi.core.errors import IndexCorruptError\n"
        "from rubi.graph.flat import _decode\n"
        "try:\n"
        f"    _decode({value!r})\n"
        "except IndexCorruptError as exc:\n"
        "    print('json' in sys.modules, exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.startswith("True the flat graph is damaged (")
    assert "Expecting" in done.stdout or "Invalid control character" in done.stdout


def test_a_planted_file_that_points_outside_its_arrays_fails_as_a_corrupt_index(
    live: LiveGraph, path: Path
) -> None:
    """Bounds are checked where the arrays are read: a sealed file whose neighbour
    positions, name values or node attributes are wrong raises the index error a
    reader handles, not an ``IndexError`` or a decoding error from deep in a search."""
    write_flat(path, live.build, 7, 3)
    data = bytearray(path.read_bytes())
    spans = _sections(bytes(data))
    start, size = spans["succ_nbr"]
    data[start : start + size] = b"\xff" * size  # every successor: node 4294967295
    start, size = spans["names_vals"]
    data[start : start + size] = b"{" * size
    start, size = spans["attrs"]
    data[start : start + size] = b"1" * size
    path.write_bytes(_resealed(data))
    build, _, _ = read_flat(path)
    with pytest.raises(IndexCorruptError, match="neighbours of 'plan'"):
        build.graph.succ["plan"]
    with pytest.raises(IndexCorruptError, match="damaged"):
        build.names["plan"]
    with pytest.raises(IndexCorruptError, match="node 'plan'"):
        build.graph.nodes["plan"]


def test_a_flat_file_outside_the_user_cache_or_writable_by_others_is_refused(
    live: LiveGraph, path: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "graph.flat"
    write_flat(outside, live.build, 7, 3)
    with pytest.raises(IndexCorruptError, match="outside the rubi cache"):
        read_flat(outside)
    write_flat(path, live.build, 7, 3)
    path.chmod(0o666)
    with pytest.raises(IndexCorruptError, match="another user"):
        read_flat(path)
    with pytest.raises(IndexCorruptError, match="no flat graph yet"):
        read_flat(path.with_name("missing.flat"))


def test_name_tables_past_one_chunk_with_any_code_points_are_found(
    live: LiveGraph, path: Path
) -> None:
    """The writer sorts a table's keys as strings and encodes them a chunk at a time;
    the reader bisects their UTF-8 bytes: every key is found, whatever its code
    points (accents, CJK, an astral emoji, a lone surrogate, U+FFFF beside U+10000)
    and on whichever side of a chunk's edge it falls."""
    from rubi.graph.flatwrite import CHUNK

    odd = ["Zeta", "zeta", "é", "名前", "\U0001f600x", "\ud800lone", "\uffff", "\U00010000", ""]
    names = {f"n{i:05d}": [f"note-{i}"] for i in range(2 * CHUNK + 7)}
    names.update({k: [f"odd-{i}", k, 'a "quoted" id'] for i, k in enumerate(odd)})
    names["empty"] = []
    live.build.names.clear()
    live.build.names.update(names)
    build, _ = _written(live, path)
    raws = [flatlayout.utf8(k) for k in build.names]
    assert raws == sorted(raws) and len(raws) == len(names)
    for key, value in names.items():
        assert build.names[key] == value, key
    with pytest.raises(KeyError):
        build.names["n99999"]


def test_names_with_line_breaks_nul_and_any_length_and_empty_tables_read_back(
    live: LiveGraph, path: Path
) -> None:
    """A chunk's values are joined into one JSON text and split by their lengths: a
    name or id holding a newline, a NUL, a backslash, a quote or a lone surrogate, a
    name of 100,000 characters, and a table with no rows read back as written."""
    odd = ["a\nb", "nul\x00here", "back\\slash", '"', "\ud83d", "x" * 100_000, "\t\r\u2028"]
    names = {k: [k, f"id-{i}\n", "\x00"] for i, k in enumerate(odd)}
    live.build.names.clear()
    live.build.names.update(names)
    live.build.type_names.clear()
    live.build.defined_names.clear()
    live.build.defined_names.update({"\x00": ["\x00"], "": [""]})
    build, _ = _written(live, path)
    assert {k: build.names[k] for k in names} == names
    assert len(build.names) == len(names)
    assert len(build.type_names) == 0
    with pytest.raises(KeyError):
        build.type_names["Router"]
    assert build.defined_names["\x00"] == ["\x00"] and build.defined_names[""] == [""]


def test_node_ids_of_any_code_points_are_written_as_utf8_and_read_back(
    live: LiveGraph, path: Path
) -> None:
    """The ids section is the ids in UTF-8, each ended by a NUL, not escaped (``\\uXXXX``
    took a cold reader twice as long to decode in a vault of notes not in English): an
    id with accents, CJK, Cyrillic, an astral emoji, a lone surrogate (an undecodable
    file name), a quote, a backslash, a newline, or no character at all reads back as
    written, in order."""
    odd = [
        "é/café",
        "名前/ノート",
        "заметки/синхронизация",
        "\U0001f600x",
        "bad\udcff",
        'a"b\\c\nd',
        "",
    ]
    for node in odd:
        live.build.graph.add_node(node, kind="note", title=node)
    _, f = _written(live, path)
    assert list(f) == list(live.build.graph)
    assert all(node in f and f.nodes[node]["title"] == node for node in odd)
    data = path.read_bytes()
    start, size = flatlayout.SECTION.unpack_from(data, flatlayout.HEADER.size)
    ids = data[start : start + size]
    assert ids == "".join(f"{node}\0" for node in f).encode("utf-8", "surrogatepass")


def test_a_node_id_holding_a_nul_is_not_written(live: LiveGraph, path: Path) -> None:
    """No note, path or code name holds a NUL (it ends each id in the file): a graph
    with one is refused by the writer, and the file already there is left as it was."""
    write_flat(path, live.build, 7, 3)
    before = path.read_bytes()
    live.build.graph.add_node("a\x00b", kind="note", title="a")
    with pytest.raises(ValueError, match="NUL"):
        write_flat(path, live.build, 8, 3)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda ids: ids[:-1] + b"x", "unterminated"),
        (lambda ids: ids.replace(b"\x00", b"x", 1), "wrong length"),
        (lambda ids: b"\x00" + ids[1:], "wrong length"),
        (lambda ids: b"\xff" + ids[1:], "damaged"),
    ],
)
def test_a_sealed_ids_section_of_the_wrong_shape_is_refused(
    change: Any, said: str, live: LiveGraph, path: Path
) -> None:
    """An id left unterminated, two ids run together or one split in two (an id fewer
    or more than the graph has nodes), or bytes that are not UTF-8: the file is refused
    when opened, in one line."""
    write_flat(path, live.build, 7, 3)
    data = bytearray(path.read_bytes())
    start, size = _sections(bytes(data))["ids"]
    data[start : start + size] = change(bytes(data[start : start + size]))
    path.write_bytes(_resealed(data))
    with pytest.raises(IndexCorruptError, match=said):
        read_flat(path)
