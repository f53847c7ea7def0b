"""The pickles of a Whoosh index, loaded without running anything they name.

A table of contents names Whoosh's and rubi's classes: :class:`TocUnpickler` gives
each a :class:`Saved` stand-in that keeps the object's saved state and runs nothing.
The segment's other pickles (its file directory, a term table's extras, posting
blocks, stored fields) may name only plain types, Python's arrays and the string
encoder pickle protocol 2 writes bytes with (:func:`plain_loads`). Anything else
raises :class:`SegmentFormatError` before it is made (``pickle.Unpickler.find_class``
is the one place a pickle reaches a callable), so a planted or damaged file in the
cache can make a search fall back to Whoosh but never run code here.
"""

from __future__ import annotations

import pickle
from io import BufferedReader, BytesIO

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "Saved",
    "SegmentFormatError",
    "TocUnpickler",
    "plain_load",
    "plain_loads",
]

_PLAIN = {
    ("collections", "defaultdict"),
    ("builtins", "int"),
    ("builtins", "float"),
    ("builtins", "str"),
    ("builtins", "bytes"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "dict"),
    ("builtins", "list"),
    ("builtins", "tuple"),
    ("builtins", "bool"),
}
"""The classes besides Whoosh's and rubi's stand-ins a table of contents may name."""
_ARRAYS = {("array", "array"), ("array", "_array_reconstructor"), ("_codecs", "encode")}
"""What a posting block's pickle may name besides :data:`_PLAIN`: Python's arrays, and
the string encoder protocol 2 writes bytes with."""


class SegmentFormatError(Exception):
    """The index holds something this reader does not know: read it through Whoosh."""


class Saved:
    """A stand-in for a class a table of contents names: keeps what was saved of the
    object (its state, or the arguments it was made with) and runs nothing."""

    name = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args

    def __setstate__(self, state: Any) -> None:
        self.__dict__["state"] = state

    def saved(self) -> dict[str, Any]:
        state = self.__dict__.get("state")
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots)
            state = {**(state[0] or {}), **(state[1] or {})}
        if not isinstance(state, dict):
            raise SegmentFormatError(f"{self.name}: saved state of an unknown shape")
        return state


class TocUnpickler(pickle.Unpickler):
    """Loads a table of contents' pickles with :class:`Saved` stand-ins for Whoosh's
    and rubi's classes; any other class but :data:`_PLAIN` is refused."""

    def __init__(self, file: Any, stand_ins: dict[str, type[Saved]]) -> None:
        super().__init__(file)
        self._stand_ins = stand_ins

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] in ("whoosh", "rubi"):
            key = f"{module}.{name}"
            found = self._stand_ins.get(key)
            if found is None:
                found = self._stand_ins[key] = type(name, (Saved,), {"name": key})
            return found
        if (module, name) in _PLAIN:
            return super().find_class(module, name)
        raise SegmentFormatError(f"a table of contents names {module}.{name}")


def _encode(text: Any, encoding: str = "utf-8", errors: str = "strict") -> Any:
    """``_codecs.encode``, with the encoding protocol 2 writes bytes with (``latin1``)
    taken by ``str.encode``'s own Latin-1 path: the same bytes, without looking the
    codec up (a cold hook imported ``encodings.latin_1`` for its first posting block)."""
    if type(text) is str and encoding == "latin1" and errors == "strict":
        return text.encode("latin-1")
    import _codecs

    return _codecs.encode(text, encoding, errors)


def _plain_objects() -> dict[tuple[str, str], Any]:
    """What each name of :data:`_PLAIN` and :data:`_ARRAYS` stands for: the object
    ``pickle.Unpickler.find_class`` gives for it (a test compares them), but the string
    encoder, which is :func:`_encode`. Found once: ``find_class`` imports the module on
    every call, 4–5% of a cold recall's samples at 6,800 notes (a posting block names
    two or three of them)."""
    import array
    import builtins
    from collections import defaultdict

    found: dict[tuple[str, str], Any] = {
        (module, name): getattr(builtins, name) for module, name in _PLAIN if module == "builtins"
    }
    found[("collections", "defaultdict")] = defaultdict
    found[("array", "array")] = array.array
    found[("array", "_array_reconstructor")] = vars(array)["_array_reconstructor"]
    found[("_codecs", "encode")] = _encode
    return found


_OBJECTS = _plain_objects()
"""The objects a posting block's, a term table's or a stored field's pickle may name, by
(module, name): :data:`_PLAIN`, :data:`_ARRAYS`."""


class _PlainUnpickler(pickle.Unpickler):
    """Loads a posting block's, a term table's or a stored field's pickle: only the
    classes of :data:`_PLAIN` and :data:`_ARRAYS`; any other is refused (never code)."""

    def find_class(self, module: str, name: str) -> Any:
        found = _OBJECTS.get((module, name))
        if found is None:
            raise SegmentFormatError(f"a segment's pickle names {module}.{name}")
        return found


def plain_load(stream: BytesIO) -> Any:
    """The next pickle of ``stream`` through :class:`_PlainUnpickler`."""
    return _PlainUnpickler(stream).load()


_BUFFERED_FROM = 128
"""From this many bytes a pickle is read through a buffered reader (see
:func:`plain_loads`)."""


def plain_loads(data: bytes) -> Any:
    """``data``'s pickle through :class:`_PlainUnpickler`. An unpickler reading a
    ``BytesIO`` asks it for every opcode's bytes (no ``peek``): 12 µs for a posting
    block of 128 numbers, against 4.5 µs through a ``BufferedReader`` holding the
    whole pickle, which it takes in one read; a short pickle (a block's header) is
    quicker without the reader's set-up."""
    if len(data) < _BUFFERED_FROM:
        return _PlainUnpickler(BytesIO(data)).load()
    return _PlainUnpickler(BufferedReader(BytesIO(data), len(data))).load()
