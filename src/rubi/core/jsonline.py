"""``json.loads`` and ``json.dumps`` (default arguments) without importing ``json``.

The ``json`` package imports ``re`` (its decoder's and scanner's patterns are compiled
at import), and ``re`` imports ``enum``, ``functools`` and ``collections``: 6-7 ms of
CPU on top of a 9 ms interpreter start. A hook the resident engine answers decodes its
payload, encodes one request line and decodes two reply lines, and needs nothing else
of them; so this module calls the C accelerator (``_json``) that ``json`` itself
calls, with the same arguments ``json`` passes it, and hands every case it does not
take to ``json`` (an error, a byte-order mark, an interpreter without ``_json``): the
values and the text are those of ``json``, and so are the errors raised
(``tests/core/test_jsonline.py`` compares them).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a hook 2–3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["dumps", "loads"]

_WHITESPACE = " \t\n\r"
"""What ``json.decoder.WHITESPACE`` (``[ \\t\\n\\r]*``) skips around a document."""

_scan: Callable[[str, int], tuple[Any, int]] | None = None
_encode: Callable[[Any, int], Any] | None = None


class _Context:
    """The attributes ``_json.make_scanner`` reads from a ``json.JSONDecoder`` made
    with default arguments (``json.loads``'s)."""

    __slots__ = (
        "object_hook",
        "object_pairs_hook",
        "parse_constant",
        "parse_float",
        "parse_int",
        "strict",
    )

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        constants = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}
        self.parse_constant = constants.__getitem__


def _scanner() -> Callable[[str, int], tuple[Any, int]] | None:
    global _scan
    if _scan is None:
        try:
            from _json import make_scanner
        except ImportError:  # an interpreter without the accelerator: json's own
            return None
        _scan = make_scanner(_Context())  # type: ignore[arg-type]  # duck-typed decoder
    return _scan


def _fallback_loads(text: str | bytes) -> Any:
    import json

    return json.loads(text)


def loads(data: str | bytes) -> Any:
    """``json.loads(data)``: the same value, or the same exception raised. Bytes are
    taken here when they are ASCII without a NUL (which ``json`` reads as UTF-8: its
    encoding detection looks for byte-order marks and NULs), else by ``json``."""
    if isinstance(data, bytes):
        if not data.isascii() or b"\x00" in data:
            return _fallback_loads(data)
        text = data.decode("ascii")
    else:
        text = data
    scan = _scanner()
    if scan is None or text.startswith("\ufeff"):
        return _fallback_loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = scan(text, start)
    except Exception:  # no value, a bad one, nesting too deep: json raises its error
        return _fallback_loads(text)
    if end != len(text) and text[end:].strip(_WHITESPACE):
        return _fallback_loads(text)  # extra data
    return value


def _no_default(o: Any) -> Any:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def _encoder() -> Callable[[Any, int], Any] | None:
    global _encode
    if _encode is None:
        try:
            from _json import encode_basestring_ascii, make_encoder
        except ImportError:
            return None
        # json.JSONEncoder's defaults: check_circular (markers), ensure_ascii, no
        # indent, ", " and ": ", keys unsorted, skipkeys False, allow_nan True.
        _encode = make_encoder(
            {}, _no_default, encode_basestring_ascii, None, ": ", ", ", False, False, True
        )
    return _encode


def _reset() -> None:
    global _encode
    _encode = None


def dumps(obj: Any) -> str:
    """``json.dumps(obj)`` for a dict (or list) of JSON values: the same text; any
    other value, and any value it cannot encode, is ``json``'s to encode or refuse."""
    encode = _encoder() if isinstance(obj, (dict, list)) else None
    if encode is not None:
        try:
            chunks = encode(obj, 0)
        except Exception:  # json raises its own error (a circular or foreign value)
            _reset()  # the markers of a failed encoding may hold stale ids
        else:
            return "".join(chunks)
    import json

    return json.dumps(obj)
