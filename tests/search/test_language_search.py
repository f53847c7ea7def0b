"""Searching notes in Chinese: why-lines name the bigrams that matched, joined into
the run they spell, not the whole unsegmented question."""

from __future__ import annotations

from pathlib import Path

from rubi import app

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


def test_overlapping_bigrams_are_joined_into_the_run_they_spell() -> None:
    from rubi.search.reasons import _joined_bigrams

    question = "如何把一个对象转换成字符串发送到服务器"
    found = ["一个", "个对", "务器", "发送", "服务", "到服"]
    assert _joined_bigrams(found, question) == ["一个对", "发送", "到服务器"]
    assert _joined_bigrams(["闭包", "使用"], "如何使用闭包") == ["闭包", "使用"]
    assert _joined_bigrams(["cache", "闭包"], "闭包 cache") == ["cache", "闭包"]
