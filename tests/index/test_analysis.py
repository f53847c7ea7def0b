"""Text analysis: identifier splitting, the prose stem and the code stem (agent nouns)."""

from __future__ import annotations

import pytest

from rubi.index.analysis import analyze, identifier_parts, stem_code, stem_en


def test_identifiers_are_split_and_kept_whole() -> None:
    assert identifier_parts("HTTPServer") == ["HTTP", "Server"]
    terms = analyze("parseWikiLinks")
    assert {"pars", "wiki", "link", "parsewikilink"} <= set(terms)


@pytest.mark.parametrize(
    ("agent", "activity"),
    [
        ("router", "routing"),
        ("handler", "handling"),
        ("parser", "parsing"),
        ("logger", "logging"),
        ("writer", "writing"),
        ("wrapper", "wrapping"),
        ("renderer", "rendering"),
        ("recoverer", "recovery"),
        ("scheduler", "scheduling"),
    ],
)
def test_agent_nouns_meet_their_activity_in_code(agent: str, activity: str) -> None:
    assert stem_code(agent) == stem_code(activity)
    assert analyze(agent.capitalize(), "code") == analyze(activity, "code")


@pytest.mark.parametrize(("agent", "activity"), [("viewer", "view"), ("switcher", "switch")])
def test_prose_keeps_agent_nouns_apart(agent: str, activity: str) -> None:
    # In a product's docs "Web viewer" and "Quick switcher" name features.
    assert stem_en(agent) != stem_en(activity)
    assert stem_code(agent) == stem_code(activity)


def test_ery_nouns_meet_their_verb_in_prose_too() -> None:
    assert stem_en("recovery") == stem_en("recover") == stem_code("recoverer")
    assert stem_en("mastery") != stem_en("mast") and stem_code("mastery") != "mast"


@pytest.mark.parametrize(
    ("word", "stem"),
    [("connection", "connect"), ("validators", "valid"), ("query", "queri"), ("user", "user")],
)
def test_other_words_keep_their_porter2_stem(word: str, stem: str) -> None:
    assert stem_en(word) == stem


def test_filtering_and_filter_stay_together() -> None:
    # Porter2 turns "filtering" into "filter"; the agent step must then treat both alike.
    assert stem_code("filtering") == stem_code("filter") == stem_code("filters")


@pytest.mark.parametrize("word", ["letter", "former", "header", "number", "master", "folder"])
def test_common_words_keep_their_porter2_stem_in_every_form(word: str) -> None:
    assert stem_code(word) == stem_code(word + "s") == word


def test_the_false_friend_list_keeps_letter_apart_from_let() -> None:
    assert stem_code("letter") != stem_code("let")
    assert stem_code("former") != stem_code("form")
    assert stem_code("battery") != stem_code("bat")


def test_language_names_with_symbols_survive() -> None:
    assert analyze("C++ bindings and C# interop") == ["cpp", "bind", "csharp", "interop"]
    # "C++" in a question meets the .cpp files; an increment in code is no language.
    assert "cpp" in analyze("src/main.cpp")
    assert analyze("x++ and ABC++") == ["abc"]


@pytest.mark.parametrize(
    "text",
    [
        "How do I parseWikiLinks in the router and routing?",
        "为什么使用缓存 C++ and café, 2 x_y",
        "what is the de la para как для диске",
        "sync_vault cfg configuration HTTPServer os.path",
    ],
)
def test_query_words_hold_each_chains_terms_once(text: str) -> None:
    from rubi.index.analysis import query_words

    words = query_words(text, ["en", "pt", "code"])
    for lang in ("en", "pt", "code"):
        terms = [t for w in words for t in w.get(lang, ())]
        assert sorted(terms) == sorted(set(analyze(text, lang))), lang


def test_tokens_that_meet_in_one_chain_are_one_query_word() -> None:
    from rubi.index.analysis import query_words

    words = query_words("router routing parseWikiLinks", ["en", "code"])
    assert words[0] == {"en": ["router", "rout"], "code": ["rout"]}  # meet in code
    assert [w["en"] for w in words[1:]] == [["parsewikilink"], ["pars"], ["wiki"], ["link"]]


def test_the_false_friends_are_written_as_porter2_stems_them() -> None:
    from rubi.index.stemming import _NOT_AGENT_WORDS, _NOT_AGENTS, _porter2

    assert frozenset(_porter2(w) for w in _NOT_AGENT_WORDS) == _NOT_AGENTS
