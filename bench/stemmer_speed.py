"""Snowball stemmers compared for speed: PyStemmer (C) and ``snowballstemmer`` (pure
Python), on the words of a folder of markdown, each in a fresh process.

Usage::

    python bench/stemmer_speed.py FOLDER --language turkish [--files 400]

For each package (skipped when not installed): the CPU of its import, of making the
language's stemmer, and of stemming every word of the first ``--files`` markdown files
(in order, repeats kept, as an index run meets them), with microseconds a word. The
floor, in the same process: one dictionary lookup a word. ``snowballstemmer`` hands
its work to PyStemmer when that is installed; its child hides PyStemmer so the pure
Python code is measured.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, re, sys, time
package, language, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
if package == "snowballstemmer":
    sys.modules["Stemmer"] = None  # its own pure-Python code, not PyStemmer's
words = []
for p in paths:
    words += re.findall(r"[^\W\d_]+", open(p, encoding="utf-8").read().lower())
c0 = time.process_time()
if package == "PyStemmer":
    import Stemmer
    c1 = time.process_time()
    stem = Stemmer.Stemmer(language).stemWord
else:
    import snowballstemmer
    c1 = time.process_time()
    stem = snowballstemmer.stemmer(language).stemWord
c2 = time.process_time()
for w in words:
    stem(w)
c3 = time.process_time()
table = {w: w for w in words}
for w in words:
    table[w]
c4 = time.process_time()
print(json.dumps({"import_ms": (c1 - c0) * 1e3, "make_ms": (c2 - c1) * 1e3,
                  "stem_ms": (c3 - c2) * 1e3, "floor_ms": (c4 - c3) * 1e3,
                  "words": len(words), "distinct": len(set(words))}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--language", default="turkish", help="Snowball's name for it")
    parser.add_argument("--files", type=int, default=400)
    args = parser.parse_args()
    paths = sorted(str(p) for p in args.folder.rglob("*.md"))[: args.files]
    if not paths:
        sys.exit(f"{args.folder}: no markdown files")
    print(f"{len(paths)} files of {args.folder}, {args.language}, CPU ms")
    for package in ("PyStemmer", "snowballstemmer"):
        run = subprocess.run(
            [sys.executable, "-c", CHILD, package, args.language, *paths],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            print(f"  {package:16} not measured: {run.stderr.strip().splitlines()[-1]}")
            continue
        got = json.loads(run.stdout)
        per_word = got["stem_ms"] * 1e3 / max(got["words"], 1)
        print(
            f"  {package:16} import {got['import_ms']:7.1f}  make {got['make_ms']:5.2f}  "
            f"{got['words']} words ({got['distinct']} distinct) {got['stem_ms']:7.1f} "
            f"= {per_word:6.2f} us/word  floor (a dict lookup a word) {got['floor_ms']:.1f}"
        )


if __name__ == "__main__":
    main()
