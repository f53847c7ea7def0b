"""LoCoMo: which dialog turns an agent gets back when it searches captured sessions.

Usage::

    python bench/locomo.py LOCOMO_JSON [--conversations conv-26,conv-30] [--all]
                           [--top-k 10] [--no-names] [--json results.json]

LOCOMO_JSON is ``data/locomo10.json`` of snap-research/LoCoMo (CC BY-NC: this script
fetches nothing and copies nothing into the project). By default the five development
conversations run (:data:`DEV`); ``--all`` runs all ten, a held-out figure.

How a conversation becomes captured sessions (each conversation a fresh project made
by ``rubi.app.init_project``, HOME and the XDG folders in a temp folder):

- each LoCoMo session is one session record, written by
  :func:`rubi.app.sessionrecord.capture_turn` (the function the capture hook calls)
  under the session id ``<sample>-s<N>``, dated by ``session_<N>_date_time``;
- the conversation's first speaker (``speaker_a``) is the user and the second the
  assistant: a turn is a run of consecutive utterances of the first speaker (the
  prompt, ``**User:**``) and the run of the second speaker's that follows (the answer,
  ``**Claude:**``); a session that opens with the second speaker opens with an
  answer-only turn. Turn N of a session is stamped a minute after turn N-1;
- each utterance is one line of its side, ``<speaker>: <text>`` (LoCoMo's two sides
  are both people and its questions name them; ``--no-names`` writes the text alone),
  with a shared image's caption after it as ``(shared <caption>)``, as the paper's
  retrieval unit ``<speaker> said, "<text>"`` adds it;
- dialog ids (``D1:3``) are never written: they are recovered by matching the text a
  hit shows against the utterances of its session record.

Then every question goes through ``rubi.app.search(paths, question, scope="sessions",
top_k=K)``, and evidence recall is scored at the dialog-turn level, the paper's unit
(Maharana et al. 2024, "Evaluating Very Long-Term Conversational Memory of LLM Agents":
recall@k of the evidence among the first k dialog turns retrieved):

- **turn unit (the headline, comparable with the paper):** the retrieved dialog turns
  in rank order are, hit by hit, each of its passages' utterances (``Hit.passages``,
  best passage first) ranked within the passage: the utterance on the passage's best
  line (``Passage.focus``, where rubi found the query's rarest words) first, then the
  others in the order they were said; a hit without passages gives the one line its
  snippet shows. An utterance already retrieved is not counted again. R@k is the share
  of a question's evidence ids among the first k turns.
- **passage unit (kept beside it, labelled "passages"):** each passage counts as one
  unit covering every utterance its text holds (about two: a captured turn holds the
  prompt's and the answer's), so k passages show about twice the paper's k turns; this
  was the bench's only figure before the turn unit (up to issue 28).

A question with no evidence counts 1.0; every category counts. Evidence ids are read
leniently (``D8:6; D9:17`` is two ids, ``D30:05`` is ``D30:5``, ``D:11:26`` is
``D11:26``). Also reported: how often the session record of every evidence turn is
among the first 5 hits (``file@5``: the answer is in a file the agent was shown), and
how many dialog turns a passage covers on average (1 for a snippet line).

The last line says whether the dense channel was on: on only when the ``semantic``
extra and the model's weights are installed and ``RUBI_SEMANTIC`` is not ``0``
(:func:`rubi.semantic.enabled`); otherwise it says why it was off.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEV = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
"""The conversations used while developing; the other five are held out."""
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
"""LoCoMo's question categories (the numbers in ``locomo10.json``)."""
PUBLISHED = {"DRAGON": (56.7, 66.2), "BM25": (43.0, 51.0)}
"""Published retrieval figures on all ten conversations, R@5 / R@10 (per cent)."""
TURN_SECONDS = 60
_WHEN = "%I:%M %p on %d %B, %Y"
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
_LABEL = re.compile(r"^(?:User|Claude):\s*")


# -- the conversation as captured sessions ------------------------------------------
@dataclass(frozen=True, slots=True)
class Utterance:
    """One LoCoMo dialog turn and the line it was captured as."""

    dia_id: str
    line: str


@dataclass(slots=True)
class Record:
    """One session record: its file name (set once written) and its utterances."""

    session_id: str
    when: float
    turns: list[tuple[list[Utterance], list[Utterance]]] = field(default_factory=list)
    name: str = ""


def session_time(text: str) -> float:
    """``1:56 pm on 8 May, 2023`` as seconds since the epoch (read as UTC)."""
    stamp = dt.datetime.strptime(" ".join(text.split()), _WHEN)
    return stamp.replace(tzinfo=dt.UTC).timestamp()


def utterance_line(turn: dict[str, Any], names: bool) -> str:
    """The line one utterance is captured as (see the module docstring)."""
    text = " ".join(str(turn.get("text", "")).split())
    caption = turn.get("blip_caption")
    if caption:
        text += f" (shared {' '.join(str(caption).split())})"
    return f"{turn['speaker']}: {text}" if names else text


def records(conversation: dict[str, Any], sample: str, names: bool = True) -> list[Record]:
    """The session records of one LoCoMo conversation, in session order."""
    first = conversation["speaker_a"]
    found: list[Record] = []
    numbers = sorted(
        int(k.split("_")[1])
        for k, v in conversation.items()
        if re.fullmatch(r"session_\d+", k) and isinstance(v, list) and v
    )
    for n in numbers:
        record = Record(f"{sample}-s{n}", session_time(conversation[f"session_{n}_date_time"]))
        prompt: list[Utterance] = []
        answer: list[Utterance] = []
        for turn in conversation[f"session_{n}"]:
            said = Utterance(str(turn["dia_id"]), utterance_line(turn, names))
            if turn["speaker"] == first:
                if answer:
                    record.turns.append((prompt, answer))
                    prompt, answer = [], []
                prompt.append(said)
            else:
                answer.append(said)
        if prompt or answer:
            record.turns.append((prompt, answer))
        found.append(record)
    return found


def capture(paths: Any, record: Record) -> None:
    """Write ``record`` through the capture hook's function, turn by turn."""
    from rubi.app.sessionrecord import capture_turn, session_file

    for i, (prompt, answer) in enumerate(record.turns):
        capture_turn(
            paths,
            record.session_id,
            "\n".join(u.line for u in prompt),
            "\n".join(u.line for u in answer) or None,
            now=record.when + i * TURN_SECONDS,
        )
    record.name = session_file(paths, record.session_id, create=False).name  # type: ignore[union-attr]


# -- matching what a hit shows to dialog ids ------------------------------------------
def normal(text: str) -> str:
    """``text`` as compared: markdown emphasis, a ``User:``/``Claude:`` label and cut
    marks dropped, whitespace collapsed, lower case."""
    text = text.replace("**", "").replace("…", " ")
    return " ".join(_LABEL.sub("", text.strip()).split()).lower()


class Lines:
    """The utterances of each session record, by file name, for text matching."""

    def __init__(self, written: Iterable[Record]) -> None:
        self._by_file: dict[str, list[tuple[str, str]]] = {}
        for record in written:
            lines = [(normal(u.line), u.dia_id) for p, a in record.turns for u in (*p, *a)]
            self._by_file[record.name] = lines

    def of_snippet(self, file_name: str, snippet: str) -> list[str]:
        """The dialog id of the line ``snippet`` shows (the first that holds it)."""
        shown = normal(snippet)
        if not shown:
            return []
        for line, dia_id in self._by_file.get(file_name, []):
            if shown in line:
                return [dia_id]
        return []

    def of_line(self, file_name: str, line: str) -> str | None:
        """The dialog id of the utterance one line of a passage is (its first 60
        characters found in the line), None for a heading or blank line."""
        shown = normal(line)
        if not shown:
            return None
        for said, dia_id in self._by_file.get(file_name, []):
            if said[:60] in shown:
                return dia_id
        return None

    def of_passage(self, file_name: str, text: str) -> list[str]:
        """The dialog ids of every utterance a passage's text holds (its first 60
        characters are enough: a long passage may be cut)."""
        shown = normal(text)
        return [d for line, d in self._by_file.get(file_name, []) if line[:60] in shown]


def units(hit: Any, lines: Lines) -> Iterator[list[str]]:
    """The retrieved units of one hit, each as the dialog ids it covers: its passages
    when it has them, else its snippet's line."""
    name = str(hit.path).rsplit("/", 1)[-1]
    passages = getattr(hit, "passages", None)
    if passages:
        for p in passages:
            yield lines.of_passage(name, str(getattr(p, "text", p)))
    else:
        yield lines.of_snippet(name, hit.snippet)


def ranked_turns(passage: Any, name: str, lines: Lines) -> list[str]:
    """The dialog ids of one passage's utterances ranked within it: the one on its best
    line (``focus``) first, then the others in the order they were said."""
    ids = lines.of_passage(name, str(getattr(passage, "text", passage)))
    text = str(getattr(passage, "text", ""))
    at = int(getattr(passage, "focus", 0)) - int(getattr(passage, "start", 0))
    rows = text.split("\n")
    best = lines.of_line(name, rows[at]) if 0 <= at < len(rows) else None
    if best is not None and best in ids:
        ids.remove(best)
        ids.insert(0, best)
    return ids


def turns(hits: Sequence[Any], lines: Lines) -> list[str]:
    """The dialog turns the hits show, in rank order, each once (the turn unit: see
    the module docstring)."""
    out: dict[str, None] = {}
    for hit in hits:
        name = str(hit.path).rsplit("/", 1)[-1]
        passages = getattr(hit, "passages", None)
        if passages:
            for p in passages:
                out.update(dict.fromkeys(ranked_turns(p, name, lines)))
        else:
            out.update(dict.fromkeys(lines.of_snippet(name, hit.snippet)))
    return list(out)


def evidence_ids(evidence: Sequence[str]) -> set[str]:
    """LoCoMo evidence read leniently (see the module docstring)."""
    return {f"D{m[1]}:{m[2]}" for e in evidence for m in _EVIDENCE.finditer(str(e))}


def recall(retrieved: Sequence[list[str]], wanted: set[str], k: int) -> float:
    """Share of ``wanted`` among the ids of the first ``k`` units (1.0 when empty)."""
    if not wanted:
        return 1.0
    got = {d for unit in retrieved[:k] for d in unit}
    return len(wanted & got) / len(wanted)


# -- running -------------------------------------------------------------------------
def run_conversation(sample: dict[str, Any], work: Path, top_k: int, names: bool) -> dict[str, Any]:
    """Capture one conversation in a fresh project and score its questions."""
    from rubi import app

    name = str(sample["sample_id"])
    project = work / name
    project.mkdir()
    app.init_project(project)
    paths = app.locate(project / ".rubi")
    written = records(sample["conversation"], name, names)
    for record in written:
        capture(paths, record)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    app.index(paths)
    index_cpu, index_wall = time.process_time() - cpu0, time.perf_counter() - wall0
    lines = Lines(written)
    file_of = {u.dia_id: r.name for r in written for p, a in r.turns for u in (*p, *a)}
    app.search(paths, "warm up the caches", scope="sessions", refresh=False)
    questions: list[dict[str, Any]] = []
    times: list[float] = []
    for qa in sample["qa"]:
        t0 = time.perf_counter()
        hits = app.search(
            paths, str(qa["question"]), scope="sessions", top_k=top_k, refresh=False
        ).hits
        retrieved = [u for hit in hits for u in units(hit, lines)]
        shown_turns = [[d] for d in turns(hits, lines)]
        times.append((time.perf_counter() - t0) * 1000)
        wanted = evidence_ids(qa.get("evidence", []))
        files = {file_of.get(d, "") for d in wanted}
        shown = {str(h.path).rsplit("/", 1)[-1] for h in hits[:5]}
        questions.append(
            {
                "question": qa["question"],
                "category": int(qa["category"]),
                "evidence": sorted(wanted),
                "r5": recall(shown_turns, wanted, 5),
                "r10": recall(shown_turns, wanted, 10),
                "passage_r5": recall(retrieved, wanted, 5),
                "passage_r10": recall(retrieved, wanted, 10),
                "file5": 1.0 if files <= shown else 0.0,
                "turns": [t[0] for t in shown_turns[:10]],
                "units": retrieved[:10],
            }
        )
    return {
        "conversation": name,
        "sessions": len(written),
        "turns": sum(len(r.turns) for r in written),
        "index_cpu_s": index_cpu,
        "index_wall_s": index_wall,
        "p50_ms": statistics.median(times) if times else 0.0,
        "questions": questions,
    }


def summary(questions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """R@5 and R@10 at the turn unit (``r5``, ``r10``) and at the passage unit
    (``passage_r5``, ``passage_r10``), and file@5, in per cent, overall and per
    category."""

    def score(qs: Sequence[dict[str, Any]]) -> dict[str, float]:
        n = len(qs) or 1
        keys = ("r5", "r10", "passage_r5", "passage_r10", "file5")
        return {"n": len(qs), **{key: 100 * sum(q[key] for q in qs) / n for key in keys}}

    shown = [len(u) for q in questions for u in q["units"][:5]]
    by: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for q in questions:
        by[q["category"]].append(q)
    return {
        "unit": "r5/r10: dialog turns (the paper's unit); passage_r5/r10: passages",
        "turns_per_unit": statistics.mean(shown) if shown else 0.0,
        "all": score(questions),
        "categories": {CATEGORIES.get(c, str(c)): score(by[c]) for c in sorted(by)},
    }


def dense_channel() -> str:
    """``on`` when the dense channel ran, else ``off (<why>)``: ``RUBI_SEMANTIC=0``, or
    the extra or the model's weights missing (a plain install)."""
    from rubi.semantic import DISABLE_ENV, unavailable

    if os.environ.get(DISABLE_ENV, "1") == "0":
        return f"off ({DISABLE_ENV}=0)"
    missing = unavailable()
    return f"off ({missing})" if missing else "on"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("data", type=Path, help="LoCoMo's locomo10.json")
    parser.add_argument("--conversations", default=",".join(DEV))
    parser.add_argument("--all", action="store_true", help="all ten (held-out figure)")
    parser.add_argument("--top-k", type=int, default=10)
    parser.add_argument("--no-names", action="store_true", help="utterances without speaker")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    data = json.loads(args.data.read_text(encoding="utf-8"))
    wanted = None if args.all else set(args.conversations.split(","))
    samples = [s for s in data if wanted is None or s["sample_id"] in wanted]
    if not samples:
        parser.error(f"no conversation of {sorted(wanted or [])} in {args.data}")
    work = Path(tempfile.mkdtemp(prefix="rubi-locomo-"))
    for var in ("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        os.environ[var] = str(work / var.lower())
    os.environ["RUBI_VAULT"] = str(work / "no-personal-vault")
    cpu0, wall0 = time.process_time(), time.perf_counter()
    try:
        results = [run_conversation(s, work, args.top_k, not args.no_names) for s in samples]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print("R@k: evidence among the first k dialog turns (the paper's unit); passages:")
    print("the same with each passage (about 2 turns) one unit, as before issue 28")
    head = ("R@5", "R@10", "R@5 psg", "R@10 psg", "file@5")
    print(
        f"{'conversation':<13} {'questions':>9} " + " ".join(f"{h:>8}" for h in head) + "      p50"
    )

    def row(label: str, s: dict[str, float]) -> str:
        keys = ("r5", "r10", "passage_r5", "passage_r10", "file5")
        return f"{label:<13} {s['n']:>9} " + " ".join(f"{s[k]:>8.1f}" for k in keys)

    for r in results:
        print(f"{row(r['conversation'], summary(r['questions'])['all'])} {r['p50_ms']:>6.1f} ms")
    total = summary([q for r in results for q in r["questions"]])
    print(row("all", total["all"]))
    for cat, s in total["categories"].items():
        print(row(f"  {cat}", s))
    print(f"  dialog turns per passage (first 5 passages): {total['turns_per_unit']:.2f}")
    for name, (r5, r10) in PUBLISHED.items():
        print(f"  published {name} (all ten, dialog turns): R@5 {r5} / R@10 {r10}")
    print(f"dense channel {dense_channel()}; {cpu:.1f} s CPU, {wall:.1f} s wall")
    if args.json:
        args.json.write_text(
            json.dumps({"summary": total, "conversations": results}, indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
