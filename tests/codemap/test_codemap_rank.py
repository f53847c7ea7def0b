"""PageRank over the import graph: known ranks, module ranks, degrees."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rubi.codemap import CodeMap
from rubi.codemap.rank import CODE_DAMPING, degrees, rank_files, rank_modules

Build = Callable[..., CodeMap]


def test_star_graph_matches_the_closed_form() -> None:
    # Three leaves import one hub; the hub imports nothing (dangling: its mass is
    # spread uniformly). With N = 4 and d the damping:
    #   leaf = (1-d)/N + d*hub/N          hub = (1-d)/N + d*hub/N + 3*d*leaf
    d, n = CODE_DAMPING, 4
    leaf_coeff = d / n
    # substitute leaf into hub: hub*(1 - d/n - 3*d*d/n) = (1-d)/n * (1 + 3*d)
    hub = (1 - d) / n * (1 + 3 * d) / (1 - d / n - 3 * d * leaf_coeff)
    leaf = (1 - d) / n + d * hub / n
    files = ["hub.py", "a.py", "b.py", "c.py"]
    ranks = rank_files(
        files, {("a.py", "hub.py"): 1.0, ("b.py", "hub.py"): 1.0, ("c.py", "hub.py"): 1.0}
    )
    assert ranks["hub.py"] == pytest.approx(hub, abs=1e-7)
    for name in ("a.py", "b.py", "c.py"):
        assert ranks[name] == pytest.approx(leaf, abs=1e-7)
    assert sum(ranks.values()) == pytest.approx(1.0)


def test_chain_orders_by_depth_and_weights_matter() -> None:
    files = ["app", "lib", "core", "other"]
    ranks = rank_files(files, {("app", "lib"): 1.0, ("lib", "core"): 1.0})
    assert ranks["core"] > ranks["lib"] > ranks["app"] == pytest.approx(ranks["other"])
    split = rank_files(["x", "a", "b"], {("x", "a"): 0.75, ("x", "b"): 0.25})
    assert split["a"] > split["b"]


def test_module_rank_is_pagerank_over_the_module_graph() -> None:
    module_of = {"t1": "tests", "t2": "tests", "t3": "tests", "app": "pkg", "util": "pkg"}
    edges = {("t1", "app"): 1.0, ("t2", "app"): 1.0, ("t3", "util"): 1.0, ("app", "util"): 1.0}
    ranks = rank_modules(module_of, edges)
    assert ranks["pkg"] > ranks["tests"]  # the big module nobody imports ranks low
    indeg, outdeg = degrees(sorted(module_of), edges)
    assert indeg == {"app": 2, "t1": 0, "t2": 0, "t3": 0, "util": 2}
    assert outdeg == {"app": 1, "t1": 1, "t2": 1, "t3": 1, "util": 0}


def test_ranks_in_a_built_map(build: Build) -> None:
    code_map = build(
        {
            "core.py": "",
            "a.py": "import core\n",
            "b.py": "import core\nimport a\n",
            "c.py": "import b\n",
        }
    )
    # b is imported by c; a only by b, which splits its rank between a and core
    assert code_map.ranked_files() == ["core.py", "b.py", "a.py", "c.py"]
    assert code_map.in_degree == {"a.py": 1, "b.py": 1, "c.py": 0, "core.py": 2}
    assert code_map.out_degree == {"a.py": 1, "b.py": 2, "c.py": 1, "core.py": 0}
    assert code_map.importers("core.py") == ["a.py", "b.py"]
    assert code_map.module_rank == {"(root)": pytest.approx(1.0)}
