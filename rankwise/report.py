"""A self-contained HTML report comparing scorers: criteria with confidence intervals,
a joint comparison of the AUCs, ROC curves with bootstrap bands.

The command line (``rankwise ... --report PATH``) and the main job call
:func:`write_report`; it is usable from Python as well::

    import rankwise.report
    out = rankwise.report.write_report(
        "report.html", title="Validation", y_true=y,
        scores={"model": s1, "baseline": s2},
        criteria=["auc", "local_auc:top=0.1", "dcg:k=100"])
    out["criteria"]["model"]["auc"]["value"]

What is written
---------------
* ``PATH``: one HTML page that works alone (inline CSS, figures embedded as base64
  ``data:image/png`` URIs, no JavaScript);
* ``<stem>_files/roc.png`` (and ``auc.png``, the AUC of every scorer with its interval)
  beside it: the same figures as files, for slides and papers.

Everything is computed in memory first; only then are the files written, each one
atomically (:func:`rankwise.io.write_atomic`), the page last. Bad input (one class
only, scores of the wrong length, an unknown criterion) raises before anything is
written. The page and its figure files are all outputs (:func:`output_paths`): if any
of them exists (a dangling link included), nothing is computed or written unless
``force=True``; without it each is created exclusively.

Score names and titles are user text: they are drawn literally, never read as
matplotlib mathtext (a column named ``$\\frac{a$`` is a name, not a formula).

matplotlib is an optional dependency of rankwise: it is imported inside
:func:`write_report` (Agg canvas, no pyplot state touched).
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
import warnings
from typing import Any, Callable, Iterable

import numpy as np

from .io import check_output, write_atomic

__all__ = ["write_report", "output_paths"]

_esc = html.escape


# --- numbers ---------------------------------------------------------------------------
def _fmt(x: Any, digits: int = 4) -> str:
    """Numbers as in rankwise.stats summaries (4 decimals, scientific when tiny)."""
    from .stats import fmt

    return fmt(x, digits)


def _fmt_p(p: float) -> str:
    if p is None or not np.isfinite(p):
        return "nan"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _p_eq(p: float) -> str:
    s = _fmt_p(p)
    return s if s.startswith("<") else f"= {s}"


_METHOD_NAMES = {"delong": "DeLong", "hajek": "Hájek", "hoeffding": "Hoeffding"}


def _cell(value: float, low: float, high: float) -> str:
    return f"{_fmt(value)} [{_fmt(low)}, {_fmt(high)}]"


def _check_inputs(title, scores, y_true, criteria, ci_method, confidence_level, n_resamples):
    from ._validation import check_binary_inputs, check_binary_labels

    if not isinstance(title, str):
        raise TypeError(f"write_report: 'title' must be a string. Got {type(title).__name__} instead.")
    if not isinstance(scores, dict) or not scores:
        raise ValueError("write_report: 'scores' must be a non-empty dict {name: scores}.")
    for name in scores:
        if not isinstance(name, str):
            raise TypeError(f"write_report: score names must be strings. Got {name!r}.")
    if isinstance(criteria, str):
        criteria = [criteria]
    criteria = list(criteria)
    if not criteria:
        raise ValueError("write_report: 'criteria' is empty; give at least one, e.g. ['auc'].")
    if len(set(criteria)) != len(criteria):
        raise ValueError(f"write_report: 'criteria' lists a criterion twice: {criteria}.")
    if ci_method is not None and not isinstance(ci_method, str):
        raise TypeError(f"write_report: 'ci_method' must be None or a string. Got {ci_method!r}.")
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"write_report: 'confidence_level' must be in (0, 1). Got {confidence_level!r}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"write_report: 'n_resamples' must be a positive integer. Got {n_resamples!r}.")
    is_pos, both = check_binary_labels(y_true)
    if not both:
        raise ValueError("write_report: y_true holds only one class; the report needs positives and negatives.")
    cols = {}
    for name, s in scores.items():
        _, col, _, _ = check_binary_inputs(y_true, s)
        cols[name] = col
    return is_pos, cols, criteria


def _estimate_row(est, ci_method, level, n_resamples, random_state) -> dict:
    """One criterion's value with its interval: ``ci_method`` (None: the criterion's own
    default, which is the bootstrap for a criterion without an analytic one). The
    bootstrap always draws ``n_resamples`` with ``random_state``, so the page is
    reproducible."""
    ci = est.confidence_interval(level, method=ci_method, n_resamples=n_resamples, random_state=random_state)
    # The analytic standard error where there is one, else the bootstrap's.
    se = est.std_error if np.isfinite(est.std_error) else ci.std_error
    return {"value": float(est.value), "std_error": float(se), "low": float(ci.low), "high": float(ci.high),
            "method": ci.method}


def _compute(y_true, cols, criteria, ci_method, level, n_resamples, random_state):
    """All the numbers of the report, as plain Python (JSON-ready) values: ``(criteria
    rows, AUC rows)``, the AUC being the area of the ROC curves drawn. One rank table per
    scorer serves every criterion (the AUC's row is reused when a criterion is the AUC)."""
    from . import criteria as _criteria
    from . import stats

    auc = _criteria.get("auc")
    auc_spec = next((spec for spec in criteria if _criteria.get(spec) == auc), None)
    specs = list(criteria) + ([] if auc_spec is not None else ["auc"])
    crit, aucs = {}, {}
    for name, s in cols.items():
        rows = {spec: _estimate_row(est, ci_method, level, n_resamples, random_state)
                for spec, est in zip(specs, stats.iter_estimates(y_true, s, specs))}
        aucs[name] = rows[auc_spec if auc_spec is not None else "auc"]
        crit[name] = {spec: rows[spec] for spec in criteria}
    return crit, aucs


def _comparison(y_true, cols, level) -> dict | None:
    from . import stats

    if len(cols) < 2:
        return None
    c = stats.compare(y_true, dict(cols), "auc", confidence_level=level)
    names = list(c.names)
    k = len(names)
    matrix = [[None] * k for _ in range(k)]
    pairs = []
    for p in c.pairs:
        i, j = names.index(p.a), names.index(p.b)
        matrix[i][j] = matrix[j][i] = float(p.p_adjusted)
        pairs.append({f: float(getattr(p, f)) if f not in ("a", "b") else getattr(p, f) for f in p._fields})
    return {
        "criterion": "auc",
        "method": c.method,
        "adjust": c.adjust,
        "names": names,
        "values": [float(v) for v in c.values],
        "std_errors": [float(v) for v in c.std_errors],
        "pairs": pairs,
        "p_adjusted_matrix": matrix,
        "global_statistic": float(c.global_statistic),
        "global_df": float(c.global_df),
        "global_p_value": float(c.global_p_value),
    }


# --- figures ---------------------------------------------------------------------------
_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    return buf.getvalue()


def _roc_figure(bands: dict, aucs: dict, level: float) -> bytes:
    from matplotlib.figure import Figure

    k = len(bands)
    ncols = min(k, 3)
    nrows = math.ceil(k / ncols)
    fig = Figure(figsize=(4.2 * ncols, 4.2 * nrows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
    for i, (ax, (name, b)) in enumerate(zip(axes, bands.items())):
        color = _COLORS[i % len(_COLORS)]
        ax.plot([0, 1], [0, 1], color="#999999", lw=0.8, ls="--")
        ax.fill_between(b.fpr, b.simultaneous_low, b.simultaneous_high, color=color, alpha=0.15, lw=0,
                        label=f"simultaneous {level:.0%}")
        ax.fill_between(b.fpr, b.pointwise_low, b.pointwise_high, color=color, alpha=0.30, lw=0,
                        label=f"pointwise {level:.0%}")
        ax.plot(b.fpr, b.tpr, color=color, lw=1.8, label="ROC")
        ax.set_title(f"{name}  (AUC = {_fmt(aucs[name]['value'], 3)})", fontsize=10, parse_math=False)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.01)
        ax.set_aspect("equal")
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    for ax in axes[k:]:
        ax.set_visible(False)
    return _png(fig)


def _auc_figure(aucs: dict, level: float) -> bytes:
    from matplotlib.figure import Figure

    names = list(aucs)
    k = len(names)
    fig = Figure(figsize=(6.4, 0.9 + 0.45 * k), layout="constrained")
    ax = fig.subplots()
    y = np.arange(k)[::-1]
    v = np.array([aucs[n]["value"] for n in names])
    lo = np.array([aucs[n]["low"] for n in names])
    hi = np.array([aucs[n]["high"] for n in names])
    err = np.vstack([np.maximum(v - lo, 0), np.maximum(hi - v, 0)])
    ax.errorbar(v, y, xerr=err, fmt="o", color="#1f77b4", ecolor="#1f77b4", capsize=4)
    ax.axvline(0.5, color="#999999", lw=0.8, ls="--")
    ax.set_yticks(y)
    ax.set_yticklabels(names, parse_math=False)
    ax.set_ylim(-0.7, k - 0.3)
    ax.set_xlabel(f"AUC with {level:.0%} confidence interval")
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


# --- HTML ------------------------------------------------------------------------------
_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222;
       max-width: 1180px; margin: 2em auto; padding: 0 1.5em; line-height: 1.45; }
h1 { font-size: 1.7em; border-bottom: 2px solid #1f77b4; padding-bottom: .25em; }
h2 { font-size: 1.2em; margin-top: 1.8em; color: #1f4e79; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: .92em; }
th, td { border: 1px solid #d0d7de; padding: .35em .7em; text-align: right; white-space: nowrap; }
th { background: #f3f6f9; }
td:first-child, th:first-child { text-align: left; font-weight: 600; }
tbody tr:nth-child(even) { background: #fafbfc; }
td.diag { color: #aaa; text-align: center; }
td.sig { background: #e6f4ea; }
ul.notes { background: #f6f8fa; border-left: 4px solid #1f77b4; padding: .6em 1em .6em 2em; }
.caption { color: #555; font-size: .88em; max-width: 60em; }
img { max-width: 100%; height: auto; border: 1px solid #e1e4e8; }
.warn { color: #8a6d3b; }
code { background: #f3f6f9; padding: 0 .25em; }
"""


def _table(header: list[str], rows: list[list[str]], cls: str = "", cell_classes=None) -> str:
    """Header and rows are already-escaped HTML fragments."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = []
    for i, r in enumerate(rows):
        cells = []
        for j, c in enumerate(r):
            k = cell_classes[i][j] if cell_classes else ""
            cells.append(f'<td class="{k}">{c}</td>' if k else f"<td>{c}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    klass = f' class="{cls}"' if cls else ""
    return f"<table{klass}><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _show_value(v: Any) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k}={_show_value(x)}" for k, x in v.items())
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.4g}"
    if v is None:
        return "-"
    return str(v)


def _learner_table(learners: list[dict]) -> str:
    keys: list[str] = []
    for d in learners:
        for k in d:
            if k not in keys:
                keys.append(str(k))
    if "name" in keys:
        keys.remove("name")
        keys.insert(0, "name")
    header = [_esc(k) for k in keys]
    rows = [[_esc(_show_value(d.get(k))) if k in d else "" for k in keys] for d in learners]
    return _table(header, rows, "learners")


def _img(data: bytes, alt: str) -> str:
    b64 = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{b64}" alt="{_esc(alt)}">'


def _render(title, notes, info, criteria, crit, comp, auc_png, roc_png, learners, caught, level, ci_method,
            n_resamples, files_rel) -> str:
    lvl = f"{level:.0%}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
    ]
    items = [_esc(str(n)) for n in notes]
    items.append(f"n = {info['n']}: {info['n_pos']} positives, {info['n_neg']} negatives "
                 f"(positive share {info['n_pos'] / info['n']:.1%})")
    items.append(f"confidence intervals: {lvl}, "
                 + ("bootstrap (BCa, " + f"{n_resamples} resamples)" if ci_method == "bootstrap"
                    else (_esc(ci_method) if ci_method else "each criterion's default analytic method")))
    items.append(f"figures also saved as files in <code>{_esc(files_rel)}/</code>")
    parts.append('<ul class="notes">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>")

    # criteria
    parts.append("<h2>Criteria</h2>")
    header = ["scorer"] + [_esc(c) for c in criteria]
    rows = [[_esc(name)] + [_esc(_cell(r[c]["value"], r[c]["low"], r[c]["high"])) for c in criteria]
            for name, r in crit.items()]
    parts.append(_table(header, rows, "criteria"))
    methods = sorted({r[c]["method"] for r in crit.values() for c in criteria})
    parts.append(f'<p class="caption">Each cell: value [{lvl} confidence interval]; interval method: '
                 f"{_esc(', '.join(methods))}.</p>")
    if auc_png is not None:
        parts.append(_img(auc_png, "AUC of every scorer with its confidence interval"))

    # comparison
    if comp is not None:
        parts.append("<h2>Comparison of the scorers on the AUC</h2>")
        names = comp["names"]
        header = ["difference", "estimate", f"{lvl} CI", "z", "p-value", f"p ({_esc(comp['adjust'])})"]
        rows, classes = [], []
        for p in comp["pairs"]:
            rows.append([_esc(f"{p['a']} - {p['b']}"), _esc(_fmt(p["difference"])),
                         _esc(f"[{_fmt(p['low'])}, {_fmt(p['high'])}]"), _esc(_fmt(p["statistic"], 3)),
                         _esc(_fmt_p(p["p_value"])), _esc(_fmt_p(p["p_adjusted"]))])
            sig = "sig" if p["p_adjusted"] < 1 - level else ""
            classes.append(["", "", "", "", "", sig])
        parts.append(_table(header, rows, "pairs", classes))
        header = [f"p ({_esc(comp['adjust'])})"] + [_esc(n) for n in names]
        rows, classes = [], []
        for i, a in enumerate(names):
            row, cl = [_esc(a)], [""]
            for j in range(len(names)):
                p = comp["p_adjusted_matrix"][i][j]
                if i == j:
                    row.append("&ndash;")
                    cl.append("diag")
                else:
                    row.append(_esc(_fmt_p(p)))
                    cl.append("sig" if p < 1 - level else "")
            rows.append(row)
            classes.append(cl)
        parts.append(_table(header, rows, "matrix", classes))
        parts.append(f'<p class="caption">Paired {_esc(_METHOD_NAMES.get(comp["method"], comp["method"]))} test on the same observations; '
                     f"p-values adjusted for the {len(comp['pairs'])} pairwise tests by "
                     f"{_esc(comp['adjust'].capitalize())}'s method (shaded: below {1 - level:.2g}); intervals "
                     f"not adjusted. All equal: chi2 = {_fmt(comp['global_statistic'], 3)}, "
                     f"df = {_show_value(comp['global_df'])}, p {_esc(_p_eq(comp['global_p_value']))}.</p>")

    # ROC
    parts.append("<h2>ROC curves</h2>")
    parts.append(_img(roc_png, "ROC curves with bootstrap confidence bands"))
    parts.append(f'<p class="caption">Empirical ROC curve of each scorer with the {lvl} pointwise (darker) and '
                 f"simultaneous (lighter) bootstrap bands, {n_resamples} class-stratified resamples.</p>")

    if learners:
        parts.append("<h2>Learners</h2>")
        parts.append(_learner_table(learners))

    if caught:
        parts.append("<h2>Warnings</h2>")
        parts.append("<ul>" + "".join(f'<li class="warn">{_esc(w)}</li>' for w in caught) + "</ul>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


# --- entry point -----------------------------------------------------------------------
def output_paths(path, auc_plot: bool = True) -> list[str]:
    """Every file :func:`write_report` writes for the page ``path``: the page, then
    ``<stem>_files/roc.png`` (and ``auc.png``). The command line checks them all before
    reading any data."""
    path = os.fspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    files_dir = os.path.join(os.path.dirname(path), f"{stem}_files")
    return [path, os.path.join(files_dir, "roc.png")] + ([os.path.join(files_dir, "auc.png")] if auc_plot else [])


def write_report(path, *, title: str, scores: dict, y_true, criteria: Iterable[str] = ("auc",),
                 ci_method: str | None = None, confidence_level: float = 0.95, notes: Iterable[str] = (),
                 learners: list | None = None, n_resamples: int = 1000, random_state: Any = 0,
                 force: bool = False, auc_plot: bool = True,
                 progress: Callable[[str], None] | None = None) -> dict:
    """Compute the report's numbers and write the HTML page and its figures.

    Parameters
    ----------
    path : str or path-like
        The HTML page, e.g. ``out/report.html``; figures go to ``out/report_files/``.
    title : str
    scores : dict name -> array-like
        One score column per scorer, on the same observations as ``y_true``.
    y_true : array-like
        Binary labels (as in :func:`rankwise.auc`); both classes must be present.
    criteria : list of str
        Spec strings understood by :func:`rankwise.stats.estimate`: ``"auc"``,
        ``"local_auc:top=0.1"``, ``"pnorm_push:p=4"``, ``"dcg:k=100"``,
        ``"partial_auc:max_fpr=0.1"``, ...
    ci_method : str or None
        ``None``: each criterion's default analytic interval (DeLong for the AUC, Hájek
        otherwise); ``"bootstrap"``: BCa bootstrap with ``n_resamples`` and
        ``random_state``; or an analytic method name valid for every criterion.
    confidence_level : float in (0, 1)
    notes : list of str
        Lines shown under the title (data file, split, ...); escaped.
    learners : list of dict, optional
        One summary per learner (``{"name": ..., "params": {...}, "fit_seconds": ...}``),
        shown as a table with the union of the keys as columns.
    n_resamples, random_state
        For the ROC bands (and the bootstrap intervals).
    progress : callable, optional
        Called with a short text at the start of each stage (criteria, comparison, each
        scorer's ROC bands, figures): the command line prints it.
    force : bool
        Replace an existing page or figure file. Without it, an existing one (or a
        dangling link there) is refused before any computation.
    auc_plot : bool
        Also draw the AUC of every scorer with its interval (``<stem>_files/auc.png``).

    Returns
    -------
    dict
        ``title``, ``n``, ``n_pos``, ``n_neg``, ``confidence_level``, ``ci_method``,
        ``criteria`` (``{scorer: {criterion: {"value", "std_error", "low", "high",
        "method"}}}``), ``auc`` (the same for the AUC of every scorer), ``comparison``
        (``None`` with one scorer, else ``names``, ``values``, ``std_errors``,
        ``pairs`` [dicts with the fields of :class:`rankwise.stats.PairwiseDifference`],
        ``p_adjusted_matrix`` [K x K, ``None`` on the diagonal], ``global_statistic``,
        ``global_df``, ``global_p_value``, ``method``, ``adjust``), ``warnings``
        (messages caught while computing, also listed on the page) and ``paths``
        (``html``, ``files_dir``, ``roc``, and ``auc`` when drawn).

    Raises
    ------
    FileExistsError
        ``path`` or one of its figure files exists and ``force`` is false (checked before
        any computation, and again when writing).
    ValueError, TypeError
        Invalid input, e.g. only one class in ``y_true``; nothing is written.
    """
    path = os.fspath(path)
    outputs = output_paths(path, auc_plot)
    for out in outputs:
        check_output(out, force=force)
    notes = [notes] if isinstance(notes, str) else list(notes)
    learners = list(learners) if learners else []
    for d in learners:
        if not isinstance(d, dict):
            raise TypeError(f"write_report: each learner summary must be a dict. Got {type(d).__name__}.")
    level = float(confidence_level) if isinstance(confidence_level, (int, float)) else confidence_level
    is_pos, cols, criteria = _check_inputs(title, scores, y_true, criteria, ci_method, level, n_resamples)
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - matplotlib is installed in dev
        raise ImportError("write_report needs matplotlib (pip install matplotlib).") from exc

    from . import stats

    step = progress if progress is not None else (lambda what: None)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        step(f"criteria of {len(cols)} scorer(s)")
        crit, aucs = _compute(y_true, cols, criteria, ci_method, level, n_resamples, random_state)
        step("comparison")
        comp = _comparison(y_true, cols, level)
        bands = {}
        for k, (name, s) in enumerate(cols.items(), 1):
            step(f"ROC bands {k}/{len(cols)} ({n_resamples} resamples): {name}")
            bands[name] = stats.roc_band(y_true, s, confidence_level=level, n_resamples=int(n_resamples),
                                         random_state=random_state)
    caught = list(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in record))

    step("figures and page")
    roc_png = _roc_figure(bands, aucs, level)
    auc_png = _auc_figure(aucs, level) if auc_plot else None

    n_pos = int(is_pos.sum())
    info = {"n": int(is_pos.shape[0]), "n_pos": n_pos, "n_neg": int(is_pos.shape[0]) - n_pos}
    stem = os.path.splitext(os.path.basename(path))[0]
    files_dir = os.path.dirname(outputs[1])
    page = _render(title, notes, info, criteria, crit, comp, auc_png, roc_png, learners, caught, level,
                   ci_method, n_resamples, f"{stem}_files")

    figures = {"roc": (outputs[1], roc_png)}
    if auc_png is not None:
        figures["auc"] = (outputs[2], auc_png)
    created_dir = not os.path.isdir(files_dir)
    written: list[str] = []
    try:
        for fpath, data in figures.values():
            existed = os.path.exists(fpath)
            write_atomic(fpath, data, binary=True, force=force)
            if not existed:
                written.append(fpath)
        write_atomic(path, page, force=force)
    except BaseException:
        for fpath in written:  # leave no half report behind
            try:
                os.unlink(fpath)
            except OSError:
                pass
        if created_dir:
            try:
                os.rmdir(files_dir)
            except OSError:
                pass
        raise

    paths = {"html": path, "files_dir": files_dir}
    paths.update({k: v[0] for k, v in figures.items()})
    return {
        "title": title,
        **info,
        "confidence_level": level,
        "ci_method": ci_method,
        "criteria": crit,
        "auc": aucs,
        "comparison": comp,
        "warnings": caught,
        "paths": paths,
    }
