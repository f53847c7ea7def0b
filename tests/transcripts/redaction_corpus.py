"""The redaction corpus (``data/redaction_corpus.json``) and the checks shared by the
function tests and the hook tests.

The corpus holds fake secrets in the real format of 80+ kinds and ordinary text that
must come out unchanged. A secret counts as leaked when any 8-character piece of one
of its values (or the whole value when shorter) is still in the output, so a value
cut in half counts as leaked too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

CORPUS_FILE = Path(__file__).with_name("data") / "redaction_corpus.json"
MARK = re.compile(r"\[REDACTED:[\w.\-]+\]")
"""A mark rubi writes in place of a secret."""
WINDOW = 8
"""Characters of a secret that, found in the output, make it a leak."""
FILLER_WORD = "lorem "


def load_corpus() -> dict[str, Any]:
    """``{"secrets": [{"kind", "text", "secrets"}], "ordinary": [{"kind", "text"}]}``."""
    data: dict[str, Any] = json.loads(CORPUS_FILE.read_text(encoding="utf-8"))
    return data


CORPUS = load_corpus()
SECRETS: list[dict[str, Any]] = CORPUS["secrets"]
ORDINARY: list[dict[str, Any]] = CORPUS["ordinary"]


def sample_id(sample: dict[str, Any]) -> str:
    """A readable test id: the kind and the sample's number."""
    pool = SECRETS if "secrets" in sample else ORDINARY
    return f"{sample['kind']}-{pool.index(sample)}"


def pieces(sample: dict[str, Any]) -> list[str]:
    """The secret values split at line breaks (real or JSON-escaped) and spaces: each
    piece appears as is in the text."""
    out: list[str] = []
    for value in sample["secrets"]:
        out += [p for p in re.split(r"\s+|\\n", value) if len(p) >= 4]
    return out


def _without_secrets(sample: dict[str, Any]) -> str:
    text: str = sample["text"]
    for piece in sorted(pieces(sample), key=len, reverse=True):
        text = text.replace(piece, "\0")
    return text


BACKGROUND = "\0".join(_without_secrets(s) for s in SECRETS)
"""The corpus without its secrets: what may stay in any output."""


def leaks(sample: dict[str, Any], output: str) -> list[str]:
    """The pieces of ``sample``'s secrets still present in ``output`` (empty: none).

    A window that also occurs in the corpus outside its secrets (a certificate next to
    a key shares the key's first characters) is no evidence and is skipped, and so is
    one inside a ``[REDACTED:<kind>]`` mark (``azure-client-secret`` holds the
    ``-client-`` of ``tskey-client-…``).
    """
    output = MARK.sub("\0", output)
    found = []
    for piece in pieces(sample):
        width = min(WINDOW, len(piece))
        windows = {piece[i : i + width] for i in range(len(piece) - width + 1)}
        if any(w in output and w not in BACKGROUND for w in windows):
            found.append(piece)
    return found


def collapse(text: str) -> str:
    return " ".join(text.split())


def straddle(text: str, piece: str, limit: int, *, collapsed: bool) -> str:
    """``text`` after filler words, placed so that a cut at ``limit`` characters falls
    in the middle of ``piece`` (counted on the collapsed text when ``collapsed``)."""

    def position(filler_len: int) -> int:
        filler = (FILLER_WORD * (filler_len // len(FILLER_WORD) + 1))[:filler_len]
        candidate = (filler.rstrip() + " " if filler.strip() else "") + text
        return (collapse(candidate) if collapsed else candidate).find(piece)

    target = limit - len(piece) // 2
    filler_len = max(0, target - position(0))
    for _ in range(3):
        filler_len = max(0, filler_len + target - position(filler_len))
    filler = (FILLER_WORD * (filler_len // len(FILLER_WORD) + 1))[:filler_len]
    return (filler.rstrip() + " " if filler.strip() else "") + text
