"""The programming abbreviations' table by stem, written out: what
:func:`rubi.index.abbreviations.stem_table` computes from
:data:`rubi.index.abbreviations.ABBREVIATIONS`, read by every code search
(:func:`rubi.index.abbreviations.expansions`) without stemming the table's words in
each process (about 28 M instructions, 4 % of a short session's ``rubi serve``:
``docs/benchmarks-history.md``, "issue 29: a whole session's cost, what rubi serve and
Claude Code spend, twenty-seventh pass").

Run ``python -m rubi.index.abbreviations`` after changing the abbreviations or the
code chain's analysis (its stemming, its filters); a test compares :data:`STEMS` with
:func:`~rubi.index.abbreviations.stem_table`, order included.
"""

from __future__ import annotations

__all__ = ["STEMS", "render"]

STEMS: dict[str, dict[str, str]] = {
    "administr": {"admin": "admin"},
    "admin": {"administr": "administrator"},
    "applic": {"app": "app"},
    "app": {"applic": "application"},
    "argument": {"arg": "arg"},
    "arg": {"argument": "argument"},
    "asynchron": {"async": "async"},
    "async": {"asynchron": "asynchronous"},
    "attribut": {"attr": "attr"},
    "attr": {"attribut": "attribute"},
    "authent": {"auth": "auth", "authn": "authn"},
    "auth": {"authent": "authentication", "authn": "authn"},
    "authn": {"authent": "authentication", "auth": "auth"},
    "calcul": {"calc": "calc"},
    "calc": {"calcul": "calculate"},
    "certif": {"cert": "cert"},
    "cert": {"certif": "certificate"},
    "command": {"cmd": "cmd"},
    "cmd": {"command": "command"},
    "comparison": {"cmp": "cmp"},
    "cmp": {"comparison": "comparison"},
    "configur": {"config": "config", "cfg": "cfg", "conf": "conf"},
    "config": {"configur": "configuration", "cfg": "cfg", "conf": "conf"},
    "cfg": {"configur": "configuration", "config": "config", "conf": "conf"},
    "conf": {"configur": "configuration", "config": "config", "cfg": "cfg"},
    "connect": {"conn": "conn"},
    "conn": {"connect": "connection"},
    "context": {"ctx": "ctx"},
    "ctx": {"context": "context"},
    "coordin": {"coord": "coord"},
    "coord": {"coordin": "coordinate"},
    "databas": {"db": "db"},
    "db": {"databas": "database"},
    "declar": {"decl": "decl"},
    "decl": {"declar": "declaration"},
    "decrement": {"decr": "decr"},
    "decr": {"decrement": "decrement"},
    "delet": {"del": "del"},
    "del": {"delet": "delete"},
    "descript": {"desc": "desc"},
    "desc": {"descript": "description"},
    "destin": {"dest": "dest", "dst": "dst"},
    "dest": {"destin": "destination", "dst": "dst"},
    "dst": {"destin": "destination", "dest": "dest"},
    "dictionari": {"dict": "dict"},
    "dict": {"dictionari": "dictionary"},
    "directori": {"dir": "dir"},
    "dir": {"directori": "directory"},
    "document": {"doc": "doc"},
    "doc": {"document": "document"},
    "environ": {"env": "env"},
    "env": {"environ": "environment"},
    "error": {"err": "err"},
    "err": {"error": "error"},
    "execut": {"exec": "exec"},
    "exec": {"execut": "execute"},
    "express": {"expr": "expr"},
    "expr": {"express": "expression"},
    "extens": {"ext": "ext"},
    "ext": {"extens": "extension"},
    "frequenc": {"freq": "freq"},
    "freq": {"frequenc": "frequency"},
    "generat": {"gen": "gen"},
    "gen": {"generat": "generate"},
    "identifi": {"id": "id", "ident": "ident"},
    "id": {"identifi": "identifier", "ident": "ident"},
    "ident": {"identifi": "identifier", "id": "id"},
    "implement": {"impl": "impl"},
    "impl": {"implement": "implementation"},
    "increment": {"incr": "incr"},
    "incr": {"increment": "increment"},
    "index": {"idx": "idx"},
    "idx": {"index": "index"},
    "inform": {"info": "info"},
    "info": {"inform": "information"},
    "initi": {"init": "init"},
    "init": {"initi": "initialize"},
    "instanc": {"inst": "inst"},
    "inst": {"instanc": "instance"},
    "languag": {"lang": "lang"},
    "lang": {"languag": "language"},
    "length": {"len": "len"},
    "len": {"length": "length"},
    "librari": {"lib": "lib"},
    "lib": {"librari": "library"},
    "manag": {"mgr": "mgr"},
    "mgr": {"manag": "manager"},
    "maximum": {"max": "max"},
    "max": {"maximum": "maximum"},
    "messag": {"msg": "msg"},
    "msg": {"messag": "message"},
    "minimum": {"min": "min"},
    "min": {"minimum": "minimum"},
    "miscellan": {"misc": "misc"},
    "misc": {"miscellan": "miscellaneous"},
    "multiplex": {"mux": "mux"},
    "mux": {"multiplex": "multiplexer"},
    "navig": {"nav": "nav"},
    "nav": {"navig": "navigation"},
    "number": {"num": "num"},
    "num": {"number": "number"},
    "object": {"obj": "obj"},
    "obj": {"object": "object"},
    "option": {"opt": "opt"},
    "opt": {"option": "option"},
    "origin": {"orig": "orig"},
    "orig": {"origin": "original"},
    "packag": {"pkg": "pkg"},
    "pkg": {"packag": "package"},
    "paramet": {"param": "param"},
    "param": {"paramet": "parameter"},
    "password": {"passwd": "passwd", "pwd": "pwd"},
    "passwd": {"password": "password", "pwd": "pwd"},
    "pwd": {"password": "password", "passwd": "passwd"},
    "point": {"ptr": "ptr"},
    "ptr": {"point": "pointer"},
    "posit": {"pos": "pos"},
    "pos": {"posit": "position"},
    "previous": {"prev": "prev"},
    "prev": {"previous": "previous"},
    "process": {"proc": "proc"},
    "proc": {"process": "process"},
    "properti": {"prop": "prop"},
    "prop": {"properti": "property"},
    "protocol": {"proto": "proto"},
    "proto": {"protocol": "protocol"},
    "random": {"rand": "rand"},
    "rand": {"random": "random"},
    "receiv": {"recv": "recv"},
    "recv": {"receiv": "receive"},
    "refer": {"ref": "ref"},
    "ref": {"refer": "reference"},
    "regist": {"reg": "reg"},
    "reg": {"regist": "register"},
    "repositori": {"repo": "repo"},
    "repo": {"repositori": "repository"},
    "request": {"req": "req"},
    "req": {"request": "request"},
    "respons": {"resp": "resp"},
    "resp": {"respons": "response"},
    "sequenc": {"seq": "seq"},
    "seq": {"sequenc": "sequence"},
    "signatur": {"sig": "sig"},
    "sig": {"signatur": "signature"},
    "sourc": {"src": "src"},
    "src": {"sourc": "source"},
    "specif": {"spec": "spec"},
    "spec": {"specif": "specification"},
    "standard": {"std": "std"},
    "std": {"standard": "standard"},
    "statement": {"stmt": "stmt"},
    "stmt": {"statement": "statement"},
    "statist": {"stat": "stats"},
    "stat": {"statist": "statistics"},
    "string": {"str": "str"},
    "str": {"string": "string"},
    "synchron": {"sync": "sync"},
    "sync": {"synchron": "synchronous"},
    "system": {"sys": "sys"},
    "sys": {"system": "system"},
    "temporari": {"tmp": "tmp", "temp": "temp"},
    "tmp": {"temporari": "temporary", "temp": "temp"},
    "temp": {"temporari": "temporary", "tmp": "tmp"},
    "templat": {"tmpl": "tmpl", "tpl": "tpl"},
    "tmpl": {"templat": "template", "tpl": "tpl"},
    "tpl": {"templat": "template", "tmpl": "tmpl"},
    "transact": {"txn": "txn"},
    "txn": {"transact": "transaction"},
    "version": {"ver": "ver"},
    "ver": {"version": "version"},
}
"""Stem → {counterpart stem: counterpart as written}, every direction."""


def render(table: dict[str, dict[str, str]]) -> str:
    """This module's text with ``table`` as :data:`STEMS` (its order kept)."""
    source = _source()
    head, _, rest = source.partition("STEMS: dict[str, dict[str, str]] = ")
    _, _, tail = rest.partition('\n"""Stem')
    lines = ["{"]
    for stem, others in table.items():
        inner = ", ".join(f"{_quoted(k)}: {_quoted(v)}" for k, v in others.items())
        lines.append(f"    {_quoted(stem)}: {{{inner}}},")
    lines.append("}")
    return head + "STEMS: dict[str, dict[str, str]] = " + "\n".join(lines) + '\n"""Stem' + tail


def _quoted(text: str) -> str:
    """``text`` as a double-quoted literal (the formatter's quotes)."""
    import json

    return json.dumps(text, ensure_ascii=False)


def _source() -> str:
    from pathlib import Path

    return Path(__file__).read_text(encoding="utf-8")
