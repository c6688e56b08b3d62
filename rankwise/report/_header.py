"""The page's header: the title, then what was measured and how (the rankwise version,
the time, the data and its fingerprint, n and the clusters, the groups, the positive class,
the command), then the caller's notes. For censored times (``ReportData.kind`` is
``"censored"``) the labels' lines become the times': the events and censorings, the time
and event columns, the direction of the risk scores."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

import numpy as np

from .._version import __version__
from ..io import array_fingerprint
from ._html import esc, size_text
from ._page import Section


@dataclass(frozen=True)
class Header:
    """``version``, ``generated`` (UTC, to the second) and ``fingerprint`` (SHA-256 of
    the labels and scores, and of the clusters and groups when given); with groups,
    ``group_sizes`` and ``group_positives`` (rows and positives of each group, in the order
    of ``ReportData.group_names``)."""

    version: str
    generated: str
    fingerprint: str
    group_sizes: tuple = ()
    group_positives: tuple = ()


class HeaderSection(Section):
    key = "header"
    kinds = ("binary", "censored")

    def compute(self, data, prior) -> Header:
        if data.kind == "censored":
            arrays = [("time", data.time), ("event", data.event)] + list(data.scores.items())
            arrays += [(k, v) for k, v in (("clusters", data.clusters), ("strata", data.strata)) if v is not None]
            return Header(version=__version__,
                          generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                          fingerprint=array_fingerprint(arrays))
        arrays = [("y_true", data.y01 == 1)] + list(data.scores.items())
        if data.clusters is not None:
            arrays.append(("clusters", data.clusters))
        sizes = positives = ()
        if data.groups is not None:
            # The groups' names in the key: the same partition under other names is other data.
            arrays.append(("groups " + repr([str(g) for g in data.group_names]), data.group_codes))
            G = len(data.group_names)
            sizes = tuple(int(k) for k in np.bincount(data.group_codes, minlength=G))
            positives = tuple(int(k) for k in np.bincount(data.group_codes, weights=data.y01, minlength=G))
        return Header(version=__version__,
                      generated=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                      fingerprint=array_fingerprint(arrays), group_sizes=sizes, group_positives=positives)

    def render(self, data, result: Header, figures: dict) -> str:
        meta = _censored_block(data, result) if data.kind == "censored" else _meta_block(data, result)
        parts = [f"<header><h1>{esc(data.title)}</h1>", meta]
        if data.notes:
            parts.append('<ul class="notes">' + "".join(f"<li>{esc(str(n))}</li>" for n in data.notes) + "</ul>")
        parts.append("</header>")
        return "\n".join(parts)

    def summary(self, data, result: Header) -> dict:
        if data.kind == "censored":
            return {"n": data.n, "n_events": data.n_events, "n_censored": data.n - data.n_events,
                    "n_clusters": data.n_clusters,
                    "metadata": {"version": result.version, "generated": result.generated, "data": data.source,
                                 "fingerprint": result.fingerprint, "risk_scores": "higher risk = earlier event",
                                 "command": data.command}}
        return {"n": data.n, "n_pos": data.n_pos, "n_neg": data.n_neg, "n_clusters": data.n_clusters,
                "metadata": {"version": result.version, "generated": result.generated, "data": data.source,
                             "fingerprint": result.fingerprint, "positive_label": data.positive_label,
                             "command": data.command}}


def data_items(data, version: str, generated: str, fingerprint: str, extra: tuple = ()) -> tuple[list, str]:
    """The header's first rows, shared by every page kind: rankwise's version, the time,
    the data (file name, size and SHA-256, or the fingerprint of the arrays: labels,
    scores, clusters and ``extra``) and ``n`` (with the clusters): ``(items, n_text)``."""
    d = data.source or {}
    parts = ["labels", "scores"] + (["clusters"] if data.clusters is not None else []) + list(extra)
    what = ", ".join(parts[:-1]) + " and " + parts[-1]
    items = [("rankwise", esc(version)), ("generated", esc(generated))]
    digest = f'SHA-256 of {what} <code title="{esc(fingerprint)}">{esc(fingerprint[:16])}</code>'
    if d.get("name"):
        text = esc(str(d["name"]))
        if d.get("size") is not None:
            text += f" &middot; {esc(size_text(int(d['size'])))}"
        if d.get("sha256"):
            text += f' &middot; SHA-256 <code title="{esc(d["sha256"])}">{esc(d["sha256"][:16])}</code>'
        else:
            text += f" &middot; {digest}"
        items.append(("data", text))
    else:
        items.append(("data", f"arrays in memory &middot; {digest}"))
    n = f"n = {data.n:,}"
    if data.n_clusters is not None:
        column = f" (<code>{esc(str(d['clusters']))}</code>)" if d.get("clusters") else ""
        n += f" rows in {data.n_clusters:,} clusters{column}"
    return items, n


def _meta_block(data, h: Header) -> str:
    d = data.source or {}
    items, n = data_items(data, h.version, h.generated, h.fingerprint,
                          ("groups",) if data.groups is not None else ())
    items.append(("observations", f"{n}: {data.n_pos:,} positives, {data.n_neg:,} negatives "
                                  f"(positive share {data.n_pos / data.n:.1%})"))
    if data.groups is not None:
        items.append(("groups", group_text(data, h)))
    pos = esc(str(data.positive_label))
    if d.get("label"):
        pos = f"<code>{esc(str(d['label']))}</code> = {pos}"
    items.append(("positive class", pos))
    items.append(("produced by", f"<code>{esc(data.command)}</code>"))
    return '<dl class="meta">' + "".join(
        f'<div{" class=" + chr(34) + "wide" + chr(34) if k == "produced by" else ""}><dt>{k}</dt><dd>{v}</dd></div>'
        for k, v in items) + "</dl>"


def _censored_block(data, h: Header) -> str:
    """The header's lines for censored times: as :func:`_meta_block`, with the events and
    censorings, the time and event columns and the direction of the risk scores in place
    of the labels' lines."""
    d = data.source or {}
    parts = ["times", "events", "risk scores"] + [k for k, v in (("clusters", data.clusters),
                                                                  ("strata", data.strata)) if v is not None]
    what = ", ".join(parts[:-1]) + " and " + parts[-1]
    items = [("rankwise", esc(h.version)), ("generated", esc(h.generated))]
    digest = f'SHA-256 of {what} <code title="{esc(h.fingerprint)}">{esc(h.fingerprint[:16])}</code>'
    if d.get("name"):
        text = esc(str(d["name"]))
        if d.get("size") is not None:
            text += f" &middot; {esc(size_text(int(d['size'])))}"
        if d.get("sha256"):
            text += f' &middot; SHA-256 <code title="{esc(d["sha256"])}">{esc(d["sha256"][:16])}</code>'
        else:
            text += f" &middot; {digest}"
        items.append(("data", text))
    else:
        items.append(("data", f"arrays in memory &middot; {digest}"))
    n, e = data.n, data.n_events
    obs = f"n = {n:,}"
    if data.n_clusters is not None:
        column = f" (<code>{esc(str(d['clusters']))}</code>)" if d.get("clusters") else ""
        obs += f" rows in {data.n_clusters:,} clusters{column}"
    items.append(("observations", f"{obs}: {e:,} events, {n - e:,} censored (event share {e / n:.1%})"))
    if d.get("time") or d.get("event"):
        event = f"<code>{esc(str(d.get('event', 'event')))}</code>"
        if d.get("event_value") is not None:
            event += f" = {esc(str(d['event_value']))}"
        items.append(("censored times", f"time <code>{esc(str(d.get('time', 'time')))}</code>, event {event}"))
    items.append(("risk scores", "higher risk = earlier event, for every scorer"))
    items.append(("produced by", f"<code>{esc(data.command)}</code>"))
    return '<dl class="meta">' + "".join(
        f'<div{" class=" + chr(34) + "wide" + chr(34) if k == "produced by" else ""}><dt>{k}</dt><dd>{v}</dd></div>'
        for k, v in items) + "</dl>"


#: The header names at most this many groups with their sizes (the section by group lists them all).
SHOWN_GROUPS = 12


def group_text(data, h: Header) -> str:
    """The header's line on the groups: the column, how many, and each one's size."""
    G = len(data.group_names)
    column = f"<code>{esc(data.group_name)}</code>: " if data.group_name else ""
    sizes = [f"{esc(str(g))} ({n:,} rows, {p:,} positives)"
             for g, n, p in zip(data.group_names[:SHOWN_GROUPS], h.group_sizes, h.group_positives)]
    text = f"{column}{G:,} group{'s' if G != 1 else ''}: " + ", ".join(sizes)
    if G > SHOWN_GROUPS:
        rest = h.group_sizes[SHOWN_GROUPS:]
        text += f", and {G - SHOWN_GROUPS:,} more ({min(rest):,} to {max(rest):,} rows)"
    return text
