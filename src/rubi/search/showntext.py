"""A note file's text as a reader sees it (its comments blanked:
:func:`rubi.markdown.comments.shown_text`), with a memo of where the comments of the
files a process read most recently are.

Finding a note's comments is a scan of its body for comment marks, code blocks and
code spans (obsidian-hub's notes are written from templates full of ``%% ... %%`` and
``<!-- -->``: 90 µs a note a search reads, on average, most of it for the long index
pages that many questions meet); blanking comments whose places are known is one join.
A long-lived process (the MCP server, the engine) meets the same notes again and again,
so the places are kept by a digest of the text as read (a changed file is a new key:
nothing here is ever stale), with the digest of the text as shown, which the search's
other memos key the note by (:attr:`rubi.search.hittext.FileText.digest`).
"""

from __future__ import annotations

from array import array

from rubi.core.recentmemo import RecentMemo
from rubi.markdown.comments import blank_spans, has_comment_mark, text_comment_spans
from rubi.search.textkey import text_key

__all__ = ["MEMO_TEXTS", "ShownTexts", "shown_of"]

MEMO_TEXTS = 2048
"""Note texts whose comments' places :class:`ShownTexts` keeps: each entry two 16-byte
digests and two offsets a comment (a few hundred bytes for a note of obsidian-hub's
templates; under 1 MB in all), never the text."""


class ShownTexts:
    """The comments' places and the shown text's digest of the last ``most`` note texts
    with a comment mark, by the digest of the text as read; the least recently used
    dropped first; safe across threads."""

    def __init__(self, most: int) -> None:
        self._kept = RecentMemo(most)  # text key -> (the spans' offsets, the shown digest)

    def shown(self, text: str) -> tuple[str, bytes | None]:
        """``text`` (a note file's full text, as read) with its comments blanked
        (:func:`~rubi.markdown.comments.shown_text`'s answer) and that text's
        :func:`~rubi.search.textkey.text_key`; ``(text, None)`` for a text without a
        comment mark (nothing blanked, nothing kept, no digest made)."""
        if not has_comment_mark(text):
            return text, None
        key = text_key(text)
        found: tuple[array[int], bytes] | None = self._kept.get(key)
        if found is not None:
            flat, digest = found
            return blank_spans(text, list(zip(flat[::2], flat[1::2], strict=True))), digest
        spans = text_comment_spans(text)
        shown = blank_spans(text, spans)
        digest = text_key(shown) if spans else key  # no comment: the text as read
        self._kept.put(key, (array("I", [at for span in spans for at in span]), digest))
        return shown, digest

    def clear(self) -> None:
        """Forget every text's places."""
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)


_SHOWN = ShownTexts(MEMO_TEXTS)
shown_of = _SHOWN.shown
""":meth:`ShownTexts.shown` of this process's memo."""
