"""``rubi.core.jsonline``: ``json.loads`` and ``json.dumps`` without importing ``json``,
with ``json``'s values, text and errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest

from rubi.core import jsonline

DOCUMENTS = [
    "{}",
    "[]",
    ' \t\n\r{"a": 1}\n',
    '{"cwd": "/tmp/x y", "prompt": "caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\n", "n": null}',
    '{"a": [1, -2, 3.5, 1e400, -1e-400, true, false, null, {"b": {}}], "a": 2}',
    '"just a string"',
    "12",
    "-0",
    '{"lone": "\\ud800", "nul": "\\u0000"}',
    '{"é": "ü", "emoji": "😀"}',
    "[NaN, Infinity, -Infinity]",
    '{"ok": true, "output": "line\\nline2"}',
]

BAD = [
    "",
    "   ",
    "{",
    '{"a": 1} x',
    '{"a": 1}{}',
    "\ufeff{}",
    "[1,]",
    '{"a": "\x01"}',
    "[" * 100_000 + "]" * 100_000,
    "nan",
]


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN included, and of the same types throughout."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("text", DOCUMENTS)
def test_loads_gives_json_values(text: str) -> None:
    assert _same(jsonline.loads(text), json.loads(text))
    data = text.encode("utf-8", "surrogatepass")
    assert _same(jsonline.loads(data), json.loads(data))


def _error(call: Any, arg: Any) -> tuple[type[BaseException], str]:
    try:
        call(arg)
    except (ValueError, RecursionError, TypeError) as exc:
        return type(exc), str(exc)
    raise AssertionError("no error")


@pytest.mark.parametrize("text", BAD, ids=range(len(BAD)))
def test_loads_raises_json_errors(text: str) -> None:
    assert _error(jsonline.loads, text) == _error(json.loads, text)


BYTES: list[bytes] = [
    '{"a": "é"}'.encode(),
    b'["\\ud800", "\xc3\xa9"]',  # an escaped lone surrogate, and UTF-8
    b'["\xed\xa0\x80"]',  # a lone surrogate, which json decodes with surrogatepass
    '{"a": 1}'.encode("utf-16"),
    '{"a": 1}'.encode("utf-16-le"),
    '{"a": 1}'.encode("utf-16-be"),
    '"x"'.encode("utf-32-le"),
    '"x"'.encode("utf-32"),
    '{"a": "é"}'.encode("utf-8-sig"),
    b"1",
    b"12",
    b"1\x00",
    b"",
    b" ",
]
BAD_BYTES: list[bytes] = [b'["\xff"]', b'{"a": \xc3}', b"\xef\xbb", b"nul\x00", b"[1,]", b""]


@pytest.mark.parametrize("data", BYTES, ids=range(len(BYTES)))
def test_loads_bytes_as_json_reads_them(data: bytes) -> None:
    """UTF-8 is read here (surrogates passed, as json passes them); a byte-order mark
    or a NUL that says UTF-16 or UTF-32 is json's."""
    try:
        expected: Any = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        assert _error(jsonline.loads, data) == (type(exc), str(exc))
        return
    assert _same(jsonline.loads(data), expected)


@pytest.mark.parametrize("data", BAD_BYTES, ids=range(len(BAD_BYTES)))
def test_loads_bytes_raises_json_errors(data: bytes) -> None:
    assert _error(jsonline.loads, data) == _error(json.loads, data)


def test_the_scanner_is_jsons() -> None:
    scan = jsonline.scanner()
    reference = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
    for text in ('{"a": [1, "é"]} tail', "[]", '"x"'):
        assert scan(text, 0) == reference(text, 0)
    with pytest.raises(StopIteration):
        scan("", 0)


VALUES: list[Any] = [
    {
        "rubi": "hook",
        "protocol": 2,
        "build": "0.1 /a/b",
        "env": {"X": None, "Y": "1"},
        "vault": "/v/.rubi",
        "event": "UserPromptSubmit",
        "input": '{"prompt": "caf\\u00e9 \u00e9 \ud83d\ude00 \ud800 \x00\n\t"}',
    },
    {},
    [],
    {
        "f": [1.5, 1e300, -0.0, math.inf, -math.inf],
        "b": [True, False, None],
        "n": [-(10**40)],
        "nan": math.nan,
    },
    {1: "int key", 2.5: "float key", None: "none key", False: "bool key"},
    [[[{"deep": ["x"]}]]],
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_dumps_gives_json_text(value: Any) -> None:
    assert jsonline.dumps(value) == json.dumps(value)
    assert jsonline.dumps(value, ensure_ascii=False) == json.dumps(value, ensure_ascii=False)


def test_dumps_refuses_as_json_and_recovers() -> None:
    circular: list[Any] = []
    circular.append(circular)
    for bad in (circular, {"a": object()}, {(1, 2): "tuple key"}, [{"a": [circular]}]):
        assert _error(jsonline.dumps, bad) == _error(json.dumps, bad)
        wide = (
            (lambda v: jsonline.dumps(v, ensure_ascii=False)),
            (lambda v: json.dumps(v, ensure_ascii=False)),
        )
        assert _error(wide[0], bad) == _error(wide[1], bad)
    assert jsonline.dumps({"é": ["ü"]}, ensure_ascii=False) == '{"é": ["ü"]}'
    assert jsonline.dumps({"after": [1, {"a": "b"}]}) == json.dumps({"after": [1, {"a": "b"}]})
    assert jsonline.dumps("text") == json.dumps("text")


def test_imports_no_json_nor_re() -> None:
    """The point of the module: a process that decodes and encodes through it imports
    neither ``json`` nor ``re`` (6-7 ms of CPU a hook)."""
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "from rubi.core import jsonline\n"
        'v = jsonline.loads(\'{"a": [1, 2.5, null, "\\\\u00e9"]}\')\n'
        "t = jsonline.dumps({'a': v, 'b': None})\n"
        "v2 = jsonline.loads(t.encode('ascii'))\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(sorted(new & {'json', 're', 'enum', 'functools', 'collections'}), t)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split(" ", 1) == [
        "[]",
        json.dumps({"a": {"a": [1, 2.5, None, "é"]}, "b": None}) + "\n",
    ]


def test_errors_before_json_is_imported_are_jsons_alone() -> None:
    """Python 3.11's accelerator raises ``SystemError`` for a bad value while
    ``json.decoder`` is not imported: ``loads`` raises json's error without it as its
    context (hooks.log showed both), and ``scan_error`` gives json's error."""
    script = (
        "import sys\n"
        "from rubi.core import jsonline\n"
        "assert 'json' not in sys.modules\n"
        "try:\n"
        "    jsonline.loads('{not json')\n"
        "except ValueError as exc:\n"
        "    print(type(exc).__name__, type(exc.__context__).__name__, exc)\n"
        "print(repr(jsonline.scan_error('{not json', 0)))\n"
        "print(repr(jsonline.scan_error('', 0)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    kind, message = _error(json.loads, "{not json")
    with pytest.raises(ValueError) as scanned:
        json.JSONDecoder().scan_once("{not json", 0)  # type: ignore[attr-defined]
    assert done.stdout.splitlines() == [
        f"{kind.__name__} NoneType {message}",
        repr(scanned.value),
        "StopIteration(0)",
    ]
