"""Stubs and near-duplicates take one place in a search, the note with a body shown and
the others named beside it ("also: …", ``also`` in JSON), never dropped.

The samples are shaped on real vaults: a handbook page moved with a one-line redirect
left at the old path under the same title, a frontmatter-only hub page that the notes
link to instead of the guide of the same name, a page copied under a second folder,
and two teams' "Onboarding" pages that share a title and nothing else.
"""

from __future__ import annotations

import random
import re
import tracemalloc
from pathlib import Path

import pytest

from rubi import app
from rubi.search.duplicates import (
    NEAR_DUPLICATE_JACCARD,
    SHINGLE_WORDS,
    STUB_WORDS,
    body_of,
    collapse,
    forget_bodies,
    make_body,
    same_note,
    words_of,
)

from helpers import write

REWARDS = (
    "# Total Rewards\n\nWe want our teammates to be happy, healthy, and productive. In order "
    "to best support that, we provide competitive pay, perks, and benefits. Total rewards "
    "is the total calculation of all categories the company spends on each teammate.\n\n"
    "## What makes up total rewards?\n\n- Compensation: base and variable pay\n- Equity\n"
    "- Perks\n- Health benefits\n\nYou can view your total rewards package in your profile.\n"
)
MENTAL_HEALTH = (
    "# Mental health\n\nWe offer every teammate free sessions with a licensed therapist or "
    "coach through our mental health partner. Sessions are confidential and the company "
    "never sees who used them. You can book up to twelve sessions a year, and more with a "
    "referral. Reach the partner through the app or the website, any time of day.\n"
)


def _vault(root: Path, files: dict[str, str]) -> app.VaultPaths:
    for rel, text in files.items():
        write(root / rel, text)
    paths = app.locate(root)
    app.index(paths)
    return paths


def _ids(result: app.SearchResult) -> list[str]:
    return [h.id for h in result.hits]


def test_a_redirect_stub_is_collapsed_into_the_page_of_the_same_title(tmp_path: Path) -> None:
    paths = _vault(
        tmp_path,
        {
            "people/total-rewards.md": REWARDS,
            "pay/compensation/total-rewards.md": (
                "# Total Rewards\n\nMoved this content [here](../../people/total-rewards.md)\n"
            ),
            "pay/expenses.md": "# Expenses\n\nExpenses are not part of your total rewards.\n",
        },
    )
    result = app.search(paths, "total rewards", refresh=False)
    assert _ids(result)[0] == "people/total-rewards"
    assert "pay/compensation/total-rewards" not in _ids(result)
    top = result.hits[0]
    assert top.also == ("pay/compensation/total-rewards",)
    assert top.why[-1] == "also: pay/compensation/total-rewards"
    data = app.search_json(result, 4000)
    assert data["hits"][0]["also"] == ["pay/compensation/total-rewards"]
    assert all("also" not in h for h in data["hits"][1:])


def test_a_linked_frontmatter_only_stub_yields_to_the_note_with_a_body(tmp_path: Path) -> None:
    files = {
        "Hub/Dataview.md": "---\ntags: [plugin]\naliases: [DV]\n---\n",
        "Guides/Dataview.md": (
            "# Dataview\n\nDataview turns your notes into a database you can query with a "
            "small query language. Install it from the community plugins, then write a "
            "code block that lists pages by tag.\n"
        ),
    }
    for i in range(6):
        files[f"Daily/day {i}.md"] = f"# Day {i}\n\nRead about [[Hub/Dataview]] today.\n"
    paths = _vault(tmp_path, files)
    result = app.search(paths, "dataview", refresh=False)
    assert _ids(result)[0] == "Guides/Dataview"
    assert result.hits[0].also == ("Hub/Dataview",)
    assert "Hub/Dataview" not in _ids(result)


def test_a_page_copied_under_two_folders_takes_one_place(tmp_path: Path) -> None:
    paths = _vault(
        tmp_path,
        {
            "benefits/mental-health.md": MENTAL_HEALTH,
            "people/total-rewards/mental-health.md": MENTAL_HEALTH.replace(
                "any time of day", "at any time of the day"
            ),
            "benefits/time-off.md": "# Time off\n\nTake the time off you need; tell your team.\n",
        },
    )
    result = app.search(paths, "therapist sessions", refresh=False)
    ids = _ids(result)
    assert len({"benefits/mental-health", "people/total-rewards/mental-health"} & set(ids)) == 1
    assert len(result.hits[0].also) == 1


def test_same_title_different_pages_keep_their_own_places(tmp_path: Path) -> None:
    paths = _vault(
        tmp_path,
        {
            "sales/onboarding.md": (
                "# Onboarding\n\nNew sales teammates shadow three customer calls, learn the "
                "pricing sheet and set up the CRM in their first week.\n"
            ),
            "cloud/onboarding.md": (
                "# Onboarding\n\nNew cloud engineers get access to the production clusters, "
                "read the incident playbooks and join the on-call rotation after a month.\n"
            ),
        },
    )
    result = app.search(paths, "onboarding", refresh=False)
    assert set(_ids(result)) == {"sales/onboarding", "cloud/onboarding"}
    assert all(not h.also for h in result.hits)


def test_a_stub_is_a_body_of_few_words_besides_headings_and_link_targets() -> None:
    assert body_of("T", "---\ntags: [a]\n---\n").stub
    assert body_of("T", "# Total Rewards\n\nMoved this content [here](../x/y.md)\n").stub
    words = " ".join(f"w{i}" for i in range(STUB_WORDS))
    assert not body_of("T", f"# T\n\n{words}\n").stub


def test_near_duplicates_are_measured_by_shingle_jaccard() -> None:
    base = " ".join(f"w{i}" for i in range(100))
    close = base.replace("w50 ", "x ")  # 5 of 96 shingles differ
    far = " ".join(f"w{i}" for i in range(40)) + " " + " ".join(f"v{i}" for i in range(60))
    assert same_note(body_of("a", base), body_of("b", close))
    repeats = close + " " + " ".join(f"w{i}" for i in range(30))  # its opening twice
    assert same_note(body_of("a", base), body_of("b", repeats))  # 30% more words, a copy
    assert not same_note(body_of("a", base), body_of("b", far))
    assert NEAR_DUPLICATE_JACCARD > 0.67  # pages from one template (0.61-0.67) stay apart


def test_collapse_keeps_the_first_place_and_reads_only_its_window() -> None:
    bodies = {
        "stub": body_of("Same", ""),
        "real": body_of("Same", "a body long enough to be a page of its own here"),
        "other": body_of("Other", "something else entirely with words enough in it"),
    }
    asked: list[str] = []

    def body(node: str):  # type: ignore[no-untyped-def]
        asked.append(node)
        return bodies.get(node)

    slots = collapse(["stub", "other", "real", "late"], body, slots=3, window=3)
    assert [(s.lead, s.also, s.first) for s in slots] == [
        ("real", ("stub",), 0),
        ("other", (), 1),
        ("late", (), 3),
    ]
    assert asked == ["stub", "other", "real"]


def test_shingles_are_the_bodys_distinct_runs_of_words() -> None:
    rng = random.Random(4)
    for size in (0, 1, SHINGLE_WORDS - 1, SHINGLE_WORDS, 40, 300):
        words = [rng.choice(["a", "bb", "c_d", "é", "10"]) for _ in range(size)]
        runs = {tuple(words[i : i + SHINGLE_WORDS]) for i in range(size - SHINGLE_WORDS + 1)}
        shingles = body_of("T", " ".join(words)).shingles
        assert len(shingles) == len(runs)
        assert {tuple(s.split(" ")) for s in shingles} == runs


def test_a_kept_body_costs_about_its_text_not_an_object_per_word() -> None:
    words = [f"word{i % 40}" for i in range(20_000)]  # 40 distinct words, 20,000 in all
    text = "# A long note\n\n" + " ".join(words) + "\n"
    forget_bodies()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        body = body_of("A long note", text)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        forget_bodies()
    assert kept < 2 * len(text)  # a list of the words alone took about 4x the text
    assert len(body.shingles) == 40 and body.size == 20_000 - SHINGLE_WORDS + 1


WORD_TEXTS = [
    "".join(map(chr, range(128))) * 2,  # every ASCII character, controls included
    "snake_case and CamelCase, 3.14 x2 -- a\tb\nc\x0bd\x1ce\x1ff",
    "déjà vu: naïve café ½ ² ٣ 𝟘 über_alles 東京 — “quoted” ’s",
    "",
    "   ",
    "___",
]


@pytest.mark.parametrize("text", WORD_TEXTS)
def test_a_body_s_words_are_the_word_runs_the_regex_finds(text: str) -> None:
    assert words_of(text) == re.findall(r"\w+", text)
    assert words_of(text.lower()) == re.findall(r"\w+", text.lower())


BODY_TEXTS = [
    "---\ntitle: x\n---\n# Heading\nBody with [a link](target.md) and words.\n",
    "No frontmatter, no heading, no link: just words and more words here.\n",
    "--- not frontmatter\n## Two\n#hashtag not a heading\n[x](y) ](z)\n",
    "   ### Indented heading\n####### seven is not one\ntext\n",
    "---\nunclosed: frontmatter\nwords after it\n",
]


@pytest.mark.parametrize("text", BODY_TEXTS)
def test_a_body_is_what_the_full_cleaning_makes_of_its_text(text: str) -> None:
    from rubi.search.duplicates import _FRONTMATTER, _HEADING, _LINK_TARGET

    body = _FRONTMATTER.sub("", text, count=1)
    body = _LINK_TARGET.sub("]", _HEADING.sub("", body)).lower()
    expected = re.findall(r"\w+", body)
    made = make_body("Title", text)
    assert made.vocabulary == frozenset(expected)
    assert (made.stub, made.size) == (len(expected) < 5, max(len(expected) - 4, 0))
    shingles = {" ".join(expected[i : i + 5]) for i in range(len(expected) - 4)}
    assert made.shingles == shingles


def test_a_kept_note_costs_its_word_set_not_its_text() -> None:
    words = " ".join(f"word{i % 40}" for i in range(2_000))
    text = "# A long note\n\n" + words + "\n" * 50_000  # a large file of few words
    forget_bodies()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        body_of("A long note", text)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        forget_bodies()
    assert kept < len(text) // 4  # the text (and its cleaned body) went with the search


def test_a_remembered_note_compares_as_a_new_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from rubi.search import duplicates

    base = " ".join(f"w{i}" for i in range(60))
    copy = base + " tail"
    forget_bodies()
    made = []
    real = duplicates.make_body
    monkeypatch.setattr(duplicates, "make_body", lambda t, x: made.append(t) or real(t, x))
    first = body_of("A", "---\nk: v\n---\n# A\n" + base)
    again = body_of("A", "---\nk: v\n---\n# A\n" + base)
    other = body_of("B", copy)
    assert made == ["A", "B"]  # the second ask of A was remembered
    assert again.vocabulary == first.vocabulary and again.size == first.size
    assert same_note(again, other) and again.shingles == make_body("A", base).shingles
    assert body_of("A", base + " changed").vocabulary != first.vocabulary  # a new text
    forget_bodies()


def test_the_memo_keeps_the_last_notes_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from rubi.search import duplicates

    memo = duplicates._Fingerprints(3)
    monkeypatch.setattr(duplicates, "_FINGERPRINTS", memo)
    for i in range(5):
        body_of(f"T{i}", f"text {i}")
    body_of("T2", "text 2")  # used again: kept over T3
    body_of("T5", "text 5")
    assert len(memo) == 3
    made = []
    real = duplicates.make_body
    monkeypatch.setattr(duplicates, "make_body", lambda t, x: made.append(t) or real(t, x))
    for i in (2, 4, 5, 3):
        body_of(f"T{i}", f"text {i}")
    assert made == ["T3"]


def test_a_note_s_shingles_go_with_the_search_that_compared_it() -> None:
    rng = random.Random(7)
    words = [f"w{rng.randrange(200)}" for _ in range(20_000)]  # 200 words, ~20,000 shingles
    text, copy = " ".join(words), " ".join([*words, "tail"])
    forget_bodies()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        a, b = body_of("A", text), body_of("B", copy)
        assert same_note(a, b) and len(a.shingles) > 15_000
        del a, b
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        forget_bodies()
    assert kept < 200_000  # two sets of 200 words; the shingles took megabytes


@pytest.mark.parametrize("words", [0, 1, 4, 5, 6, 40])
def test_shingles_are_every_run_of_shingle_words_words(words: int) -> None:
    from rubi.search.duplicates import SHINGLE_WORDS, make_body, words_of

    text = " ".join(f"w{i % 7}" for i in range(words))
    w = words_of(text)
    runs = range(len(w) - SHINGLE_WORDS + 1)
    want = {" ".join(w[i : i + SHINGLE_WORDS]) for i in runs}
    assert make_body("t", text).shingles == want
