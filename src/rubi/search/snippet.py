"""Pick the passage of a document that best shows why it matched."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

__all__ = ["SNIPPET_CHARS", "aligned_lower", "best_snippet"]

MAX_LINES = 5000
"""Lines looked at for a snippet: the head of a huge file is enough to show a match."""
CANDIDATE_MATCHES = 300
"""Code: match positions turned into candidate lines, each stem with its share. A
line that holds several query words holds one of those matches, so a big file is
never scanned line by line (10 snippets of 4,000-line files took 6 ms that way); the
price is that a best line of only frequent words, late in a file, can be missed for
a good one."""
SNIPPET_CHARS = 180
"""Snippet length: about 45 tokens, one line in a terminal or a tool result."""
IMPORT_PENALTY = 0.5
"""Score taken from an import line: on a tie, the line that uses a name beats the one
that imports it."""

_NOISE_RE = re.compile(r"^\s*(?:#{1,6}\s|>\s*\[!|---|```|\||<!--)")
_LINK_TAIL = r"([^\[\]|#]*)(?:#[^\[\]|]*)?(?:\|([^\[\]]*))?\]\]"
_MD_RE = re.compile(r"!\[\[" + _LINK_TAIL + r"|\[\[" + _LINK_TAIL + r"|\*\*|``*")
"""Markdown a snippet drops: a wikilink (its alias or target kept; an embed's ``!``
too), bold marks, code marks (a quote's marks: :data:`_QUOTE_RE`). No part of a
wikilink holds a bracket (as :data:`rubi.markdown.links.WIKILINK_RE`), so a ``[[``
that is not closed is given up at the next bracket: a line of thousands of unclosed
``[[`` cleans in linear time, not quadratic (a 250 KB line of them took minutes per
search that showed its note). Each alternative begins with a character of its own (an
embed written out, not an optional ``!``; no anchored quote alternative), so Python's
regex engine skips to those characters in C instead of trying every alternative at
every position: the shown hits' lines clean 1.7-2.8 times faster."""
_QUOTE_RE = re.compile(r"^\s*>+")
"""A quote's marks, at a line's start."""
_IMPORT_RE = re.compile(
    r"\s*(?:import|from\s+\S+\s+import|use|using|require|package|extern\s+crate|#\s*include)\b"
)


def _unmark(m: re.Match[str]) -> str:
    """What :data:`_MD_RE`'s match becomes: a wikilink's alias or target (a link's
    groups 4 and 3, looked at first: the commoner; an embed's 2 and 1), else nothing (a
    bold or code mark's match has no groups; no test of the match's text)."""
    return m[4] or m[3] or m[2] or m[1] or ""


def _clean(line: str) -> str:
    """``line`` without the markdown :data:`_MD_RE` and :data:`_QUOTE_RE` drop,
    whitespace collapsed. Each pattern runs only on a line holding a character every
    match of it holds (``>``; ``[``, ``*`` or a backtick): most of a note's lines are
    only collapsed, and the regex's callback per match was a third of a snippet's
    cost. The quote's marks go first: they only begin a line, where no other match can
    begin (another first character), so this is what one left-to-right pass of every
    alternative gives."""
    if ">" in line:
        line = _QUOTE_RE.sub("", line, count=1)
    if "[" in line or "*" in line or "`" in line:
        line = _MD_RE.sub(_unmark, line)
    return " ".join(line.split())


def _core(stem: str) -> str:
    """The text a stem is looked for as: Porter2 turns a final y into i (``queri``), so
    the i is dropped and ``query`` is found."""
    return stem[:-1] if len(stem) >= 4 and stem.endswith("i") else stem


def _word_start(text: str, pos: int) -> bool:
    """``pos`` begins a word of ``text``: after a non-letter, at a camelCase capital
    (``Route`` in ``SubRoute``), or at the last capital of a run that a lower-case
    letter follows (``Server`` in ``HTTPServer``, a part the index holds: it was not
    found, so the snippet and the passage missed it), not inside a word (``rout`` in
    ``goroutine``)."""
    if pos == 0:
        return True
    before, here = text[pos - 1], text[pos]
    if not before.isalpha() or (before.islower() and here.isupper()):
        return True
    return before.isupper() and here.isupper() and text[pos + 1 : pos + 2].islower()


def _find_word(text: str, lowered: str, core: str, start: int = 0, end: int = -1) -> int:
    """The first position of ``core`` at a word start in ``text[start:end]`` (``lowered``
    is ``text`` lower-cased, same length), or -1."""
    end = len(lowered) if end < 0 else end
    pos = lowered.find(core, start, end)
    while pos >= 0 and not _word_start(text, pos):
        pos = lowered.find(core, pos + 1, end)
    return pos


def aligned_lower(text: str) -> str:
    """``text`` lower-cased character for character, so that an offset found in it is
    the same character's offset in ``text`` (snippets, passage layouts and the code and
    note windows all find query terms this way). ``str.lower`` writes İ (U+0130) as two
    characters, ``i`` and a combining dot, which shifted every later offset (a wrong
    part, or an IndexError past the text's end): it is read as ``i``, as the index's
    analysis folds it. It is the one code point ``str.lower`` lengthens (Unicode's
    SpecialCasing; checked over every code point)."""
    low = text.lower()
    return low if len(low) == len(text) else text.replace("\u0130", "i").lower()


def best_snippet(
    body: str,
    query_terms: Collection[str],
    *,
    chars: int = SNIPPET_CHARS,
    code: bool = False,
    groups: Mapping[str, str] | None = None,
) -> str:
    """The body line holding the most query words, cleaned of markdown and cut to ``chars``.

    A stem counts where it begins a word (``configur`` in "configuration", ``rout`` in
    ``SubRouter`` but not in "goroutine").

    Args:
        body: the markdown body (no frontmatter), or source code when ``code``.
        query_terms: analysed query terms (as :func:`rubi.index.analysis.analyze` gives).
        chars: maximum length; a longer line is cut around its first match with ``…``.
        code: the text is source code: lines are kept as written (no markdown
            cleaning, comments and fences count as text), and import lines lose ties.
        groups: term → the query word it stands for; terms of one group count once
            per line (an abbreviation and its word: ``cfg``, ``config``, ``configur``).

    Returns:
        The snippet, or the first prose line when nothing matches, or ``""``.
    """
    stems = [t for t in dict.fromkeys(query_terms) if len(t) >= 2]
    group = {t: (groups or {}).get(t, t) for t in stems}
    if code:
        line, matched = _best_code_line(body, stems, group)
        return _cut(line, matched, stems, chars)
    best, first = _best_prose_line(body, stems, group)
    return _cut(best or first, bool(best), stems, chars)


def _best_prose_line(body: str, stems: list[str], group: Mapping[str, str]) -> tuple[str, str]:
    """The markdown line holding the most query words (a typed-link item only when no
    other line matches: :func:`_typed_link_item`), cleaned, and the first prose line.
    Returns ``("", first)`` when nothing matches."""
    best, best_score, first = "", 0, ""
    linked, linked_score = "", 0
    cores = [(_core(t), group[t]) for t in stems]
    in_fence = False
    for raw in body.splitlines()[:MAX_LINES]:
        if raw.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not raw.strip() or _NOISE_RE.match(raw):
            continue
        line = _clean(raw)
        if not line:
            continue
        if not first:
            first = line
        lowered = aligned_lower(line)
        score = len({g for c, g in cores if c in lowered and _find_word(line, lowered, c) >= 0})
        if score <= linked_score and score <= best_score:
            continue  # it replaces neither, typed link or not (most lines: 0 words)
        if _typed_link_item(raw):
            if score > linked_score:
                linked, linked_score = line, score
        elif score > best_score:
            best, best_score = line, score
    return best or linked, first


_LINK_ITEM_RE = re.compile(r"^\s*[-*+]\s+([a-z][a-z0-9_-]{0,40}\s+!?\[\[.*)$")
"""A list item that may be a typed link (``- supersedes [[decision-old]]``)."""


def _typed_link_item(raw: str) -> bool:
    """Whether ``raw`` is a typed-link list item (:func:`rubi.markdown.relations.item_relation`):
    a relation and the ids of other notes, which say nothing of this one's content, so a
    snippet takes one only when no other line matches (a decision's snippet for "use
    the client" was ``- supersedes decision-use-a-shared-client-per-service``)."""
    m = _LINK_ITEM_RE.match(raw)
    if m is None:
        return False
    from rubi.markdown.relations import item_relation  # only for such lines: a cold hook

    return item_relation(m.group(1)) is not None


def _best_code_line(text: str, stems: list[str], group: Mapping[str, str]) -> tuple[str, bool]:
    """The line of source code holding the most query words (ties: the line found first
    from the longest stem), whitespace collapsed; else the first non-blank line.
    Returns the line and whether it matched."""
    lowered = aligned_lower(text)
    cores = {t: _core(t) for t in stems}
    # Longer stems first: they are the rarer ones, and counting would scan every text.
    present = sorted((t for t in stems if cores[t] in lowered), key=lambda t: (-len(t), t))
    starts: dict[int, None] = {}
    share = max(1, CANDIDATE_MATCHES // max(1, len(present)))
    for stem in present:
        core, taken = cores[stem], 0
        pos = _find_word(text, lowered, core)
        while pos >= 0 and taken < share:
            starts.setdefault(lowered.rfind("\n", 0, pos) + 1, None)
            taken += 1
            end = lowered.find("\n", pos)
            if end < 0:
                break
            pos = _find_word(text, lowered, core, end)
    best_start, best_score = -1, 0.0
    for start in starts:
        end = lowered.find("\n", start)
        end = len(lowered) if end < 0 else end
        line = lowered[start:end]
        words = {
            group[t]
            for t in present
            if cores[t] in line and _find_word(text, lowered, cores[t], start, end) >= 0
        }
        score = len(words) - (IMPORT_PENALTY if _IMPORT_RE.match(text, start, end) else 0.0)
        if score > best_score:
            best_start, best_score = start, score
    if best_start >= 0:
        end = text.find("\n", best_start)
        return " ".join(text[best_start : end if end >= 0 else len(text)].split()), True
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if line:
            return line, False
    return "", False


def _cut(text: str, matched: bool, stems: list[str], chars: int) -> str:
    """``text`` cut to ``chars``, around its first match when it matched."""
    if len(text) <= chars:
        return text
    start = 0
    if matched:
        lowered = aligned_lower(text)
        found = [_find_word(text, lowered, _core(t)) for t in stems]
        positions = [p for p in found if p >= 0]
        if positions:
            start = max(0, min(positions) - chars // 4)
    cut = text[start : start + chars - 1].rstrip()
    return ("…" if start else "") + cut + "…"
