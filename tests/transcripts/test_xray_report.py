"""The report surfaces: JSON data, the short summary, and the HTML page."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rubi.transcripts.report_html import render_html, write_html
from rubi.transcripts.xray import XrayReport, report_to_dict, scan, xray_summary
from transcripts.xray_builder import SESSION, long_session

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def long_report(projects: Path) -> XrayReport:
    folder = projects / "-work-demo"
    long_session(folder / f"{SESSION}.jsonl")
    long_session(
        folder / "bbbbbbbb-1111-4222-8333-444444444444.jsonl",
        calls=80,
        step=3_000,
        pause_at=None,
        session="bbbbbbbb-1111-4222-8333-444444444444",
    )
    return scan(days=None, root=projects)


def test_long_sessions_replay_and_flags(long_report: XrayReport) -> None:
    report = long_report
    assert len(report.big_sessions) == 2 and report.big_cost_share == 1.0
    assert report.near_1m_sessions == ()
    assert report.expiries == 1
    by_threshold = {s.threshold: s for s in report.savings}
    assert by_threshold[250_000].saving == 0  # neither session passes 250k before its end
    assert by_threshold[100_000].saving > by_threshold[150_000].saving > 0
    assert report.best is by_threshold[100_000]
    assert report.tools[0][0] == "Read"
    assert report.rereads[0].extra_reads > 30


def test_json_is_complete_and_serializable(long_report: XrayReport) -> None:
    data = json.loads(json.dumps(report_to_dict(long_report)))
    assert data["totals"]["sessions"] == 2
    assert data["replay"]["best"] == 100_000
    assert len(data["sessions"][0]["context_curve"]) == 200
    assert data["totals"]["cost"] == pytest.approx(long_report.cost, abs=1)
    assert sum(data["totals"]["cost_by_class"].values()) == pytest.approx(long_report.cost, 1e-6)
    assert "context_curve" not in report_to_dict(long_report, curves=False)["sessions"][0]


def test_summary_for_mcp(samples: Path) -> None:
    text = xray_summary(days=None)
    lines = text.splitlines()
    assert lines[0].startswith("Token X-ray (all time): 4 sessions in 2 projects")
    assert 6 <= len(lines) <= 12
    assert "First change:" in lines[-1]
    assert len(text) < 1_500  # short enough for a tool result


def test_summary_without_sessions(projects: Path) -> None:
    assert "no Claude Code sessions" in xray_summary(days=30)


def test_html_is_self_contained(long_report: XrayReport) -> None:
    page = render_html(long_report)
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page
    # The only URL is the SVG namespace: no fonts, styles or images from the network.
    assert set(re.findall(r"https?://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}
    assert page.count("<svg") == 2 + 1 + 1  # two curves, cost classes, tools
    assert ">100k</text>" in page and ">compacted</text>" not in page
    assert "cache expired" in page


def test_html_renders_in_chromium(long_report: XrayReport, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("chromium not installed (apt-get install chromium)")
    page = tmp_path / "report.html"
    write_html(long_report, page)
    shot = tmp_path / "shot.png"
    common = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
    ]
    dom = subprocess.run(
        [*common, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert dom.count("<polyline") == 4  # real and replayed curve of each session
    subprocess.run(
        [*common, "--window-size=1280,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=60,
        check=True,
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    shutil.rmtree(tmp_path / "profile", ignore_errors=True)


def test_html_reading_line_counts_each_noun(long_report: XrayReport) -> None:
    """One broken line reads "1 broken line", not "1 broken lines"."""
    stats = dataclasses.replace(long_report.read_stats, bad_lines=1, unreadable_files=1, files=2)
    page = render_html(dataclasses.replace(long_report, read_stats=stats))
    assert "1 broken line skipped" in page and "1 unreadable file." in page
    assert "2 files," in page and "1 broken lines" not in page
