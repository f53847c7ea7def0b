"""The one HTML page of ``rubi view``: inline CSS and JS, no external resource, so it
works offline.

Every text from the vault reaches the page as data, never as markup: the graph is
embedded as JSON with ``<``, ``>`` and ``&`` escaped (:func:`embed_json`), and the
script writes text with ``textContent`` only. The Content-Security-Policy allows this
script alone (by its SHA-256, :data:`SCRIPT_HASH`), so markup that slipped through
would still not run.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from typing import Any

__all__ = ["CONTENT_SECURITY_POLICY", "SCRIPT_HASH", "embed_json", "render_page"]

_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:8px 16px}header h1{font-size:18px;margin:0}
nav a{color:#cfe0ff;margin-right:14px}main{padding:8px 16px}
section{background:#fff;border:1px solid #d8dce3;border-radius:6px;margin:10px 0;padding:8px 12px}
h2{font-size:16px;margin:4px 0 8px}.muted{color:#667}
#graph{width:100%;height:560px;border:1px solid #e3e6eb;background:#fbfcfd}
#graph line{stroke:#b7bfcc;stroke-width:1}#graph line.imports{stroke:#e0a458}
#graph circle{stroke:#fff;stroke-width:1}#graph text{font-size:9px;fill:#334}
.k-note{fill:#3b6fd8;background:#3b6fd8}.k-map{fill:#8a94a6;background:#8a94a6}
.k-file{fill:#e07a2f;background:#e07a2f}.k-module{fill:#3aa675;background:#3aa675}
.legend span{display:inline-block;width:10px;height:10px;border-radius:5px;margin:0 4px 0 10px}
ol li{margin:6px 0}.why{color:#2d6a3e;font-size:12px}.id{color:#667;font-size:12px}
input{font:inherit;padding:3px 6px}iframe{width:100%;height:700px;border:0}
"""

_SCRIPT = """
"use strict";
const $ = (id) => document.getElementById(id);
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}
function layout(nodes, edges, w, h) {
  const n = nodes.length, pos = new Map();
  nodes.forEach((d, i) => {
    const a = i * 2.399963, r = Math.sqrt(i + 0.5) / Math.sqrt(n) * Math.min(w, h) * 0.45;
    pos.set(d.id, {x: w / 2 + r * Math.cos(a), y: h / 2 + r * Math.sin(a), dx: 0, dy: 0});
  });
  const k = Math.sqrt(w * h / Math.max(n, 1)) * 0.3;
  const ps = [...pos.values()], pull = 0.3 / Math.sqrt(n + 1);
  for (let step = 0, t = w / 10; step < 200; step++, t *= 0.98) {
    for (const p of ps) { p.dx = 0; p.dy = 0; }
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
      const a = ps[i], b = ps[j];
      let dx = a.x - b.x, dy = a.y - b.y, d2 = dx * dx + dy * dy + 0.01;
      const f = k * k / d2; a.dx += dx * f; a.dy += dy * f; b.dx -= dx * f; b.dy -= dy * f;
    }
    for (const e of edges) {
      const a = pos.get(e.source), b = pos.get(e.target);
      const dx = a.x - b.x, dy = a.y - b.y, d = Math.sqrt(dx * dx + dy * dy) + 0.01;
      const f = d / k; a.dx -= dx * f; a.dy -= dy * f; b.dx += dx * f; b.dy += dy * f;
    }
    for (const p of ps) {
      const cx = w / 2 - p.x, cy = h / 2 - p.y, g = Math.sqrt(cx * cx + cy * cy) / k * pull;
      p.dx += cx * g; p.dy += cy * g;
      const d = Math.sqrt(p.dx * p.dx + p.dy * p.dy) + 0.01, m = Math.min(d, t);
      p.x = Math.max(8, Math.min(w - 8, p.x + p.dx / d * m));
      p.y = Math.max(8, Math.min(h - 8, p.y + p.dy / d * m));
    }
  }
  return pos;
}
function drawGraph(g) {
  const box = $("graph"), w = 1000, h = 560, pos = layout(g.nodes, g.edges, w, h);
  box.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const top = g.nodes.length ? g.nodes[0].rank : 1;
  for (const e of g.edges) {
    const a = pos.get(e.source), b = pos.get(e.target);
    const line = svg("line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: e.relation});
    line.appendChild(svg("title", {})).textContent = e.relation;
    box.appendChild(line);
  }
  g.nodes.forEach((d, i) => {
    const p = pos.get(d.id), r = 3 + 7 * Math.sqrt(d.rank / top);
    const c = svg("circle", {cx: p.x, cy: p.y, r: r, class: "node k-" + d.kind});
    c.setAttribute("data-id", d.id);
    c.appendChild(svg("title", {})).textContent = `${d.title} (${d.kind}) ${d.id}`;
    c.addEventListener("click", () => { $("ref").value = d.id; loadTimeline(); });
    box.appendChild(c);
    if (i < 25) box.appendChild(svg("text", {x: p.x + r + 2, y: p.y + 3})).textContent = d.title;
  });
}
async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}
async function loadTimeline(ev) {
  if (ev) ev.preventDefault();
  const out = $("timeline-out");
  out.replaceChildren(el("p", "…", "muted"));
  try {
    const q = new URLSearchParams({ref: $("ref").value, days: $("days").value});
    const t = await getJSON("api/timeline?" + q);
    const list = el("ul");
    for (const e of t.entries) {
      const li = el("li", `${e.day} [${e.kind}] ${e.title} `);
      li.appendChild(el("span", e.id, "id"));
      for (const turn of e.turns) li.appendChild(el("div", turn, "muted"));
      list.appendChild(li);
    }
    const head = `${t.since} … ${t.until} around ${t.ref} (${t.centre}), newest first`;
    out.replaceChildren(el("p", head, "muted"), list);
    if (!t.entries.length) out.appendChild(el("p", "Nothing dated in these days.", "muted"));
    if (t.omitted) out.appendChild(el("p", `${t.omitted} older not shown.`, "muted"));
  } catch (err) { out.replaceChildren(el("p", String(err.message))); }
}
async function search(ev) {
  ev.preventDefault();
  const out = $("search-out");
  out.replaceChildren(el("p", "…", "muted"));
  try {
    const r = await getJSON("api/search?" + new URLSearchParams({q: $("q").value}));
    const list = el("ol");
    for (const h of r.hits) {
      const li = el("li");
      li.append(el("b", h.title), " ", el("span", `${h.type} · ${h.id}`, "id"));
      for (const why of h.why) li.appendChild(el("div", why, "why"));
      if (h.snippet) li.appendChild(el("div", h.snippet, "muted"));
      list.appendChild(li);
    }
    out.replaceChildren(list);
    if (!r.hits.length) out.appendChild(el("p", "No hits.", "muted"));
  } catch (err) { out.replaceChildren(el("p", String(err.message))); }
}
function showXray() { const f = $("xray-frame"); if (!f.src) f.src = "xray"; }
drawGraph(JSON.parse($("graph-data").textContent));
$("search-form").addEventListener("submit", search);
$("timeline-form").addEventListener("submit", loadTimeline);
$("xray-button").addEventListener("click", showXray);
loadTimeline();
"""

SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()
"""The CSP source that lets the page's own script, and nothing else, run."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; "
    f"script-src '{SCRIPT_HASH}'; "
    "style-src 'unsafe-inline'; connect-src 'self'; frame-src 'self'; img-src data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
)
"""The page's policy: its inline script by hash, inline style, requests to itself."""


def embed_json(value: Any) -> str:
    """``value`` as JSON safe inside a ``<script type="application/json">`` element:
    ``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (so no
    ``</script>`` can end it early)."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(name: str, graph: dict[str, Any], *, today: str, xray: bool) -> str:
    """The page for the vault called ``name``.

    Args:
        name: the project or vault's name (shown in the title).
        graph: :meth:`rubi.app.graphview.GraphView.as_json`.
        today: the timeline's first centre day, ``YYYY-MM-DD``.
        xray: whether there is a project whose transcripts the X-ray can read.
    """
    shown, total = graph["shown"], graph["total"]
    cap = (
        f"The {shown} most central of {total} notes, files and modules (by PageRank)"
        if shown < total
        else f"All {total} notes, files and modules"
    )
    xray_part = (
        '<button id="xray-button" type="button">Read this project\'s transcripts</button>'
        '<iframe id="xray-frame" title="Token X-ray"></iframe>'
        if xray
        else '<p class="muted">A vault without a project folder has no transcripts.</p>'
        '<button id="xray-button" type="button" hidden></button>'
        '<iframe id="xray-frame" hidden></iframe>'
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rubi · {escape(name)}</title><style>{_CSS}</style></head><body>
<header><h1>rubi · {escape(name)}</h1><nav><a href="#graph-part">graph</a>
<a href="#timeline-part">timeline</a><a href="#search-part">search</a>
<a href="#xray-part">X-ray</a></nav></header><main>
<section id="graph-part"><h2>Graph</h2>
<p class="muted">{escape(cap)}; dangling links left out. Size: rank. Click a node for its
timeline.<span class="legend"><span class="k-note"></span>note<span class="k-map"></span>map
page<span class="k-file"></span>code file<span class="k-module"></span>module</span></p>
<svg id="graph" xmlns="http://www.w3.org/2000/svg" role="img"
aria-label="graph of notes and code files"></svg>
<script id="graph-data" type="application/json">{embed_json(graph)}</script></section>
<section id="search-part"><h2>Search</h2>
<form id="search-form"><input id="q" name="q" size="50" placeholder="what to look for"
required> <button type="submit">Search</button></form><div id="search-out"></div></section>
<section id="timeline-part"><h2>Timeline</h2>
<form id="timeline-form">around <input id="ref" name="ref" size="30"
value="{escape(today)}"> ± <input id="days" name="days" type="number" min="0" max="366"
value="30"> days <button type="submit">Show</button></form>
<div id="timeline-out"></div></section>
<section id="xray-part"><h2>Token X-ray</h2>{xray_part}</section>
</main><script>{_SCRIPT}</script></body></html>
"""
