"""Redact secrets from text before it touches disk (captured conversations, records).

Each secret becomes ``[REDACTED:<kind>]``; everything else is kept byte for byte.
Detection keys on formats and names, never on "looks random" alone, so hashes, UUIDs,
lockfile integrity strings, base64 images and ordinary code stay as they are:

1. Tokens with a known shape: cloud and SaaS keys with fixed prefixes (AWS, GitHub,
   GitLab, Slack, Stripe, OpenAI, Anthropic, Hugging Face, npm, PyPI, SendGrid,
   Twilio, Google, Azure, Shopify, Vault and more), JWTs, webhook URLs with their
   secret path, PEM private keys (also cut short, also base64-encoded as in
   Kubernetes secrets), PuTTY private keys, ``<private>…</private>`` spans.
2. Secrets in a known place: passwords in URLs, ``Authorization`` headers, cookies,
   ``curl -u``, ``mysql -p…``, ``sshpass -p``, ``--password``-style flags, Azure
   SAS ``sig=``, presigned URLs' signatures, ``.netrc`` lines, a 40-character AWS
   secret next to its key id.
3. ``name = value`` pairs (``.env``, YAML, JSON, code, headers, connection strings)
   whose name is a secret name (:func:`secret_name`: ``AWS_SECRET_ACCESS_KEY``,
   ``apiKey``, ``X-API-Key``; not ``password_hash``, ``max_tokens``, ``author``,
   ``secretKeyRef``) and whose value is a literal, not code (``os.environ[…]``,
   ``get_token()``, ``self.token``, type hints, ``$VAR``, ``{{ var }}``, ``null``;
   in configuration data, a bare word after a password name is the value); also a
   Markdown table row that names a secret in one cell and holds it in the next, and a
   key named in prose (``my password is …``, ``encryption key: 3f9a…``).

Speed: every pattern starts with a literal (the regex engine then skips ahead at C
speed) or runs only when a cheap substring test says it can match, and compiles on
first use, so a 20,000-character turn costs about 2 ms. Time is linear in the text
even when it is built to make a pattern rescan a line from every position.

The token formats follow the vendors' documentation and the rule sets of gitleaks and
detect-secrets; docs/privacy.md gives the corpus figures and why rubi keeps its own
table instead of depending on detect-secrets.

The detectors live in submodules, one concern each: :mod:`.shapes` (1, with the
formats ported from gitleaks in :mod:`.gitleaks`), :mod:`.places` (2),
:mod:`.secretnames` (3, also PHP ``define()`` and XML elements; where a text is
configuration data in :mod:`.datablocks`) and :mod:`.prose` (secrets named in
prose), over :mod:`.values` (literal or code) and :mod:`.patterns` (lazily compiled
patterns); this module runs them. :mod:`.vaulttext`
applies them to text bound for the vault (``<private>`` removed, secrets reported by
line and kind).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rubi.transcripts.privacy.patterns import CUT_MARGIN, REDACTED, Span
from rubi.transcripts.privacy.places import aws_secret_spans, known_place_spans
from rubi.transcripts.privacy.prose import prose_spans
from rubi.transcripts.privacy.secretnames import kv_spans, markup_spans, secret_name, table_spans
from rubi.transcripts.privacy.shapes import pem_b64_spans, private_spans, token_spans

__all__ = ["CUT_MARGIN", "REDACTED", "redact", "redact_cut", "secret_name", "secret_spans"]

# -- the filter ------------------------------------------------------------------------

_FINDERS: list[Callable[[str, str], Iterator[Span]]] = [
    token_spans,
    private_spans,
    pem_b64_spans,
    known_place_spans,
    aws_secret_spans,
    kv_spans,
    markup_spans,
    table_spans,
    prose_spans,
]


def secret_spans(text: str) -> list[Span]:
    """The secrets in ``text``, merged where they overlap or touch.

    Args:
        text: any text (a prompt, an answer, a command).

    Returns:
        ``(start, end, kind)`` spans in order, not overlapping; the kind of a merged
        span is that of its earliest part.
    """
    low = text.lower()
    found = sorted(s for finder in _FINDERS for s in finder(text, low) if s[1] > s[0])
    merged: list[Span] = []
    for start, end, kind in found:
        if merged and start <= merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], end), last[2])
        else:
            merged.append((start, end, kind))
    return merged


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``.

    Args:
        text: any text (a prompt, an answer, a command).

    Returns:
        The redacted text; the very same string when nothing matched.
    """
    spans = secret_spans(text)
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        out.append(REDACTED.format(kind=kind))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact_cut(text: str, limit: int, *, collapse: bool = False, more: str = "\n[…cut]") -> str:
    """Redact, then cut to ``limit`` characters: a cut never leaves part of a secret.

    Only the first ``limit + CUT_MARGIN`` characters are read (see
    :data:`CUT_MARGIN`), so a huge paste costs no more than a large one.

    Args:
        text: the text to store.
        limit: characters kept (of the redacted, collapsed text), ``more`` excluded.
        collapse: squeeze each run of whitespace into one space (after redacting, so
            multi-line secrets are still recognised).
        more: appended when something was cut.

    Returns:
        At most ``limit`` characters plus ``more``; a cut falls before a
        ``[REDACTED:…]`` mark, never inside one.
    """
    window = text[: limit + CUT_MARGIN]
    shortened = len(window) < len(text)
    if shortened:
        low = window.lower()
        opened = low.rfind("<private>")
        if opened > low.rfind("</private>"):  # a private span runs past the window
            window = window[:opened] + REDACTED.format(kind="private")
    out = redact(window)
    if collapse:
        out = " ".join(out.split())
    if not shortened and len(out) <= limit:
        return out
    out = out[:limit]
    mark = out.rfind("[REDACTED:")
    if mark >= 0 and "]" not in out[mark:]:
        out = out[:mark]  # never half a mark
    return out.rstrip() + more
