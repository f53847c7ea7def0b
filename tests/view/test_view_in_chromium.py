"""The ``rubi view`` page in headless Chromium on a small real vault, compared
structurally: the graph drawn as SVG with one circle per node the API lists, search
and timeline filled in by the page's own script, a hostile title shown as text and
never run, and a screenshot of the expected size that is not blank."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from view.headless import Browser, open_browser, png_colours, png_size
from view.viewing import HOSTILE_TITLE, get, serving, small_project

WIDTH, HEIGHT = 1200, 900


@pytest.fixture
def browser() -> Iterator[Browser]:
    opened = open_browser(WIDTH, HEIGHT)
    try:
        yield opened
    finally:
        opened.close()


def test_the_page_draws_the_graph_and_answers_search_in_a_browser(
    tmp_path: Path, browser: Browser
) -> None:
    project = small_project(tmp_path)
    with serving(project) as url:
        nodes = json.loads(get(url + "api/graph")[2])["shown"]
        browser.call("Page.navigate", {"url": url}, page=True)
        browser.wait_for("document.querySelectorAll('#timeline-out li').length > 0")
        browser.evaluate(
            "document.getElementById('q').value = 'back up files';"
            "document.getElementById('search-form').requestSubmit()"
        )
        browser.wait_for("document.querySelectorAll('#search-out li').length > 0")
        dom = browser.evaluate("document.documentElement.outerHTML")
        shown = browser.evaluate("document.querySelectorAll('#graph circle.node').length")
        why = browser.evaluate("document.querySelector('#search-out li .why').textContent")
        title = browser.evaluate("document.title")
        images = browser.evaluate("document.querySelectorAll('img').length")
        labels = browser.evaluate(
            "[...document.querySelectorAll('#graph circle title')].map(t => t.textContent)"
        )
        full = browser.screenshot()
        small = browser.screenshot(scale=0.25)
    (tmp_path / "view.png").write_bytes(full)
    assert '<svg id="graph"' in dom and 'id="search-form"' in dom
    assert shown == nodes > 0
    assert why
    assert title == f"rubi · {project.name}", "the hostile note's script ran"
    assert images == 0
    assert any(label.startswith(HOSTILE_TITLE) for label in labels)
    assert png_size(full) == (WIDTH, HEIGHT)
    assert png_colours(small) > 20, "the screenshot is (nearly) blank"
