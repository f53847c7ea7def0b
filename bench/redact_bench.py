"""What redaction costs per 100 kB of transcript-like text (capture runs it in every
Stop hook, on each side of a turn).

Usage::

    python bench/redact_bench.py [--kb 100] [--runs 30]
    python bench/redact_bench.py --accuracy [--show] [DIR ...]

The text is this checkout's own docs and Python source (prose and code full of the
words ``token``, ``secret``, ``password``, ``key``, as a coding session's turns are),
cut into 20,000-character turns (what capture keeps of one side) until ``--kb`` kB.
Prints, in milliseconds per 100 kB: ``cold`` (a fresh process: the patterns compile
on first use, measured in a subprocess per run) and ``warm`` (patterns compiled), the
median and the best of ``--runs``, and how many marks the text got (real text: a few
example credentials in docs). Run it with ``PYTHONPATH`` pointing at another tree's
``src`` to compare versions on the same text.

``--accuracy`` measures the filter both ways instead of its speed: misses on the
labelled corpus (``tests/transcripts/data/redaction_corpus.json``, judged as its
tests judge: a secret is missed when any 8 characters of it survive outside a mark,
an ordinary snippet counts when it changes at all), and false alarms on real text,
each ``DIR`` read only (``.md``, ``.txt``, ``.py``, ``.jsonl``, ``.yaml``, ``.toml``
files; a ``.jsonl`` transcript line by line, each line a document): documents,
documents with a mark, marks, and marks per 1,000 documents. ``--show`` prints
every mark on real text with 60 characters each side, to be read and judged (the
figure alone cannot tell a real credential in a tutorial from a false alarm).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TURN = 20_000


def corpus(kb: int) -> list[str]:
    """Turns of up to :data:`TURN` characters, ``kb`` kB in all."""
    files = sorted(ROOT.glob("docs/*.md")) + sorted((ROOT / "src" / "rubi").rglob("*.py"))
    text = ""
    for f in files:
        text += f.read_text(encoding="utf-8") + "\n"
        if len(text) >= kb * 1000:
            break
    text = text[: kb * 1000]
    return [text[i : i + TURN] for i in range(0, len(text), TURN)]


def warm(turns: list[str], runs: int) -> tuple[list[float], int]:
    from rubi.transcripts.privacy import redact, secret_spans

    for t in turns:
        redact(t)  # compile what the text needs
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for t in turns:
            redact(t)
        times.append(time.perf_counter() - start)
    return times, sum(len(secret_spans(t)) for t in turns)


_COLD = """
import sys, time
sys.path[:0] = [{bench!r}]
from redact_bench import corpus
turns = corpus({kb})
start = time.perf_counter()
from rubi.transcripts.privacy import redact
for t in turns:
    redact(t)
print(time.perf_counter() - start)
"""


def cold(kb: int, runs: int) -> list[float]:
    code = _COLD.format(bench=str(Path(__file__).parent), kb=kb)
    return [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(runs)
    ]


SUFFIXES = (".md", ".txt", ".py", ".jsonl", ".yaml", ".yml", ".toml")


def labelled() -> None:
    """Misses and changed ordinary snippets on the labelled corpus, judged as the
    corpus tests judge them (``tests/transcripts/redaction_corpus.py``)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from rubi.transcripts.privacy import redact
    from transcripts.redaction_corpus import CORPUS, ORDINARY, SECRETS, leaks

    missed = [s for s in SECRETS if leaks(s, redact(s["text"]))]
    changed = [s for s in ORDINARY if redact(s["text"]) != s["text"]]
    kinds = len({s["kind"] for s in CORPUS["secrets"]})
    print(f"labelled secrets missed: {len(missed)} / {len(SECRETS)} ({kinds} kinds)")
    for s in missed:
        print(f"  missed {s['kind']}: {s['text'][:100]!r}")
    print(f"ordinary snippets changed: {len(changed)} / {len(ORDINARY)}")
    for s in changed:
        print(f"  changed {s['kind']}: {redact(s['text'])[:100]!r}")


def documents(folder: Path) -> list[str]:
    """The texts under ``folder`` (read only): one per file, one per transcript line."""
    out: list[str] = []
    for f in sorted(folder.rglob("*")):
        if f.suffix not in SUFFIXES or not f.is_file():
            continue
        text = f.read_text(encoding="utf-8", errors="replace")
        out += text.splitlines() if f.suffix == ".jsonl" else [text]
    return out


def false_alarms(folders: list[Path], show: bool) -> None:
    """Marks on real text per folder; ``show``: each with its context."""
    from rubi.transcripts.privacy import secret_spans

    print("| corpus | documents | with a mark | marks | per 1,000 documents |")
    print("|---|---|---|---|---|")
    shown: list[str] = []
    for folder in folders:
        docs = documents(folder)
        marks = with_mark = 0
        for text in docs:
            spans = secret_spans(text)
            marks += len(spans)
            with_mark += bool(spans)
            for start, end, kind in spans if show else []:
                around = text[max(0, start - 60) : start] + "<<" + text[start:end][:80]
                around += ">>" + text[end : end + 60]
                shown.append(f"{folder.name} {kind}: {around!r}")
        per = 1000 * marks / len(docs) if docs else 0.0
        print(f"| {folder.name} | {len(docs):,} | {with_mark} | {marks} | {per:.1f} |")
    for line in shown:
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kb", type=int, default=100)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--accuracy", action="store_true", help="misses and false alarms")
    parser.add_argument("--show", action="store_true", help="print each mark on real text")
    parser.add_argument("folders", nargs="*", type=Path, help="real text, read only")
    args = parser.parse_args()
    if args.accuracy:
        import rubi

        print(f"rubi from {Path(rubi.__file__).parent}")
        labelled()
        false_alarms(args.folders, args.show)
        return
    turns = corpus(args.kb)
    scale = 100 / args.kb * 1000  # seconds → ms per 100 kB
    warm_times, marks = warm(turns, args.runs)
    cold_times = cold(args.kb, max(3, args.runs // 5))
    import rubi

    print(f"rubi from {Path(rubi.__file__).parent}")
    print(f"text: {sum(map(len, turns)):,} characters in {len(turns)} turns, {marks} marks")
    for name, times in (("cold (import + compile + redact)", cold_times), ("warm", warm_times)):
        print(
            f"{name}: median {statistics.median(times) * scale:.1f} ms, "
            f"best {min(times) * scale:.1f} ms per 100 kB ({len(times)} runs)"
        )


if __name__ == "__main__":
    main()
