"""A fixed-rule code-search check: each doc comment's first sentence asks for its file.

Usage::

    python bench/doc_sentences.py CHECKOUTS_DIR OUT_DIR [--repos a,b] [--cap 30] [--seed 28]
    python bench/code_search.py CHECKOUTS_DIR --data OUT_DIR

CHECKOUTS_DIR holds one git checkout per repository (folder name = repository name).
For every tracked source file outside tests, examples, samples, benchmarks, docs,
vendored and generated folders, the doc comments that precede a declaration are read
by the file's kind:

- ``/** … */`` blocks (JSDoc, KDoc, Javadoc, TSDoc, PHPDoc, C/C++ Doxygen),
- ``///`` line runs (Rust, Swift, C#),
- Go ``// Name …`` runs directly above a ``func``/``type``/``var``/``const`` line,
- Python docstrings of modules, classes and functions (:mod:`ast`).

The question is the comment's first sentence (markup removed, up to the first ``@``
tag or blank line, cut at the first ``. ``), kept when it has 5–25 words; a sentence
written in more than one file is dropped (its answer would be ambiguous). The answer is
the file, as a ``relevant`` target. Up to ``--cap`` questions per repository are kept,
ordered by a SHA-1 of ``seed``, path and sentence (deterministic, no RNG state).

OUT_DIR receives ``repos.json`` (name, language, ``local:`` url, the checkout's HEAD)
and ``annotations/<name>.json`` in ``bench/code_search.py``'s format. The questions are
not meant to be committed: the rule remakes them from the checkouts.

The rule follows the JSDoc and KDoc checks of the nineteenth and twentieth passes
(``docs/benchmarks-history.md``); it measures verbatim recall of a file's own words, so
it cannot see vocabulary gaps, and it favours whatever ranks a file by its body text.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

BLOCK_SUFFIXES = {
    ".kt": "kotlin",
    ".java": "java",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".php": "php",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".scala": "scala",
}
SLASH_SUFFIXES = {".rs": "rust", ".swift": "swift", ".cs": "csharp"}
GO_SUFFIX = ".go"
PY_SUFFIX = ".py"

SKIPPED_PARTS = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing|testdata|fixtures?|examples?|samples?|demos?"
    r"|benchmarks?|benches|bench|docs?|vendor|third_party|node_modules|dist|build|out"
    r"|types|typings|generated|jmh|[a-z][A-Za-z]*Test|[A-Za-z]*Tests)(/|$)"
)
SKIPPED_NAMES = re.compile(
    r"(_test\.go|\.d\.ts|\.test\.[jt]sx?|\.spec\.[jt]sx?|Test\.kt|Tests?\.java)$"
)

BLOCK = re.compile(r"/\*\*(?!\*)(.*?)\*/\s*\n\s*([^\s/*][^\n]*)", re.S)
GO_DECL = re.compile(r"^(func|type|var|const)\b")
MIN_WORDS, MAX_WORDS = 5, 25


@dataclass(frozen=True)
class Question:
    """One drawn question: ``query`` (a sentence), ``path`` (repository-relative answer)."""

    query: str
    path: str


def clean(text: str) -> str:
    """Markup out of a comment's text: ``{@link X}``, ``[X]``, Sphinx roles, backticks, tags."""
    text = re.sub(r"\{@\w+\s+([^}]*)\}", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]+)\]", r"\1", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r":[\w:]+:(?=`)", "", text)
    return text.replace("`", "")


def first_sentence(lines: list[str]) -> str | None:
    """The first sentence of a comment's lines (stripped of comment markers), or None.

    Reading stops at the first ``@`` tag, blank line or fenced example; the sentence ends
    at the first ``.``/``!``/``?`` followed by a space or the end. None when it has fewer
    than 5 or more than 25 words.
    """
    kept: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            if kept:
                break
            continue
        if line.startswith(("@", "```", "#")):
            break
        kept.append(line)
    text = " ".join(clean(" ".join(kept)).split())
    match = re.search(r"[.!?](\s|$)", text)
    sentence = text[: match.start()] if match else text
    words = sentence.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS:
        return None
    return sentence


def block_comments(text: str) -> list[str]:
    """First sentences of ``/** … */`` blocks directly followed by a code line."""
    out = []
    for match in BLOCK.finditer(text):
        body = [re.sub(r"^\s*\*?", "", line) for line in match.group(1).splitlines()]
        sentence = first_sentence(body)
        if sentence:
            out.append(sentence)
    return out


def line_comments(text: str, marker: str, go: bool = False) -> list[str]:
    """First sentences of runs of ``marker`` lines directly above a declaration.

    With ``go``, the run must sit above a ``func``/``type``/``var``/``const`` line and
    start with a word (Go's doc comments name the declaration first).
    """
    out = []
    run: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(marker) and not (marker == "//" and stripped.startswith("///")):
            run.append(stripped[len(marker) :])
            continue
        if run and stripped and (not go or GO_DECL.match(stripped)):
            sentence = first_sentence(run)
            if sentence:
                out.append(sentence)
        run = []
    return out


def python_docstrings(text: str) -> list[str]:
    """First sentences of module, class and function docstrings (none if unparsable)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                sentence = first_sentence(doc.splitlines())
                if sentence:
                    out.append(sentence)
    return out


def sentences(path: str, text: str) -> list[str]:
    """The doc-comment first sentences of one file, by its suffix ([] for other files)."""
    suffix = Path(path).suffix
    if suffix in BLOCK_SUFFIXES:
        return block_comments(text)
    if suffix in SLASH_SUFFIXES:
        return line_comments(text, "///")
    if suffix == GO_SUFFIX:
        return line_comments(text, "//", go=True)
    if suffix == PY_SUFFIX:
        return python_docstrings(text)
    return []


def language(paths: list[str]) -> str:
    """The most common language among ``paths`` by suffix ("unknown" when none)."""
    table = {**BLOCK_SUFFIXES, **SLASH_SUFFIXES, GO_SUFFIX: "go", PY_SUFFIX: "python"}
    counts = Counter(table[Path(p).suffix] for p in paths if Path(p).suffix in table)
    return counts.most_common(1)[0][0] if counts else "unknown"


def tracked(checkout: Path) -> list[str]:
    """Tracked source paths of a checkout, tests/examples/vendored folders left out.

    Raises ``subprocess.CalledProcessError`` when ``checkout`` is not a git checkout.
    """
    listing = subprocess.run(
        ["git", "-C", str(checkout), "ls-files", "-z"], check=True, capture_output=True
    ).stdout.decode("utf-8", "replace")
    return sorted(
        p
        for p in listing.split("\0")
        if p and not SKIPPED_PARTS.search(p) and not SKIPPED_NAMES.search(p)
    )


def draw(checkout: Path, cap: int, seed: int) -> list[Question]:
    """Up to ``cap`` questions of one checkout, in SHA-1 order (see the module doc)."""
    where: dict[str, set[str]] = defaultdict(set)
    for path in tracked(checkout):
        file = checkout / path
        if not file.is_file() or file.stat().st_size > 1_000_000:
            continue
        text = file.read_text("utf-8", "replace")
        for sentence in sentences(path, text):
            where[sentence].add(path)
    pool = [Question(s, next(iter(p))) for s, p in where.items() if len(p) == 1]

    def key(q: Question) -> str:
        return hashlib.sha1(f"{seed}\0{q.path}\0{q.query}".encode()).hexdigest()

    return sorted(pool, key=key)[:cap]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkouts", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--repos", default="", help="comma-separated names (default: all)")
    parser.add_argument("--cap", type=int, default=30)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    names = [n for n in args.repos.split(",") if n] or sorted(
        p.name for p in args.checkouts.iterdir() if (p / ".git").exists()
    )
    (args.out / "annotations").mkdir(parents=True, exist_ok=True)
    repos = []
    for name in names:
        checkout = args.checkouts / name
        questions = draw(checkout, args.cap, args.seed)
        head = (
            subprocess.run(
                ["git", "-C", str(checkout), "rev-parse", "HEAD"], check=True, capture_output=True
            )
            .stdout.decode()
            .strip()
        )
        repos.append(
            {
                "name": name,
                "language": language(tracked(checkout)),
                "url": f"local:{name}",
                "revision": head,
            }
        )
        entries = [
            {
                "query": q.query,
                "relevant": [q.path],
                "secondary": [],
                "category": "semantic",
                "id": f"{name}-d{i:02d}",
            }
            for i, q in enumerate(questions)
        ]
        (args.out / "annotations" / f"{name}.json").write_text(json.dumps(entries, indent=1))
        print(f"{name}: {len(questions)} questions", file=sys.stderr)
    (args.out / "repos.json").write_text(json.dumps(repos, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
