"""Searching a vault of notes in several languages: why-lines name what matched, and
an index written before notes had a language is rebuilt with it."""

from __future__ import annotations

from pathlib import Path

from rubi import app
from rubi.core.paths import VaultPaths
from rubi.index.indexdoc import IndexDoc
from rubi.index.searchindex import SearchIndex

from helpers import write


def _vault(root: Path) -> Path:
    write(
        root / "闭包.md",
        "# 闭包\n\n闭包是一个函数以及它可以访问的外部变量。使用闭包可以保存状态。\n",
    )
    write(root / "数组.md", "# 数组\n\n数组用来存储有序的集合。可以使用下标访问元素。\n")
    write(
        root / "canciones.md",
        "# Canciones\n\nUna lista de las canciones que escuchamos en casa, con el nombre "
        "de cada autor y el año en que salió la canción.\n",
    )
    write(root / "readme.md", "# Readme\n\nThis vault holds notes about the house and its songs.\n")
    return root


def test_a_chinese_why_line_names_the_bigrams_that_matched(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path / "v"))
    app.index(paths)
    hits = app.search(paths, "如何使用闭包保存状态", refresh=False).hits
    assert hits[0].id == "闭包"
    why = next(w for w in hits[0].why if w.startswith("text match:"))
    # The matched bigrams, those that overlap in the question joined into their run.
    assert "闭包 (title)" in why and "保存状态" in why
    assert "如何" not in why  # not the whole unsegmented question: 如何 did not match


def test_a_spanish_why_line_names_the_words_not_the_function_words(tmp_path: Path) -> None:
    paths = app.locate(_vault(tmp_path / "v"))
    app.index(paths)
    hits = app.search(paths, "¿dónde está la lista de canciones?", refresh=False).hits
    assert hits[0].id == "canciones"
    why = next(w for w in hits[0].why if w.startswith("text match:"))
    assert "canciones" in why and "lista" in why
    assert not {"la", "de"} & {w.strip() for part in why.split(";") for w in part.split(",")}


class _File:
    def __init__(self, text: str) -> None:
        self.text = text


def _joined(found: list[str], question: str, page: str) -> list[str]:
    from rubi.search.reasons import _joined_bigrams, _Page

    return _joined_bigrams(found, question, _Page("", _File(page)))


def test_overlapping_bigrams_are_joined_into_the_run_they_spell_where_the_page_holds_it() -> None:
    question = "如何把一个对象转换成字符串发送到服务器"
    found = ["一个", "个对", "务器", "发送", "服务", "到服"]
    page = "发送一个对象到服务器"
    assert _joined(found, question, page) == ["一个对", "发送", "到服务器"]
    assert _joined(["闭包", "使用"], "如何使用闭包", "使用闭包") == ["闭包", "使用"]
    assert _joined(["cache", "闭包"], "闭包 cache", "闭包 cache") == ["cache", "闭包"]


def test_a_run_of_the_question_the_page_does_not_hold_is_named_as_the_runs_it_holds() -> None:
    question = "如何把一个对象转换成字符串发送到服务器"
    found = ["一个", "个对", "务器", "发送", "服务", "到服"]
    page = "一个。个对。发送到服务员。务器。"
    assert _joined(found, question, page) == ["一个", "个对", "务器", "发送", "到服务"]
    assert _joined(["서버", "버에"], "서버에 연결", "서버와 버에") == ["서버", "버에"]
    assert _joined(["서버", "버에"], "서버에 연결", "서버에") == ["서버에"]
    assert _joined(["パス", "スポ"], "パスポート", "パス。スポーツ") == ["パス", "スポ"]


def test_a_chinese_why_line_names_no_run_the_note_does_not_hold(tmp_path: Path) -> None:
    """The note holds 服务 and 务器, never 服务器: its why-line names the two bigrams."""
    write(tmp_path / "v" / "网络.md", "# 网络\n\n到服务器的连接很稳定。\n")
    write(tmp_path / "v" / "其他.md", "# 其他\n\n回家。服务员很好。务器官。\n")
    paths = app.locate(tmp_path / "v")
    app.index(paths)
    hits = {h.id: h for h in app.search(paths, "怎么连接到服务器", refresh=False).hits}
    assert "text match: 到服务器, 连接" in hits["网络"].why
    why = next(w for w in hits["其他"].why if w.startswith("text match:"))
    assert "服务器" not in why
    assert sorted(why.removeprefix("text match: ").split(", ")) == ["务器", "服务"]


def _stored_languages(paths: VaultPaths) -> dict[str, str]:
    index = SearchIndex(paths.whoosh_dir)
    try:
        with index._open().searcher() as searcher:
            return {f["id"]: f.get("lang", "") for f in searcher.all_stored_fields()}
    finally:
        index.close()


def test_an_index_of_an_older_format_is_rebuilt_with_each_notes_language(tmp_path: Path) -> None:
    from rubi.index.warm import forget_indexes
    from rubi.sync import forget_vault_syncs
    from rubi.sync.rows import open_store

    paths = app.locate(_vault(tmp_path / "v"))
    app.index(paths)
    assert _stored_languages(paths) == {
        "闭包": "zh",
        "数组": "zh",
        "canciones": "es",
        "readme": "en",
    }
    # An index as an older rubi wrote it: every note analysed as English.
    SearchIndex(paths.whoosh_dir).rebuild(
        [IndexDoc(i, "note", f"{i}.md", "note", "active", {"title": i}) for i in ("canciones",)]
    )
    assert _stored_languages(paths) == {"canciones": "en"}
    store = open_store(paths.store_file, create=False)
    assert store is not None
    with store.transaction():
        store.set_meta({"schema": 14})  # the format before notes had a language
    store.close()
    forget_vault_syncs()  # a new process
    forget_indexes()
    hits = app.search(paths, "canción").hits  # the search's refresh rebuilds
    assert hits and hits[0].id == "canciones"
    assert _stored_languages(paths)["canciones"] == "es"


def test_a_note_named_by_a_function_word_of_the_vaults_language_gets_no_name_vote(
    tmp_path: Path,
) -> None:
    """French pages drop ``du`` as a stop word, so it looked rare and the note named
    ``du`` (a shell command) was put first for every question holding it."""
    root = tmp_path / "v"
    write(root / "du.md", "# du\n\nAffiche la taille des fichiers et des dossiers du disque.\n")
    write(
        root / "git-remote.md",
        "# git remote\n\nGère les dépôts distants suivis par le projet : ajouter un dépôt, "
        "changer l'URL d'un dépôt distant, lister les dépôts.\n",
    )
    for i in range(24):  # a rare word is one of 20 notes or fewer
        write(
            root / f"page-{i}.md",
            f"# page {i}\n\nUne page du manuel avec le texte de la commande {i} et des "
            "exemples pour le terminal.\n",
        )
    paths = app.locate(root)
    app.index(paths)
    hits = app.search(paths, "Comment changer l'URL du dépôt distant ?", refresh=False).hits
    assert hits[0].id == "git-remote"
    assert not any(w.startswith("named:") for h in hits for w in h.why)
