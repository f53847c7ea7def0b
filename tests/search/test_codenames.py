"""A query's identifiers that name this project's code (files, symbols, modules)."""

from __future__ import annotations

import networkx as nx

from rubi.graph.build import GraphBuild
from rubi.search.codenames import project_names


def _build() -> GraphBuild:
    g = nx.MultiDiGraph()
    for path in ("src/click/core.py", "src/click/_compat.py", "src/click/termui.py"):
        g.add_node(path, kind="file")
    g.add_node("module:click", kind="module", rank=0.6)
    g.add_node("module:tests", kind="module", rank=0.3)
    g.add_node("module:(root)", kind="module", rank=0.9)
    g.add_node("module:click/_vendor", kind="module", rank=0.95)  # not top-level
    g.add_node("echo-notes", kind="note")
    names = {
        "src/click/core.py": ["src/click/core.py"],
        "core.py": ["src/click/core.py"],
        "_compat.py": ["src/click/_compat.py"],
        "echo_via_pager": ["src/click/termui.py"],
        "basecommand": ["src/click/core.py"],
        "echo_notes": ["echo-notes"],  # a note's name is no code
        "parse_args": [f"src/click/m{n}.py" for n in range(4)],  # four owners: too common
    }
    for n in range(4):
        g.add_node(f"src/click/m{n}.py", kind="file")
    return GraphBuild(graph=g, names=names)


def test_identifiers_of_this_project_are_found_in_written_order() -> None:
    query = "BaseCommand fails in click.echo_via_pager and f.echo_via_pager (core.py)"
    got = project_names(query, _build())
    assert got == ("BaseCommand", "click.echo_via_pager", "f.echo_via_pager", "core.py")


def test_a_path_names_a_file_only_when_its_last_two_segments_end_the_files_path() -> None:
    build = _build()
    assert project_names("see venv/lib/site-packages/click/_compat.py", build) == (
        "venv/lib/site-packages/click/_compat.py",
    )
    assert project_names("see https://github.com/x/click/blob/main/src/click/core.py", build)
    assert project_names("see jinja2/_compat.py", build) == ()  # another package's file


def test_another_librarys_identifiers_name_nothing_here() -> None:
    query = "attr.ib and httpx.Client raise TypeError; np.nan in m.fields.String, parse_args"
    assert project_names(query, _build()) == ()
    assert project_names("echo_notes is a note, not code", _build()) == ()


def test_the_main_package_written_as_a_word_names_the_project() -> None:
    # the most central module (not the root, not the tests) is the package
    assert project_names("Since [click] 8.2 the help is wrong; see tests", _build()) == ("click",)
    assert project_names("the tests and docs fail", _build()) == ()
    # as the package is written, case and all: not the word at a sentence's start
    assert project_names("<summary>Click to expand</summary> the list is empty", _build()) == ()
    # written as the package is anywhere, though its first spelling was another
    assert project_names("Click here: with click 8.1 the help is wrong", _build()) == ("click",)


def test_a_later_spelling_of_a_dotted_name_names_the_module() -> None:
    # the title writes `Click.echo` (no module `Click`); the example `click.echo`
    query = "Broken when I am using Click.echo()\n\n    click.echo('x', err=True)"
    assert project_names(query, _build()) == ("click.echo",)
    assert project_names("Broken when I am using Click.echo()", _build()) == ()


def test_a_path_with_a_line_and_column_names_its_file() -> None:
    query = "venv/lib/site-packages/click/core.py:767: DeprecationWarning: no loop"
    assert project_names(query, _build()) == ("venv/lib/site-packages/click/core.py:767",)
    assert project_names("see lib/click/core.py:12:5 here", _build()) == ("lib/click/core.py:12:5",)
    assert project_names("see jinja2/core.py:767: here", _build()) == ()


def _package_build(package: str) -> GraphBuild:
    g = nx.MultiDiGraph()
    g.add_node(f"module:{package}", kind="module", rank=0.6)
    g.add_node("module:tests", kind="module", rank=0.3)
    g.add_node("module:pip", kind="module", rank=0.1)
    return GraphBuild(graph=g, names={})


def test_the_main_package_written_as_a_compound_of_its_letters_names_the_project() -> None:
    assert project_names(
        "Order of lines: pip-compile and pip-tools 6.1", _package_build("piptools")
    ) == ("pip-tools",)
    assert project_names("Ignored in WeasyPrint (version 0.16)", _package_build("weasyprint")) == (
        "WeasyPrint",
    )
    assert project_names("`click` and `rich-click` differ", _package_build("rich_click")) == (
        "rich-click",
    )
    # not a compound, or not the main package's letters: nothing
    assert project_names("Weasyprint is ignored", _package_build("weasyprint")) == ()
    assert project_names("pip-tools fails", _package_build("piptool")) == ()
    assert project_names("pip-tools fails", _package_build("pipx")) == ()
    # a module's letters, not the main package's (`pip` is a module here, ranked lower)
    assert project_names("the Pip-Tools docs", _package_build("piptools")) == ("Pip-Tools",)
    assert project_names("pi-p says hello", _package_build("piptools")) == ()
