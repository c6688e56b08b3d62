"""Any coordinate of the ROC curve (threshold, sensitivity, specificity, accuracy,
predictive values, Youden's index, ...) at given thresholds, rates or the best cut, and
its stratified (or cluster) bootstrap percentile interval: R pROC's ``coords`` and
``ci.coords``. Definitions and conventions: ``docs/coords_power.md``."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._kernels import point_of_threshold, read_points, rows_at_or_above
from .._labels import check_sample
from .._validation import check_choice, check_clusters, ranked_score_values, warn_undefined
from . import _core
from ._band import resampled_reads
from ._estimate import warn_few_clusters
from ._results import fmt, fmt_count, format_rows, html_table

__all__ = ["coords", "coords_ci", "Coords", "CoordsIntervals", "COORDINATES", "COORDINATE_INPUTS"]

#: The coordinates ``ret`` may name (pROC's names).
COORDINATES = ("threshold", "sensitivity", "specificity", "accuracy", "tn", "tp", "fn", "fp", "npv", "ppv", "tpr",
               "tnr", "fpr", "fnr", "fdr", "1-specificity", "1-sensitivity", "1-accuracy", "1-npv", "1-ppv",
               "precision", "recall", "youden", "closest.topleft")

#: The coordinates ``input`` may name (those monotone along the curve), each as the rate
#: it fixes: ``(by, f)`` with the requested rate ``f(x, n_positive, n_negative)``.
_INPUT_RATES = {
    "sensitivity": ("tpr", lambda x, P, M: x), "tpr": ("tpr", lambda x, P, M: x),
    "recall": ("tpr", lambda x, P, M: x), "1-sensitivity": ("tpr", lambda x, P, M: 1.0 - x),
    "fnr": ("tpr", lambda x, P, M: 1.0 - x), "tp": ("tpr", lambda x, P, M: x / P),
    "fn": ("tpr", lambda x, P, M: 1.0 - x / P),
    "specificity": ("fpr", lambda x, P, M: 1.0 - x), "tnr": ("fpr", lambda x, P, M: 1.0 - x),
    "fpr": ("fpr", lambda x, P, M: x), "1-specificity": ("fpr", lambda x, P, M: x),
    "fp": ("fpr", lambda x, P, M: x / M), "tn": ("fpr", lambda x, P, M: 1.0 - x / M),
}
#: The coordinates ``input`` may name.
COORDINATE_INPUTS = ("threshold",) + tuple(_INPUT_RATES)

_ALIASES = {"closest_topleft": "closest.topleft", "topleft": "closest.topleft", "t": "threshold", "npe": "1-npv",
            "ppe": "1-ppv"}
_COUNTS = ("tp", "fp", "tn", "fn")


def _canonical(name: Any, what: str, func: str, choices: tuple) -> str:
    if isinstance(name, str):
        key = _ALIASES.get(name, name)
        key = key.replace("one_minus_", "1-") if key.startswith("one_minus_") else key
        if key in choices:
            return key
    opts = ", ".join(repr(c) for c in choices)
    raise ValueError(f"The '{what}' parameter of {func} must be one of {opts}. Got {name!r} instead.")


def _check_ret(ret: Any, func: str, allow_threshold: bool) -> tuple[str, ...]:
    items = [ret] if isinstance(ret, str) else ret
    try:
        items = list(items)
    except TypeError:
        items = None
    if not items:
        raise ValueError(f"The 'ret' parameter of {func} must be a coordinate name or a non-empty list of them. "
                         f"Got {ret!r} instead.")
    if items == ["all"]:
        items = [c for c in COORDINATES if allow_threshold or c != "threshold"]
    out = tuple(_canonical(r, "ret", func, COORDINATES) for r in items)
    if not allow_threshold and "threshold" in out:
        raise ValueError(f"The 'ret' parameter of {func} may name 'threshold' only with input='threshold' or "
                         "x='best': at a requested rate the point has a threshold only where the rate lies on the "
                         f"curve. Got {ret!r} instead.")
    return out


def _check_weights(best_weights: Any, func: str) -> float:
    """pROC's ``best.weights = (cost, prevalence)`` as the ratio ``r = (1 - prevalence) /
    (cost prevalence)``."""
    try:
        cost, prev = (float(v) for v in best_weights)
        ok = not any(isinstance(v, (bool, np.bool_)) for v in best_weights)
    except (TypeError, ValueError):
        ok = False
    if not ok or not (cost > 0 and math.isfinite(cost) and 0 < prev < 1):
        raise ValueError(f"The 'best_weights' parameter of {func} must be a pair (cost, prevalence) with cost > 0 "
                         f"and prevalence in (0, 1). Got {best_weights!r} instead.")
    return (1.0 - prev) / (cost * prev)


def _check_x(x: Any, func: str, allow_all: bool):
    """``"best"``, ``"all"`` (``allow_all``) or a non-empty 1-D float array."""
    if isinstance(x, str):
        keys = ("best", "all") if allow_all else ("best",)
        if x in keys:
            return x
        raise ValueError(f"The 'x' parameter of {func} must be a number, a 1-D array of numbers or "
                         f"{' or '.join(repr(k) for k in keys)}. Got {x!r} instead.")
    try:
        arr = np.asarray([x] if np.ndim(x) == 0 else x)
    except (TypeError, ValueError):
        arr = np.empty((0, 0))
    if (arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iuf"
            or (arr.dtype.kind == "f" and np.isnan(arr).any())):
        raise ValueError(f"The 'x' parameter of {func} must be a number, a 1-D array of numbers (no nan) or "
                         f"'best'. Got {x!r} instead.")
    return arr.astype(np.float64)


def _all_coords(se, sp, P, M, thr, r) -> dict:
    """Every coordinate from the sensitivity, specificity and class sizes (masses), as
    pROC's ``coords`` derives them (arrays of any shape)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        tp = se * P
        fn = P - tp
        tn = sp * M
        fp = M - tn
        npv = tn / (tn + fn)
        ppv = tp / (tp + fp)
        acc = (tp + tn) / (P + M)
        return {"threshold": thr, "sensitivity": se, "specificity": sp, "accuracy": acc, "tn": tn, "tp": tp,
                "fn": fn, "fp": fp, "npv": npv, "ppv": ppv, "tpr": se, "tnr": sp, "fpr": 1.0 - sp,
                "fnr": fn / (tp + fn), "fdr": fp / (tp + fp), "1-specificity": 1.0 - sp, "1-sensitivity": 1.0 - se,
                "1-accuracy": 1.0 - acc, "1-npv": 1.0 - npv, "1-ppv": 1.0 - ppv, "precision": ppv, "recall": se,
                "youden": se + r * sp, "closest.topleft": (1.0 - se) ** 2 + r * (1.0 - sp) ** 2}


class _Curve:
    """What the readings need of a sample's rank table: its levels as numbers (for
    midpoints), the threshold of each ROC point in rankwise's convention, and the style."""

    def __init__(self, table, ranked, style: str):
        self.table = table
        self.ranked = ranked
        self.style = style
        levels = table.levels
        if ranked is not None:
            self.values = np.array([float(ranked[int(v)]) for v in levels.tolist()], dtype=np.float64)
        else:
            self.values = np.asarray(levels, dtype=np.float64)
        # rankwise's threshold of each ROC point: +inf, then the scores from the top
        self.point_thr = np.concatenate([[np.inf], self.values[::-1]])

    def thresholds(self, j: np.ndarray, present: np.ndarray | None) -> np.ndarray:
        """The threshold of ROC point ``j`` (calling the top ``j`` levels positive) of
        each row: the lowest score called positive (``"score"``), or pROC's midpoint
        between it and the next lower score present in the row (``"midpoint"``; ``-inf``
        when every score is called positive); ``+inf`` at ``j = 0``."""
        L = self.values.shape[0]
        if self.style == "score":
            return self.point_thr[j]
        if present is None:
            present = np.ones((j.shape[0], L), dtype=bool)
        # last present level strictly below each level, per row (-1: none)
        idx = np.where(present, np.arange(L)[None, :], -1)
        below = np.empty_like(idx)
        below[:, 0] = -1
        np.maximum.accumulate(idx[:, :-1], axis=1, out=below[:, 1:])
        low_level = np.clip(L - j, 0, L - 1)
        lower = np.take_along_axis(below, low_level, axis=1)
        hi = self.values[low_level]
        lo = np.where(lower >= 0, self.values[np.maximum(lower, 0)], -np.inf)
        with np.errstate(over="ignore", invalid="ignore"):
            mid = (lo + hi) / 2.0
            big = ~(np.abs(mid) <= 1e100)
            mid = np.where(big, lo / 2.0 + hi / 2.0, mid)
            mid = np.where(mid == lo, hi, mid)  # a midpoint rounded onto the lower score
        mid = np.where(lower >= 0, mid, -np.inf)
        return np.where(j == 0, np.inf, mid)


def _read(A, B, curve: _Curve, spec: dict, rng=None, all_ties: bool = False):
    """The coordinates of each row of level masses ``A``, ``B`` (shape ``(k, L)``) at the
    request ``spec``: ``(values, tied)``, a dict of arrays of shape ``(k, G)`` and whether
    each row's best cut tied (``x="best"``; all False otherwise). With ``x="best"`` and
    ``all_ties`` (one row), every tied best point is a column; otherwise a tie is settled
    by ``spec["best_policy"]`` (``"omit"``: the row is nan)."""
    k, L = A.shape
    fps = np.zeros((k, L + 1))
    tps = np.zeros((k, L + 1))
    np.cumsum(B[:, ::-1], axis=1, out=fps[:, 1:])
    np.cumsum(A[:, ::-1], axis=1, out=tps[:, 1:])
    Pk, Mk = tps[:, -1:], fps[:, -1:]
    present = None
    tied = np.zeros(k, dtype=bool)
    x = spec["x"]
    r = spec["r"]
    with np.errstate(invalid="ignore", divide="ignore"):
        if isinstance(x, str) and x == "all":
            j = np.arange(L + 1)[None, :]
            tp, fp = tps, fps
        elif isinstance(x, str):  # best
            # in place, a few passes over the (k, L + 1) block
            if spec["best_method"] == "youden":  # se + r sp = tp / P + r - r fp / M
                crit = tps / Pk
                crit += r
                crit -= fps * (r / Mk)
            else:  # -((1 - se)^2 + r (1 - sp)^2) = -((1 - tp / P)^2 + r (fp / M)^2)
                crit = (Pk - tps) / Pk
                crit *= crit
                f2 = fps / Mk
                f2 *= f2
                f2 *= r
                crit += f2
                np.negative(crit, out=crit)
            absent = (A + B) <= 0
            if absent.any():  # a level absent from the row repeats the point above it
                crit[:, 1:][absent[:, ::-1]] = -np.inf
                present = ~absent
            best = np.max(crit, axis=1, keepdims=True)
            tie = crit >= best - 8.0 * np.finfo(np.float64).eps * np.maximum(np.abs(best), 1.0)
            tied = tie.sum(axis=1) > 1
            if all_ties:
                j = np.flatnonzero(tie[0])[None, :]
            else:
                j = np.argmax(tie, axis=1)[:, None]  # the highest threshold among the tied points
                many = tied
                if many.any():
                    policy = spec["best_policy"]
                    if policy == "stop":
                        raise ValueError(
                            "coords_ci found more than one best threshold in a resample (best_policy='stop'); use "
                            "best_policy='random' (one of them drawn at random) or 'omit' (the resample left out).")
                    if policy == "random":
                        for i in np.flatnonzero(many):
                            j[i, 0] = rng.choice(np.flatnonzero(tie[i]))
            tp = np.take_along_axis(tps, j, axis=1)
            fp = np.take_along_axis(fps, j, axis=1)
        elif spec["input"] == "threshold":
            q = spec["point"]
            j = np.broadcast_to(q, (k, q.shape[0]))
            tp = np.take_along_axis(tps, j, axis=1)
            fp = np.take_along_axis(fps, j, axis=1)
        else:
            by, f = _INPUT_RATES[spec["input"]]
            q = f(x, spec["P"], spec["M"])
            t, fr, _, j, hit = read_points(A, B, by, q)
            tp, fp = t * Pk, fr * Mk
        se = tp / Pk
        sp = (Mk - fp) / Mk
    if isinstance(x, str) or spec["input"] != "threshold":
        thr = curve.thresholds(j, present)
        if not isinstance(x, str):
            thr = np.where(hit, thr, np.nan)
    else:
        thr = np.broadcast_to(spec["x_thr"], se.shape)
    scale = spec["scale"]
    out = _all_coords(se, sp, Pk * scale, Mk * scale, thr, r)
    out = {name: np.array(out[name], dtype=np.float64) for name in spec["ret"]}
    if not all_ties and spec["best_policy"] == "omit" and tied.any():
        for v in out.values():
            v[tied] = np.nan
    return out, tied


@dataclass(frozen=True)
class Coords:
    """Coordinates of a ROC curve, one column per requested coordinate.

    Attributes
    ----------
    input : str
        What ``x`` holds: ``"threshold"``, a rate or count (``"specificity"``, ...), or
        ``"best"``/``"all"`` for those choices of ``x``.
    x : ndarray or str
        The requested values, ``"best"`` or ``"all"``.
    values : dict of str to ndarray
        Each coordinate of ``ret`` (pROC's names), one value per point (several points
        for ``"best"`` when cuts tie, highest threshold first; every point of the curve for
        ``"all"``, by decreasing threshold).
    n_positive, n_negative : float
    best_method : str
    threshold_style : str
        ``"score"`` (the lowest score called positive) or ``"midpoint"`` (pROC's).
    """

    input: str
    x: Any
    values: dict
    n_positive: float
    n_negative: float
    best_method: str = "youden"
    threshold_style: str = "score"

    def __getitem__(self, name: str) -> np.ndarray:
        return self.values[_ALIASES.get(name, name)]

    @property
    def ret(self) -> tuple:
        return tuple(self.values)

    def to_rows(self) -> list[dict]:
        n = next(iter(self.values.values())).shape[0]
        return [{k: float(v[i]) for k, v in self.values.items()} for i in range(n)]

    def summary(self) -> str:
        header = list(self.values)
        rows = [[fmt(r[h]) for h in header] for r in self.to_rows()]
        what = (f"the best cut ({self.best_method})" if isinstance(self.x, str) and self.x == "best"
                else "every point" if isinstance(self.x, str) else f"the requested {self.input}")
        return (f"Coordinates at {what} (n+ = {fmt_count(self.n_positive)}, n- = {fmt_count(self.n_negative)}; positive when "
                f"score >= threshold)\n" + format_rows(header, rows))

    def __str__(self) -> str:
        return self.summary()


@dataclass(frozen=True)
class CoordsIntervals:
    """Bootstrap percentile intervals of coordinates of the ROC curve.

    Attributes
    ----------
    input : str
        ``"threshold"``, a rate (``"specificity"``, ...) or ``"best"``.
    x : ndarray or str
        The requested values, or ``"best"``.
    estimate : dict of str to ndarray
        The coordinates on the sample (for ``"best"``: the highest of the tied best cuts).
    low, median, high : dict of str to ndarray
        The ``(1 - level) / 2``, 0.5 and ``(1 + level) / 2`` quantiles of the resampled
        coordinates (linear interpolation; resamples where a coordinate is undefined left
        out).
    confidence_level : float
    n_resamples : int
    n_omitted : int
        Resamples left out entirely (a cluster resample missing a class; with
        ``best_policy="omit"``, a resample whose best cut tied).
    n_ties : int
        Resamples whose best cut tied (``x="best"``).
    best_policy : str or None
    n_clusters : int or None
    """

    input: str
    x: Any
    estimate: dict
    low: dict
    median: dict
    high: dict
    confidence_level: float
    n_resamples: int
    n_omitted: int = 0
    n_ties: int = 0
    best_policy: str | None = None
    n_clusters: int | None = None

    @property
    def ret(self) -> tuple:
        return tuple(self.estimate)

    def to_rows(self) -> list[dict]:
        """One dict per (point, coordinate): ``at, coordinate, estimate, low, median, high``."""
        n = next(iter(self.estimate.values())).shape[0]
        at = ["best"] * n if isinstance(self.x, str) else [float(v) for v in self.x]
        return [{"at": at[i], "coordinate": c, "estimate": float(self.estimate[c][i]), "low": float(self.low[c][i]),
                 "median": float(self.median[c][i]), "high": float(self.high[c][i])}
                for i in range(n) for c in self.estimate]

    def _rows(self):
        header = [self.input if not isinstance(self.x, str) else "at", "coordinate", "estimate", "interval"]
        rows = [[fmt(r["at"]) if not isinstance(r["at"], str) else r["at"], r["coordinate"], fmt(r["estimate"]),
                 f"[{fmt(r['low'])}, {fmt(r['high'])}]"] for r in self.to_rows()]
        return header, rows

    def _kind(self) -> str:
        return ("stratified bootstrap" if self.n_clusters is None
                else f"cluster bootstrap (whole clusters resampled: {self.n_clusters} clusters)")

    def summary(self) -> str:
        header, rows = self._rows()
        extra = ""
        if self.best_policy is not None and self.n_ties:
            extra = f"; {self.n_ties} resamples with tied best cuts ({self.best_policy})"
        return (f"{self.confidence_level:.0%} {self._kind()} intervals of ROC coordinates ({self.n_resamples} "
                f"resamples, percentile{extra})\n" + format_rows(header, rows))

    def _repr_html_(self) -> str:
        header, rows = self._rows()
        return html_table(f"{self.confidence_level:.0%} intervals of ROC coordinates", header, rows,
                          [f"{self._kind()}, {self.n_resamples} resamples, percentile"])

    def __str__(self) -> str:
        return self.summary()


def _prepare(func, y_true, y_score, x, input, ret, best_method, best_weights, threshold_style, sample_weight,
             pos_label, clusters, for_ci):
    x = _check_x(x, func, allow_all=not for_ci)
    if isinstance(x, str):
        input_name = x
    else:
        input_name = _canonical(input, "input", func, COORDINATE_INPUTS)
    best_method = _canonical(best_method, "best_method", func, ("youden", "closest.topleft"))
    r = _check_weights(best_weights, func)
    threshold_style = check_choice(threshold_style, "threshold_style", func, ("score", "midpoint"))
    if ret is None:
        ret = (("threshold", "specificity", "sensitivity") if input_name in ("threshold", "best", "all")
               else ("specificity", "sensitivity"))
    ret = _check_ret(ret, func, allow_threshold=not for_ci or input_name in ("threshold", "best"))
    smp = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func=func)
    cl = check_clusters(clusters, smp.labels.shape[0], func) if for_ci else None
    s = smp.scores
    sample = _core.Sample(smp.labels, s, smp.weights, rows=cl is not None, clusters=cl)
    t = sample.table
    scale = float(smp.weight_scale)
    P, M = float(t.n_pos) * scale, float(t.n_neg) * scale
    ranked = ranked_score_values(y_score) if s.dtype == np.int64 else None
    spec = {"x": x, "input": input_name, "ret": ret, "r": r, "best_method": best_method, "P": P, "M": M,
            "scale": scale, "best_policy": "random"}
    if not isinstance(x, str):
        if input_name == "threshold":
            spec["point"] = point_of_threshold(t.levels, x, ranked)
            spec["x_thr"] = x
        else:
            top = P if input_name in ("tp", "fn") else M if input_name in ("fp", "tn") else 1.0
            if x.min() < 0.0 or x.max() > top:
                raise ValueError(f"The 'x' parameter of {func} must hold values of {input_name!r} in [0, {top:g}]. "
                                 f"Got {x.tolist()!r} instead.")
    curve = _Curve(t, ranked, threshold_style)
    return smp, sample, curve, spec, cl


def coords(y_true, y_score, x="best", *, input: str = "threshold", ret=None, best_method: str = "youden",
           best_weights=(1.0, 0.5), threshold_style: str = "score", sample_weight=None, pos_label=None) -> Coords:
    r"""Coordinates of the empirical ROC curve at given thresholds, rates or counts, at the
    best cut, or at every point: R pROC's ``coords``.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Higher score = more likely positive, always.
    x : float, array-like, "best" or "all"
        The values of ``input`` to read the curve at; ``"best"``: the cut maximising
        Youden's index or closest to the top-left corner (``best_method``); ``"all"``:
        every point of the curve.
    input : str
        What ``x`` holds: ``"threshold"`` (positive when ``score >= x``), or a coordinate
        monotone along the curve: ``"sensitivity"``, ``"specificity"``, ``"tpr"``,
        ``"fpr"``, ``"tnr"``, ``"fnr"``, ``"recall"``, ``"1-specificity"``,
        ``"1-sensitivity"``, or a count ``"tp"``, ``"fp"``, ``"tn"``, ``"fn"``.
    ret : str or sequence of str, optional
        Coordinates to return (pROC's names, :data:`COORDINATES`; ``"all"`` for every
        one): ``threshold, sensitivity, specificity, accuracy, tn, tp, fn, fp, npv, ppv,
        tpr, tnr, fpr, fnr, fdr, 1-specificity, 1-sensitivity, 1-accuracy, 1-npv, 1-ppv,
        precision, recall, youden, closest.topleft``. Default: threshold, specificity,
        sensitivity.
    best_method : {"youden", "closest.topleft"}
    best_weights : (cost, prevalence)
        pROC's ``best.weights``: with ``r = (1 - prevalence) / (cost prevalence)``,
        ``"youden"`` maximises ``sensitivity + r specificity`` and ``"closest.topleft"``
        minimises ``(1 - sensitivity)^2 + r (1 - specificity)^2``.
    threshold_style : {"score", "midpoint"}
        How a point's threshold is reported: the lowest score called positive (rankwise's
        convention, as :func:`rankwise.operating_points`), or pROC's midpoint between it
        and the next lower score (``-inf`` when every score is called positive). Both
        call the same observations positive.
    sample_weight : array-like, optional
        Counts (``tp``, ...) are then weight totals.
    pos_label : optional

    Returns
    -------
    Coords

    Notes
    -----
    With ``n_+`` positives and ``n_-`` negatives, a point of sensitivity ``se`` and
    specificity ``sp`` has ``tp = se n_+``, ``fn = n_+ - tp``, ``tn = sp n_-``,
    ``fp = n_- - tn``, ``npv = tn / (tn + fn)``, ``ppv = precision = tp / (tp + fp)``,
    ``accuracy = (tp + tn) / (n_+ + n_-)``, ``fnr = fn / n_+``, ``fdr = fp / (tp + fp)``
    and, as pROC reports them, ``youden = se + r sp`` (Youden's J plus 1 when ``r = 1``;
    Youden 1950, "Index for rating diagnostic tests") and ``closest.topleft = (1 -
    se)^2 + r (1 - sp)^2``.

    At a requested rate the curve (its points joined by straight lines) is read as
    :func:`rankwise.operating_points` reads it: where several points share the rate, the
    best one (largest sensitivity at a specificity, largest specificity at a
    sensitivity); between points, linear interpolation, and no threshold (nan). Every
    input is read as the sensitivity or specificity it fixes (``fpr = 1 - specificity``,
    ``tp = sensitivity n_+``, ...). pROC agrees for ``"sensitivity"`` and
    ``"specificity"``; for the other inputs it reports no threshold, and at a false
    positive rate shared by several points (``"fpr"``, ``"1-specificity"``, ``"fp"``) it
    takes the one of lowest sensitivity. ``"best"`` lists every cut whose criterion is
    within 8 units in the last place of the best (pROC: exact equality), highest
    threshold first. Robin et al.
    (2011), "pROC: an open-source package for R and S+ to analyze and compare ROC curves".

    Examples
    --------
    Positives score 0.35, 0.8, 0.9; negatives 0.1, 0.4, 0.5. The best cut by Youden's
    index calls 0.8 and 0.9 positive (sensitivity 2/3, specificity 1, 5 of 6 right):

    >>> import rankwise as rw
    >>> y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9]
    >>> c = rw.stats.coords(y, s, "best", ret=["threshold", "sensitivity", "specificity", "accuracy"])
    >>> [c[k].tolist() for k in c.ret]
    [[0.8], [0.6666666666666666], [1.0], [0.8333333333333334]]

    pROC reports that cut midway between 0.8 and the next lower score 0.5. At
    specificity 0.5 the curve runs between (FPR 1/3, TPR 2/3) and (2/3, 2/3): sensitivity
    2/3, and precision ``2 / (2 + 1.5)``:

    >>> rw.stats.coords(y, s, "best", threshold_style="midpoint")["threshold"].tolist()
    [0.65]
    >>> rw.stats.coords(y, s, 0.5, input="specificity", ret=["sensitivity", "ppv"]).to_rows()
    [{'sensitivity': 0.6666666666666666, 'ppv': 0.5714285714285714}]
    """
    f = "coords"
    smp, sample, curve, spec, _ = _prepare(f, y_true, y_score, x, input, ret, best_method, best_weights,
                                            threshold_style, sample_weight, pos_label, None, False)
    t = sample.table
    if not smp.defined:
        warn_undefined(f)
        G = 1 if isinstance(spec["x"], str) else spec["x"].shape[0]
        vals = {k: np.full(G, np.nan) for k in spec["ret"]}
        if "threshold" in vals and spec["input"] == "threshold" and not isinstance(spec["x"], str):
            vals["threshold"] = spec["x"].copy()
        return Coords(spec["input"], spec["x"], vals, spec["P"], spec["M"], spec["best_method"], threshold_style)
    out, _ = _read(t.pos[None, :], t.neg[None, :], curve, spec, all_ties=True)
    vals = {k: v[0] for k, v in out.items()}
    if isinstance(spec["x"], str) and spec["x"] == "all":
        keep = np.concatenate([[True], ((t.pos + t.neg) > 0)[::-1]])  # a level without mass repeats a point
        vals = {k: v[keep] for k, v in vals.items()}
    return Coords(spec["input"], spec["x"], vals, spec["P"], spec["M"], spec["best_method"], threshold_style)


def coords_ci(y_true, y_score, x, *, input: str = "threshold", ret=None, best_method: str = "youden",
              best_weights=(1.0, 0.5), best_policy: str = "random", threshold_style: str = "score",
              confidence_level: float = 0.95, n_resamples: int = 2000, random_state: Any = None,
              sample_weight=None, pos_label=None, clusters=None) -> CoordsIntervals:
    r"""Bootstrap percentile intervals of any coordinate of the ROC curve at given
    thresholds, rates or counts, or at the best cut: R pROC's ``ci.coords``.

    Parameters
    ----------
    y_true, y_score, input, best_method, best_weights, threshold_style, sample_weight, pos_label
        As in :func:`coords`.
    x : float, array-like or "best"
    ret : str or sequence of str, optional
        As in :func:`coords`; ``"threshold"`` only with ``input="threshold"`` (where it is
        ``x`` itself) or ``x="best"``. Default: threshold (where allowed), specificity,
        sensitivity.
    best_policy : {"random", "omit", "stop"}
        A resample whose best cut ties: one of the tied cuts drawn at random, the
        resample left out, or a ValueError (pROC's default; pROC's ``"random"`` and
        ``"omit"`` are the other two).
    confidence_level : float in (0, 1)
    n_resamples : int
    random_state : int, Generator or None
    clusters : array-like of shape (n,), optional
        The sampling unit of each row: whole clusters are resampled (a class in fewer
        than ten clusters gives a :class:`rankwise.stats.FewClustersWarning`).

    Returns
    -------
    CoordsIntervals

    Notes
    -----
    Each resample draws the positives with replacement among the positives and the
    negatives among the negatives (class sizes kept), or whole clusters with
    replacement; it is a row of level masses over the sample's rank table. The curve of
    the resample is read exactly as :func:`coords` reads the sample's; with ``x="best"``
    the best cut is chosen again in every resample (scores absent from the resample are
    no cuts of it, so that the thresholds are the resample's own, midpoints between its
    own scores with ``threshold_style="midpoint"``), as pROC does. The interval is the
    ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear interpolation, R's
    default) of the resampled values, undefined values left out. The draws differ from
    pROC's: the intervals agree in law, up to Monte Carlo error. Carpenter & Bithell
    (2000), "Bootstrap confidence intervals: when, which, what?"; for clusters, Davison &
    Hinkley (1997), "Bootstrap methods and their application", section 3.8.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.5, 0.8, 0.9, 0.8, 0.3]
    >>> ci = rw.stats.coords_ci(y, s, "best", ret=["sensitivity", "specificity"], n_resamples=500,
    ...                         random_state=0)
    >>> bool(ci.low["sensitivity"][0] <= ci.estimate["sensitivity"][0] <= ci.high["sensitivity"][0])
    True
    """
    f = "coords_ci"
    level = _core.check_level(confidence_level, f)
    n_resamples = _core.check_resamples(n_resamples, f)
    best_policy = check_choice(best_policy, "best_policy", f, ("random", "omit", "stop"))
    smp, sample, curve, spec, cl = _prepare(f, y_true, y_score, x, input, ret, best_method, best_weights,
                                             threshold_style, sample_weight, pos_label, clusters, True)
    spec["best_policy"] = best_policy
    n_clusters = None if cl is None else cl[1]
    is_best = isinstance(spec["x"], str)
    G = 1 if is_best else spec["x"].shape[0]
    t = sample.table
    if not smp.defined:
        warn_undefined(f)
        nan = {k: np.full(G, np.nan) for k in spec["ret"]}
        return CoordsIntervals(spec["input"], spec["x"], nan, nan, nan, nan, level, 0, best_policy=(
            best_policy if is_best else None), n_clusters=n_clusters)
    if cl is not None:
        warn_few_clusters(smp.labels, smp.weights, cl, f, what="bootstrap over clusters", stacklevel=2)
    point_spec = dict(spec, best_policy="random")
    est, _ = _read(t.pos[None, :], t.neg[None, :], curve, point_spec, all_ties=True)
    estimate = {k: v[0][:1] if is_best else v[0] for k, v in est.items()}
    rng = np.random.default_rng(random_state)
    boot = {name: np.empty((n_resamples, G)) for name in spec["ret"]}
    omitted = np.zeros(n_resamples, dtype=bool)
    ties = 0
    if not is_best and spec["input"] != "threshold" and sample.w is None and sample.clusters is None:
        # At a fixed rate a resample's point depends on a few order statistics of each
        # class, drawn directly (rankwise.stats.operating_points' "order" engine); the
        # class sizes are fixed, so every coordinate follows from the two rates.
        by, fq = _INPUT_RATES[spec["input"]]
        reads = resampled_reads(sample, by, fq(spec["x"], spec["P"], spec["M"]), n_resamples, rng, "order")
        out = _all_coords(reads[0], 1.0 - reads[1], spec["P"], spec["M"], None, spec["r"])
        for name in boot:
            boot[name][...] = out[name]
    else:
        draw_from, rspec = sample, spec
        if spec["input"] == "threshold" and not is_best:
            # Only the mass at or above each threshold matters: a score is replaced by its
            # bin between consecutive thresholds, so a resample is a row over G + 1 bins.
            u = np.unique(spec["x"])
            binned = rows_at_or_above(sample.s, u, curve.ranked).astype(np.float64)
            draw_from = _core.Sample(sample.is_pos, binned, sample.w, rows=sample.clusters is not None,
                                     mass_scale=sample.mass_scale, clusters=sample.clusters)
            at = {v: i for i, v in enumerate(u.tolist())}
            rspec = dict(spec, point=point_of_threshold(draw_from.table.levels, np.array(
                [at[v] + 1.0 for v in spec["x"].tolist()], dtype=np.float64)))
        draws = _core.draws_of(draw_from)
        cost = getattr(draws, "chunk_cost", max(draws.L + 1, draws.n_rows))
        # blocks of about 2^18 values: the readings make several passes over each
        k = max(1, min(n_resamples, 262_144 // max(cost, G)))
        done = 0
        while done < n_resamples:
            kk = min(k, n_resamples - done)
            A, B = draws.draw(rng, kk)
            empty = ~((A.sum(axis=1) > 0) & (B.sum(axis=1) > 0))
            vals, tied = _read(A, B, curve, rspec, rng=rng)
            tied &= ~empty
            ties += int(tied.sum())
            for name, v in vals.items():
                v[empty] = np.nan
                boot[name][done: done + kk] = v
            omitted[done: done + kk] = empty | (tied if best_policy == "omit" else False)
            done += kk
    alpha = 1.0 - level
    probs = [alpha / 2.0, 0.5, 1.0 - alpha / 2.0]
    low, med, high = {}, {}, {}
    for name, v in boot.items():
        qs = np.full((3, G), np.nan)
        for g in range(G):
            col = v[:, g]
            col = col[~np.isnan(col)]
            if col.size:
                qs[:, g] = np.quantile(col, probs)
        low[name], med[name], high[name] = qs
    return CoordsIntervals(spec["input"], spec["x"], estimate, low, med, high, level, n_resamples,
                           int(omitted.sum()), ties, best_policy if is_best else None, n_clusters)
