"""The retrieval evaluation on handmade sets whose answers are known: the metrics against
hand-computed values, the split rule, the guard on the test half, and issue tasks
checked out at their base commit in a worktree that is removed after."""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO, write

BENCH = REPO / "bench"


@pytest.fixture(scope="module")
def ev() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    import retrieval_eval

    return retrieval_eval


@pytest.fixture(scope="module")
def metrics(ev: ModuleType) -> ModuleType:
    import evalmetrics

    return evalmetrics


@pytest.fixture(scope="module")
def evalset(ev: ModuleType) -> ModuleType:
    import evalset

    return evalset


NOTES = {
    "Plugins/File recovery.md": "---\ntags: [plugin]\n---\n# File recovery\n\n"
    "Snapshots of every note are kept so a deleted note can be restored from the list.\n",
    "Editing/Embed files.md": "# Embed files\n\nPut an exclamation mark before a wikilink "
    "to show another note inside this one: `![[Other note]]`.\n",
    "Appearance.md": "# Appearance\n\nThemes, fonts and the font size of the editor are "
    "set in Settings, Appearance.\n",
    "Sync/Selective sync.md": "# Selective sync\n\nChoose which folders and attachment "
    "types are synchronised to your other devices.\n",
    "Daily notes.md": "# Daily notes\n\nOne journal page per day, made from a template.\n",
}


def make_set(
    root: Path,
    name: str,
    kind: str,
    lines: list[dict[str, Any]],
    split: Any,
    languages: tuple[str, ...] = ("en",),
) -> Path:
    folder = root / "sets" / name
    meta = {
        "name": name,
        "kind": kind,
        "description": "handmade",
        "license": "CC0",
        "sources": [{"repo": "someone/vault", "commit": "a" * 40, "folder": ""}],
        "languages": list(languages),
        "split_rule": "sha256(name + ':' + id) first hex digit even -> dev, odd -> test",
        "made": "2026-01-01",
    }
    write(folder / "set.json", json.dumps(meta))
    body = "".join(json.dumps({**q, "split": split(name, q["id"])}) + "\n" for q in lines)
    write(folder / "queries.jsonl", body)
    return folder


def notes_set(tmp_path: Path, evalset: ModuleType) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    for rel, text in NOTES.items():
        write(corpus / rel, text)
    queries = [
        {"id": "restore", "query": "restore a deleted note from snapshots",
         "relevant": ["Plugins/File recovery.md"], "lang": "en"},
        {"id": "embed", "query": "exclamation mark wikilink embed",
         "relevant": ["Editing/Embed files.md"], "lang": "en"},
        {"id": "font", "query": "editor font size themes",
         "relevant": ["Appearance.md"], "lang": "en"},
        {"id": "cooking", "query": "sourdough starter hydration",
         "relevant": [], "lang": "en"},
    ]  # fmt: skip
    return make_set(tmp_path, "handmade", "notes", queries, evalset.split_of), corpus


def test_metrics_match_hand_computed_values(metrics: ModuleType) -> None:
    ranked = ("a", "b", "c", "d", "e", "f", "g")
    assert metrics.first_rank(ranked, ["c", "x"]) == 3
    assert metrics.first_rank(ranked, ["x"]) is None
    # one relevant at rank 3 of two relevant: DCG 1/log2(4), IDCG 1 + 1/log2(3)
    assert math.isclose(metrics.ndcg(ranked, ["c", "x"]), 0.5 / (1 + 1 / math.log2(3)))
    assert math.isclose(metrics.ndcg(("x", "c", "a"), ["c", "x"]), 1.0)
    assert metrics.ndcg(ranked, []) == 0.0
    o = metrics.Outcome
    outcomes = [
        o(ranked, (9.0,) * 7, ("a",), 1.0),  # rank 1
        o(ranked, (8.0,) * 7, ("c", "x"), 2.0),  # rank 3
        o(ranked, (7.0,) * 7, ("g",), 3.0),  # rank 7
        o(ranked, (6.0,) * 7, ("zz",), 4.0),  # not found
        o((), (), (), 5.0),  # off-topic, nothing returned
        o(("b",), (0.25,), (), 6.0),  # off-topic, answered
    ]
    s = metrics.summarise(outcomes)
    assert (s["queries"], s["on_topic"], s["off_topic"]) == (6, 4, 2)
    assert math.isclose(s["mrr"], (1 + 1 / 3 + 1 / 7) / 4)
    assert (s["hits@1"], s["hits@5"], s["hits@10"]) == (0.25, 0.5, 0.75)
    expected_ndcg = (1 + 0.5 / (1 + 1 / math.log2(3)) + 1 / math.log2(8) + 0) / 4
    assert math.isclose(s["ndcg"], expected_ndcg)
    assert s["off_answered"] == 0.5 and s["off_above_floor"] == "n/a"
    assert s["off_top_score_median"] == 0.25 and s["on_top_score_median"] == 7.5
    assert math.isclose(s["mean_ms"], 3.5)
    assert math.isclose(s["p95_ms"], 5.75)  # between 5 and 6 at 0.95 * 5 = 4.75


def test_rrf_sums_one_over_sixty_plus_rank_with_equal_weights(ev: ModuleType) -> None:
    import evalsystems

    fused = evalsystems.rrf([["a", "b"], ["b", "c"]], 10)
    assert fused.ids == ("b", "a", "c")
    assert math.isclose(fused.scores[0], 1 / 62 + 1 / 61)
    assert math.isclose(fused.scores[1], 1 / 61) and math.isclose(fused.scores[2], 1 / 62)
    assert evalsystems.rrf([["a", "b"], ["b", "a"]], 1).ids == ("a",)  # a tie goes by id


def test_split_rule_is_the_sha256_parity_and_a_wrong_split_is_refused(
    tmp_path: Path, evalset: ModuleType
) -> None:
    for name, qid in [("kb", "q1"), ("kb", "q2"), ("repo", "owner/name#12"), ("x", "é")]:
        digit = int(hashlib.sha256(f"{name}:{qid}".encode()).hexdigest()[0], 16)
        assert evalset.split_of(name, qid) == ("dev" if digit % 2 == 0 else "test")
    assert {evalset.split_of("kb", f"q{i}") for i in range(20)} == {"dev", "test"}
    flip = {"dev": "test", "test": "dev"}
    folder = make_set(
        tmp_path, "kb", "notes",
        [{"id": "q1", "query": "a", "relevant": []}, {"id": "q2", "query": "b", "relevant": []}],
        lambda n, i: flip[evalset.split_of(n, i)] if i == "q2" else evalset.split_of(n, i),
    )  # fmt: skip
    with pytest.raises(evalset.SetError, match=r"queries\.jsonl:2: split .* the rule gives"):
        evalset.load_set(folder)


def test_unsafe_relevant_paths_are_refused_with_the_line(
    tmp_path: Path, evalset: ModuleType
) -> None:
    for bad in ["../outside.md", "/etc/passwd", "a/../../b.md", "a\\b.md"]:
        folder = make_set(
            tmp_path / bad.replace("/", "_"), "kb", "notes",
            [{"id": "q1", "query": "a", "relevant": [bad]}], evalset.split_of,
        )  # fmt: skip
        with pytest.raises(evalset.SetError, match=r"queries\.jsonl:1: path .* inside"):
            evalset.load_set(folder)


def test_the_test_half_needs_final_and_says_it_was_looked_at(
    tmp_path: Path, ev: ModuleType, evalset: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, corpus = notes_set(tmp_path, evalset)
    base = ["--set", str(folder), "--corpus", str(corpus), "--systems", "bm25s"]
    for split in ("test", "all"):
        with pytest.raises(SystemExit) as stop:
            ev.main([*base, "--split", split])
        assert stop.value.code == 2
        assert "add --final" in capsys.readouterr().err
    assert ev.main([*base, "--split", "dev"]) == 0
    assert "FINAL" not in capsys.readouterr().out
    assert ev.main([*base, "--split", "test", "--final"]) == 0
    tests = sum(1 for q in evalset.load_set(folder).queries if q.split == "test")
    out = capsys.readouterr().out
    assert f"FINAL: the test half of handmade was looked at ({tests} queries)" in out


def test_notes_set_scores_every_system_on_the_same_notes(
    tmp_path: Path, ev: ModuleType, evalset: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, corpus = notes_set(tmp_path, evalset)
    out_json, dump = tmp_path / "out.json", tmp_path / "dump.jsonl"
    args = ["--set", str(folder), "--corpus", str(corpus), "--split", "all", "--final"]
    assert ev.main([*args, "--json", str(out_json), "--dump", str(dump)]) == 0
    printed = capsys.readouterr().out
    assert (
        "bm25s (and rrf's BM25): lang en; stemmer PyStemmer english; stop words bm25s en;"
        " tokens words; 5 documents"
    ) in printed
    figures = json.loads(out_json.read_text())["figures"]["all"]
    assert set(figures) == {"rubi", "rubi-semantic", "bm25s", "rrf"}
    bm25 = figures["bm25s"]  # each question shares its rare words with one note only
    assert (bm25["on_topic"], bm25["off_topic"], bm25["mrr"], bm25["hits@1"]) == (3, 1, 1.0, 1.0)
    assert figures["rubi"]["hits@5"] == 1.0 and figures["rubi"]["off_answered"] == 0.0
    # the dense channel takes part in rubi-semantic's fusion only
    assert figures["rubi-semantic"]["on_top_score_median"] > figures["rubi"]["on_top_score_median"]
    assert bm25["off_answered"] == 0.0 and bm25["off_top_score_median"] is None
    assert figures["rrf"]["off_answered"] == 1.0  # cosine ranks every note
    # rubi labels its results with its relevance floor; the baselines have none
    assert bm25["off_above_floor"] == figures["rrf"]["off_above_floor"] == "n/a"
    for rubi in ("rubi", "rubi-semantic"):
        assert figures[rubi]["off_above_floor"] == 0.0
        assert figures[rubi]["on_below_floor"] == 0.0
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    assert len(rows) == 4 * 4
    font = next(r for r in rows if r["id"] == "font" and r["system"] == "bm25s")
    assert font["results"][0] == "Appearance.md" and font["split"] == evalset.split_of(
        "handmade", "font"
    )
    assert (corpus / "Appearance.md").read_text() == NOTES["Appearance.md"]  # untouched


ZH_NOTES = {
    "WebSocket.md": "# WebSocket\n\n网页和服务器之间保持一条双向的长连接，可以实时收发消息。\n",
    "垃圾回收.md": "# 垃圾回收\n\n引擎会自动释放不再使用的对象所占用的内存。\n",
    "JSON.md": "# JSON 方法\n\n用 JSON.stringify 把对象转换成字符串，用 JSON.parse 还原。\n",
    "日期.md": "# 日期和时间\n\n用 Date 对象获取当前的日期。\n",
}
ZH_QUERIES = [
    {"id": "ws", "query": "网页怎么和服务器实时收发消息？", "relevant": ["WebSocket.md"]},
    {"id": "gc", "query": "引擎怎么释放内存？", "relevant": ["垃圾回收.md"]},
    {"id": "json", "query": "怎么把对象变成字符串再还原回来", "relevant": ["JSON.md"]},
    {"id": "date", "query": "获取当前日期", "relevant": ["日期.md"]},
    {"id": "food", "query": "红烧肉的做法", "relevant": []},
]  # fmt: skip
RU_NOTES = {
    "Свойства объекта.md": "# Свойства объекта\n\nОператор delete убирает свойство из объекта.\n",
    "Массивы.md": "# Массивы\n\nМетод sort упорядочивает элементы массива.\n",
    "Промисы.md": "# Промисы\n\nОшибка в промисе попадает в ближайший обработчик catch.\n",
    "Даты.md": "# Даты\n\nОбъект Date хранит дату и время.\n",
    "Вопросы.md": "# Вопросы\n\nКак это сделать? Как и для чего? Как быть, если не как у всех?\n",
}
RU_QUERIES = [
    {"id": "del", "query": "как удалить свойство у объектов", "relevant": ["Свойства объекта.md"]},
    {"id": "sort", "query": "как отсортировать массивы", "relevant": ["Массивы.md"]},
    {"id": "err", "query": "ошибки промисов", "relevant": ["Промисы.md"]},
    {"id": "date", "query": "как узнать дату", "relevant": ["Даты.md"]},
    {"id": "food", "query": "рецепт борща", "relevant": []},
]  # fmt: skip


def test_the_dense_list_alone_and_with_the_vault_s_gate_open_are_systems_by_name(
    tmp_path: Path, ev: ModuleType, evalset: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, corpus = notes_set(tmp_path, evalset)
    out_json, dump = tmp_path / "out.json", tmp_path / "dump.jsonl"
    # the vault's stored measurement shuts the list for every query
    monkeypatch.setattr("rubi.semantic.separation.list_may_vote", lambda *_: False)
    names = "rubi,rubi-semantic,rubi-semantic-open,rubi-dense"
    args = ["--set", str(folder), "--corpus", str(corpus), "--split", "all", "--final"]
    assert ev.main([*args, "--systems", names, "--json", str(out_json), "--dump", str(dump)]) == 0
    figures = json.loads(out_json.read_text())["figures"]["all"]
    assert set(figures) == set(names.split(","))
    shut, opened = figures["rubi-semantic"], figures["rubi-semantic-open"]
    assert shut["on_top_score_median"] == figures["rubi"]["on_top_score_median"]
    assert opened["on_top_score_median"] > shut["on_top_score_median"]
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    dense = {r["id"]: r for r in rows if r["system"] == "rubi-dense"}
    assert dense["font"]["results"][0] == "Appearance.md"
    assert set(dense["font"]["results"]) <= set(NOTES)
    assert set(dense["font"]["evidence"]) == {"weight", "gap", "lead"}
    assert 0.0 <= dense["font"]["evidence"]["weight"] <= 1.0


def test_the_analyzer_follows_the_language(ev: ModuleType) -> None:
    import evalsystems

    zh = evalsystems.Analyzer("zh")
    # overlapping bigrams of each CJK run, a lone character kept, Latin words as words
    assert zh.tokens(["网页连接 书 JSON.parse 还原"]) == [
        ["网页", "页连", "连接", "书", "json", "parse", "还原"]
    ]
    assert "怎么" not in zh.tokens(["怎么还原"])[0]  # a bigram on bm25s's Chinese stop list
    assert zh.description == (
        "lang zh; stemmer none (CJK); stop words bm25s zh; tokens CJK character bigrams + words"
    )
    assert evalsystems.Analyzer("ja").tokens(["キャッシュを消す"]) == [
        ["キャ", "ャッ", "ッシ", "シュ", "ュを", "を消", "消す"]
    ]
    ru = evalsystems.Analyzer("ru")
    assert ru.tokens(["Как отсортировать массивы"]) == ru.tokens(["отсортировать массива"])
    assert ru.stemmer == "PyStemmer russian"
    es = evalsystems.Analyzer("es")
    assert es.tokens(["la lista de las funciones"]) == es.tokens(["listas funcion"])
    assert evalsystems.Analyzer("en").tokens(["the notes"]) == [["note"]]
    unknown = evalsystems.Analyzer("xx")  # no stemmer, no stop words: words as written
    assert unknown.tokens(["Les Notes"]) == [["les", "notes"]]
    assert unknown.description.startswith("lang xx; stemmer none (Snowball has no stemmer")


@pytest.mark.parametrize(
    ("lang", "algorithm", "longer", "shorter"),
    [
        ("pt_BR", "portuguese", "como atualizo os pacotes", "atualizar pacote"),
        ("pt-BR", "portuguese", "os pacotes instalados", "pacote instalado"),
        ("it", "italian", "come aggiorno i pacchetti", "aggiornare pacchetto"),
        ("de", "german", "die installierten Pakete", "installiert Paket"),
        ("fr", "french", "les paquets installés", "paquet installé"),
    ],
)  # fmt: skip
def test_pt_it_de_fr_are_stemmed_and_a_region_subtag_is_dropped(
    ev: ModuleType, lang: str, algorithm: str, longer: str, shorter: str
) -> None:
    import evalsystems

    analyzer = evalsystems.Analyzer(lang)
    assert analyzer.stemmer == f"PyStemmer {algorithm}"
    assert analyzer.description.startswith(f"lang {lang[:2]}; ")
    # function words dropped, inflections stemmed alike
    assert analyzer.tokens([longer]) == analyzer.tokens([shorter])


@pytest.mark.parametrize(
    ("lang", "notes", "queries", "analysis"),
    [
        ("zh", ZH_NOTES, ZH_QUERIES, "lang zh; stemmer none (CJK); stop words bm25s zh;"
         " tokens CJK character bigrams + words"),
        ("ru", RU_NOTES, RU_QUERIES, "lang ru; stemmer PyStemmer russian; stop words bm25s ru;"
         " tokens words"),
    ],
)  # fmt: skip
def test_the_baselines_analyse_the_set_in_its_language(
    tmp_path: Path,
    ev: ModuleType,
    evalset: ModuleType,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    notes: dict[str, str],
    queries: list[dict[str, Any]],
    analysis: str,
) -> None:
    import evalsystems

    corpus = tmp_path / "corpus"
    for rel, text in notes.items():
        write(corpus / rel, text)
    lines = [{**q, "lang": lang} for q in queries]
    folder = make_set(tmp_path, f"tiny-{lang}", "notes", lines, evalset.split_of, (lang,))
    out = tmp_path / "out.json"
    args = ["--set", str(folder), "--corpus", str(corpus), "--split", "all", "--final"]
    assert ev.main([*args, "--systems", "bm25s,rrf", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    line = f"bm25s (and rrf's BM25): {analysis}; {len(notes)} documents"
    assert line in printed
    result = json.loads(out.read_text())
    assert result["notes"][0] == line
    bm25 = result["figures"]["all"]["bm25s"]
    # every question's words (inflected, or unspaced) meet its note's only once analysed
    assert (bm25["on_topic"], bm25["mrr"], bm25["off_answered"]) == (4, 1.0, 0.0)
    assert result["figures"]["all"]["rrf"]["mrr"] > 0.5  # the same tokens feed rrf's BM25
    docs = [evalsystems.Document(rel, f"{Path(rel).stem}\n{t}") for rel, t in notes.items()]
    english = evalsystems.Bm25System(docs, "en")
    native = evalsystems.Bm25System(docs, lang)
    asked = queries[0]["query"] if lang == "zh" else "ошибки промисов"
    assert english.search(asked, 10).ids == ()  # one unspaced run / other word forms
    assert native.search(asked, 10).ids[0] == ("WebSocket.md" if lang == "zh" else "Промисы.md")


def git(repo: Path, *args: str) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "PATH": "/usr/bin:/bin", "HOME": str(repo.parent)}  # fmt: skip
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


def test_issue_tasks_run_at_their_base_commit_in_a_removed_worktree(
    tmp_path: Path, ev: ModuleType, evalset: ModuleType
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "src/parser.py", "def parse_quoted(text):\n    return text.split('\"')\n")
    write(repo / "src/legacy_loader.py", "def load_ini_sections(path):\n    return {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    first = git(repo, "rev-parse", "HEAD")
    write(repo / "src/parser.py", "def parse_quoted(text):\n    return shlex.split(text)\n")
    (repo / "src/legacy_loader.py").unlink()
    write(repo / "src/settings.py", "def read_toml_settings(path):\n    return {}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "two")
    second = git(repo, "rev-parse", "HEAD")
    # a downloaded repository's config and hooks must not run on checkout
    marker = tmp_path / "ran"
    git(repo, "config", "filter.evil.smudge", f"sh -c 'touch {marker}; cat'")
    write(repo / ".git/info/attributes", "*.py filter=evil\n")
    write(repo / ".git/hooks/post-checkout", f"#!/bin/sh\ntouch {marker}\n").chmod(0o755)

    def task(qid: str, base: str, title: str, relevant: str) -> dict[str, Any]:
        return {"id": qid, "repo": "someone/repo", "base_commit": base, "fix_commit": base,
                "title": title, "query": f"{title}\n\nIt breaks since last week.",
                "relevant": [relevant], "relevant_all": [relevant, "tests/test_x.py"],
                "lang": "en"}  # fmt: skip

    folder = make_set(
        tmp_path, "issues", "issues",
        [task("someone/repo#1", first, "load_ini_sections ignores sections",
              "src/legacy_loader.py"),
         task("someone/repo#2", second, "read_toml_settings fails", "src/settings.py")],
        evalset.split_of,
    )  # fmt: skip
    dump, out = tmp_path / "dump.jsonl", tmp_path / "out.json"
    args = ["--set", str(folder), "--corpus", str(repo), "--split", "all", "--final"]
    assert ev.main([*args, "--systems", "rubi,bm25s", "--dump", str(dump), "--json", str(out)]) == 0
    rows = [json.loads(line) for line in dump.read_text().splitlines()]
    by = {(r["id"], r["system"]): r for r in rows}
    assert by[("someone/repo#1", "bm25s")]["checked_out"] == first
    assert by[("someone/repo#2", "bm25s")]["checked_out"] == second
    # each task sees its own commit's files: the loader only at the first
    assert by[("someone/repo#1", "bm25s")]["results"][0] == "src/legacy_loader.py"
    assert "src/legacy_loader.py" not in by[("someone/repo#2", "bm25s")]["results"]
    assert by[("someone/repo#2", "rubi")]["results"][0] == "src/settings.py"
    assert {r["system"] for r in rows} == {
        f"{s}{v}" for s in ("rubi", "bm25s") for v in ("", "/title", "/all-files")
    }
    figures = json.loads(out.read_text())["figures"]["all"]
    assert figures["bm25s"]["mrr"] == 1.0
    assert figures["bm25s/all-files"]["ndcg"] < 1.0  # the test file is never a result
    for r in rows:
        assert not Path(r["worktree"]).exists()
    listed = git(repo, "worktree", "list", "--porcelain")
    assert listed.count("worktree ") == 1
    assert not marker.exists()
    assert git(repo, "rev-parse", "HEAD") == second and git(repo, "status", "--porcelain") == ""


def test_a_checkout_leaves_out_files_whose_blob_the_repository_lacks(
    tmp_path: Path, ev: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    import evalgit

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write(repo / "src/solar.py", "def irradiance(x):\n    return x\n")
    write(repo / "data/big.h5", "a large data file a snapshot left out\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "one")
    commit = git(repo, "rev-parse", "HEAD")
    blob = git(repo, "rev-parse", "HEAD:data/big.h5")
    (repo / ".git/objects" / blob[:2] / blob[2:]).unlink()  # a partial copy's missing blob

    assert evalgit.absent_blobs(repo / ".git", commit) == ["data/big.h5"]
    with evalgit.checkout(repo / ".git", commit) as tree:
        assert (tree / "src/solar.py").read_text() == "def irradiance(x):\n    return x\n"
        assert not (tree / "data/big.h5").exists()
        assert git(tree, "ls-files") == "src/solar.py"
        assert git(tree, "rev-parse", "HEAD") == commit
    assert "1 file(s) absent" in capsys.readouterr().err
    assert not tree.exists()


def test_the_baselines_without_the_bench_extra_are_refused_with_its_name(
    tmp_path: Path,
    ev: ModuleType,
    evalset: ModuleType,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a trial user ran a set README's command in a plain install: a traceback from
    # `import bm25s` after the rubi index was built
    folder, corpus = notes_set(tmp_path, evalset)
    monkeypatch.setitem(sys.modules, "bm25s", None)  # as if not installed
    base = ["--set", str(folder), "--corpus", str(corpus), "--split", "dev"]
    for systems in ("bm25s", "rubi,rrf"):
        with pytest.raises(SystemExit) as stop:
            ev.main([*base, "--systems", systems])
        assert stop.value.code == 2
        assert "pip install -e '.[bench]'" in capsys.readouterr().err
    assert ev.baselines_missing(["rubi", "rubi-semantic"]) is None


def test_code_search_without_the_bench_extra_names_it_or_runs_without_its_baseline(
    tmp_path: Path,
    ev: ModuleType,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import code_search

    monkeypatch.setitem(sys.modules, "bm25s", None)  # as if not installed
    (tmp_path / "repos").mkdir()
    (tmp_path / "data").mkdir()
    write(tmp_path / "data" / "repos.json", "[]")
    args = [str(tmp_path / "repos"), "--data", str(tmp_path / "data"), "--split", "dev"]
    with pytest.raises(SystemExit) as stop:
        code_search.main(args)
    assert stop.value.code == 2
    assert "pip install -e '.[bench]'" in capsys.readouterr().err
    assert code_search.main([*args, "--no-baseline"]) == 0
