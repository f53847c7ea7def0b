"""The code-search benchmark script on a small repository with its own labels, so the
scorer itself is tested (and the script keeps working) in CI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script, write


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench/code_search.py")


def test_scoring_rules(bench: ModuleType) -> None:
    ndcg = bench.ndcg_at_10
    indexed = {"lib/a.py", "lib/b.py", "lib/c.py"}
    assert ndcg(["lib/a.py", "lib/b.py"], ["a.py", "b.py"], indexed) == (1.0, 0)
    score, missing = ndcg(["lib/c.py", "lib/a.py"], ["a.py"], indexed)
    assert math.isclose(score, 1 / math.log2(3)) and missing == 0
    assert ndcg(["lib/a.py"], ["a.py", "gone.py"], indexed) == (1.0, 1)  # not in IDCG
    assert ndcg(["lib/a.py"], ["gone.py"], indexed) == (0.0, 1)
    assert not bench.matches("lib/xa.py", "a.py")
    assert bench.target_path({"path": "/lib/a.py", "start_line": 1}) == "lib/a.py"
    assert bench.category({"query": "Router"}) == "symbol"
    assert bench.category({"query": "how does it work"}) == "architecture"
    assert bench.category({"query": "path matching"}) == "semantic"
    assert bench.expansion_terms("radix tree path matching")[:3] == [
        "radix_tree",
        "radixTree",
        "RadixTree",
    ]
    assert bench.expansion_terms("Router") == []


def test_end_to_end_on_a_small_labelled_repo(bench: ModuleType, tmp_path: Path) -> None:
    repos = tmp_path / "repos"
    root = repos / "tiny" / "src"
    write(root / "router.py", "class TrieRouter:\n    def match_path(self, path):\n        pass\n")
    write(root / "session.py", "def load_session_cookie(request):\n    return request.cookies\n")
    write(root / "util.py", "def slugify(text):\n    return text.lower()\n")
    data = tmp_path / "data"
    write(data / "repos.json", json.dumps([{"name": "tiny", "benchmark_root": "src"}]))
    write(
        data / "annotations" / "tiny.json",
        json.dumps(
            [
                {"query": "TrieRouter", "relevant": ["router.py"], "secondary": []},
                {"query": "session cookie loading", "relevant": ["src/session.py"]},
                {"query": "make a slug", "relevant": ["util.py"], "secondary": ["gone.py"]},
            ]
        ),
    )
    [result] = bench.run(repos, data, expand=False, only=None)
    assert result.queries == 3 and result.files == 3
    assert result.missing_targets == 1
    assert result.per_query[0]["ndcg"] == 1.0 and result.per_query[1]["ndcg"] == 1.0
    assert result.per_query[0]["results"][0] == "src/router.py"
    out = tmp_path / "r.json"
    assert bench.main([str(repos), "--data", str(data), "--json", str(out)]) == 0
    assert json.loads(out.read_text())[0]["name"] == "tiny"


def test_split_keeps_only_its_half_and_bm25s_scores_the_same_files(
    bench: ModuleType, tmp_path: Path
) -> None:
    repos = tmp_path / "repos"
    root = repos / "tiny"
    write(root / "router.py", "class TrieRouter:\n    def match_path(self, path):\n        pass\n")
    write(root / "session.py", "def load_session_cookie(request):\n    return request.cookies\n")
    write(root / "util.py", "def slugify(text):\n    return text.lower()\n")
    data = tmp_path / "data"
    write(data / "repos.json", json.dumps([{"name": "tiny"}]))
    entries = [
        {"id": "a", "query": "session cookie", "relevant": ["session.py"], "split": "dev"},
        {"id": "b", "query": "slugify", "relevant": ["util.py"], "split": "test"},
        {"id": "c", "query": "TrieRouter", "relevant": ["router.py"], "split": "dev"},
    ]
    write(data / "annotations" / "tiny.json", json.dumps(entries))
    [dev] = bench.run(repos, data, expand=False, only=None, split="dev")
    assert [q["id"] for q in dev.per_query] == ["a", "c"]
    assert dev.per_query[0]["bm25s_results"][0] == "session.py"
    assert dev.per_query[0]["bm25s_ndcg"] == 1.0 and dev.bm25s is not None
    [alone] = bench.run(repos, data, expand=False, only=None, split="test", baseline=False)
    assert [q["id"] for q in alone.per_query] == ["b"] and alone.bm25s is None
    assert "bm25s_ndcg" not in alone.per_query[0]
    with pytest.raises(SystemExit):  # the held-back half needs --final
        bench.main([str(repos), "--data", str(data), "--split", "test"])
    assert bench.main([str(repos), "--data", str(data), "--split", "test", "--final"]) == 0


def test_published_figures_are_shown_only_at_the_published_revision(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    public = bench.RepoResult("sinatra", queries=1, ndcg=1.0)
    public.revision = bench.PUBLISHED_REVISIONS["sinatra"]
    other = bench.RepoResult("sinatra", queries=1, ndcg=1.0, revision="0" * 40)
    assert bench.published(public) == bench.PUBLISHED["sinatra"]
    assert bench.published(other) is None
    bench.print_table([other], expand=False)
    assert "semble-hybrid (published" not in capsys.readouterr().out
    bench.print_table([public], expand=False)
    assert "semble-hybrid (published, same weights) 0.982" in capsys.readouterr().out
