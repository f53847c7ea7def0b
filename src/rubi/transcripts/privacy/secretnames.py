"""``name = value`` pairs whose name is a secret name (detector 3 of
:mod:`rubi.transcripts.privacy`; secrets named in prose are in :mod:`.prose`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from rubi.transcripts.privacy.datablocks import DataRanges
from rubi.transcripts.privacy.patterns import Rx, Span
from rubi.transcripts.privacy.values import (
    DOTTED,
    IDENT,
    TOKEN_CHARS,
    credential_like,
    is_reference,
    path_like,
)

__all__ = ["KEY_QUALIFIERS", "kv_spans", "markup_spans", "secret_name", "table_spans"]

# -- 3. name = value ---------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_PASSWORD_WORDS = frozenset(
    {"password", "passwd", "passphrase", "pwd", "pass", "passcode", "storepass", "keypass"}
)
_SECRET_WORDS = _PASSWORD_WORDS | _words(
    """secret token apikey secretkey accesskey privatekey authtoken accesstoken
    credential credentials creds auth"""
)
_SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey")
KEY_QUALIFIERS = _words(
    """api access private secret session signing account master encryption client app
    application storage shared consumer subscription license auth webhook admin
    deploy ingest sas hmac jwt server write rest live cipher crypto decryption"""
)
_META_LAST = _words(
    """url uri urls endpoint file files path paths dir folder name names field fields
    header headers label type types length len count timeout ttl expiry expires
    expiration exp lifetime age id ids hash hashed hasher env var prefix suffix
    pattern regex re enabled enable disabled required mode algorithm algorithms alg
    algo kind prompt message msg hint help policy ref format size limit min max
    class provider service store manager version location source scope scopes usage
    rotation valid validator validation strength reset changed at date time method
    attr attribute param params option options flag flags sock socket port host user
    username email days hours minutes seconds secs ms bytes chars attempts retries
    rounds iterations cost bits level input widget form column col index idx lookup
    cache callback handler fn func function cls schema model table rule rules check
    text title placeholder description desc doc docs example sample template style
    color icon display visible hidden show status state event events error errors
    exception updated created issued expired stdin stdout command cmd script key
    keys end start hdr begin settings setting config period usages"""
)
"""A last word that makes the name describe something about a secret, not hold one
(``password_hash``, ``token_url``, ``secretKeyRef``)."""
_SECRET_KEY_IDS = [["private", "key", "id"], ["secret", "key", "id"]]
"""The id of a private or secret key (a Google service account's ``private_key_id``):
it names the key a leaked credential file holds, so it goes with the key (the value
must still look random). An access key id is left to the token formats (``AKIA…``),
``AccessKeyId`` being a field name in much code."""
_META_FIRST = _words(
    """max min num n is has use should require requires total no skip allow enable
    disable show hide validate check get"""
)

_NAME_SPLIT = Rx(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _name_words(name: str) -> list[str]:
    return [w.lower() for w in _NAME_SPLIT.split(name) if w]


def secret_name(name: str) -> str | None:
    """Whether ``name`` names a value that holds a secret.

    Args:
        name: a key, variable, flag or header name (``DB_PASSWORD``, ``apiKey``,
            ``X-API-Key``, ``spring.datasource.password``).

    Returns:
        ``"password"`` for password-like names (any literal counts), ``"secret"`` for
        other secret names (the value must look random), None for other names
        (``password_hash``, ``max_tokens``, ``author``, ``token_url``).
    """
    words = _name_words(name)
    if not words or (words[0] in _META_FIRST and len(words) > 1):
        return None
    found: str | None = None
    for i, w in enumerate(words):
        if w in ("pass", "pwd") and (i == 0 or i < len(words) - 1):
            found = found or "secret"  # alone also a Python keyword and a shell variable
        elif w in ("pass", "pwd"):
            found = "password"  # the last of several words: ansible_become_pass, db_pwd
        elif w in _PASSWORD_WORDS or w.endswith(("password", "passwd", "passphrase")):
            found = "password"
        elif (
            w in _SECRET_WORDS
            or w.endswith(_SECRET_SUFFIXES)
            or (w == "key" and i > 0 and words[i - 1] in KEY_QUALIFIERS)
        ):
            found = found or "secret"
    if found is None:
        return None
    last = words[-1]
    qualified_key = last == "key" and len(words) > 1 and words[-2] in KEY_QUALIFIERS
    if words[-3:-1] and words[-3:] in _SECRET_KEY_IDS:
        return "secret"  # private_key_id: the id that, with its key, is the credential
    if last in _META_LAST and not qualified_key:
        return None
    return found


_KV_HEAD = Rx(
    r"(?<![\w.\-/$%])(?P<q>[\"']?)"
    r"(?P<name>[A-Za-z_][\w.\-]{0,80}?)(?P=q)(?P<gap>[ \t]*)(?P<sep>:=|=>|[:=])[ \t]*"
)
_KV_VALUE = Rx(
    r"[bruBRU]{0,2}\"(?:[^\"\\\n]|\\.){0,4096}\"|[bruBRU]{0,2}'(?:[^'\\\n]|\\.){0,4096}'"
    r"|[^\s\"'`,;&)\]}>]+"
)
"""A value: a quoted string (up to 4 KB, on one line) or a run without spaces."""
_HINTS = ("pass", "pwd", "secret", "token", "key", "auth", "cred")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_NUMBER = Rx(r"^[+-]?[0-9][0-9_.,]*(?:[eE][+-]?[0-9]+)?[A-Za-z]{0,3}$")
_LITERALS = _words(
    """true false yes no on off null none nil undefined nan required optional empty
    string str int bool bytes any"""
)
_YAML_NODE = Rx(r"^[*!&][A-Za-z_!]")
"""A YAML alias (``*default_token``), tag (``!secret wifi``, ``!Ref DbPassword``) or
anchor: a reference to a value, not a value."""
_IDENT_DIGITS = Rx(r"^[A-Za-z_]\w*$")
_TYPE_WITH_DIGITS = Rx(r"^(?:U?[Ii]nt|[Ff]loat|[Bb]ytes|Base)\d+\w*$")


def _hint_starts(text: str, low: str) -> list[int]:
    """Where the names holding a secret word start (each once, in order)."""
    starts: set[int] = set()
    for hint in _HINTS:
        i = low.find(hint)
        while i >= 0:
            j, limit = i, max(0, i - 80)
            while j > limit and text[j - 1] in _NAME_CHARS:
                j -= 1
            while j < i and not (text[j].isalpha() or text[j] == "_"):
                j += 1
            starts.add(j)
            i = low.find(hint, i + len(hint))
    return sorted(starts)


def _is_quoted(value: str) -> bool:
    return value[:1] in "\"'" or (value[:1] in "bruBRU" and value[1:2] in "\"'")


def _quoted_secret(body: str, strength: str, name: str) -> bool:
    """:func:`_secret_value` for a quoted value; ``body`` is inside the quotes."""
    if not body or is_reference(body) or "{" in body:
        return False
    words = _name_words(body)
    if words and words == _name_words(name)[-len(words) :]:
        return False  # a label: "password" for PASSWORD_FIELD
    if (body.startswith(("http://", "https://")) and "@" not in body) or path_like(body):
        return False
    if strength == "password":
        return len(body) >= 3
    # a generated key may hold parentheses (Django's SECRET_KEY alphabet); code in
    # quotes is told apart by its other characters
    return credential_like(body.replace("(", "").replace(")", ""), 8)


def _mixed(value: str) -> bool:
    """Capitals, small letters and digits all present: ``Hunter2.Prod``, not
    ``settings.SECRET_KEY`` or ``config.db2.password``."""
    return (
        any(c.isdigit() for c in value)
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
    )


def _secret_value(value: str, strength: str, style: str, name: str, after: str = "") -> bool:
    """Whether ``value`` (as written after the separator) is a literal secret.

    Args:
        value: the value, quotes included when it was quoted.
        strength: ``"password"`` (any literal of 3+ characters) or ``"secret"`` (must
            look random).
        style: ``"env"`` for ``NAME=value`` of an upper-case name without spaces (a
            ``.env`` line, a shell assignment: bare words are literals); ``"param"``
            for ``name=value`` in a query or connection string (words with digits are
            literals); ``"assign"`` for ``name = value``, ``name := value`` and
            keyword arguments (bare identifiers are variables); ``"colon"`` for YAML,
            JSON, headers and type hints (bare words are type names, words with digits
            are literals); ``"data"`` for a password's ``name: value`` or ``name =
            value`` in configuration data (:mod:`.datablocks`: frontmatter, a YAML,
            TOML or INI block, a properties line, a URL query or a connection string:
            ``;Password=word;``), where a bare word is the value.
        name: the name (a value that repeats it, ``PASSWORD_FIELD = "password"``, is
            a label).
        after: the rest of the line after the value, stripped.
    """
    if _is_quoted(value):
        return _quoted_secret(value.lstrip("bruBRU")[1:-1], strength, name)
    v = value
    if is_reference(v) or v.lower() in _LITERALS:
        return False
    if style in ("colon", "data") and _YAML_NODE.match(v):
        return False
    if _NUMBER.match(v) and not (strength == "password" and v.isdigit() and len(v) >= 6):
        return False
    if any(c in v for c in "([{") or path_like(v):
        return False
    if DOTTED.match(v) and not (style in ("env", "param", "data") and _mixed(v)):
        return False  # obj.attr; but in a .env line or a query `Hunter2.Prod` is a value
    if v.startswith(("http://", "https://")):
        return False
    if style == "env":
        return len(v) >= 3
    if style == "data":
        return _data_literal(v, name)
    if IDENT.match(v):
        return False  # a variable or a type name
    if _IDENT_DIGITS.match(v) and (style == "assign" or _TYPE_WITH_DIGITS.match(v)):
        return False
    if _IDENT_DIGITS.match(v) and style == "colon" and after[:1] in ("|", "=", ",", ")", "]", ";"):
        return False  # a type hint goes on: `key: Ed25519PrivateKey | None`
    if strength == "password":
        return len(v) >= 4 and bool(TOKEN_CHARS.match(v))
    return credential_like(v, 8)


_NOT_A_VALUE = tuple("*!&#|>")
"""How a YAML value that is not a literal starts: an alias (``*db_password``), a tag
(``!secret wifi``, ``!Ref DbPassword``), an anchor, a comment, a block scalar."""


def _data_literal(value: str, name: str) -> bool:
    """Whether a bare ``value`` in configuration data is a password itself: 3+ token
    characters, not a YAML alias, tag or comment, not a label repeating the name
    (``password: Password``)."""
    if len(value) < 3 or value.startswith(_NOT_A_VALUE) or not TOKEN_CHARS.match(value):
        return False
    words = _name_words(value)
    return not (words and words == _name_words(name)[-len(words) :])


def _properties_line(text: str, at: int, end: int, name: str) -> bool:
    """``spring.datasource.password=value``: a dotted name at the start of a line, no
    spaces around ``=``, nothing after the value (a Java properties file)."""
    if "." not in name or (at > 0 and text[at - 1] != "\n"):
        return False
    line_end = text.find("\n", end)
    return not text[end : len(text) if line_end < 0 else line_end].strip()


def kv_spans(text: str, low: str) -> Iterator[Span]:
    data = DataRanges(text)
    covered = 0  # the values read so far: a hint inside one is not a name (linear time)
    for pos in _hint_starts(text, low):
        if pos < covered:
            continue
        at = pos - 1 if pos > 0 and text[pos - 1] in "\"'" else pos
        head = _KV_HEAD.match(text, at)
        if head is None and at < pos:  # a quote that opens a value, not the name: 'x-api-key: …'
            at = pos
            head = _KV_HEAD.match(text, at)
        if head is None:
            continue
        name, sep = head.group("name"), head.group("sep")
        if _in_arn(text, at):
            continue  # arn:aws:secretsmanager:…:secret:prod/db-AbCdEf names a secret
        strength = secret_name(name)
        if strength is None:
            continue
        if sep == ":" and head.group("gap") and not head.group("q"):
            continue  # `pass :meth:` is prose; YAML and headers have no space there
        m = _KV_VALUE.match(text, head.end())
        if m is None:
            continue
        covered = m.end()
        span = _kv_value_span(text, at, head, m, strength, data)
        if span is not None:
            covered = max(covered, span[1])
            yield span


def _in_arn(text: str, at: int) -> bool:
    """Whether ``at`` is inside an ARN or URN (``arn:aws:…:secret:name``): a word after
    a colon there is a resource type, not a key."""
    if at == 0 or text[at - 1] != ":":
        return False
    start = at - 1
    limit = max(0, at - 256)
    while start > limit and not text[start - 1].isspace() and text[start - 1] not in "\"'`=":
        start -= 1
    return text[start : start + 4].lower() in ("arn:", "urn:")


def _kv_style(
    text: str, at: int, head: re.Match[str], m: re.Match[str], strength: str, data: DataRanges
) -> str:
    """How the pair ``head`` ``m`` is written: a style of :func:`_secret_value`."""
    name, sep, value = head.group("name"), head.group("sep"), m.group(0)
    spaced = head.group("gap") or head.group(0)[-1:] in (" ", "\t")
    if sep == "=" and not spaced and not head.group("q"):
        if text[m.end() : m.end() + 1] in (",", ")"):
            style = "assign"  # a keyword argument: f(password=pw)
        elif name.upper() == name:
            return "env"
        elif IDENT.match(value) and text[at - 1 : at] not in ("?", "&", ";"):
            style = "assign"  # f(a=1,\n   secret=secret)
        else:
            style = "param"
    elif sep in ("=", ":=", "=>"):
        style = "assign"
    else:
        style = "colon"
    if (
        strength == "password"
        and sep in (":", "=")
        and (
            at in data
            or (style == "param" and text[at - 1 : at] in ("?", "&", ";"))
            or (style != "colon" and _properties_line(text, at, m.end(), name))
        )
    ):
        return "data"
    return style


def _kv_value_span(
    text: str, at: int, head: re.Match[str], m: re.Match[str], strength: str, data: DataRanges
) -> Span | None:
    """The span of the value ``m`` after the name ``head``, or None when it is no secret;
    ``data``: where the text is configuration data."""
    name, value = head.group("name"), m.group(0)
    style = _kv_style(text, at, head, m, strength, data)
    after = text[m.end() : m.end() + 64].split("\n", 1)[0].strip()
    if not _secret_value(value, strength, style, name, after):
        return None
    start, end = m.start(), m.end()
    if _is_quoted(value):
        return start + len(value) - len(value.lstrip("bruBRU")) + 1, end - 1, strength
    if style in ("env", "colon", "data"):
        # the value of a line that the name starts runs to the end of the line (minus a
        # comment): `password: abc,def` is one value
        line_start = text.rfind("\n", max(0, at - 200), at) + 1
        before = text[line_start:at].strip()
        if (line_start > 0 or at < 200) and before in ("", "-", "export"):
            line_end = text.find("\n", end)
            rest = text[end : len(text) if line_end < 0 else line_end]
            end += len(re.split(r"[ \t]+#", rest, maxsplit=1)[0].rstrip())
    return start, end, strength


_DEFINE = Rx(
    r"define[ \t]*\([ \t]*([\"'])(?P<name>[A-Za-z_]\w{0,80})\1[ \t]*,[ \t]*"
    r"(?:\"(?P<dq>(?:[^\"\\\n]|\\.){1,1024})\"|'(?P<sq>(?:[^'\\\n]|\\.){1,1024})')",
    re.I,
)
"""PHP ``define('DB_PASSWORD', 'value')`` (WordPress' ``wp-config.php``)."""
_ELEMENT = Rx(
    r"<(?P<name>[A-Za-z_][\w.\-]{0,80})(?:[ \t][^<>\n]{0,200})?>"
    r"(?P<value>[^<>\n]{1,1024})</(?P=name)>"
)
"""An XML element holding one line of text: ``<password>value</password>``
(Maven's ``settings.xml``, Tomcat, .NET configs)."""


def markup_spans(text: str, low: str) -> Iterator[Span]:
    """Values of secret names in PHP ``define()`` calls and XML elements."""
    if "define" in low:
        for m in _DEFINE.finditer(text):
            strength = secret_name(m.group("name"))
            g = "dq" if m.group("dq") is not None else "sq"
            if strength and _quoted_secret(m.group(g), strength, m.group("name")):
                yield m.start(g), m.end(g), strength
    if "</" in low and any(h in low for h in _HINTS):
        for m in _ELEMENT.finditer(text):
            strength = secret_name(m.group("name"))
            value = m.group("value")
            if (
                strength
                and value.strip()
                and _quoted_secret(value.strip(), strength, m.group("name"))
            ):
                yield m.start("value"), m.end("value"), strength


_TABLE_NAME = Rx(r"^[A-Za-z_][\w.\-]{0,80}$")
_CELL_EDGE = " \t`*_"
"""What a Markdown cell may wrap a name or a value in: spaces, code and emphasis."""


def _cells(line: str, offset: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each cell of a Markdown table row, with or without its
    outer pipes (``| a | b |`` and ``a | b`` alike), trimmed of spaces, backticks and
    emphasis; an escaped ``\\|`` stays inside its cell."""
    body = line.rstrip("\r\n")
    pipes = [i for i, c in enumerate(body) if c == "|" and (i == 0 or body[i - 1] != "\\")]
    bounds = [-1, *pipes, len(body)]
    row = body.strip()
    if row.startswith("|"):
        bounds = bounds[1:]  # nothing before the outer pipe
    if row.endswith("|") and len(bounds) > 1:
        bounds = bounds[:-1]
    cells: list[tuple[int, int]] = []
    for left, right in pairwise(bounds):
        start, end = left + 1, right
        while start < end and body[start] in _CELL_EDGE:
            start += 1
        while end > start and body[end - 1] in _CELL_EDGE:
            end -= 1
        cells.append((offset + start, offset + end))
    return cells


_SEPARATOR_ROW = Rx(r"^\|?(?:[ \t]*:?-{1,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$")
"""The line under a Markdown table's header: ``|---|:--:|``."""


def _table_value(text: str, cell: tuple[int, int], name: str, strength: str) -> Span | None:
    value = text[cell[0] : cell[1]]
    if not value or any(c.isspace() for c in value):
        return None  # several words: prose, never a value
    if _secret_value(value, strength, "colon", name):
        return cell[0], cell[1], strength
    return None


def _named(text: str, cell: tuple[int, int]) -> tuple[str, str] | None:
    """The cell's text and its :func:`secret_name` strength when it names a secret."""
    name = text[cell[0] : cell[1]]
    strength = secret_name(name) if _TABLE_NAME.match(name) else None
    return None if strength is None else (name, strength)


def table_spans(text: str, low: str) -> Iterator[Span]:
    """Secrets in a Markdown table (outer pipes or not): a row whose cell names a secret
    and whose next cell holds it (``| API_KEY | `7hG4kP9q…` |``), and the cells under a
    header that names one (``| host | user | password |``). A value is judged as a YAML
    value is (a bare word is a type name: ``| password | string |`` describes), and a
    cell of several words is prose, never a value."""
    if "|" not in text or not any(h in low for h in _HINTS):
        return
    offset = 0
    previous: list[tuple[int, int]] = []
    columns: dict[int, tuple[str, str]] = {}  # column -> (header name, strength)
    for line in text.splitlines(keepends=True):
        row = line.strip()
        if "|" not in row:
            previous, columns = [], {}
        elif _SEPARATOR_ROW.match(row):
            columns = {}
            for i, cell in enumerate(previous):
                named = _named(text, cell)
                if named is not None:
                    columns[i] = named
        else:
            cells = _cells(line, offset)
            for name_cell, value_cell in pairwise(cells):
                named = _named(text, name_cell)
                if named is not None:
                    span = _table_value(text, value_cell, *named)
                    if span is not None:
                        yield span
            for i, (name, strength) in columns.items():
                if i < len(cells):
                    span = _table_value(text, cells[i], name, strength)
                    if span is not None:
                        yield span
            previous = cells
        offset += len(line)
