"""What keeps secrets out of the files a team commits: every text an agent or a
person asks rubi to store in the vault (``register``, ``rubi note add``, handoffs,
map summaries) passes :func:`scrub_text` first, with the rules of session capture
(:mod:`rubi.transcripts.privacy`). A secret becomes ``[REDACTED:<kind>]``, a
``<private>…</private>`` span is removed, and the caller is told the field, line and
kind, never the value. A name (a title, an alias, a tag) is never rewritten: one that
holds a secret is refused with one line."""

from __future__ import annotations

from rubi.core.errors import RubiError

__all__ = ["describe", "refuse_secret", "scrub_text"]


def scrub_text(text: str, where: str) -> tuple[str, list[str]]:
    """``text`` without its secrets, and one ``"<where> line <n>: <kind>"`` per secret.

    Args:
        text: the text to store.
        where: the field's name as the caller knows it (``body``, ``notes[0].body``,
            ``state``).

    Returns:
        ``(text to store, what was redacted)``; ``text`` itself and ``[]`` when it
        holds no secret.

    Raises:
        RubiError: a ``<private>`` tag is never closed (``"<where> line <n>: …"``):
            removing the rest of the text would lose what follows a forgotten
            ``</private>``.
    """
    from rubi.transcripts.privacy.vaulttext import scrub, unclosed_private

    line = unclosed_private(text)
    if line is not None:
        raise RubiError(
            f"{where} line {line}: <private> is never closed; end the private part "
            "with </private> (or write the tag as code: `<private>`)"
        )
    out, found = scrub(text)
    return out, [f"{where} line {f.line}: {f.kind}" for f in found]


def refuse_secret(text: str, where: str) -> None:
    """Raise when ``text`` (a title, an alias, a tag: a name, not rewritten) holds a
    secret.

    Raises:
        RubiError: naming the field and the kind.
    """
    from rubi.transcripts.privacy.vaulttext import find_secrets

    found = find_secrets(text)
    if found:
        raise RubiError(
            f"{where}: holds a secret ({found[0].kind}); leave the secret out "
            "(vault files are committed to git)"
        )


def describe(redacted: list[str] | tuple[str, ...], *, sentence: bool = False) -> str:
    """One line for the caller: ``"redacted 2 secrets (body line 3: aws-key; …)"``;
    "" when nothing was. ``sentence``: a sentence of its own (``"Redacted …]."``),
    the rest of the line as it is (the mark keeps its capitals)."""
    if not redacted:
        return ""
    many = "secret" if len(redacted) == 1 else "secrets"
    line = f"redacted {len(redacted)} {many} ({'; '.join(redacted)}): stored as [REDACTED:<kind>]"
    return f"R{line[1:]}." if sentence else line
