"""The curated summary block that survives regeneration of generated pages.

Format (one block per page, markers on their own lines)::

    <!-- rubi:summary:start -->
    Anything written here by a person or by ``rubi map --write-summary``.
    <!-- rubi:summary:end -->

Everything outside the block is regenerated; the text inside is carried over as is.
HTML comments are invisible in Obsidian's reading view and in rendered markdown.
"""

from __future__ import annotations

from rubi.codemap.errors import CuratedSummaryError
from rubi.core.pagenames import SUMMARY_END, SUMMARY_START

__all__ = ["SUMMARY_END", "SUMMARY_START", "curated_block", "extract_curated"]


def extract_curated(existing_text: str, path: str = "map.md") -> str | None:
    """The curated summary of an existing page.

    Args:
        existing_text: the page as it is on disk.
        path: the page's name, for the error message.

    Returns:
        The text between the markers without surrounding blank lines, or None when
        there are no markers or nothing but whitespace between them.

    Raises:
        CuratedSummaryError: the markers are unbalanced, repeated or out of order, so
            regenerating would lose text.
    """
    starts = existing_text.count(SUMMARY_START)
    ends = existing_text.count(SUMMARY_END)
    if starts == ends == 0:
        return None
    first = existing_text.find(SUMMARY_START)
    last = existing_text.find(SUMMARY_END)
    if starts != 1 or ends != 1 or last < first:
        raise CuratedSummaryError(
            path,
            f"summary markers are broken; keep exactly one {SUMMARY_START} before one "
            f"{SUMMARY_END}, then regenerate",
        )
    inner = existing_text[first + len(SUMMARY_START) : last].strip("\n")
    return inner if inner.strip() else None


def curated_block(curated: str | None) -> str:
    """The marker block holding ``curated`` (empty markers when None).

    Raises:
        CuratedSummaryError: the summary itself contains a marker.
    """
    if curated and (SUMMARY_START in curated or SUMMARY_END in curated):
        raise CuratedSummaryError("summary", "contains a rubi:summary marker; remove it")
    body = curated.strip("\n") if curated and curated.strip() else ""
    return f"{SUMMARY_START}\n{body}\n{SUMMARY_END}" if body else f"{SUMMARY_START}\n{SUMMARY_END}"
