"""What every section's HTML is made of: number formats, escaped tables, embedded images,
the page's style sheet. Nothing here computes a statistic or draws a figure."""

from __future__ import annotations

import base64
import html
from typing import Any

import numpy as np

esc = html.escape

METHOD_NAMES = {"delong": "DeLong", "hajek": "Hájek", "hoeffding": "Hoeffding", "bootstrap": "bootstrap (BCa)"}
ADJUST_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg"}


def fmt(x: Any, digits: int = 4) -> str:
    """Numbers as in rankwise.stats summaries (4 decimals, scientific when tiny)."""
    from ..stats import fmt as stats_fmt

    return stats_fmt(x, digits)


def fmt_p(p: float) -> str:
    """A p-value: four decimals, ``< 0.0001`` below, ``nan`` when undefined."""
    if p is None or not np.isfinite(p):
        return "nan"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def p_eq(p: float) -> str:
    """``= 0.0123`` or ``< 0.0001``: a p-value after ``p``."""
    s = fmt_p(p)
    return s if s.startswith("<") else f"= {s}"


def interval(low: float, high: float) -> str:
    return f"[{fmt(low)}, {fmt(high)}]"


def cell(value: float, low: float, high: float) -> str:
    return f"{fmt(value)} {interval(low, high)}"


def pct(x: float) -> str:
    return f"{100.0 * x:.4g}%"


def level_text(level: float) -> str:
    """The confidence level as the page writes it: ``95%``."""
    return f"{level:.0%}"


def size_text(n: int) -> str:
    """A file size in words: ``2.4 MB (2,500,000 bytes)``."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"


def show_value(v: Any) -> str:
    """A learner's parameter value, short: ``0.1``, ``True``, ``k=1, m=2``, ``-``."""
    if isinstance(v, dict):
        return ", ".join(f"{k}={show_value(x)}" for k, x in v.items())
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.4g}"
    if v is None:
        return "-"
    return str(v)


def table(header: list[str], rows: list[list[str]], cls: str = "", cell_classes=None, cell_attrs=None,
          header_classes=None) -> str:
    """Header and rows are already-escaped HTML fragments, inside a box that scrolls
    on its own if the table is ever wider than the page."""
    head = "".join(f'<th class="{header_classes[j]}">{h}</th>' if header_classes and header_classes[j]
                   else f"<th>{h}</th>" for j, h in enumerate(header))
    body = []
    for i, r in enumerate(rows):
        cells = []
        for j, c in enumerate(r):
            k = cell_classes[i][j] if cell_classes else ""
            attrs = cell_attrs[i][j] if cell_attrs else ""
            cells.append(f"<td{f' class={chr(34)}{k}{chr(34)}' if k else ''}{attrs}>{c}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    klass = f' class="{cls}"' if cls else ""
    return f'<div class="box"><table{klass}><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def learner_table(learners: list[dict]) -> str:
    """One row per learner summary, the union of their keys as columns (``name`` first)."""
    keys: list[str] = []
    for d in learners:
        for k in d:
            if k not in keys:
                keys.append(str(k))
    if "name" in keys:
        keys.remove("name")
        keys.insert(0, "name")
    header = [esc(k) for k in keys]
    rows = [[esc(show_value(d.get(k))) if k in d else "" for k in keys] for d in learners]
    classes = [["name" if k == "name" else "" for k in keys] for _ in learners]
    return table(header, rows, "learners", classes)


def img(data: bytes, alt: str) -> str:
    """A PNG embedded in the page (a ``data:`` URI: the page works alone)."""
    b64 = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{b64}" alt="{esc(alt)}">'


def figure(data: bytes, alt: str, caption: str, cls: str = "") -> str:
    """``<figure>`` with an embedded PNG and its (already-escaped) caption."""
    klass = f' class="{cls}"' if cls else ""
    return f"<figure{klass}>{img(data, alt)}<figcaption>{caption}</figcaption></figure>"


def num_attrs(row) -> str:
    """The exact numbers behind a cell, for a reader's tools (and the browser test)."""
    return "".join(f' data-{k}="{float(getattr(row, k))!r}"' for k in ("value", "low", "high"))


def value_cell(row) -> str:
    """A value with its interval below it (``row``: ``value``, ``low``, ``high``)."""
    return f'{esc(fmt(row.value))}<span class="ci">{esc(interval(row.low, row.high))}</span>'


def section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><h2>{title}</h2>\n{body}\n</section>'


def collapsed_section(anchor: str, title: str, body: str) -> str:
    return f'<section id="{anchor}"><details><summary><h2>{title}</h2></summary>{body}</details></section>'


CSS = """
*, *::before, *::after { box-sizing: border-box; }
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1d2329;
       max-width: 1360px; margin: 1.2em auto 3em; padding: 0 20px; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.6em; margin: .2em 0 .4em; border-bottom: 2px solid #1f77b4; padding-bottom: .25em; }
h2 { font-size: 1.22em; margin: 1.6em 0 .5em; color: #1f4e79; }
h3 { font-size: 1.02em; margin: 1.1em 0 .4em; color: #1f4e79; }
dl.meta { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: .3em 1.6em;
          margin: .4em 0 .8em; padding: .7em 1em; background: #f6f8fa; border-left: 4px solid #1f77b4; }
dl.meta div { min-width: 0; }
dl.meta dt { font-size: .78em; text-transform: uppercase; letter-spacing: .04em; color: #57606a; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
dl.meta div.wide { grid-column: 1 / -1; }
ul.notes { margin: .4em 0; padding-left: 1.4em; color: #333; }
nav.toc { font-size: .92em; margin: .6em 0; color: #57606a; }
nav.toc a { color: #1f4e79; margin-right: 1.1em; }
.box { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; margin: .4em 0 .6em; font-size: .86em; }
th, td { border: 1px solid #d0d7de; padding: .3em .5em; text-align: right; vertical-align: top; }
th { background: #f3f6f9; font-weight: 600; vertical-align: bottom; }
td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.name, th.name, th:first-child { text-align: left; }
td.name { font-weight: 600; overflow-wrap: anywhere; min-width: 9em; max-width: 17em; }
td.rank { color: #57606a; text-align: center; }
tbody tr:nth-child(even) { background: #fafbfc; }
td.best { background: #dff0d8; font-weight: 700; }
td.sig { background: #e6f4ea; }
td.ref { color: #57606a; font-style: italic; text-align: center; }
td.diag { color: #aaa; text-align: center; }
span.ci { display: block; font-size: .84em; color: #57606a; font-weight: 400; }
th small { display: block; font-weight: 400; color: #57606a; }
.caption { color: #4a525a; font-size: .88em; max-width: 72em; margin: .2em 0 1em; }
.figs { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 1em; align-items: start; }
.figs.stacked { grid-template-columns: minmax(0, 1fr); max-width: 1060px; }
figure.forest { max-width: 640px; }
figure { margin: 0; min-width: 0; }
figcaption { color: #4a525a; font-size: .85em; margin-top: .2em; }
img { max-width: 100%; height: auto; border: 1px solid #e1e4e8; }
figure img { max-height: 720px; width: auto; }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: .5em 0; padding: .3em .9em; }
details[open] { padding-bottom: .8em; }
summary { cursor: pointer; padding: .2em 0; }
summary h2 { display: inline; font-size: 1.1em; margin: 0; }
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(300px, 2fr); gap: 1.2em; align-items: start; }
.warn { color: #8a6d3b; }
code { background: #f3f6f9; padding: 0 .25em; overflow-wrap: anywhere; }
footer { margin-top: 2.5em; font-size: .82em; color: #57606a; border-top: 1px solid #d0d7de; padding-top: .6em; }
"""
