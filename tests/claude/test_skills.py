"""The plugin's Agent Skills (``skills/<name>/SKILL.md``): each parses, is named like
its folder in the Agent Skills form, stays short in the description every request
pays for, and the README states their measured cost."""

from __future__ import annotations

import re
from pathlib import Path

import frontmatter

from rubi.core.tokens import estimate_tokens

from helpers import REPO

SKILLS = ("handoff", "memory", "organize", "register", "xray")
"""rubi's workflows: search before exploring, register, handoff, organize, the X-ray."""
NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
"""The Agent Skills name: lowercase letters, digits, single hyphens, at most 64."""
DESCRIPTION_TOKENS = 40
"""What one skill's name and description may cost in every request."""


def skill_files() -> list[Path]:
    return sorted((REPO / "skills").glob("*/SKILL.md"))


def description_tokens() -> int:
    """Tokens (characters / 4) of ``name: description`` of every skill together."""
    total = 0
    for path in skill_files():
        meta = frontmatter.load(path).metadata
        total += estimate_tokens(f"{meta['name']}: {meta['description']}")
    return total


def test_every_workflow_is_a_skill_named_like_its_folder() -> None:
    assert tuple(p.parent.name for p in skill_files()) == SKILLS
    for path in skill_files():
        post = frontmatter.load(path)
        name = post.metadata["name"]
        assert name == path.parent.name and NAME.match(name) and len(name) <= 64
        description = post.metadata["description"]
        assert isinstance(description, str) and 0 < len(description) <= 1024
        assert estimate_tokens(f"{name}: {description}") <= DESCRIPTION_TOKENS, path
        assert post.content.strip(), path


def test_the_plugin_ships_no_commands_a_skill_replaces() -> None:
    assert not (REPO / "commands").exists()


def test_the_readme_states_what_the_skill_descriptions_cost() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    stated = re.search(r"descriptions cost (\d+) tokens", readme)
    assert stated, "README: the skills' cost in tokens is not stated"
    assert int(stated.group(1)) == description_tokens()
