"""Secrets in text bound for the vault (notes, handoffs, summaries): the files a team
commits. The rules are capture's (:func:`rubi.transcripts.privacy.secret_spans`); what
differs is that a ``<private>…</private>`` span is removed entirely (no mark), and
that each secret is reported by line and kind, never by value."""

from __future__ import annotations

from dataclasses import dataclass

from rubi.transcripts.privacy.patterns import REDACTED, Span

__all__ = ["Found", "find_secrets", "scrub", "unclosed_private"]


@dataclass(frozen=True, slots=True)
class Found:
    """One secret in a text: the 1-based line it starts on and its kind
    (``aws-key``, ``password``, ``private``…)."""

    line: int
    kind: str


def _spans(text: str) -> list[Span]:
    from rubi.transcripts.privacy import secret_spans

    return secret_spans(text)


def _found(text: str, spans: list[Span]) -> list[Found]:
    out: list[Found] = []
    line, pos = 1, 0
    for start, _end, kind in spans:
        line += text.count("\n", pos, start)
        pos = start
        out.append(Found(line, kind))
    return out


def find_secrets(text: str) -> list[Found]:
    """The secrets in ``text``, in order (nothing is changed).

    Args:
        text: a note's or a handoff's markdown, or any text.

    Returns:
        One :class:`Found` per secret (overlapping detections merged).
    """
    return _found(text, _spans(text))


def scrub(text: str) -> tuple[str, list[Found]]:
    """``text`` as it may be stored in the vault, and what was taken out.

    Each secret becomes ``[REDACTED:<kind>]`` (as in captured sessions); a
    ``<private>…</private>`` span is removed, tags and all.

    Args:
        text: what an agent or a person asked to store.

    Returns:
        ``(scrubbed text, found)``; the very same string and ``[]`` when nothing
        matched. Lines in ``found`` are those of ``text``.
    """
    spans = _spans(text)
    if not spans:
        return text, []
    out: list[str] = []
    pos = 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        if kind != "private":
            out.append(REDACTED.format(kind=kind))
        pos = end
    out.append(text[pos:])
    return "".join(out), _found(text, spans)


def unclosed_private(text: str) -> int | None:
    """The 1-based line of a ``<private>`` tag that is never closed, or None.

    Capture hides everything after such a tag; text bound for the vault is refused
    instead, so that a note does not lose the rest of its body to a forgotten
    ``</private>``.
    """
    from rubi.transcripts.privacy.shapes import private_spans

    low = text.lower()
    for start, end, _kind in private_spans(text, low):
        if end == len(text) and not low.endswith("</private>"):
            return text.count("\n", 0, start) + 1
    return None
