"""Parse one note's text into a :class:`rubi.core.model.Note` (pure: no file access).

Frontmatter is read with ``python-frontmatter`` (YAML only; unknown keys kept as they
are), the body with ``markdown-it-py`` tokens so that links and tags inside code spans,
fenced and indented code blocks are ignored.

A note may come from a cloned repository, so its YAML is parsed under a budget (see
:class:`SafeFrontmatterLoader`): a block over :data:`MAX_FRONTMATTER_BYTES`, an alias of
a list or mapping ("billion laughs": 300 bytes that expand to a billion strings), or
nesting deeper than :data:`MAX_FRONTMATTER_DEPTH` is refused like broken YAML: the note
is reported and indexed from its body.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import PurePosixPath
from typing import Any

import frontmatter
import yaml
from frontmatter.default_handlers import YAMLHandler
from markdown_it import MarkdownIt
from markdown_it.token import Token

from rubi.core.errors import NoteParseError
from rubi.core.model import (
    DEFAULT_TYPE,
    LINKS_TO,
    NOTE_TYPES,
    Heading,
    Link,
    Note,
    note_id_for_path,
)
from rubi.markdown.blocks import BLOCKS, Parser
from rubi.markdown.comments import has_comment_mark, shown_body
from rubi.markdown.links import WIKILINK_RE, find_wikilinks, item_relation, markdown_link
from rubi.markdown.wikilinkrule import WIKILINK_RULE, add_wikilink_rule
from rubi.markdown.yamldays import KeepsImpossibleDays

__all__ = [
    "MAX_FRONTMATTER_BYTES",
    "MAX_FRONTMATTER_DEPTH",
    "SafeFrontmatterLoader",
    "parse_note",
    "split_frontmatter",
]

_MD = Parser("commonmark")
"""CommonMark without GFM tables, so a ``|`` inside ``[[a|b]]`` in a table row stays put."""
add_wikilink_rule(_MD)

_MD_BLOCKS = BLOCKS
"""The block parser (:data:`rubi.markdown.blocks.BLOCKS`): :func:`_walk_body` parses
the inline content of each block itself, and only where it can hold markup
(:data:`_INLINE_MARKUP`)."""

_MD_SPANS = MarkdownIt("commonmark")
add_wikilink_rule(_MD_SPANS)
_MD_SPANS.inline.ruler.enableOnly(["text", WIKILINK_RULE, "newline", "backticks", "emphasis"])
"""The same inline parser with only the rules that can match content without escapes,
entities, ``<`` or ``](`` (:data:`_SPANS_ONLY`): line breaks, code spans and
emphasis. Links and images need ``](`` or a reference definition, autolinks and HTML
``<``; the rules left out would find nothing there, and cost most of the parse (the
link rule scans for the end of every ``[``)."""

_SPANS_ONLY = re.compile(r"[\\&<]|\]\(")
"""What :data:`_MD_SPANS` cannot parse: escapes, entities, autolinks and inline HTML,
inline links and images."""

_INLINE_MARKUP = re.compile(r"[\\`*_&<]|\]\(")
"""What can make a block's inline content more than text, softbreaks and hardbreaks
in CommonMark: escapes, code spans, emphasis, entities, autolinks and inline HTML,
and inline links and images (``](``). Reference links need a reference definition in
the note as well; without one, a ``[`` that is not followed by ``](`` stays text."""

_CODE_SPANS_ONLY = re.compile(r"[\\*_&<]|\]\(")
""":data:`_INLINE_MARKUP` but code spans: content with backticks and none of these is
text, line breaks and code spans (:func:`_code_span_text`)."""

_LINE_BREAK = re.compile(r" *\n[ \t]*")
"""A line break inside a block as markdown-it reads it: the spaces before it are
dropped (two or more make a hard break, fewer a soft one, both a newline here), and
so are the spaces and tabs starting the next line."""

_TAG_RE = re.compile(r"(?<![\w/#&\]])#([\w/-]*[^\W\d_][\w/-]*)")
"""An Obsidian tag: ``#`` then letters, digits, ``_ - /``, with at least one non-digit."""

_FENCE_RE = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
"""A frontmatter block, found without parsing it (for notes whose YAML is broken)."""

_PLACEHOLDER_RE = re.compile(r"(?<![\"'{])(\{\{[^{}\n]*\}\})(?![\"'}])")
"""A bare ``{{placeholder}}`` of a note template."""

_FRONTMATTER_LINK_KEYS = ("supersedes", "superseded_by")
"""Frontmatter keys whose plain string values are link targets (rubi's own schema)."""


def _quote_placeholders(text: str) -> str | None:
    """The text with unquoted template placeholders (``{{date}}``) in its frontmatter
    quoted, or None when there is nothing to quote."""
    m = _FENCE_RE.match(text)
    if not m:
        return None
    block = m.group(0)
    fixed = _PLACEHOLDER_RE.sub(lambda p: '"' + p.group(1).replace('"', '\\"') + '"', block)
    return None if fixed == block else fixed + text[m.end() :]


MAX_FRONTMATTER_BYTES = 64_000
"""A frontmatter block larger than this is not parsed (the note is indexed from its
body, with a warning). Real frontmatter is a handful of keys: the largest block in the
Obsidian Help, kepano and rubi's own vaults is under 1 kB, and a long ``aliases`` or
``files:`` list of a few hundred entries stays under 20 kB. 64 kB leaves room for those
while bounding what the YAML parser is given on every index run, search snippet and
hook: 64 kB of YAML (a ``files:`` list of 1,850 paths) parses in about 7 ms."""

MAX_FRONTMATTER_DEPTH = 20
"""Lists and mappings nested deeper than this are refused: frontmatter values are
scalars, lists of scalars, or at most a few levels of mappings; a thousand-deep nest
(libyaml accepts up to 1,000) would exhaust Python's recursion when the value is later
flattened, pickled or rendered."""

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML was built with it (fast, nesting capped at 1,000);
the pure-Python one otherwise."""


class _BudgetExceeded(yaml.YAMLError):
    """The frontmatter breaks a budget of :class:`SafeFrontmatterLoader`."""


class SafeFrontmatterLoader(KeepsImpossibleDays, _Loader):  # type: ignore[misc,valid-type]
    """PyYAML's safe loader (plain data, never code) that also refuses, before a single
    value is built:

    - an alias (``*name``) of a list or mapping: the "billion laughs" amplification
      (nine aliases per level, nine levels: about 340 bytes, 387 million strings once the
      value is walked). Aliases of scalars are kept (they cannot amplify: each alias
      is one input token);
    - a list or mapping that contains itself (``&a [*a]``);
    - nesting deeper than :data:`MAX_FRONTMATTER_DEPTH`.

    The check walks the composed node graph (aliases are shared node objects there)
    with an explicit stack, so it is linear in the input and never recurses.

    Raises:
        yaml.YAMLError: a budget is exceeded (a subclass of it), or the YAML is broken.
    """

    def construct_document(self, node: yaml.Node) -> Any:
        _check_nodes(node)
        return super().construct_document(node)


def _check_nodes(root: yaml.Node) -> None:
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            continue
        if id(node) in seen:
            raise _BudgetExceeded(
                "an alias (*name) of a list or mapping; anchors may only repeat plain values"
            )
        seen.add(id(node))
        if depth > MAX_FRONTMATTER_DEPTH:
            raise _BudgetExceeded(f"lists or mappings nested deeper than {MAX_FRONTMATTER_DEPTH}")
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


class _SafeYAMLHandler(YAMLHandler):
    """python-frontmatter's YAML handler with :class:`SafeFrontmatterLoader` and the
    :data:`MAX_FRONTMATTER_BYTES` budget."""

    def load(self, fm: str, **kwargs: object) -> Any:
        # a character is 1 to 4 bytes in UTF-8: encode only when the length cannot tell
        if len(fm) > MAX_FRONTMATTER_BYTES or (
            len(fm) * 4 > MAX_FRONTMATTER_BYTES
            and len(fm.encode("utf-8", "surrogatepass")) > MAX_FRONTMATTER_BYTES
        ):
            raise _BudgetExceeded(f"larger than {MAX_FRONTMATTER_BYTES // 1000} kB")
        return yaml.load(fm, Loader=SafeFrontmatterLoader)


_YAML = _SafeYAMLHandler()


def split_frontmatter(text: str, path: str) -> tuple[dict[str, Any], str]:
    """Return ``(metadata, body)`` of a note's text.

    Template placeholders written bare as YAML values (``created: {{date}}``, as
    Obsidian's Templates and Templater users write them) are read as strings.

    Raises:
        NoteParseError: the YAML is broken or is not a mapping.
    """
    if not _YAML.detect(text):
        return {}, text.strip()
    try:
        post = frontmatter.loads(text, handler=_YAML)
    except _BudgetExceeded as exc:
        raise NoteParseError(
            path, f"frontmatter refused ({exc}); fix it or remove the --- block"
        ) from exc
    except RecursionError as exc:  # the pure-Python parser on a deep nest
        raise NoteParseError(
            path, "frontmatter nested too deeply; fix it or remove the --- block"
        ) from exc
    except yaml.YAMLError as exc:
        quoted = _quote_placeholders(text)
        if quoted is not None:
            try:
                return split_frontmatter(quoted, path)
            except NoteParseError:
                pass
        marker = _conflict_marker_line(text)
        if marker is not None:
            raise NoteParseError(
                path,
                f"git conflict markers in the frontmatter from line {marker} (an "
                "unfinished merge): keep the right text, delete the <<<<<<< ======= "
                ">>>>>>> lines",
            ) from exc
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise NoteParseError(
            path, f"broken YAML frontmatter{where}; fix it or remove the --- block"
        ) from exc
    except (ValueError, TypeError) as exc:
        raise NoteParseError(path, f"unreadable frontmatter ({exc})") from exc
    meta = post.metadata
    if not isinstance(meta, dict):
        raise NoteParseError(path, "frontmatter is not a mapping of keys to values")
    return dict(meta), post.content


def _conflict_marker_line(text: str) -> int | None:
    """The 1-based line of the first ``<<<<<<<`` line before the frontmatter's closing
    ``---``, or None. Asked only when the YAML did not parse: two teammates who changed
    the same frontmatter key leave markers that break it, and "broken YAML ... remove
    the --- block" sent them to delete the note's frontmatter instead of finishing the
    merge (``rubi doctor`` lists markers anywhere in a note:
    :mod:`rubi.vault.conflicts`)."""
    for number, line in enumerate(text.splitlines()[1:], start=2):
        if line.rstrip() == "---":
            return None
        if line.startswith("<<<<<<<") and line[7:8] in ("", " "):
            return number
    return None


def _strings(value: Any) -> list[str]:
    """Flatten a frontmatter value (None, str, list, nested) into non-empty strings."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, (list, tuple, set)):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return [str(value)]


def _tag_list(value: Any) -> list[str]:
    out: list[str] = []
    for s in _strings(value):
        for part in re.split(r"[,\s]+", s):
            part = part.strip().lstrip("#")
            if part:
                out.append(part)
    return out


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    """``items`` in order without the repeats of one in another case (the first
    spelling kept): linear, one casefolded key per item."""
    first: dict[str, str] = {}
    for item in items:
        first.setdefault(item.casefold(), item)
    return tuple(first.values())


def _parse_inline(token: Token, env: dict[str, Any]) -> str:
    """The plain text of an inline token, with code spans blanked out; its children
    are filled in when it holds markup.

    Content without markup (:data:`_INLINE_MARKUP`, no reference definitions) is what
    markdown-it makes of it, text and line breaks, read without its inline parser:
    about half of a typical vault's blocks, each parsed many times faster.
    """
    content = token.content
    if "references" not in env and not _INLINE_MARKUP.search(content):
        return _LINE_BREAK.sub("\n", content) if "\n" in content else content
    if "references" not in env and not _CODE_SPANS_ONLY.search(content):
        return _code_span_text(content)
    md = _MD_SPANS if "references" not in env and not _SPANS_ONLY.search(content) else _MD
    token.children = []
    md.inline.parse(content, md, env, token.children)
    return _inline_text(token)


def _breaks(text: str) -> str:
    return _LINE_BREAK.sub("\n", text) if "\n" in text else text


def _code_span_text(content: str) -> str:
    """:func:`_inline_text` of content whose only markup is code spans, read without
    the inline parser: markdown-it's backtick rule (a run of backticks opens a code
    span closed by the next run of the same length; a run with none is text) and
    its line breaks (:data:`_LINE_BREAK`) in the text between spans."""
    last_run: dict[int, int] = {}  # run length -> start of its last run
    pos = 0
    while (start := content.find("`", pos)) != -1:
        pos = start + 1
        while pos < len(content) and content[pos] == "`":
            pos += 1
        last_run[pos - start] = start
    parts: list[str] = []
    text_from = pos = 0
    while (start := content.find("`", pos)) != -1:
        pos = start + 1
        while pos < len(content) and content[pos] == "`":
            pos += 1
        length = pos - start
        if last_run[length] < pos:
            continue  # no closing run: the backticks are text
        end = pos
        while True:
            close = content.find("`", end)
            end = close + 1
            while end < len(content) and content[end] == "`":
                end += 1
            if end - close == length:
                break
        parts.append(_breaks(content[text_from:start]))
        parts.append(" \x00 ")
        text_from = pos = end
    parts.append(_breaks(content[text_from:]))
    return "".join(parts)


def _inline_text(token: Token) -> str:
    """The plain text of an inline token, with code spans blanked out."""
    parts: list[str] = []
    for child in token.children or ():
        if child.type in ("text", "text_special"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
        elif child.type == "code_inline":
            parts.append(" \x00 ")
    return "".join(parts)


def _markdown_links(token: Token, line: int) -> Iterator[Link]:
    for child in token.children or ():
        if child.type == "link_open":
            href = str(child.attrGet("href") or "")
            link = markdown_link(href, embed=False, line=line)
            if link:
                yield link
        elif child.type == "image":
            src = str(child.attrGet("src") or "")
            link = markdown_link(src, embed=True, line=line)
            if link:
                yield link


def _walk_body(body: str) -> tuple[list[Heading], list[Link], list[str], str]:
    """The headings, links and tags of the body as a reader sees it (its comments
    blanked out: :func:`rubi.markdown.comments.shown_body`), and the text a reader
    sees of its first H1 that shows any (:func:`rubi.markdown.display.display_text`;
    ``""`` when none)."""
    headings: list[Heading] = []
    links: list[Link] = []
    tags: list[str] = []
    title = ""
    env: dict[str, Any] = {}
    tokens = _MD_BLOCKS.parse(body, env)
    if has_comment_mark(body):
        shown = shown_body(body, tokens)
        if shown is not body:
            env = {}
            tokens = _MD_BLOCKS.parse(shown, env)
    list_depth = 0
    pending_heading: int | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open":
            list_depth += 1
        elif tok.type == "list_item_close":
            list_depth -= 1
        elif tok.type == "heading_open":
            pending_heading = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
        elif tok.type == "inline":
            line = tok.map[0] if tok.map else 0
            text = _parse_inline(tok, env)
            if pending_heading is not None:
                headings.append(Heading(pending_heading, text.replace("\x00", "").strip(), line))
                if pending_heading == 1 and not title:
                    title = _heading_title(tok.content, env)
                pending_heading = None
            if "[[" in text:  # a wikilink, and a typed list item's mark
                relation = LINKS_TO
                if list_depth > 0 and tokens[i - 1].type == "paragraph_open":
                    relation = item_relation(text) or LINKS_TO
                links.extend(find_wikilinks(text, relation=relation, line=line))
            if tok.children:
                links.extend(_markdown_links(tok, line))
            if "#" in text:  # a tag's mark (the text without its wikilinks)
                tags.extend(_TAG_RE.findall(WIKILINK_RE.sub(" ", text)))
    return headings, links, tags, title


def _heading_title(content: str, env: dict[str, Any]) -> str:
    """The text a reader sees of a heading's inline ``content`` (its own full inline
    parse: the block's children may be the faster parsers' or none)."""
    from rubi.markdown.display import display_text

    children: list[Token] = []
    _MD.inline.parse(content, _MD, env, children)
    return display_text(children)


def _frontmatter_links(meta: dict[str, Any]) -> Iterator[Link]:
    for key, value in meta.items():
        relation = str(key).strip().lower().replace("-", "_").replace(" ", "_") or LINKS_TO
        for s in _strings(value):
            found = list(find_wikilinks(s, relation=relation, line=-1))
            if found:
                yield from found
            elif relation in _FRONTMATTER_LINK_KEYS:
                yield Link(target=s.strip(), relation=relation, line=-1)


def parse_note(text: str, path: str, *, strict: bool = True) -> Note:
    """Parse a note's full text.

    Args:
        text: the file's text; a BOM and CRLF/CR line endings are accepted.
        path: its vault-relative POSIX path (``folder/Note.md``), used for the id, the
            fallback title and error messages.
        strict: raise on broken frontmatter. With ``strict=False`` such a note is
            parsed from its body alone, with empty ``metadata`` and the reason in
            ``frontmatter_error`` (templates with ``{{date}}`` in YAML stay findable).

    Returns:
        The :class:`Note`. ``type`` falls back to ``note`` when the frontmatter has
        none or an unknown one (the raw value stays in ``metadata``).

    Raises:
        NoteParseError: the frontmatter YAML is broken or not a mapping.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    fm_error: str | None = None
    try:
        meta, body = split_frontmatter(text, path)
    except NoteParseError as exc:
        if strict:
            raise
        fm_error = exc.reason
        meta, body = {}, _FENCE_RE.sub("", text, count=1)
    headings, links, inline_tags, h1 = _walk_body(body)
    links.extend(_frontmatter_links(meta))
    # a NUL in a target (a code span blanked in a wikilink, `%00`) names nothing
    links = [link for link in links if "\x00" not in link.target]

    # a name is one line: a line break in a title or alias from the frontmatter would
    # start a line of its own in a list of hits (a forged hit or why-line)
    title = " ".join(str(meta.get("title") or "").split())
    if not title:
        title = h1 or unicodedata.normalize("NFC", PurePosixPath(path).name.removesuffix(".md"))
    raw_type = str(meta.get("type") or "").strip().lower()
    aliases = _dedupe(" ".join(s.split()) for s in _strings(meta.get("aliases", meta.get("alias"))))
    tags = _dedupe([*_tag_list(meta.get("tags", meta.get("tag"))), *inline_tags])
    return Note(
        id=note_id_for_path(path),
        path=path,
        title=title,
        type=raw_type if raw_type in NOTE_TYPES else DEFAULT_TYPE,
        status=str(meta.get("status") or "active").strip().lower(),
        aliases=aliases,
        tags=tags,
        headings=tuple(headings),
        links=tuple(links),
        body=body,
        metadata=meta,
        frontmatter_error=fm_error,
    )
