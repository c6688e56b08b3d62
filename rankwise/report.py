"""A self-contained HTML report comparing scorers, for a practitioner to send to a colleague:
the overview first (one ranked table with intervals, the differences to a reference
scorer, the ROC, precision-recall and gain curves of every scorer on one figure each), then the
details of each scorer in collapsible sections.

The command line (``rankwise report``, ``rankwise demo``) calls :func:`write_report`; it
is usable from Python as well::

    import rankwise.report
    out = rankwise.report.write_report(
        "report.html", title="Validation", y_true=y,
        scores={"model": s1, "baseline": s2},
        criteria=["auc", "local_auc:top=0.1", "dcg:k=100"], reference="baseline")
    out["criteria"]["model"]["auc"]["value"]

What the page holds
-------------------
* a header: the rankwise version, the date and time (UTC), the data (file name, size and
  SHA-256 when the caller names a file, else the SHA-256 of the labels and scores), n,
  the positives and the positive label, and the command or call that produced it;
* **Overview**: the scorers ranked by ``rank_by`` (the first criterion by default), each
  criterion under its readable name (:meth:`rankwise.criteria.Criterion.describe`) with
  its confidence interval, the best value of each column highlighted; the difference of
  each scorer to the ``reference`` scorer on the ranking criterion (the AUC when that
  criterion has no analytic variance) with its paired test, the p-values Holm-adjusted
  over the comparisons with the reference, the family said in words;
* the ROC curves of every scorer on one figure, the precision-recall curves and the
  cumulative gain curves on others;
* operating points: the TPR and precision at fixed false positive rates with intervals,
  the cut to deploy for each, Youden's cut;
* for scores in [0, 1] (probabilities): the Brier score, the expected calibration error,
  reliability curves and per-class score distributions;
* **Details per scorer** (``<details>``, collapsed): every criterion with its standard
  error, interval and method, the ROC curve with its pointwise and simultaneous
  bootstrap bands, the learner's parameters when given;
* **All pairwise comparisons** (collapsed): every pair, p-values adjusted over all pairs;
* the warnings met while computing, if any.

What is written
---------------
* ``PATH``: one HTML page that works alone (inline CSS, figures embedded as base64
  ``data:image/png`` URIs, no JavaScript) and fits a 1,400-pixel window without
  horizontal scrolling;
* ``<stem>_files/roc.png``, ``pr.png``, ``gain.png`` (and ``auc.png``, the interval of
  every scorer's AUC; ``calibration.png`` and ``distributions.png`` when some scores are
  probabilities) beside it: the same figures as files, for slides and papers.

Everything is computed in memory first; only then are the files written, each one
atomically (:func:`rankwise.io.write_atomic`), the page last. Bad input (one class
only, scores of the wrong length, an unknown criterion or reference) raises before
anything is written. The page and its figure files are all outputs (:func:`output_paths`):
if any of them exists (a dangling link included), nothing is computed or written unless
``force=True``; without it each is created exclusively.

Score names and titles are user text: they are drawn literally, never read as
matplotlib mathtext (a column named ``$\\frac{a$`` is a name, not a formula), and
escaped in the page.

matplotlib is imported inside :func:`write_report` (Agg canvas, no pyplot state touched).
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import io
import math
import os
import warnings
from typing import Any, Callable, Iterable

import numpy as np

from ._version import __version__
from .io import array_fingerprint, check_output, write_atomic
from .metrics import cut_at_fpr  # the deployable cut of the operating-point table

__all__ = ["write_report", "output_paths", "cut_at_fpr"]

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


def _interval(low: float, high: float) -> str:
    return f"[{_fmt(low)}, {_fmt(high)}]"


def _cell(value: float, low: float, high: float) -> str:
    return f"{_fmt(value)} {_interval(low, high)}"


def _bytes(n: int) -> str:
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit} ({n:,} bytes)"
    return f"{n:,} bytes"


_METHOD_NAMES = {"delong": "DeLong", "hajek": "Hájek", "hoeffding": "Hoeffding", "bootstrap": "bootstrap (BCa)"}
_ADJUST_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "bh": "Benjamini-Hochberg"}


# --- input -----------------------------------------------------------------------------
def _check_inputs(title, scores, y_true, criteria, ci_method, confidence_level, n_resamples, pos_label):
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
    is_pos, both = check_binary_labels(y_true, pos_label=pos_label)
    if not both:
        raise ValueError("write_report: y_true holds only one class; the report needs positives and negatives.")
    cols = {}
    for name, s in scores.items():
        _, col, _, _ = check_binary_inputs(is_pos, s)
        cols[name] = col
    return is_pos, cols, criteria


_DATA_KEYS = ("name", "size", "sha256", "label", "positive_label")


def _check_data(data) -> None:
    """``data``: None or a dict of the keys :func:`write_report` documents."""
    if data is None:
        return
    if not isinstance(data, dict):
        raise TypeError(f"write_report: 'data' must be a dict (name, size, sha256, ...). Got {type(data).__name__}.")
    unknown = [k for k in data if k not in _DATA_KEYS]
    if unknown:
        raise ValueError(f"write_report: 'data' has unknown key(s) {unknown}; its keys are {list(_DATA_KEYS)}.")
    size = data.get("size")
    if size is not None and (isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 0):
        raise ValueError(f"write_report: data['size'] must be a number of bytes (an int >= 0). Got {size!r}.")
    digest = data.get("sha256")
    if digest is not None and not (isinstance(digest, str) and len(digest) == 64
                                   and all(c in "0123456789abcdef" for c in digest.lower())):
        raise ValueError(f"write_report: data['sha256'] must be 64 hexadecimal digits. Got {digest!r}.")


def _check_fprs(fprs) -> list[float]:
    try:
        values = [float(x) for x in ([fprs] if isinstance(fprs, (int, float)) else fprs)]
    except (TypeError, ValueError):
        values = []
    if not values or not all(0.0 < x < 1.0 for x in values) or isinstance(fprs, (str, bytes)):
        raise ValueError(f"write_report: 'operating_fpr' must be false-positive rates in (0, 1), e.g. "
                         f"(0.01, 0.05, 0.1). Got {fprs!r}.")
    return sorted(set(values))


def _check_choice_of_scorer(value, names, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in names:
        raise ValueError(f"write_report: {what!r} must be one of the scorer names {list(names)}. Got {value!r}.")
    return value


def _units(criteria: list[str], rank_by: str | None) -> tuple[dict, str]:
    """The unit of every criterion (an unknown one raises here, before any work) and the
    ranking criterion (the first by default; one of ``criteria``)."""
    from . import criteria as _criteria

    units = {spec: _criteria.get(spec) for spec in criteria}
    if rank_by is None:
        rank_by = criteria[0]
    elif rank_by not in units:
        raise ValueError(f"write_report: 'rank_by' must be one of the criteria {criteria}. Got {rank_by!r}.")
    return units, rank_by


# --- computing -------------------------------------------------------------------------
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
    """All the criteria numbers, as plain Python (JSON-ready) values: ``(criteria rows, AUC
    rows)``, the AUC being the area of the ROC curves drawn. One rank table per scorer
    serves every criterion (the AUC's row is reused when a criterion is the AUC)."""
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


#: The ROC bands' grid of false positive rates.
_BAND_GRID = np.linspace(0.0, 1.0, 101)


def _operating(y01, cols, fprs, level, n_resamples, random_state, step) -> dict:
    """Per scorer: the TPR and precision at each false-positive rate of ``fprs`` with
    stratified bootstrap intervals, the cut to deploy for each rate (:func:`cut_at_fpr`)
    with its own rates, and Youden's cut.

    The TPR at a rate is the ROC curve read there (:func:`rankwise.operating_points`,
    pROC's ``coords``); the intervals are :func:`rankwise.stats.operating_points`'s
    (pROC's ``ci.se``), drawn from a few order statistics per resample, so they cost
    about one ``auc``."""
    from . import metrics, stats

    out = {}
    for k, (name, s) in enumerate(cols.items(), 1):
        step(f"operating points {k}/{len(cols)}: {name}")
        est = stats.operating_points(y01, s, fpr=list(fprs))
        ci = est.confidence_interval(level, n_resamples=int(n_resamples), random_state=random_state)
        cuts = cut_at_fpr(y01, s, fprs).tolist()
        at_cut = metrics.operating_points(y01, s, thresholds=cuts)
        rows = []
        for i, x in enumerate(fprs):
            rows.append({"fpr": float(x), "tpr": float(est.tpr[i]), "precision": float(est.precision[i]),
                         "tpr_low": float(ci.tpr_low[i]), "tpr_high": float(ci.tpr_high[i]),
                         "precision_low": float(ci.precision_low[i]), "precision_high": float(ci.precision_high[i]),
                         "cut": cuts[i], "cut_tpr": float(at_cut.tpr[i]), "cut_fpr": float(at_cut.fpr[i]),
                         "cut_precision": float(at_cut.precision[i])})
        yd = metrics.optimal_threshold(y01, s, method="youden")
        out[name] = {"at_fpr": rows, "youden": {"threshold": float(yd.threshold), "tpr": float(yd.tpr),
                                                "fpr": float(yd.fpr), "precision": float(yd.precision),
                                                "youden_index": float(yd.youden_index)},
                     "method": "bootstrap", "n_resamples": int(n_resamples)}
    return out


def _probability_scorers(cols: dict) -> list[str]:
    """The scorers whose every score lies in [0, 1]: read as probabilities."""
    return [name for name, s in cols.items() if s.size and float(s.min()) >= 0.0 and float(s.max()) <= 1.0]


_CAL_BINS = 10


def _calibration(y01, cols, names, level, n_resamples, random_state, step) -> tuple[dict, dict]:
    """Per probability scorer: the Brier score (normal interval), the expected calibration
    error over 10 equal-width bins (stratified bootstrap interval) and the Brier
    decomposition, as numbers; and the :class:`rankwise.stats.CalibrationSummary` objects
    (for the reliability figure)."""
    from . import stats

    numbers, summaries = {}, {}
    for k, name in enumerate(names, 1):
        step(f"calibration {k}/{len(names)}: {name}")
        c = stats.calibration(y01, cols[name], n_bins=_CAL_BINS, confidence_level=level)
        rows = {}
        for key, est in (("brier", c.brier_score), ("ece", c.calibration_error)):
            ci = est.confidence_interval(level, n_resamples=int(n_resamples), random_state=random_state)
            rows[key] = {"value": float(est.value), "std_error": float(est.std_error), "low": float(ci.low),
                         "high": float(ci.high), "method": ci.method}
        d = c.decomposition
        rows.update(reliability=float(d.reliability), resolution=float(d.resolution), uncertainty=float(d.uncertainty),
                    n_bins=int(d.n_bins))
        numbers[name] = rows
        summaries[name] = c
    return numbers, summaries


def _average_precisions(y01, cols, crit) -> dict:
    """The average precision of every scorer: the criteria's row when one of them is it."""
    from . import criteria as _criteria
    from . import metrics

    ap = _criteria.get("average_precision")
    spec = next((c for c in next(iter(crit.values())) if _criteria.get(c) == ap), None)
    if spec is not None:
        return {name: crit[name][spec]["value"] for name in cols}
    return {name: metrics.average_precision(y01, s) for name, s in cols.items()}


def _ranking(crit: dict, spec: str, unit) -> list[str]:
    """Scorer names from best to worst on ``spec`` (a loss: lowest first); nan last; ties
    keep the input order."""
    names = list(crit)
    sign = -1.0 if unit.greater_is_better else 1.0

    def key(i):
        v = crit[names[i]][spec]["value"]
        return (0, sign * v, i) if np.isfinite(v) else (1, 0.0, i)

    return [names[i] for i in sorted(range(len(names)), key=key)]


def _best(crit: dict, spec: str, unit) -> float | None:
    vals = [r[spec]["value"] for r in crit.values() if np.isfinite(r[spec]["value"])]
    if not vals:
        return None
    return max(vals) if unit.greater_is_better else min(vals)


def _comparison_dict(c) -> dict:
    names = list(c.names)
    k = len(names)
    matrix = [[None] * k for _ in range(k)]
    pairs = []
    for p in c.pairs:
        i, j = names.index(p.a), names.index(p.b)
        matrix[i][j] = matrix[j][i] = float(p.p_adjusted)
        pairs.append({f: float(getattr(p, f)) if f not in ("a", "b") else getattr(p, f) for f in p._fields})
    return {
        "criterion": c.criterion if not c.params else f"{c.criterion}:" + ",".join(f"{k}={v}" for k, v in c.params.items()),
        "method": c.method,
        "adjust": c.adjust,
        "reference": c.reference,
        "family": c.family,
        "names": names,
        "values": [float(v) for v in c.values],
        "std_errors": [float(v) for v in c.std_errors],
        "pairs": pairs,
        "p_adjusted_matrix": matrix,
        "global_statistic": float(c.global_statistic),
        "global_df": float(c.global_df),
        "global_p_value": float(c.global_p_value),
    }


def _comparisons(y_true, cols, level, reference, spec) -> tuple[dict | None, dict | None]:
    """``(all pairs on the AUC, each scorer against the reference on spec)``; None with
    one scorer."""
    from . import stats

    if len(cols) < 2:
        return None, None
    every = _comparison_dict(stats.compare(y_true, dict(cols), "auc", confidence_level=level))
    versus = _comparison_dict(stats.compare(y_true, dict(cols), spec, reference=reference, adjust="holm",
                                            confidence_level=level))
    versus["spec"] = spec
    return every, versus


def _family_words(comp: dict, reference_label: str | None = None) -> str:
    """"Holm-adjusted over the 14 comparisons with logreg" / "over all 105 pairs"."""
    how = _ADJUST_NAMES.get(comp["adjust"], comp["adjust"])
    m = len(comp["pairs"])
    if comp.get("reference") is not None:
        return f"{how}-adjusted over the {m} comparison{'s' if m != 1 else ''} with {reference_label or comp['reference']}"
    return f"{how}-adjusted over all {m} pair{'s' if m != 1 else ''} of scorers"


# --- figures ---------------------------------------------------------------------------
# Every figure is drawn by rankwise.display, on an Agg figure (no pyplot state touched).
def _png(fig) -> bytes:
    buf = io.BytesIO()
    # bbox_inches="tight": a legend beside the axes (many scorers) stays inside the image.
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", pad_inches=0.08, metadata={"Software": None})
    return buf.getvalue()


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots()


def _overlay_figures(y01, cols, order, aucs, aps) -> tuple[bytes, bytes, dict]:
    """The ROC curves of every scorer on one axes, the precision-recall curves on another
    (the displays give each curve its own colour); ``(roc png, pr png, {name: style})``,
    the style reused by the scorer's own figure."""
    from . import metrics
    from .display import PrecisionRecallDisplay, RocCurveDisplay

    # Beyond six curves the displays put the legend beside the axes: a wider figure (the
    # page then shows the two one above the other, at full size).
    width, height = (9.6, 6.4) if len(order) > 6 else (5.8, 5.6)
    fig_roc, ax_roc = _figure(width, height)
    fig_pr, ax_pr = _figure(width, height)
    styles = {}
    last = len(order) - 1
    for i, name in enumerate(order):
        c = metrics.roc_curve(y01, cols[name], drop_intermediate=True)
        d = RocCurveDisplay(fpr=c.fpr, tpr=c.tpr, thresholds=c.thresholds, roc_auc=aucs[name]["value"], name=name)
        d.plot(ax=ax_roc, legend=i == last)
        styles[name] = {"color": d.line_.get_color(), "linestyle": d.line_.get_linestyle()}
        p = metrics.precision_recall_curve(y01, cols[name])
        PrecisionRecallDisplay(precision=p.precision, recall=p.recall, thresholds=p.thresholds,
                               average_precision=aps[name], prevalence=float(p.precision[-1]),
                               name=name).plot(ax=ax_pr, legend=i == last, **styles[name])
    return _png(fig_roc), _png(fig_pr), styles


def _gain_figure(y01, cols, order, styles, at: float = 0.1) -> bytes:
    """The cumulative gain curves of every scorer on one axes, the legend stating the
    share of positives in the top ``at`` of the population."""
    from . import metrics
    from .display import GainDisplay

    width, height = (9.6, 6.4) if len(order) > 6 else (5.8, 5.6)
    fig, ax = _figure(width, height)
    for i, name in enumerate(order):
        g = metrics.gain_curve(y01, cols[name])
        GainDisplay(fraction_targeted=g.fraction_targeted, fraction_captured=g.fraction_captured,
                    thresholds=g.thresholds, at=at, name=name).plot(ax=ax, legend=i == len(order) - 1,
                                                                     **styles[name])
    return _png(fig)


def _band_figure(y01, s, band, aucs_row, name: str, style: dict) -> bytes:
    """One scorer's ROC curve with its pointwise and simultaneous bootstrap bands."""
    from . import metrics
    from .display import RocCurveDisplay

    fig, ax = _figure(4.6, 4.6)
    c = metrics.roc_curve(y01, s, drop_intermediate=True)
    RocCurveDisplay(fpr=c.fpr, tpr=c.tpr, thresholds=c.thresholds, roc_auc=aucs_row["value"], band=band,
                    name=name).plot(ax=ax, **style)
    return _png(fig)


def _calibration_figure(summaries: dict, cal: dict, order: list[str], styles: dict) -> bytes:
    """The reliability curves of the probability scorers on one axes (each bin's interval
    drawn when there are at most three)."""
    from .display import CalibrationDisplay

    names = [n for n in order if n in summaries]
    fig, ax = _figure(8.0 if len(names) > 6 else 5.8, 5.6)
    for i, name in enumerate(names):
        CalibrationDisplay(curve=summaries[name].curve, brier_score=cal[name]["brier"]["value"],
                           calibration_error=cal[name]["ece"]["value"], name=name).plot(
            ax=ax, intervals=len(names) <= 3, legend=i == len(names) - 1, **styles[name])
    return _png(fig)


def _distributions_figure(y01, cols, names: list[str]) -> bytes:
    """Each probability scorer's score histogram per class, on 20 bins of [0, 1]."""
    from . import metrics
    from .display import ScoreDistributionDisplay

    from matplotlib.figure import Figure

    k = len(names)
    ncols = min(k, 3)
    nrows = math.ceil(k / ncols)
    fig = Figure(figsize=(4.3 * ncols, 3.3 * nrows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
    edges = np.linspace(0.0, 1.0, 21)
    for ax, name in zip(axes, names):
        ScoreDistributionDisplay(distributions=metrics.score_distributions(y01, cols[name], bins=edges),
                                 name=name).plot(ax=ax, legend=True)
    for ax in axes[k:]:
        ax.set_visible(False)
    return _png(fig)


def _auc_figure(aucs: dict, order: list[str], level: float) -> bytes:
    from .display import ForestDisplay

    k = len(order)
    fig, ax = _figure(7.2, 1.1 + 0.42 * k)
    ForestDisplay(labels=order, values=[aucs[n]["value"] for n in order], lows=[aucs[n]["low"] for n in order],
                  highs=[aucs[n]["high"] for n in order], null_value=0.5,
                  xlabel=f"AUC with its {level:.0%} confidence interval").plot(ax=ax)
    return _png(fig)


# --- HTML ------------------------------------------------------------------------------
_CSS = """
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


def _table(header: list[str], rows: list[list[str]], cls: str = "", cell_classes=None, cell_attrs=None,
           header_classes=None) -> str:
    """Header and rows are already-escaped HTML fragments, inside a box that scrolls
    on its own if the table is ever wider than the page."""
    head = "".join(f'<th class="{header_classes[j]}">{h}</th>' if header_classes and header_classes[j] else f"<th>{h}</th>"
                   for j, h in enumerate(header))
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
    classes = [["name" if k == "name" else "" for k in keys] for _ in learners]
    return _table(header, rows, "learners", classes)


def _img(data: bytes, alt: str) -> str:
    b64 = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{b64}" alt="{_esc(alt)}">'


def _num_attrs(row: dict) -> str:
    """The exact numbers behind a cell, for a reader's tools (and the browser test)."""
    return "".join(f' data-{k}="{float(row[k])!r}"' for k in ("value", "low", "high"))


def _value_cell(row: dict) -> str:
    return f'{_esc(_fmt(row["value"]))}<span class="ci">{_esc(_interval(row["low"], row["high"]))}</span>'


def _meta_block(meta: dict) -> str:
    items = [("rankwise", _esc(meta["version"])), ("generated", _esc(meta["generated"]))]
    d = meta.get("data") or {}
    if d.get("name"):
        text = _esc(str(d["name"]))
        if d.get("size") is not None:
            text += f" &middot; {_esc(_bytes(int(d['size'])))}"
        if d.get("sha256"):
            text += f' &middot; SHA-256 <code title="{_esc(d["sha256"])}">{_esc(d["sha256"][:16])}</code>'
        else:
            text += (f' &middot; SHA-256 of labels and scores <code title="{_esc(meta["fingerprint"])}">'
                     f'{_esc(meta["fingerprint"][:16])}</code>')
        items.append(("data", text))
    else:
        items.append(("data", f'arrays in memory &middot; SHA-256 of labels and scores <code title="{_esc(meta["fingerprint"])}">'
                              f'{_esc(meta["fingerprint"][:16])}</code>'))
    items.append(("observations", f"n = {meta['n']:,}: {meta['n_pos']:,} positives, {meta['n_neg']:,} negatives "
                                  f"(positive share {meta['n_pos'] / meta['n']:.1%})"))
    pos = _esc(str(meta["positive_label"]))
    if d.get("label"):
        pos = f"<code>{_esc(str(d['label']))}</code> = {pos}"
    items.append(("positive class", pos))
    items.append(("produced by", f"<code>{_esc(meta['command'])}</code>"))
    return '<dl class="meta">' + "".join(
        f'<div{" class=" + chr(34) + "wide" + chr(34) if k == "produced by" else ""}><dt>{k}</dt><dd>{v}</dd></div>'
        for k, v in items) + "</dl>"


def _methods_text(crit: dict, criteria: list[str], labels: dict, n_resamples: int) -> str:
    by_method: dict[str, list[str]] = {}
    for spec in criteria:
        for m in dict.fromkeys(r[spec]["method"] for r in crit.values()):
            by_method.setdefault(m, []).append(labels[spec])
    parts = []
    for m, specs in by_method.items():
        name = _METHOD_NAMES.get(m, m) + (f", {n_resamples} resamples" if m == "bootstrap" else "")
        parts.append(f"{name} for {', '.join(specs)}")
    return "; ".join(parts)


def _overview(crit, criteria, units, labels, rank_by, order, versus, level, n_resamples) -> str:
    lvl = f"{level:.0%}"
    header = ["#", "scorer"]
    hclass = ["", "name"]
    for spec in criteria:
        sub = []
        if spec == rank_by:
            sub.append("ranked by")
        if not units[spec].greater_is_better:
            sub.append("lower is better")
        header.append(_esc(labels[spec]) + (f"<small>{_esc(', '.join(sub))}</small>" if sub else ""))
        hclass.append("")
    if versus is not None:
        header += [f"&Delta; {_esc(labels.get(versus['spec'], versus['spec']))}<small>vs {_esc(versus['reference'])}"
                   f"</small>", f"p<small>{_esc(_ADJUST_NAMES[versus['adjust']])}</small>"]
        hclass += ["", ""]
        by_a = {p["a"]: p for p in versus["pairs"]}
    best = {spec: _best(crit, spec, units[spec]) for spec in criteria}
    rows, classes, attrs = [], [], []
    for rank, name in enumerate(order, 1):
        row, cl, at = [str(rank), _esc(name)], ["rank", "name"], ["", ""]
        for spec in criteria:
            r = crit[name][spec]
            row.append(_value_cell(r))
            cl.append("num best" if best[spec] is not None and r["value"] == best[spec] else "num")
            at.append(_num_attrs(r))
        if versus is not None:
            if name == versus["reference"]:
                row += ["reference", "&ndash;"]
                cl += ["ref", "ref"]
                at += ["", ""]
            else:
                p = by_a[name]
                diff, ends = f"{p['difference']:+.4f}", f"[{p['low']:+.4f}, {p['high']:+.4f}]"
                row += [f'{_esc(diff)}<span class="ci">{_esc(ends)}</span>',
                        _esc(_fmt_p(p["p_adjusted"]))]
                cl += ["num", "num sig" if p["p_adjusted"] < 1 - level else "num"]
                at += [f' data-value="{p["difference"]!r}" data-low="{p["low"]!r}" data-high="{p["high"]!r}"',
                       f' data-value="{p["p_adjusted"]!r}"']
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    out = [_table(header, rows, "overview", classes, attrs, hclass)]
    text = (f"Ranked by {_esc(labels[rank_by])}. Each cell: the value and its {lvl} confidence interval "
            f"({_esc(_methods_text(crit, criteria, labels, n_resamples))}); the best value of each column is "
            f"highlighted.")
    if versus is not None:
        meth = _METHOD_NAMES.get(versus["method"], versus["method"])
        text += (f" &Delta;: each scorer's {_esc(labels.get(versus['spec'], versus['spec']))} minus that of "
                 f"{_esc(versus['reference'])}, with its {lvl} interval (not adjusted); paired {_esc(meth)} test "
                 f"on the same observations, p-values {_esc(_family_words(versus))} (shaded: below "
                 f"{1 - level:.2g}). All {len(versus['names'])} equal: chi2 = {_fmt(versus['global_statistic'], 3)}, "
                 f"df = {_show_value(versus['global_df'])}, p {_esc(_p_eq(versus['global_p_value']))}.")
    out.append(f'<p class="caption">{text}</p>')
    return "\n".join(out)


def _pct(x: float) -> str:
    return f"{100.0 * x:.4g}%"


def _operating_section(ops: dict, order: list[str], level: float) -> str:
    lvl = f"{level:.0%}"
    fprs = [r["fpr"] for r in next(iter(ops.values()))["at_fpr"]]
    header = ["#", "scorer"] + [f"TPR at FPR {_pct(x)}<small>precision</small>" for x in fprs] + [
        "Youden's cut<small>score &ge;</small>", "TPR", "FPR", "precision"]
    hclass = ["", "name"] + [""] * (len(fprs) + 4)
    rows, classes, attrs = [], [], []
    for k, name in enumerate(order, 1):
        o = ops[name]
        row, cl, at = [str(k), _esc(name)], ["rank", "name"], ["", ""]
        for r in o["at_fpr"]:
            row.append(f'{_esc(_fmt(r["tpr"]))}<span class="ci">{_esc(_interval(r["tpr_low"], r["tpr_high"]))}</span>'
                       f'<span class="ci">precision {_esc(_fmt(r["precision"]))}</span>')
            cl.append("num")
            at.append(f' data-value="{r["tpr"]!r}" data-low="{r["tpr_low"]!r}" data-high="{r["tpr_high"]!r}"'
                      f' data-precision="{r["precision"]!r}"')
        y = o["youden"]
        for key in ("threshold", "tpr", "fpr", "precision"):
            row.append(_esc(_fmt(y[key])))
            cl.append("num")
            at.append(f' data-value="{y[key]!r}"')
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    n_res = next(iter(ops.values()))["n_resamples"]
    return "\n".join([
        _table(header, rows, "operating", classes, attrs, hclass),
        f'<p class="caption">True positive rate (sensitivity) at a fixed false positive rate (1 &minus; '
        f"specificity), read on the ROC curve (between two of its points the rates are interpolated, as in pROC's "
        f"<code>coords</code>), with its {lvl} stratified bootstrap interval ({n_res} resamples; pROC's "
        f"<code>ci.se</code>) and the precision there with its interval from the same resamples. Youden's cut maximises TPR &minus; FPR; an observation is "
        f"called positive when its score is at or above the cut. Each scorer's details give the cut to deploy for "
        f"each false positive rate.</p>"])


def _calibration_section(cal: dict, names: list[str], figures: dict, level: float, n_scorers: int) -> str:
    lvl = f"{level:.0%}"
    header = ["scorer", "Brier score<small>lower is better</small>", "expected calibration error<small>lower is "
              "better</small>", "reliability", "resolution", "uncertainty"]
    best = {key: min(cal[n][key]["value"] for n in names) for key in ("brier", "ece")}
    rows, classes, attrs = [], [], []
    for name in names:
        c = cal[name]
        rows.append([_esc(name), _value_cell(c["brier"]), _value_cell(c["ece"]), _esc(_fmt(c["reliability"])),
                     _esc(_fmt(c["resolution"])), _esc(_fmt(c["uncertainty"]))])
        classes.append(["name"] + ["num best" if c[k]["value"] == best[k] else "num" for k in ("brier", "ece")]
                       + ["num"] * 3)
        attrs.append(["", _num_attrs(c["brier"]), _num_attrs(c["ece"])] + [f' data-value="{c[k]!r}"' for k in
                                                                           ("reliability", "resolution",
                                                                            "uncertainty")])
    some = "" if len(names) == n_scorers else (f" Only {len(names)} of the {n_scorers} scorers give scores in "
                                                f"[0, 1]; the others are not read as probabilities.")
    n_res = "" if names[0] not in cal else cal[names[0]]["ece"]["method"]
    out = [_table(header, rows, "calibration", classes, attrs, ["name"] + [""] * 5),
           f'<p class="caption">Scores in [0, 1] read as predicted probabilities of the positive class. Brier score: '
           f"the mean squared difference between probability and outcome, with its {lvl} normal interval; expected "
           f"calibration error: the mean absolute gap between predicted and observed share of positives over "
           f"{cal[names[0]]['n_bins']} equal-width bins, with its {lvl} stratified {_esc(n_res)} interval (the error is "
           f"biased upward); reliability &minus; resolution + uncertainty is the Brier score's decomposition over the "
           f"same bins (Murphy 1973).{some} Ranking criteria are unchanged by any increasing map of a score; "
           f"calibration is not.</p>",
           '<div class="figs">',
           f"<figure>{_img(figures['calibration'], 'Reliability curves of the probability scores')}<figcaption>"
           f"Observed share of positives against mean predicted probability per bin; a calibrated score lies on "
           f"the diagonal.</figcaption></figure>",
           f"<figure>{_img(figures['distributions'], 'Score distributions per class')}<figcaption>Each class's "
           f"score histogram (density) on 20 bins of [0, 1], with the Kolmogorov-Smirnov cut where the classes are "
           f"farthest apart.</figcaption></figure>",
           "</div>"]
    return "\n".join(out)


def _operating_details(o: dict, level: float) -> str:
    lvl = f"{level:.0%}"
    header = ["FPR", "TPR", f"{lvl} interval", "precision", f"{lvl} interval", "cut: score &ge;", "its TPR",
              "its FPR", "its precision"]
    rows = [[_esc(_pct(r["fpr"])), _esc(_fmt(r["tpr"])), _esc(_interval(r["tpr_low"], r["tpr_high"])),
             _esc(_fmt(r["precision"])), _esc(_interval(r["precision_low"], r["precision_high"])),
             _esc(_fmt(r["cut"])), _esc(_fmt(r["cut_tpr"])), _esc(_fmt(r["cut_fpr"])), _esc(_fmt(r["cut_precision"]))]
            for r in o["at_fpr"]]
    classes = [["num"] * 9 for _ in rows]
    return (_table(header, rows, "scorer-operating", classes)
            + '<p class="caption">The cut is the lowest score whose rule keeps the false positive rate at or below '
              "the target; its rates are those of that rule on this sample.</p>")


def _details(name, k, crit, criteria, units, labels, level, band_png, band, learner, ops=None) -> str:
    lvl = f"{level:.0%}"
    first = criteria[0]
    r0 = crit[name][first]
    summary = (f"<summary><b>{k}. {_esc(name)}</b> &mdash; {_esc(labels[first])} "
               f"{_esc(_cell(r0['value'], r0['low'], r0['high']))}</summary>")
    header = ["criterion", "value", "std. error", f"{lvl} interval", "method"]
    rows = [[_esc(labels[spec]) + (" <small>(lower is better)</small>" if not units[spec].greater_is_better else "")
             + f"<br><code>{_esc(spec)}</code>",
             _esc(_fmt(crit[name][spec]["value"])), _esc(_fmt(crit[name][spec]["std_error"])),
             _esc(_interval(crit[name][spec]["low"], crit[name][spec]["high"])),
             _esc(_METHOD_NAMES.get(crit[name][spec]["method"], crit[name][spec]["method"]))] for spec in criteria]
    classes = [["name", "num", "num", "num", ""] for _ in criteria]
    left = ["<h3>Criteria</h3>", _table(header, rows, "scorer-criteria", classes)]
    if ops is not None:
        left += ["<h3>Operating points</h3>", _operating_details(ops, level)]
    if learner:
        left.append("<h3>Learner</h3>")
        left.append(_learner_table([learner]))
    right = [f"<figure>{_img(band_png, f'ROC curve of {name} with bootstrap bands')}"
             f"<figcaption>ROC curve with its {lvl} pointwise (darker) and simultaneous (lighter) bootstrap bands, "
             f"{band.n_resamples} class-stratified resamples; sup-norm half-width {_esc(_fmt(band.sup_quantile))}."
             f"</figcaption></figure>"]
    return (f'<details class="scorer" id="scorer-{k}">{summary}<div class="split"><div>{"".join(left)}</div>'
            f'<div>{"".join(right)}</div></div></details>')


def _pairs_section(comp: dict, level: float) -> str:
    lvl = f"{level:.0%}"
    names = comp["names"]
    header = ["difference", "estimate", f"{lvl} CI", "z", "p-value", f"p ({_esc(_ADJUST_NAMES[comp['adjust']])})"]
    rows, classes = [], []
    for p in comp["pairs"]:
        rows.append([_esc(f"{p['a']} - {p['b']}"), _esc(_fmt(p["difference"])), _esc(_interval(p["low"], p["high"])),
                     _esc(_fmt(p["statistic"], 3)), _esc(_fmt_p(p["p_value"])), _esc(_fmt_p(p["p_adjusted"]))])
        classes.append(["name", "num", "num", "num", "num", "num sig" if p["p_adjusted"] < 1 - level else "num"])
    out = [_table(header, rows, "pairs", classes)]
    header = [f"p ({_esc(_ADJUST_NAMES[comp['adjust']])})"] + [str(i) for i in range(1, len(names) + 1)]
    rows, classes = [], []
    for i, a in enumerate(names):
        row, cl = [f"{i + 1}. {_esc(a)}"], ["name"]
        for j in range(len(names)):
            p = comp["p_adjusted_matrix"][i][j]
            if i == j:
                row.append("&ndash;")
                cl.append("diag")
            else:
                row.append(_esc(_fmt_p(p)))
                cl.append("num sig" if p < 1 - level else "num")
        rows.append(row)
        classes.append(cl)
    out.append(_table(header, rows, "matrix", classes, header_classes=["name"] + [""] * len(names)))
    meth = _METHOD_NAMES.get(comp["method"], comp["method"])
    out.append(f'<p class="caption">Every pair of scorers on the AUC: paired {_esc(meth)} test on the same '
               f"observations, p-values {_esc(_family_words(comp))} (shaded: below {1 - level:.2g}); intervals not "
               f"adjusted. Columns of the matrix are numbered as its rows.</p>")
    return "\n".join(out)


def _render(title, notes, meta, criteria, units, labels, rank_by, order, crit, aucs, comp, versus, figures,
            bands, band_pngs, ops, cal, learners, caught, level, n_resamples, files_rel) -> str:
    lvl = f"{level:.0%}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{_esc(title)}</h1>",
        _meta_block(meta),
    ]
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{_esc(str(n))}</li>" for n in notes) + "</ul>")
    parts.append("</header>")
    toc = [("overview", "Overview"), ("curves", "Curves"), ("operating", "Operating points")]
    if cal:
        toc.append(("calibration", "Calibration"))
    toc.append(("details", "Details per scorer"))
    if comp is not None:
        toc.append(("pairs", "All pairwise comparisons"))
    if learners:
        toc.append(("learners", "Learners"))
    parts.append('<nav class="toc">' + "".join(f'<a href="#{a}">{t}</a>' for a, t in toc) + "</nav>")

    parts.append('<section id="overview"><h2>Overview</h2>')
    parts.append(_overview(crit, criteria, units, labels, rank_by, order, versus, level, n_resamples))
    parts.append("</section>")

    stacked = " stacked" if len(order) > 6 else ""
    parts.append(f'<section id="curves"><h2>ROC, precision-recall and gain curves</h2><div class="figs{stacked}">')
    parts.append(f"<figure>{_img(figures['roc'], 'ROC curves of every scorer')}<figcaption>ROC curve of every "
                 f"scorer (legend: AUC); the dashed diagonal is a random score.</figcaption></figure>")
    parts.append(f"<figure>{_img(figures['pr'], 'Precision-recall curves of every scorer')}<figcaption>Precision "
                 f"against recall (the true positive rate); the dashed line is the positive share "
                 f"{meta['n_pos'] / meta['n']:.1%}, a random score's precision.</figcaption></figure>")
    parts.append(f"<figure>{_img(figures['gain'], 'Cumulative gain curves of every scorer')}<figcaption>Cumulative "
                 f"gain: the share of all positives among the highest-scored share of the population (legend: in the "
                 f"top 10%); the diagonal is a random score.</figcaption></figure>")
    parts.append("</div>")
    if _FOREST in figures:
        parts.append(f"<figure class=\"forest\">{_img(figures[_FOREST], 'AUC of every scorer with its confidence interval')}"
                     f"<figcaption>The AUC of every scorer with its {lvl} confidence interval; the dashed line is a "
                     f"random score.</figcaption></figure>")
    parts.append("</section>")

    if ops:
        parts.append('<section id="operating"><h2>Operating points</h2>')
        parts.append(_operating_section(ops, order, level))
        parts.append("</section>")

    if cal:
        parts.append('<section id="calibration"><h2>Calibration of the probability scores</h2>')
        parts.append(_calibration_section(cal, [n for n in order if n in cal], figures, level, len(order)))
        parts.append("</section>")

    parts.append('<section id="details"><h2>Details per scorer</h2>')
    by_name = {d.get("name"): d for d in learners if isinstance(d.get("name"), str)}
    for k, name in enumerate(order, 1):
        parts.append(_details(name, k, crit, criteria, units, labels, level, band_pngs[name], bands[name],
                              by_name.get(name), ops.get(name)))
    parts.append("</section>")

    if comp is not None:
        parts.append(f'<section id="pairs"><details><summary><h2>All pairwise comparisons (AUC)</h2></summary>'
                     f"{_pairs_section(comp, level)}</details></section>")
    if learners:
        parts.append(f'<section id="learners"><details><summary><h2>Learners</h2></summary>'
                     f"{_learner_table(learners)}</details></section>")
    if caught:
        parts.append('<section id="warnings"><h2>Warnings</h2>')
        parts.append("<ul>" + "".join(f'<li class="warn">{_esc(w)}</li>' for w in caught) + "</ul></section>")
    parts.append(f"<footer>Figures also saved as PNG files in <code>{_esc(files_rel)}/</code>. Higher score = more "
                 f"likely positive, for every scorer. Written by rankwise {_esc(__version__)}.</footer>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


# --- entry point -----------------------------------------------------------------------
#: The figure files, by key (a figure's name, not a criterion's); "auc" is the forest of
#: the AUCs with their intervals.
_FOREST = "auc"
_FIGURES = ("roc", "pr", "gain", _FOREST, "calibration", "distributions")


def output_paths(path, auc_plot: bool = True) -> list[str]:
    """Every file :func:`write_report` may write for the page ``path``: the page, then
    ``<stem>_files/roc.png``, ``pr.png``, ``gain.png`` (``auc.png`` with ``auc_plot``), and
    ``calibration.png`` and ``distributions.png`` (written when some scores are
    probabilities). The command line checks them all before reading any data; a forced
    run removes those of them it does not write, so the folder matches the page."""
    path = os.fspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    files_dir = os.path.join(os.path.dirname(path), f"{stem}_files")
    return [path] + [os.path.join(files_dir, f"{k}.png") for k in _FIGURES if auc_plot or k != _FOREST]


def _default_command(title, scores, criteria, reference, rank_by, n_resamples, random_state) -> str:
    args = [f"title={title!r}", "scores={" + ", ".join(f"{n!r}: ..." for n in scores) + "}",
            f"criteria={list(criteria)!r}"]
    if reference is not None:
        args.append(f"reference={reference!r}")
    if rank_by is not None:
        args.append(f"rank_by={rank_by!r}")
    args += [f"n_resamples={n_resamples}", f"random_state={random_state!r}"]
    return "rankwise.report.write_report(" + ", ".join(args) + ")"


def write_report(path, *, title: str, scores: dict, y_true, criteria: Iterable[str] = ("auc",),
                 ci_method: str | None = None, confidence_level: float = 0.95, notes: Iterable[str] = (),
                 learners: list | None = None, n_resamples: int = 1000, random_state: Any = 0,
                 force: bool = False, auc_plot: bool = True,
                 progress: Callable[[str], None] | None = None, pos_label: Any = None,
                 reference: str | None = None, rank_by: str | None = None, data: dict | None = None,
                 command: str | None = None, operating_fpr: Iterable[float] = (0.01, 0.05, 0.1)) -> dict:
    """Compute the report's numbers and write the HTML page and its figures.

    Parameters
    ----------
    path : str or path-like
        The HTML page, e.g. ``out/report.html``; figures go to ``out/report_files/``.
    title : str
    scores : dict name -> array-like
        One score column per scorer, on the same observations as ``y_true`` (higher =
        more likely positive).
    y_true : array-like
        Binary labels (as in :func:`rankwise.auc`); both classes must be present.
    criteria : list of str
        Spec strings understood by :func:`rankwise.stats.estimate`: ``"auc"``,
        ``"local_auc:top=0.1"``, ``"pnorm_push:p=4"``, ``"dcg:k=100"``,
        ``"partial_auc:max_fpr=0.1"``, ... Shown under their readable names
        (:meth:`rankwise.criteria.Criterion.describe`).
    ci_method : str or None
        ``None``: each criterion's default analytic interval (DeLong for the AUC, Hájek
        otherwise); ``"bootstrap"``: BCa bootstrap with ``n_resamples`` and
        ``random_state``; or an analytic method name valid for every criterion.
    confidence_level : float in (0, 1)
    notes : list of str
        Lines shown under the header (the split, the features, ...); escaped.
    learners : list of dict, optional
        One summary per learner (``{"name": ..., "params": {...}, "fit_seconds": ...}``),
        shown as a table with the union of the keys as columns, and in the details of
        the scorer of the same name.
    n_resamples, random_state
        For the ROC bands (and the bootstrap intervals).
    force : bool
        Replace an existing page or figure file. Without it, an existing one (or a
        dangling link there) is refused before any computation.
    auc_plot : bool
        Also draw the AUC of every scorer with its interval (``<stem>_files/auc.png``).
    progress : callable, optional
        Called with a short text at the start of each stage (criteria, comparisons, each
        scorer's ROC bands, figures): the command line prints it.
    pos_label : optional
        The positive label of ``y_true`` when it is not 0/1, -1/1 or boolean.
    reference : str, optional
        The scorer the others are compared with in the overview (default: the first of
        ``scores``); the p-values are Holm-adjusted over those K - 1 comparisons.
    rank_by : str, optional
        The criterion (one of ``criteria``) the overview is ranked by and the differences
        to the reference are computed on (default: the first criterion; the AUC when it
        has no analytic variance, e.g. the KS statistic).
    data : dict, optional
        Where the labels and scores come from, for the header: ``name`` (shown),
        ``size`` (bytes), ``sha256`` (hex; see :func:`rankwise.io.file_fingerprint`),
        ``label`` (the label column) and ``positive_label`` (shown as the positive class,
        when the caller turned the labels into 0/1 itself). Without it the header shows
        the SHA-256 of the labels and scores (:func:`rankwise.io.array_fingerprint`).
    command : str, optional
        The command line or call that produced the report (default: this call, written
        out with the scorer names).
    operating_fpr : sequence of float in (0, 1)
        The false-positive rates of the operating-point table: the true-positive rate and
        precision there with bootstrap intervals (``n_resamples``), and the cut to deploy
        for each (:func:`cut_at_fpr`).

    Returns
    -------
    dict
        ``title``, ``n``, ``n_pos``, ``n_neg``, ``confidence_level``, ``ci_method``,
        ``labels`` (``{criterion: readable name}``), ``rank_by``, ``ranking`` (the scorer
        names, best first), ``reference``, ``criteria`` (``{scorer: {criterion:
        {"value", "std_error", "low", "high", "method"}}}``), ``auc`` (the same for the
        AUC of every scorer), ``comparison`` (every pair on the AUC; ``None`` with one
        scorer, else ``names``, ``values``, ``std_errors``, ``pairs`` [dicts with the
        fields of :class:`rankwise.stats.PairwiseDifference`], ``p_adjusted_matrix``
        [K x K, ``None`` on the diagonal], ``global_statistic``, ``global_df``,
        ``global_p_value``, ``method``, ``adjust``, ``family``, ``reference``, ``criterion``),
        ``versus_reference`` (the same for each scorer against ``reference`` on the
        ranking criterion, with ``spec``; ``None`` with one scorer), ``operating_points``
        (``{scorer: {"at_fpr": [{"fpr", "tpr", "tpr_low", "tpr_high", "precision",
        "precision_low", "precision_high", "cut", "cut_tpr", "cut_fpr", "cut_precision"}],
        "youden": {"threshold", "tpr", "fpr", "precision", "youden_index"}}}``),
        ``calibration`` (for the scorers whose scores all lie in [0, 1]: ``{scorer:
        {"brier": {...}, "ece": {...}, "reliability", "resolution", "uncertainty",
        "n_bins"}}``, empty when none does), ``metadata``
        (``version``, ``generated``, ``data``, ``fingerprint``, ``positive_label``,
        ``command``), ``warnings`` (messages caught while computing, also listed on the
        page) and ``paths`` (``html``, ``files_dir``, ``roc``, ``pr``, ``gain``, and ``auc``,
        ``calibration``, ``distributions`` when drawn).

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
    _check_data(data)
    if command is not None and not isinstance(command, str):
        raise TypeError(f"write_report: 'command' must be a string. Got {type(command).__name__}.")
    level = float(confidence_level) if isinstance(confidence_level, (int, float)) else confidence_level
    is_pos, cols, criteria = _check_inputs(title, scores, y_true, criteria, ci_method, level, n_resamples, pos_label)
    units, primary = _units(criteria, rank_by)
    fprs = _check_fprs(operating_fpr)
    ref = _check_choice_of_scorer(reference, list(cols), "reference")
    if ref is None:
        ref = next(iter(cols))
    labels = {spec: units[spec].describe() for spec in criteria}
    # The differences to the reference: on the ranking criterion when it has an analytic
    # variance (a projection), else on the AUC.
    versus_spec = primary if units[primary].has_projection and units[primary].family == "rank" else "auc"
    if versus_spec not in labels:
        from . import criteria as _criteria

        labels[versus_spec] = _criteria.get(versus_spec).describe()
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:  # pragma: no cover - matplotlib is a core dependency
        raise ImportError("write_report needs matplotlib (pip install matplotlib).") from exc

    from . import stats

    y01 = is_pos.astype(np.int8)
    step = progress if progress is not None else (lambda what: None)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        step(f"criteria of {len(cols)} scorer(s)")
        crit, aucs = _compute(y01, cols, criteria, ci_method, level, n_resamples, random_state)
        order = _ranking(crit, primary, units[primary])
        step("comparisons")
        comp, versus = _comparisons(y01, cols, level, ref, versus_spec)
        bands = {}
        for k, (name, s) in enumerate(cols.items(), 1):
            step(f"ROC bands {k}/{len(cols)} ({n_resamples} resamples): {name}")
            bands[name] = stats.roc_band(y01, s, fpr=_BAND_GRID, confidence_level=level,
                                         n_resamples=int(n_resamples), random_state=random_state)
        ops = _operating(y01, cols, fprs, level, n_resamples, random_state, step)
        prob_names = [n for n in order if n in set(_probability_scorers(cols))]
        cal, cal_summaries = _calibration(y01, cols, prob_names, level, n_resamples, random_state, step)
        step("figures and page")
        aps = _average_precisions(y01, cols, crit)
        figures = {}
        figures["roc"], figures["pr"], styles = _overlay_figures(y01, cols, order, aucs, aps)
        figures["gain"] = _gain_figure(y01, cols, order, styles)
        if auc_plot:
            figures[_FOREST] = _auc_figure(aucs, order, level)
        if prob_names:
            figures["calibration"] = _calibration_figure(cal_summaries, cal, order, styles)
            figures["distributions"] = _distributions_figure(y01, cols, prob_names)
        band_pngs = {name: _band_figure(y01, cols[name], bands[name], aucs[name], name, styles[name])
                     for name in order}
    caught = list(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in record))

    n_pos = int(is_pos.sum())
    info = {"n": int(is_pos.shape[0]), "n_pos": n_pos, "n_neg": int(is_pos.shape[0]) - n_pos}
    data = dict(data) if data else None
    shown_pos = (data or {}).get("positive_label", pos_label if pos_label is not None else _implied_positive(y_true))
    meta = {
        "version": __version__,
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "data": data,
        "fingerprint": array_fingerprint([("y_true", is_pos)] + list(cols.items())),
        "positive_label": shown_pos if isinstance(shown_pos, (str, int, float, bool)) else str(shown_pos),
        "command": command or _default_command(title, cols, criteria, reference, rank_by, n_resamples, random_state),
        **info,
    }
    stem = os.path.splitext(os.path.basename(path))[0]
    files_dir = os.path.dirname(outputs[1])
    page = _render(title, notes, meta, criteria, units, labels, primary, order, crit, aucs, comp, versus, figures,
                   bands, band_pngs, ops, cal, learners, caught, level, n_resamples, f"{stem}_files")

    written_files = {k: (os.path.join(files_dir, f"{k}.png"), figures[k]) for k in _FIGURES if k in figures}
    created_dir = not os.path.isdir(files_dir)
    written: list[str] = []
    try:
        for fpath, png in written_files.values():
            existed = os.path.exists(fpath)
            write_atomic(fpath, png, binary=True, force=force)
            if not existed:
                written.append(fpath)
        write_atomic(path, page, force=force)
        for fpath in outputs[1:]:  # force: a figure of an earlier run that this page does not show
            if fpath not in {f for f, _ in written_files.values()} and os.path.lexists(fpath):
                os.unlink(fpath)
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
    paths.update({k: v[0] for k, v in written_files.items()})
    return {
        "title": title,
        **info,
        "confidence_level": level,
        "ci_method": ci_method,
        "labels": labels,
        "rank_by": primary,
        "ranking": order,
        "reference": ref,
        "criteria": crit,
        "auc": aucs,
        "comparison": comp,
        "versus_reference": versus,
        "operating_points": ops,
        "calibration": cal,
        "metadata": {k: meta[k] for k in ("version", "generated", "data", "fingerprint", "positive_label", "command")},
        "warnings": caught,
        "paths": paths,
    }


def _implied_positive(y_true) -> Any:
    """The label taken as positive without ``pos_label``: 1, or True for booleans."""
    arr = np.asarray(y_true)
    return True if arr.dtype.kind == "b" else 1
