"""A snippet line's cleaning by a pattern whose alternatives each begin with a
character of their own (fast in Python's regex engine) gives what the one pattern of
every alternative, quote marks included, gave: on lines built to catch it out."""

from __future__ import annotations

import random
import re

from rubi.search import snippet

ONE_PATTERN = re.compile(r"!?\[\[([^\[\]|#]*)(?:#[^\[\]|]*)?(?:\|([^\[\]]*))?\]\]|\*\*|`+|^\s*>+")
"""The cleaning as one regex, every alternative tried at every place."""


def _one_pattern_clean(line: str) -> str:
    if "[" in line or "*" in line or "`" in line or ">" in line:
        line = ONE_PATTERN.sub(lambda m: m[2] or m[1] or "", line)
    return " ".join(line.split())


PIECES = [
    "![[embed.png]]",
    "![[a#b|c]]x",
    "![[unclosed",
    "!![[x]]",
    "!",
    "[[a]]**b**`c`",
    "``foo``bar",
    "```",
    " > > nested",
    "\t>>x",
    ">",
    "  ",
    "a > b",
    "[text](url) foo",
    "x[[foo|bar]]y",
    "[[Target#Head|alias]]",
    "[[a|]]",
    "[[#h]]",
    "[[]]",
    "[[[[a]]]]",
    "[[a]b]]",
    "[[a|b[c]]",
    "**",
    "*",
    "foo**bar**",
    "plain words",
    "\u00a0>q",
]


def test_a_line_cleans_as_the_one_pattern_cleaned_it() -> None:
    rng = random.Random(7)
    for _ in range(20_000):
        line = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6)))
        assert snippet._clean(line) == _one_pattern_clean(line), line


def test_quote_marks_go_only_at_the_start() -> None:
    assert snippet._clean(" >> quoted **bold** [[a|b]] > not") == "quoted bold b > not"
    assert snippet._clean("![[pic.png]] then > x") == "pic.png then > x"


def _every_line_scored(body: str, stems: list[str]) -> tuple[str, str]:
    """The best line as found before: every line scored and told typed link or not."""
    best, best_score, first = "", 0, ""
    linked, linked_score = "", 0
    cores = [(snippet._core(t), t) for t in stems]
    in_fence = False
    for raw in body.splitlines():
        if raw.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence or not raw.strip() or snippet._NOISE_RE.match(raw):
            continue
        line = _one_pattern_clean(raw)
        if not line:
            continue
        first = first or line
        low = snippet.aligned_lower(line)
        score = len({g for c, g in cores if c in low and snippet._find_word(line, low, c) >= 0})
        if snippet._typed_link_item(raw):
            if score > linked_score:
                linked, linked_score = line, score
        elif score > best_score:
            best, best_score = line, score
    return best or linked, first


def test_the_best_line_is_the_one_every_line_scored_gave() -> None:
    rng = random.Random(11)
    lines = [
        "- supersedes [[foo bar]]",
        "- relates-to [[bar]]",
        "* depends-on ![[foo]]",
        "foo only",
        "bar and foo",
        "> foo quoted",
        "```",
        "# foo heading",
        "plain",
        "",
    ]
    for _ in range(3000):
        body = "\n".join(rng.choice(lines) for _ in range(rng.randint(0, 9)))
        stems = rng.sample(["foo", "bar", "plain"], rng.randint(1, 3))
        group = {t: t for t in stems}
        assert snippet._best_prose_line(body, stems, group) == _every_line_scored(body, stems)
