"""Programming abbreviations: a query word also looks for the short form code uses.

Code spells words short (``impl``, ``ctx``, ``cfg``, ``std``) while questions spell
them out ("implementation", "context", "configuration", "standard library"), and no
stemmer joins the two. Expanding one into the other is the usual fix in source-code
retrieval (vocabulary normalisation: D. Lawrie, D. Binkley and C. Morrell,
"Normalizing Source Code Vocabulary", WCRE 2010; E. Hill et al., "AMAP: Automatically
Mining Abbreviation Expansions in Programs", MSR 2008). rubi keeps a fixed table of
abbreviations common across languages and expands at query time, both ways, in
searches of code alone: a query word adds its short forms, a short form adds its word.
The index is untouched. Notes are prose: there "info" is the info callout and "cmd"
the key, not "information" and "command"; and in a search of notes and code together,
code would gain a second match per concept over the notes.

The table leaves out the keywords that declare things in common languages (``def``,
``fn``, ``func``, ``var``, ``let``, ``val``, ``class``, ``struct``, ``int``): they
stand on nearly every line of a file and say nothing about its subject. Short forms
that are also keywords or built-ins but name a concept stay (``impl``, ``async``,
``str``, ``dict``, ``len``, ``del``): a query word for that concept should find them,
and BM25's IDF keeps a form found in every file weak. Two-letter forms other than
``db`` and ``id`` mean too many things and are left out, as is "authorization",
whose stem ``author`` would send "author" to ``auth``.
"""

from __future__ import annotations

from rubi.index.abbreviationstems import STEMS

__all__ = ["ABBREVIATIONS", "expansions", "stem_table"]

ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "administrator": ("admin",),
    "allocation": ("alloc",),
    "application": ("app",),
    "argument": ("arg", "args"),
    "asynchronous": ("async",),
    "attribute": ("attr", "attrs"),
    "authentication": ("auth", "authn"),
    "buffer": ("buf",),
    "calculate": ("calc",),
    "certificate": ("cert",),
    "command": ("cmd",),
    "comparison": ("cmp",),
    "configuration": ("config", "cfg", "conf"),
    "connection": ("conn",),
    "context": ("ctx",),
    "coordinate": ("coord",),
    "database": ("db",),
    "declaration": ("decl",),
    "decrement": ("decr",),
    "delete": ("del",),
    "description": ("desc",),
    "destination": ("dest", "dst"),
    "dictionary": ("dict",),
    "directory": ("dir",),
    "document": ("doc", "docs"),
    "environment": ("env",),
    "error": ("err",),
    "execute": ("exec",),
    "expression": ("expr",),
    "extension": ("ext",),
    "frequency": ("freq",),
    "generate": ("gen",),
    "identifier": ("id", "ident"),
    "implementation": ("impl", "impls"),
    "increment": ("incr",),
    "index": ("idx",),
    "information": ("info",),
    "initialize": ("init",),
    "instance": ("inst",),
    "iterator": ("iter",),
    "language": ("lang",),
    "length": ("len",),
    "library": ("lib",),
    "manager": ("mgr",),
    "maximum": ("max",),
    "message": ("msg",),
    "minimum": ("min",),
    "miscellaneous": ("misc",),
    "multiplexer": ("mux",),
    "navigation": ("nav",),
    "number": ("num",),
    "object": ("obj",),
    "option": ("opt", "opts"),
    "original": ("orig",),
    "package": ("pkg",),
    "parameter": ("param", "params"),
    "password": ("passwd", "pwd"),
    "pointer": ("ptr",),
    "position": ("pos",),
    "previous": ("prev",),
    "process": ("proc",),
    "property": ("prop", "props"),
    "protocol": ("proto",),
    "random": ("rand",),
    "receive": ("recv",),
    "reference": ("ref",),
    "register": ("reg",),
    "repository": ("repo",),
    "request": ("req",),
    "response": ("resp",),
    "sequence": ("seq",),
    "signature": ("sig",),
    "source": ("src",),
    "specification": ("spec",),
    "standard": ("std",),
    "statement": ("stmt",),
    "statistics": ("stats",),
    "string": ("str",),
    "synchronous": ("sync",),
    "system": ("sys",),
    "temporary": ("tmp", "temp"),
    "template": ("tmpl", "tpl"),
    "transaction": ("txn",),
    "utility": ("util", "utils"),
    "version": ("ver",),
}
"""Word → its usual short forms in code. Matching is by stem, so a word stands for its
family ("implementation" for implement, implements, implemented)."""


def stem_table() -> dict[str, dict[str, str]]:
    """Stem → {counterpart stem: counterpart as written}, every direction, computed
    from :data:`ABBREVIATIONS` by the code chain (:func:`rubi.index.analysis.analyze`).

    The searches read the same table written out
    (:data:`rubi.index.abbreviationstems.STEMS`, a test keeps the two equal, order
    included): stemming the table's words in pure Python cost every process's first
    code search about 28 M instructions (4 % of a short session's ``rubi serve``)."""
    from rubi.index.analysis import analyze

    table: dict[str, dict[str, str]] = {}
    for word, shorts in ABBREVIATIONS.items():
        group = {stem: word for stem in analyze(word, "code")}
        for short in shorts:
            for stem in analyze(short, "code"):
                group.setdefault(stem, short)
        # Every member of a group stands for the others: cfg → configuration, config.
        for stem in group:
            for other, written in group.items():
                if other != stem:
                    table.setdefault(stem, {}).setdefault(other, written)
    return table


def expansions(terms: list[str]) -> dict[str, str]:
    """The abbreviation counterparts of analysed query ``terms``.

    Args:
        terms: index terms of code fields, as ``analyze(text, "code")`` gives them.

    Returns:
        Counterpart term → the word it stands for as written (``impl`` → "impl" for
        the term ``implement``; ``configur`` → "configuration" for ``cfg``), leaving
        out terms already in ``terms``.
    """
    table = STEMS
    have = set(terms)
    out: dict[str, str] = {}
    for term in terms:
        for other, written in table.get(term, {}).items():
            if other not in have:
                out.setdefault(other, written)
    return out


if __name__ == "__main__":  # rewrite the table written out (rubi.index.abbreviationstems)
    from pathlib import Path

    from rubi.index import abbreviationstems

    Path(abbreviationstems.__file__).write_text(
        abbreviationstems.render(stem_table()), encoding="utf-8"
    )
