"""The layout of the flat graph file (``graph.flat``): what :mod:`rubi.graph.flatwrite`
writes and :mod:`rubi.graph.flat` reads.

Sections, in file order (:data:`SECTIONS`): ``ids`` (the node ids in the graph's order
in UTF-8, each followed by :data:`ID_END`); ``attrs`` (each node's attribute dict as
JSON) and ``attr_off`` (where each ends); for the successors and then the predecessors,
CSR arrays (``off``: where a node's neighbours start; ``nbr``: their positions, in
networkx's order; ``koff``, ``key``, ``data``: each node pair's edge keys and attribute
dicts, as indexes into the ``tables`` section's lists); ``tables`` (JSON: the edge keys,
the distinct edge attribute dicts, the graph's own attributes); then per name table
(``names``, ``type_names``, ``defined_names``) and the link problems by note: the keys
sorted by their UTF-8 bytes, where each ends, one JSON value per key, where each ends.

The file starts with a fixed header (:data:`HEADER`: magic, :data:`FLAT_FORMAT`, byte
order, store generation, code stamp, the file's length, three CRC-32s) and the section
table (offset and length of each of :data:`SECTIONS`). It is written atomically,
streamed section by section (the nodes' attributes one at a time; at 50,000 notes the
writer holds the arrays and the name tables' keys, never a second copy of the graph),
and mapped when read (``mmap``: a page is read when touched). Opening checks its owner
and mode (:func:`rubi.core.picklefiles.check_trusted`), magic, format, byte order,
length, the section table and the CRC of every section a search reads; the link
problems (a third of the file, read by no search) are checked when first read. The
arrays' values are checked where they are used (an index out of range raises
:class:`~rubi.core.errors.IndexCorruptError`, never an ``IndexError`` from deep in a
search). Nothing in it is code: a planted file can at worst name wrong neighbours,
never run anything.
"""

from __future__ import annotations

import mmap
import struct
import sys

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Literal

__all__ = [
    "ADJACENCY",
    "ALIGN",
    "BODY",
    "CODES",
    "FLAT_FORMAT",
    "GEN",
    "GEN_AT",
    "HEADER",
    "ID_END",
    "INDEXES",
    "LAZY_FROM",
    "MAGIC",
    "OFFSETS",
    "ORDER",
    "SECTION",
    "SECTIONS",
    "TABLE",
    "TABLES",
    "Buffer",
    "utf8",
]

FLAT_FORMAT = 2
"""Bump when the file's layout or what a section holds changes; an older file is
refused and written again. 2: the ids NUL-terminated (1: one JSON array)."""

MAGIC = b"rubiflat"
ID_END = "\0"
"""What ends each node id in the ``ids`` section (a note, a path or a code name never
holds it: a note with a NUL byte is refused as binary). Split in C, the ids decode in
about three quarters of the instructions ``json`` took (7,772 ids, 403 kB, 4,075 of
them not ASCII: 16.0 against 20.7 M with the id → position dict)."""
HEADER = struct.Struct("<8sIIqqqIII")
"""magic, format, byte order (1 little, 2 big), generation, code stamp, the file's
length, and the CRC-32s of the section table, of the sections a search reads (from the
table's end to the link problems) and of the link problems (to the file's end)."""
GEN = struct.Struct("<q")
GEN_AT = 16
"""Where the header's generation is (after magic, format and byte order)."""
SECTION = struct.Struct("<qq")
"""A section's offset in the file and its length, in :data:`SECTIONS` order."""
Buffer = bytes | mmap.mmap
"""A flat file's bytes: mapped when read (a test hands ``bytes``)."""
ORDER = 1 if sys.byteorder == "little" else 2
ALIGN = 8
LAZY_FROM = "problems_keys"
"""The first section checked when first read, not when the file is opened: the link
problems, which no search reads (``rubi health`` does, through a live graph)."""

ADJACENCY = ("off", "nbr", "koff", "key", "data")
TABLE = ("keys", "off", "vals", "voff")
TABLES = ("names", "type_names", "defined_names", "problems")
SECTIONS: tuple[str, ...] = (
    "ids",
    "attrs",
    "attr_off",
    *(f"succ_{part}" for part in ADJACENCY),
    *(f"pred_{part}" for part in ADJACENCY),
    "tables",
    *(f"{table}_{part}" for table in TABLES for part in TABLE),
)
BODY = HEADER.size + len(SECTIONS) * SECTION.size
"""Where the first section may start: after the header and the section table."""
OFFSETS: Literal["q"] = "q"
"""Typecode of the offset arrays (8 bytes: a blob may outgrow 4 GiB's positions)."""
INDEXES: Literal["I"] = "I"
"""Typecode of the position arrays (node, key, attribute dict: unsigned, so a bad
value is out of range, never a negative index that reads from the end)."""
CODES: dict[str, Literal["q", "I"]] = {
    "attr_off": OFFSETS,
    "succ_off": OFFSETS,
    "pred_off": OFFSETS,
    "succ_koff": OFFSETS,
    "pred_koff": OFFSETS,
    **{f"{t}_off": OFFSETS for t in TABLES},
    **{f"{t}_voff": OFFSETS for t in TABLES},
    **{f"{d}_{p}": INDEXES for d in ("succ", "pred") for p in ("nbr", "key", "data")},
}


def utf8(text: str) -> bytes:
    """``text`` as UTF-8, lone surrogates kept (how table keys are stored and compared)."""
    return text.encode("utf-8", "surrogatepass")
