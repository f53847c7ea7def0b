"""Write the notes-qa questions (``<set>.json`` of the notes-qa data) as an evaluation set
folder that ``bench/retrieval_eval.py`` reads.

Usage::

    python bench/notes_qa_set.py QUESTIONS.json OUT_DIR --repo OWNER/NAME --commit HEX
        [--folder en] [--made YYYY-MM-DD]

Each question becomes ``{"id": "<set>-NN", "query", "relevant", "split", "lang": "en"}``
with the split computed by :func:`evalset.split_of`. notes-qa is the set rubi's ranking
was tuned on: its description says so, and its figures are not evidence of anything
else. The files are written whole to a temporary name and renamed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evalset import SetError, safe_relpath, split_of

SPLIT_RULE = "sha256(name + ':' + id) first hex digit even -> dev, odd -> test"


def convert(entries: list[Any], name: str, where: Path) -> list[dict[str, Any]]:
    """The set's query lines for notes-qa ``entries`` (``{"question", "relevant"}``).

    Raises:
        SetError: an entry without a question or with an unsafe relevant path.
    """
    lines = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("question"), str):
            raise SetError(f"{where}: entry {i} needs a 'question' string")
        relevant = entry.get("relevant", [])
        if not isinstance(relevant, list) or not all(isinstance(p, str) for p in relevant):
            raise SetError(f"{where}: entry {i}: 'relevant' must be a list of paths")
        qid = f"{name}-{i:02d}"
        lines.append(
            {
                "id": qid,
                "query": entry["question"],
                "relevant": [safe_relpath(p, where) for p in relevant],
                "split": split_of(name, qid),
                "lang": "en",
            }
        )
    return lines


def write_atomic(path: Path, text: str) -> None:
    """``text`` written to a temporary file beside ``path``, then renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("questions", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--folder", default="")
    parser.add_argument("--made", required=True)
    args = parser.parse_args(argv)
    name = args.out.name
    try:
        entries = json.loads(args.questions.read_text(encoding="utf-8"))
        lines = convert(entries if isinstance(entries, list) else [None], name, args.questions)
    except (OSError, ValueError) as exc:
        parser.error(f"{args.questions}: {exc}")
    meta = {
        "name": name,
        "kind": "notes",
        "description": (
            "TUNED-ON SET: the notes-qa questions rubi's ranking was developed on"
            f" ({len(lines)} plain-language questions on the English Obsidian Help vault);"
            " a sanity check, not evidence of how rubi does on unseen data."
        ),
        "license": "questions: the project's; corpus: the source repository's licence",
        "sources": [{"repo": args.repo, "commit": args.commit, "folder": args.folder}],
        "languages": ["en"],
        "split_rule": SPLIT_RULE,
        "made": args.made,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    write_atomic(args.out / "set.json", json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    write_atomic(args.out / "queries.jsonl", body)
    counts = {s: sum(1 for q in lines if q["split"] == s) for s in ("dev", "test")}
    print(f"{args.out}: {len(lines)} queries, dev {counts['dev']}, test {counts['test']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
