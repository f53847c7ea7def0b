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

__all__ = ["dumps", "loads", "scan_error", "scanner"]

_WHITESPACE = " \t\n\r"
"""What ``json.decoder.WHITESPACE`` (``[ \\t\\n\\r]*``) skips around a document."""

_scan: Callable[[str, int], tuple[Any, int]] | None = None
_encoders: dict[bool, Callable[[Any, int], Any]] = {}
"""The C encoders made so far, by ``ensure_ascii``."""


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


_NOT_UTF8_FIRST = (b"\x00", b"\xef", b"\xfe", b"\xff")
"""First bytes after which ``json``'s encoding detection (``json.detect_encoding``) may
find a byte-order mark or UTF-16/32 (with a NUL second byte, too): such bytes are
``json``'s to read. Any others it reads as UTF-8."""


def loads(data: str | bytes) -> Any:
    """``json.loads(data)``: the same value, or the same exception raised. Bytes are
    taken here when ``json`` would read them as UTF-8 (no byte-order mark, no NUL in
    the first two bytes: :data:`_NOT_UTF8_FIRST`), decoded as it decodes them
    (``surrogatepass``), else by ``json``."""
    if isinstance(data, bytes):
        if data[:1] in _NOT_UTF8_FIRST or data[1:2] == b"\x00":
            return _fallback_loads(data)
        try:
            text = data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:  # json raises it
            return _fallback_loads(data)
    else:
        text = data
    scan = _scanner()
    if scan is None or text.startswith("\ufeff"):
        return _fallback_loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = scan(text, start)
    except Exception:  # no value, a bad one, nesting too deep: json raises its error
        end = -1  # outside this block: json's error without the scanner's as its context
    if end < 0 or (end != len(text) and text[end:].strip(_WHITESPACE)):
        return _fallback_loads(text)  # an error, or extra data
    return value


def _no_default(o: Any) -> Any:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def scanner() -> Callable[[str, int], tuple[Any, int]]:
    """``json.JSONDecoder().scan_once``: one JSON value read from ``(text, index)``,
    returned with the index after it (raises ``StopIteration`` where there is no value,
    ``json.JSONDecodeError`` for a bad one), without importing ``json`` where the C
    accelerator is there.

    Before ``json`` is imported, Python 3.11's accelerator cannot make its error for a
    bad value (it looks ``json.decoder`` up in ``sys.modules`` only) and raises
    ``SystemError`` instead: a caller catches that too and asks :func:`scan_error`."""
    scan = _scanner()
    if scan is None:
        import json

        found: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
        return found
    return scan


def scan_error(text: str, index: int) -> ValueError | StopIteration:
    """The error ``json``'s scanner raises reading ``(text, index)``
    (``json.JSONDecodeError``, or ``StopIteration`` where there is no value): for a
    caller of :func:`scanner` that met its ``SystemError``; imports ``json``. A text
    ``json`` reads without error gives a ``ValueError`` saying so."""
    import json

    try:
        json.JSONDecoder().scan_once(text, index)  # type: ignore[attr-defined]
    except (ValueError, StopIteration) as exc:
        return exc
    return ValueError(f"the scanner failed at {index} on a value json reads")


def _encoder(ensure_ascii: bool) -> Callable[[Any, int], Any] | None:
    found = _encoders.get(ensure_ascii)
    if found is None:
        try:
            from _json import encode_basestring, encode_basestring_ascii, make_encoder
        except ImportError:
            return None
        # json.JSONEncoder's defaults: check_circular (markers), no indent, ", " and
        # ": ", keys unsorted, skipkeys False, allow_nan True; its string encoder as
        # ``ensure_ascii`` picks it.
        strings = encode_basestring_ascii if ensure_ascii else encode_basestring
        found = _encoders[ensure_ascii] = make_encoder(
            {}, _no_default, strings, None, ": ", ", ", False, False, True
        )
    return found


def _reset() -> None:
    _encoders.clear()


def dumps(obj: Any, *, ensure_ascii: bool = True) -> str:
    """``json.dumps(obj, ensure_ascii=ensure_ascii)`` for a dict (or list) of JSON
    values: the same text; any other value, and any value it cannot encode, is
    ``json``'s to encode or refuse."""
    encode = _encoder(ensure_ascii) if isinstance(obj, (dict, list)) else None
    if encode is not None:
        try:
            chunks = encode(obj, 0)
        except Exception:  # json raises its own error (a circular or foreign value)
            _reset()  # the markers of a failed encoding may hold stale ids
        else:
            return "".join(chunks)
    import json

    return json.dumps(obj, ensure_ascii=ensure_ascii)
