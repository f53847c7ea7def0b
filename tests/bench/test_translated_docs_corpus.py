"""Preparing one language of a translated documentation site as a notes corpus: pages
written in the language are copied unchanged into a fresh folder that mirrors the
checkout, pages still in English and redirect stubs are left out with one line each,
and a stale output or an unknown language is refused."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script, write


@pytest.fixture(scope="module")
def corpus() -> ModuleType:
    return load_script("bench/translated_docs_corpus.py")


ENGLISH = "You can pass the next state directly, or a function that calculates it.\n" * 20
KOREAN = "상태를 직접 넘기거나 이전 상태로 다음 상태를 계산하는 함수를 넘길 수 있습니다.\n" * 20
FRENCH = "Vous pouvez passer le prochain état directement, ou une fonction qui le calcule.\n" * 20
CODE = "```js\nconst [state, setState] = useState(initialState);\n" * 30 + "```\n"


def site(tmp_path: Path) -> Path:
    checkout = tmp_path / "ko.react.dev"
    base = checkout / "src" / "content"
    write(base / "learn" / "state.md", f"---\ntitle: State\n---\n\n{KOREAN}\n{CODE}")
    write(base / "learn" / "english.md", f"---\ntitle: 상태\n---\n\n{ENGLISH}")
    write(base / "learn" / "half.md", f"---\ntitle: Half\n---\n\n{KOREAN[:200]}\n{ENGLISH}")
    write(base / "api.md", "---\ntitle: API\nredirect: /docs/languages/\n---\n")
    write(base / "empty.md", "---\ntitle: Home\n---\n\n<HomeContent />\n")
    return checkout


def test_pages_in_the_language_are_copied_and_english_pages_and_redirects_are_left_out(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = site(tmp_path)
    out = tmp_path / "ko-md"
    assert corpus.main([str(checkout), "src/content", str(out), "ko"]) == 0
    base = out / "src" / "content"
    kept = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    assert kept == ["learn/state.md"]
    source = checkout / "src" / "content" / "learn" / "state.md"
    assert (base / "learn" / "state.md").read_text() == source.read_text()
    err = capsys.readouterr().err
    assert "left out (not ko: share 0.00): learn/english.md" in err
    assert "left out (not ko: share" in err and "learn/half.md" in err
    assert "left out (redirect or empty): api.md" in err
    assert "left out (redirect or empty): empty.md" in err
    assert "1 pages written; left out: 2 redirects, 2 not in ko" in err


def test_a_latin_script_language_is_told_from_english_by_its_stop_words(
    corpus: ModuleType,
) -> None:
    assert corpus.share(FRENCH, "fr") == 1.0
    assert corpus.share(ENGLISH, "fr") == 0.0
    assert corpus.share(f"{FRENCH}\n```\n{ENGLISH * 3}```\n", "fr") == 1.0
    assert corpus.left_out(ENGLISH, "de") == "not de: share 0.00"
    assert corpus.share(CODE, "ja") == 0.0


def test_an_existing_output_an_unknown_language_and_an_escaping_folder_are_refused(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = site(tmp_path)
    out = tmp_path / "ko-md"
    assert corpus.main([str(checkout), "src/content", str(out), "ko"]) == 0
    assert corpus.main([str(checkout), "src/content", str(out), "ko"]) == 2
    assert "exists already" in capsys.readouterr().out
    assert corpus.main([str(checkout), "src/content", str(tmp_path / "o"), "xx"]) == 2
    assert "not one of" in capsys.readouterr().err
    assert corpus.main([str(checkout), "../src", str(tmp_path / "o"), "ko"]) == 2
    assert "without '..'" in capsys.readouterr().out
    assert corpus.main([str(checkout), "docs", str(tmp_path / "o"), "ko"]) == 2
    assert "not a folder" in capsys.readouterr().out
    assert corpus.main([str(checkout)]) == 2
