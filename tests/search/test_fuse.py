from __future__ import annotations

import pytest

from rubi.search.fuse import RRF_K, rrf
from rubi.search.names import match_names


def test_rrf_scores_and_order() -> None:
    fused = rrf({"a": ["x", "y", "z"], "b": ["y", "x"]})
    assert [f.id for f in fused][:2] in (["x", "y"], ["y", "x"])
    by_id = {f.id: f for f in fused}
    assert by_id["z"].score == pytest.approx(1 / (RRF_K + 3))
    assert by_id["y"].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert by_id["y"].ranks == {"a": 2, "b": 1}


def test_rrf_weights_and_duplicates() -> None:
    fused = rrf({"a": ["x", "x", "y"], "b": ["y"]}, weights={"b": 3.0})
    assert fused[0].id == "y"
    assert fused[1].ranks == {"a": 1}


def test_names_longest_first_and_terms() -> None:
    names = {"embed files": ["E"], "files": ["F"], "aliases": ["A"]}
    got = match_names("How do I embed files?", ["aliases"], names)
    assert [(m.id, m.name) for m in got] == [("E", "embed files"), ("A", "aliases"), ("F", "files")]


def test_a_type_named_as_written_comes_before_a_property_of_the_same_name() -> None:
    # Request.swift has a property `eventMonitor`; EventMonitor.swift defines the type.
    names = {"eventmonitor": ["Core/Request.swift", "Features/EventMonitor.swift"]}
    types = {"EventMonitor": ["Features/EventMonitor.swift"]}
    got = match_names("events logged via EventMonitor", [], names, types)
    assert [m.id for m in got] == ["Features/EventMonitor.swift", "Core/Request.swift"]
    # Written in lower case, the query names no type: the table's order stands.
    got = match_names("events logged via eventmonitor", [], names, types)
    assert [m.id for m in got] == ["Core/Request.swift", "Features/EventMonitor.swift"]


def test_a_type_name_defined_in_too_many_files_names_none_of_them() -> None:
    types = {"Config": [f"pkg{i}/config.go" for i in range(5)]}
    assert match_names("where is Config read", [], {}, types) == []


def test_an_identifier_names_a_capitalised_function_too() -> None:
    types = {"Depends": ["params.py"]}
    defined = {"Depends": ["params.py", "param_functions.py"], "Query": ["param_functions.py"]}
    got = match_names("Depends", [], {}, types, defined)
    assert [m.id for m in got] == ["params.py", "param_functions.py"]
    # The first word of a sentence is capitalised anyway; a capital inside one is not.
    assert match_names("Query parameters", [], {}, types, defined) == []
    got = match_names("how Query and Depends combine", [], {}, types, defined)
    assert {m.id for m in got} == {"params.py", "param_functions.py"}
    # An acronym in prose is a word, unless it is the whole query.
    defined["URL"] = ["url.swift"]
    assert match_names("how URL parameters are encoded", [], {}, types, defined) == []
    assert [m.id for m in match_names("URL", [], {}, types, defined)] == ["url.swift"]


def test_a_name_many_notes_carry_names_none_of_them() -> None:
    # A speaker's name titling every captured conversation, beside a name one note has.
    names = {"caroline": [f"sessions/s{i}" for i in range(12)], "adoption": ["notes/a"]}
    got = match_names("when did Caroline go to the adoption meeting", [], names)
    assert [(m.id, m.name) for m in got] == [("notes/a", "adoption")]
    names["caroline"] = names["caroline"][:3]  # three carry it: still a name
    got = match_names("Caroline", [], names)
    assert [m.id for m in got] == ["sessions/s0", "sessions/s1", "sessions/s2"]
