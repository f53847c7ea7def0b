"""Why a code search missed: each lost question's cause, read from its lists' ranks and
from which of the question's words the answer's file holds.

Usage::

    python bench/field_weights.py --lists --json RUN.json --set DATA=REPOS [...]
    python bench/code_loss_causes.py RUN.json --set DATA=REPOS [...] [--by-language] [--verbose]

``RUN.json`` is :mod:`field_weights`' output with ``--lists`` (its first setting is
read: run it with the current weights); each ``--set`` names a set of that run (the
data folder's name) and its folder of checkouts, to read the files. A question is
*lost* when its first relevant file is not first in rubi's ten, or bm25s scores it
higher. Its cause, the first that applies (:func:`cause`):

``not in the text list``
    BM25F's text list (after the code window) does not hold the answer in its 50.
``tests or examples first``
    rubi's first file is a test, example or benchmark
    (:func:`rubi.core.filekinds.is_test_path`, ``is_example_path``).
``fusion``
    the text list had the answer first and the fused order did not.
``vocabulary gap``
    the answer's file (its path and text, analysed as the index analyses code) holds
    at least :data:`GAP` less of the question's IDF mass than rubi's first file: the
    question says in other words what the file does.
``file named by a question word``
    rubi's first file's name holds a word of the question (its identifier parts).
``ranking``
    the rest: both files hold the question's words alike, BM25F and the code window
    order them otherwise than the labels.

IDF is BM25's, ``ln(1 + (N - df + 0.5) / (df + 0.5))``, over the repository's files of
a language the code map reads (:func:`rubi.codemap.languages.language_of`, from
``git ls-files``). Prints one row per set with each cause's count, then the total;
``--by-language`` then one row per repository language (the ``language`` of the set's
``repos.json``: a cause of one language's identifiers or layout shows there, not in a
set's row); ``--verbose`` one line per lost question.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from code_search import matches

from rubi.codemap.languages import language_of
from rubi.core.filekinds import is_example_path, is_test_path
from rubi.index.analysis import text_analyzer

__all__ = ["CAUSES", "GAP", "Repository", "cause", "languages_of", "main", "question_terms"]

GAP = 0.1
"""The share of the question's IDF mass (0 to 1) the answer must hold less of than
the file above it to count as a vocabulary gap: about one content word of ten."""
CAUSES = (
    "not in the text list",
    "tests or examples first",
    "fusion",
    "vocabulary gap",
    "file named by a question word",
    "ranking",
)
_CODE = text_analyzer("code")


def question_terms(text: str) -> list[str]:
    """The distinct terms of ``text`` as the index analyses code, in order."""
    return list(dict.fromkeys(t for s in _CODE.surface(text) for t in _CODE.terms_of(s)))


@dataclass
class Repository:
    """One checkout's files (of a language the code map reads), each file's terms
    read once, and each term's document frequency."""

    root: Path
    files: list[str]
    df: Counter[str]
    _terms: dict[str, frozenset[str]]

    @classmethod
    def of(cls, root: Path) -> Repository:
        """Read every code file of ``root`` (``git ls-files``).

        Raises:
            subprocess.CalledProcessError: ``root`` is not a git checkout.
        """
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True
        ).stdout.decode("utf-8", "replace")
        repo = cls(root, [f for f in listed.split("\0") if f and language_of(f)], Counter(), {})
        for f in repo.files:
            repo.df.update(repo.terms(f))
        return repo

    def terms(self, path: str) -> frozenset[str]:
        """The terms of ``path`` and its text (empty when it cannot be read)."""
        if path not in self._terms:
            try:
                text = (self.root / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self._terms[path] = frozenset(question_terms(f"{path}\n{text}"))
        return self._terms[path]

    def share(self, path: str, terms: Sequence[str]) -> float:
        """The share (0 to 1) of ``terms``' IDF mass that ``path`` holds."""
        n = len(self.files)
        idf = {t: math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5)) for t in terms}
        mass = math.fsum(idf.values())
        held = self.terms(path)
        return math.fsum(v for t, v in idf.items() if t in held) / mass if mass else 0.0


def _name_words(path: str) -> set[str]:
    """The terms of a file's name without its extension (``OptionValidator.java`` →
    ``option``, ``valid``)."""
    stem = re.sub(r"\.[^./]*$", "", path.rsplit("/", 1)[-1])
    return set(question_terms(stem.replace("_", " ").replace("-", " ")))


def first_rank(results: Iterable[str], targets: Sequence[str]) -> int | None:
    """The 1-based place of the first relevant file in ``results``, None if absent."""
    return next((i for i, r in enumerate(results, 1) if any(matches(r, t) for t in targets)), None)


def cause(row: dict[str, Any], repo: Repository) -> tuple[str, float, float]:
    """One lost question's cause (one of :data:`CAUSES`), with the shares of its IDF
    mass that the answer and rubi's first file hold.

    Args:
        row: a row of :mod:`field_weights`' JSON with ``ranks`` (``--lists``).
        repo: the row's checkout.
    """
    terms = question_terms(row["query"])
    top = row["results"][0] if row["results"] else ""
    answer, above = repo.share(row["targets"][0], terms), repo.share(top, terms) if top else 0.0
    ranks = row["ranks"]
    final = first_rank(row["results"], row["targets"])
    if ranks["bm25"] is None:
        return CAUSES[0], answer, above
    if top and (is_test_path(top) or is_example_path(top)) and final != 1:
        return CAUSES[1], answer, above
    if ranks["bm25"] == 1 and final != 1:
        return CAUSES[2], answer, above
    if answer <= above - GAP:
        return CAUSES[3], answer, above
    if top and _name_words(top) & set(terms):
        return CAUSES[4], answer, above
    return CAUSES[5], answer, above


def languages_of(data: Path) -> dict[str, str]:
    """Each repository's language in a set's ``repos.json`` (``name`` -> ``language``,
    lower case; ``?`` when the entry names none)."""
    repos = json.loads((data / "repos.json").read_text(encoding="utf-8"))
    return {str(r["name"]): str(r.get("language") or "?").lower() for r in repos}


def table(title: str, counts: dict[str, Counter[str]]) -> list[str]:
    """Rows of ``counts`` (a row's name -> its causes' counts) under a header, each with
    its lost questions and every cause's count, then their total."""
    total: Counter[str] = Counter()
    lines = [f"{title} | lost | " + " | ".join(CAUSES)]
    for name, row in sorted(counts.items()):
        total += row
        lines.append(f"{name} | {sum(row.values())} | " + " | ".join(str(row[c]) for c in CAUSES))
    lines.append(f"all | {sum(total.values())} | " + " | ".join(str(total[c]) for c in CAUSES))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("run", type=Path)
    parser.add_argument("--set", dest="sets", action="append", default=[], required=True)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--by-language", action="store_true")
    args = parser.parse_args(argv)
    run = json.loads(args.run.read_text(encoding="utf-8"))
    total: Counter[str] = Counter()
    by_language: dict[str, Counter[str]] = {}
    print("set | lost / questions | " + " | ".join(CAUSES))
    for spec in args.sets:
        data, _, repos = spec.partition("=")
        name = Path(data).name
        if not repos or name not in run["sets"]:
            raise SystemExit(f"--set {spec!r}: want DATA=REPOS with DATA a set of the run")
        rows = [r for r in run["sets"][name] if r["setting"] == 0]
        language = languages_of(Path(data)) if args.by_language else {}
        counts: Counter[str] = Counter()
        opened: dict[str, Repository] = {}
        for row in rows:
            if first_rank(row["results"], row["targets"]) == 1 and row["bm25s_ndcg"] <= row["ndcg"]:
                continue
            repo = opened.get(row["repo"]) or opened.setdefault(
                row["repo"], Repository.of(Path(repos) / row["repo"])
            )
            why, answer, above = cause(row, repo)
            counts[why] += 1
            if args.by_language:
                by_language.setdefault(language.get(row["repo"], "?"), Counter())[why] += 1
            if args.verbose:
                label = row["id"] or row["query"][:30]
                print(f"  {label}: {why} (answer {answer:.2f}, first {above:.2f})")
        total += counts
        lost = sum(counts.values())
        print(f"{name} | {lost} / {len(rows)} | " + " | ".join(str(counts[c]) for c in CAUSES))
    print(f"all | {sum(total.values())} | " + " | ".join(str(total[c]) for c in CAUSES))
    if args.by_language:
        print("\n".join(table("language", by_language)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
