"""A segment's plain pickles: the names a posting block may use stand for what
``pickle`` itself finds, a long pickle read through a buffered reader loads the same
objects, and any other name is refused on either path."""

from __future__ import annotations

import pickle
from array import array
from collections import defaultdict
from io import BytesIO

import pytest

import rubi.index.segmentpickles as segmentpickles
from rubi.index.segmentpickles import SegmentFormatError, plain_loads


def test_the_looked_up_names_are_the_objects_pickle_finds() -> None:
    finder = pickle.Unpickler(BytesIO(b""))
    names = segmentpickles._PLAIN | segmentpickles._ARRAYS
    assert set(segmentpickles._OBJECTS) == names
    for module, name in names - {("_codecs", "encode")}:
        assert segmentpickles._OBJECTS[(module, name)] is finder.find_class(module, name)
    assert segmentpickles._OBJECTS[("_codecs", "encode")] is segmentpickles._encode


@pytest.mark.parametrize("protocol", [2, 5])
@pytest.mark.parametrize("size", [1, 40, 128, 1000])
def test_short_and_long_pickles_load_as_pickle_loads_them(protocol: int, size: int) -> None:
    value = (
        tuple(range(size)),
        array("f", [0.5] * size),
        {"title": "x" * size, "tags": frozenset({"a"}), "n": defaultdict(list)},
        b"\x00\xff" * size,
    )
    data = pickle.dumps(value, protocol, fix_imports=False)  # "builtins", as named here
    assert plain_loads(data) == pickle.loads(data)


class Planted:
    """A class no segment pickle may name."""


@pytest.mark.parametrize("padding", [0, 500])
def test_another_name_is_refused_short_or_long(padding: int) -> None:
    data = pickle.dumps(("x" * padding, Planted()), 2)
    with pytest.raises(SegmentFormatError):
        plain_loads(data)
