"""Inference for several classes: the one-vs-rest and one-vs-one AUCs and their averages
(:func:`rankwise.multiclass_auc`) and the volume under the ROC surface of ordered classes
(:func:`rankwise.vus`), with K-sample DeLong standard errors, bootstrap intervals stratified
by class (or over clusters), and comparisons of several models.

Every criterion here is a function of *directed* AUCs: on score column ``k``, the
probability that a row of class ``a`` scores above a row of class ``b`` (ties 1/2). A row
enters each directed AUC in which its class takes part, with its *placement*: the share of
the other class below it (or above it). The standard error sums, for each row, its
placement terms over every directed AUC the criterion reads, centres them within the row's
class and adds up the class variances: the K-sample form of DeLong's variance, conditional
on the class sizes. ``average="weighted"`` reads the class prevalences too; its standard
error adds the term of their estimation. The VUS's placements are the chains a row
completes, from one forward and one backward chain count over the sorted scores."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._kernels import class_terms, vus_terms
from .._validation import check_choice, check_clusters, check_sample_weight, scale_weights, warn_undefined
from ..metrics.blocks import (
    chains_below,
    check_probability_rows,
    multiclass_labels,
    multiclass_score_matrix,
    ordered_labels,
    ordinal_inputs,
    sorted_levels,
)
from . import _core
from ._compare import (ADJUSTMENTS, COMPARE_ENTRIES, TEST_ALTERNATIVES, build_comparison, check_margin, check_names,
                       score_columns)
from ._estimate import MIN_CLUSTERS, OWN_ENTRIES, DegenerateIntervalWarning, FewClustersWarning, Inference
from ._results import ConfidenceInterval, fmt, fmt_count, format_rows, html_table
from ._variance import cluster_sums, sparse_term_covariance

__all__ = ["MulticlassEstimate", "estimate_multiclass", "compare_multiclass"]

_CRITERIA = ("multiclass_auc", "vus")


# --- result -------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class MulticlassEstimate:
    """A multiclass AUC or a VUS with its standard error (``rw.stats.estimate(...,
    criterion="multiclass_auc" | "vus")``).

    Attributes
    ----------
    criterion : {"multiclass_auc", "vus"}
    params : dict
        ``multi_class`` and ``average`` (multiclass AUC); ``labels`` (VUS, in their order).
    value, std_error : float
        The criterion and its K-sample DeLong standard error (``method="delong"``).
    labels : ndarray (K,)
        The classes, in the order of the score columns (VUS: the given order).
    class_sizes : ndarray (K,)
        Each class's mass (row count, or sum of weights).
    components : tuple of str
        What the average is taken over, each with its own value and standard error: the
        classes (one-vs-rest), the pairs ``"a vs b"`` (one-vs-one, Hand & Till's
        :math:`\\hat A(a, b)`); empty for ``average="micro"`` and the VUS.
    component_values, component_std_errors : ndarray (C,)
    component_cov : ndarray (C, C)
        The components' joint covariance.
    n_clusters : int or None
        The clusters the standard error and the bootstrap were taken over.
    std_error_prevalence : float
        ``average="weighted"`` only: the part of the variance due to the class prevalences
        being estimated, as a standard error (0 otherwise); ``std_error`` includes it.
    """

    criterion: str
    params: dict
    value: float
    std_error: float
    labels: np.ndarray
    class_sizes: np.ndarray
    components: tuple = ()
    component_values: np.ndarray = field(default_factory=lambda: np.empty(0))
    component_std_errors: np.ndarray = field(default_factory=lambda: np.empty(0))
    component_cov: np.ndarray = field(default_factory=lambda: np.empty((0, 0)), repr=False)
    n_clusters: int | None = None
    std_error_prevalence: float = 0.0
    method: str = "delong"
    weighted: bool = False
    bounds: tuple = (0.0, 1.0)
    _inference: Inference | None = field(default=None, repr=False, compare=False)

    def confidence_interval(self, confidence_level: float = 0.95, method: str | None = None, *,
                            transform: str | None = None, kind: str = "bca", n_resamples: int = 2000,
                            random_state: Any = None) -> ConfidenceInterval:
        """Confidence interval for the criterion.

        Parameters
        ----------
        confidence_level : float in (0, 1)
        method : {"delong", "bootstrap"}, optional
            ``"delong"`` (default): ``value +- z std_error`` clipped to [0, 1], or built
            on the logit scale with ``transform="logit"``. ``"bootstrap"``: rows resampled
            within each class (class sizes kept), or whole clusters; percentile or BCa.
        transform : {None, "logit"}
        kind : {"bca", "percentile"}
        n_resamples : int
        random_state : int, numpy Generator or None

        Notes
        -----
        Where a class has at most one observation the standard error cannot be estimated
        and the interval is [0, 1]; where it is 0 (every component at 0 or 1) the interval
        collapses to the value. Both warn :class:`DegenerateIntervalWarning`.
        """
        level = _core.check_level(confidence_level, "confidence_interval")
        method = check_choice(self.method if method is None else method, "method", "confidence_interval",
                              ("delong", "bootstrap"))
        if transform is not None:
            check_choice(transform, "transform", "confidence_interval", ("logit",))
        if not np.isfinite(self.value):
            return ConfidenceInterval(float("nan"), float("nan"), level, method)
        if method == "bootstrap":
            kind = check_choice(kind, "kind", "confidence_interval", ("bca", "percentile"))
            reps = self.bootstrap_distribution(n_resamples, random_state)
            accel = self._inference.acceleration() if kind == "bca" else 0.0
            lo, hi = _core.bootstrap_interval(self.value, reps, level, kind, accel)
            sd = float(np.std(reps[np.isfinite(reps)], ddof=1))
            if sd == 0:
                self._warn("every bootstrap resample gives the same value", "the interval collapses to a point")
            return ConfidenceInterval(lo, hi, level, "bootstrap", kind, None, int(reps.shape[0]), sd)
        return _normal(self.value, self.std_error, level, transform, self._warn)

    def component_intervals(self, confidence_level: float = 0.95, *, transform: str | None = None) -> np.ndarray:
        """DeLong intervals ``(C, 2)`` of the components (each class one-vs-rest, each pair
        one-vs-one), in the order of ``components``; not adjusted for multiplicity."""
        level = _core.check_level(confidence_level, "component_intervals")
        if transform is not None:
            check_choice(transform, "transform", "component_intervals", ("logit",))
        out = np.full((len(self.components), 2), np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateIntervalWarning)
            for i, (v, se) in enumerate(zip(self.component_values, self.component_std_errors)):
                if np.isfinite(v):
                    out[i] = tuple(_normal(float(v), float(se), level, transform, None))
        return out

    def bootstrap_distribution(self, n_resamples: int = 2000, random_state: Any = None) -> np.ndarray:
        """The criterion on ``n_resamples`` resamples: rows within each class, or whole
        clusters. Cached for an integer ``random_state``."""
        inf = self._inference
        if inf is None or inf.resample is None:
            raise ValueError(f"This {self.criterion} estimate has no sample to resample (it is undefined: "
                             f"{self.value}); no bootstrap can be drawn.")
        return _core.cached_draws(inf.cache, inf.resample, n_resamples, random_state)

    def standard_error(self, method: str | None = None) -> float:
        """The K-sample DeLong standard error (the only analytic method)."""
        check_choice("delong" if method is None else method, "method", "standard_error", ("delong",))
        return self.std_error

    def _warn(self, why: str, then: str) -> None:
        warnings.warn(f"The {self._label()} estimate {self.value:.6g} is degenerate: {why}, so {then} and has no "
                      f"coverage guarantee.", DegenerateIntervalWarning, stacklevel=4)

    # --- display -------------------------------------------------------------------------
    def _label(self) -> str:
        if self.criterion == "vus":
            name = "VUS" if self.labels.shape[0] == 3 else "HUM"
            return f"{name}({' < '.join(str(v) for v in self.labels.tolist())})"
        p = self.params
        name = "M (Hand & Till)" if p["multi_class"] == "ovo" and p["average"] == "macro" else \
            f"{p['multi_class'].upper()} {p['average']} AUC"
        return name

    def _tables(self, confidence_level: float = 0.95):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateIntervalWarning)
            lo, hi = self.confidence_interval(confidence_level)
        head = ["criterion", "value", "std. error", f"{confidence_level:.0%} CI"]
        rows = [[self._label(), fmt(self.value), fmt(self.std_error), f"[{fmt(lo)}, {fmt(hi)}]"]]
        sizes = ", ".join(f"{lab}: {fmt_count(m)}" for lab, m in zip(self.labels.tolist(), self.class_sizes))
        notes = [f"class sizes {sizes}",
                 "standard error: K-sample DeLong (placements summed over the class pairs each row enters)"]
        if self.n_clusters is not None:
            notes.append(f"over {self.n_clusters} clusters (cluster-robust, Obuchowski 1997)")
        if self.params.get("average") == "weighted":
            notes.append(f"includes the prevalence-weight term (se {fmt(self.std_error_prevalence)})")
        comp = None
        if self.components:
            what = "class (one-vs-rest)" if self.params["multi_class"] == "ovr" else "pair (one-vs-one)"
            ci = self.component_intervals(confidence_level)
            comp = ([what, "AUC", "std. error", f"{confidence_level:.0%} CI"],
                    [[c, fmt(v), fmt(s), f"[{fmt(a)}, {fmt(b)}]"]
                     for c, v, s, (a, b) in zip(self.components, self.component_values,
                                                self.component_std_errors, ci)])
        return (head, rows, notes), comp

    def summary(self, confidence_level: float = 0.95) -> str:
        (head, rows, notes), comp = self._tables(confidence_level)
        out = [format_rows(head, rows)]
        if comp is not None:
            out.append(format_rows(*comp))
        out.extend(notes)
        return "\n".join(out)

    def _repr_html_(self) -> str:
        (head, rows, notes), comp = self._tables()
        html = html_table(self._label(), head, rows, notes)
        if comp is not None:
            html += html_table("components", *comp)
        return html

    def __str__(self) -> str:
        return self.summary()


def _normal(value, se, level, transform, warn) -> ConfidenceInterval:
    if not np.isfinite(se):
        if warn is not None:
            warn("its standard error cannot be estimated (a class has at most one observation, or lies in "
                 "fewer than two clusters)", "the interval is [0, 1]")
        return ConfidenceInterval(0.0, 1.0, level, "delong", "wald", transform, None, se)
    if se == 0 and warn is not None:
        warn("its standard error is 0", "the interval collapses to a point")
    lo, hi = _core.normal_interval(value, se, level, transform, (0.0, 1.0))
    return ConfidenceInterval(lo, hi, level, "delong", "wald", transform, None, se)


# --- the sample: class codes, per-column levels -----------------------------------------------

class _ClassRows:
    """A design's class codes (``codes``, 0..K-1) and, read when first needed, each class's
    rows in row order (``_rows``: set by the compiled terms' class grouping when they ran)."""

    @property
    def rows(self) -> list:
        if self._rows is None:
            self._rows = [np.flatnonzero(self.codes == c) for c in range(self.K)]
        return self._rows


class _Design(_ClassRows):
    """One score matrix (or the VUS's one score) on a sample: the class codes, each
    column's sort (the sorted rows' levels and classes) and each row's level, the weights
    and the clusters."""

    def __init__(self, codes, K, S, w, clusters):
        self.codes, self.K, self.S, self.w, self.clusters = codes, K, S, w, clusters
        self.n = codes.shape[0]
        self._cols = None
        self.mass = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
        self._rows = None


    @property
    def cols(self) -> list:
        """Each score column's sort, made when first read (the bootstrap and the numpy
        engine's terms read it; the compiled terms sort on their own)."""
        if self._cols is None:
            self._cols = []
            for k in range(0 if self.S is None else self.K):
                order, lev, L = sorted_levels(self.S[:, k])
                rowlev = np.empty(self.n, dtype=np.intp)
                rowlev[order] = lev
                self._cols.append(_Column(order, lev, L, rowlev, self.codes[order]))
        return self._cols

    def _sorted_weights(self, col, w):
        w = self.w if w is None else w
        return None if w is None else w[col.order]

    def tables(self, k: int, w=None):
        """Column ``k``: class masses at each level ``m`` (K, L) and the masses below each
        level plus half of those at it, ``B`` (K, L); each class's levels contiguous."""
        col = self.cols[k]
        K, L = self.K, col.L
        m = np.bincount(col.cs * L + col.lev, weights=self._sorted_weights(col, w), minlength=K * L)
        m = m.astype(np.float64, copy=False).reshape(K, L)
        B = np.cumsum(m, axis=1)
        B -= 0.5 * m
        return m, B

    def own_and_total(self, k: int, w=None):
        """Column ``k``: class k's masses at each level and all classes' (two (L,) arrays)."""
        col = self.cols[k]
        ws = self._sorted_weights(col, w)
        sel = col.cs == k
        own = np.bincount(col.lev[sel], weights=None if ws is None else ws[sel], minlength=col.L)
        tot = np.bincount(col.lev, weights=ws, minlength=col.L)
        return own.astype(np.float64, copy=False), tot.astype(np.float64, copy=False)


class _Column:
    __slots__ = ("order", "lev", "L", "rowlev", "cs")

    def __init__(self, order, lev, L, rowlev, cs):
        self.order, self.lev, self.L, self.rowlev, self.cs = order, lev, L, rowlev, cs


def _half_below(m: np.ndarray) -> np.ndarray:
    """The mass below each level plus half the mass at it."""
    B = np.cumsum(m)
    B -= 0.5 * m
    return B


# --- one-vs-rest and one-vs-one -------------------------------------------------------------

def _directed(design: _Design, k: int, w=None) -> np.ndarray:
    """``num[b]``: on column ``k``, the mass of (class-k row, class-b row) pairs in order."""
    m, B = design.tables(k, w)
    return B @ m[k]


def _values(design: _Design, multi_class: str, w=None, full: bool = True):
    """Component values from the directed counts (the bootstrap's path too). One-vs-rest
    reads only class k's and all classes' masses on column k unless ``full`` (the
    directed counts of every class, for the weighted average's prevalence gradient)."""
    K = design.K
    mass = design.mass if w is None else np.bincount(design.codes, weights=w, minlength=K).astype(np.float64)
    num = None
    with np.errstate(invalid="ignore", divide="ignore"):
        if multi_class == "ovr":
            rest = mass.sum() - mass
            if full:
                num = np.stack([_directed(design, k, w) for k in range(K)])  # num[k, b]
                pairs_in_order = num.sum(axis=1) - np.diag(num)
            else:
                pairs_in_order = np.empty(K)
                for k in range(K):
                    own, tot = design.own_and_total(k, w)
                    pairs_in_order[k] = own @ _half_below(tot - own)
            comp = pairs_in_order / (mass * rest)
            comp[~((mass > 0) & (rest > 0))] = np.nan
        else:
            num = np.stack([_directed(design, k, w) for k in range(K)])
            comp = _ovo_components(num, mass)
    return comp, mass, num


def _ovo_components(num: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """Hand & Till's pair values from the directed counts, nan for a pair with an absent class."""
    K = mass.shape[0]
    iu, ju = np.triu_indices(K, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        D = num / np.outer(mass, mass)
        comp = (D[iu, ju] + D[ju, iu]) / 2
    comp[~((mass[iu] > 0) & (mass[ju] > 0))] = np.nan
    return comp


def _average(comp: np.ndarray, mass: np.ndarray, multi_class: str, average: str):
    """The average of the components and its coefficients (``coef @ comp``)."""
    C = comp.shape[0]
    coef = np.zeros(C)
    keep = np.isfinite(comp)
    if average == "macro":
        if multi_class == "ovr" and not keep.all():
            return float("nan"), np.full(C, np.nan)
        coef[keep] = 1.0 / max(int(keep.sum()), 1)
    else:  # weighted
        if multi_class == "ovr":
            pw = mass
        else:
            iu, ju = np.triu_indices(mass.shape[0], 1)
            pw = mass[iu] + mass[ju]
        pw = np.where(keep, pw, 0.0)
        coef = pw / pw.sum()
    if not keep.any():
        return float("nan"), coef
    return float(coef[keep] @ comp[keep]), coef


def _prevalence_gradient(num: np.ndarray, mass: np.ndarray, multi_class: str) -> np.ndarray:
    """``average="weighted"``: ``g[c] = d value / d pi_c`` with the directed AUCs held
    fixed, by complex-step differentiation of the weighted average as a function of the
    prevalences ``pi`` (exact to rounding: the function is rational in ``pi``)."""
    K = mass.shape[0]
    pi0 = mass / mass.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        D = np.nan_to_num(num / np.outer(mass, mass))
    present = mass > 0

    def value(pi):
        if multi_class == "ovr":
            rest = pi.sum() - pi
            keep = present & (pi0.sum() - pi0 > 0)
            A = np.array([(pi * D[k]).sum() - pi[k] * D[k, k] for k in range(K)]) / np.where(keep, rest, 1.0)
            return (np.where(keep, pi, 0) * A).sum() / np.where(keep, pi, 0).sum()
        tot = 0.0
        den = 0.0
        for a in range(K):
            for b in range(a + 1, K):
                if present[a] and present[b]:
                    tot = tot + (pi[a] + pi[b]) * (D[a, b] + D[b, a]) / 2
                    den = den + pi[a] + pi[b]
        return tot / den

    h = 1e-30
    g = np.zeros(K)
    for c in range(K):
        if present[c]:
            pi = pi0.astype(complex)
            pi[c] += 1j * h
            g[c] = value(pi).imag / h
    return g


def _component_blocks(design: _Design):
    """One-vs-rest, numpy engine: per class ``c`` the placement terms ``(n_c, K)`` of the K
    components (class c's rows' terms of every class's AUC), and which components those
    are. With them, the components' covariance is ``sum_c S_c / n_c`` (within-class sample
    covariances)."""
    K, mass = design.K, design.mass
    total = mass.sum()
    blocks = [np.empty((r.shape[0], K)) for r in design.rows]
    for k in range(K):
        own, tot = design.own_and_total(k)
        rowlev = design.cols[k].rowlev
        Bown = _half_below(own)
        Brest = _half_below(tot) - Bown
        rest = total - mass[k]
        with np.errstate(invalid="ignore", divide="ignore"):
            for c, r in enumerate(design.rows):
                if c == k:  # share of the rest below
                    blocks[c][:, k] = Brest[rowlev[r]] / rest
                else:  # (W_c / W_rest) * share of class k above
                    blocks[c][:, k] = mass[c] / rest * (1.0 - Bown[rowlev[r]] / mass[k])
    return blocks, [np.arange(K)] * K


def _ovr_components(pairs: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """One-vs-rest values from each class's pairs in order against the rest, nan for a
    class with no rows or no rest."""
    rest = mass.sum() - mass
    with np.errstate(invalid="ignore", divide="ignore"):
        comp = pairs / (mass * rest)
    comp[~((mass > 0) & (rest > 0))] = np.nan
    return comp


def _ovo_columns(K: int) -> list:
    """One-vs-one: for each class ``c``, the pair index of ``(c, d)`` for every ``d != c``
    in increasing ``d`` (the order of a class's term columns)."""
    index = {p: i for i, p in enumerate(zip(*np.triu_indices(K, 1)))}
    return [np.array([index[(min(c, d), max(c, d))] for d in range(K) if d != c], dtype=np.intp)
            for c in range(K)]


def _compiled_blocks(terms, multi_class: str, K: int):
    """The compiled engine's terms (:func:`rankwise._kernels.class_terms`) as the per-class
    blocks (views of one array, each class's rows in row order, Fortran-ordered) and their
    components."""
    H, num, _, off, _ = terms
    blocks = [H[:, off[c]:off[c + 1]].T for c in range(K)]
    cols = _ovo_columns(K) if multi_class == "ovo" else [np.arange(K)] * K
    return num, blocks, cols


def _ovo_blocks(design: _Design):
    """One-vs-one in one pass over the columns: the directed counts ``num`` (K, K) and the
    per-class blocks. Column ``k``'s table gives class k's directed counts, the masses of
    every class below the class-k rows, and class k's own masses below every level (read
    on the other classes' rows)."""
    K, mass = design.K, design.mass
    num = np.empty((K, K))
    below_own_rows = []   # (K, n_k): on column k, each class's mass below the class-k rows
    own_below = []        # (L_k,): on column k, class k's mass below each level
    for k in range(K):
        m, B = design.tables(k)
        num[k] = B @ m[k]
        below_own_rows.append(B[:, design.cols[k].rowlev[design.rows[k]]])
        own_below.append(B[k].copy())
        del m, B
    cols = _ovo_columns(K)
    blocks = []
    for c in range(K):
        r = design.rows[c]
        others = [d for d in range(K) if d != c]
        Hc = np.empty((r.shape[0], len(others)))
        for j, d in enumerate(others):
            other_own = own_below[d][design.cols[d].rowlev[r]]  # class d's mass below, on column d
            with np.errstate(invalid="ignore", divide="ignore"):
                Hc[:, j] = (below_own_rows[c][d] + mass[d] - other_own) / (2.0 * mass[d])
        blocks.append(Hc)
    return num, blocks, cols


class _Pooled:
    """``average="micro"``: the n K (row, class) entries pooled, sorted once."""

    def __init__(self, S, codes, w):
        n, K = S.shape
        self.n, self.K, self.codes, self.w = n, K, codes, w
        order, lev, L = sorted_levels(S.ravel())
        self.rowlev = np.empty(n * K, dtype=np.intp)
        self.rowlev[order] = lev
        self.L = L
        own = np.zeros((n, K), dtype=bool)
        own[np.arange(n), codes] = True
        self.own = own.ravel()

    def value(self, w=None):
        wr = np.ones(self.n * self.K) if w is None else np.repeat(w, self.K)
        pos = np.bincount(self.rowlev, weights=np.where(self.own, wr, 0.0), minlength=self.L)
        neg = np.bincount(self.rowlev, weights=np.where(self.own, 0.0, wr), minlength=self.L)
        n_pos, n_neg = pos.sum(), neg.sum()
        Bneg = np.cumsum(neg) - 0.5 * neg
        with np.errstate(invalid="ignore", divide="ignore"):
            return float(pos @ Bneg / (n_pos * n_neg)), pos, neg, Bneg

    def blocks(self, rows, mass):
        A, pos, neg, Bneg = self.value(self.w)
        n_pos, n_neg = pos.sum(), neg.sum()
        Bpos = np.cumsum(pos) - 0.5 * pos
        lev = self.rowlev.reshape(self.n, self.K)
        P = Bneg[lev[np.arange(self.n), self.codes]] / n_neg
        Q = 1.0 - Bpos[lev] / n_pos  # (n, K): positives above each entry
        Q[np.arange(self.n), self.codes] = 0.0
        h = P + Q.sum(axis=1) / (self.K - 1)
        total = mass.sum()
        h *= mass[self.codes] / total  # per-copy term (h - mean_c) / W, read as (h' - mean_c) / W_c
        return A, [h[r][:, None] for r in rows], [np.array([0])] * len(rows)


# --- the VUS -------------------------------------------------------------------------------

def _vus_placements(mass: np.ndarray) -> tuple[float, np.ndarray]:
    """The VUS of class shares ``mass`` (d levels, K classes, columns summing to 1) and
    ``V[v, c]``: the share of chains through a row of class ``c`` at level ``v`` (its
    placement; ``sum_v mass[v, c] V[v, c]`` is the VUS for every ``c``)."""
    d, K = mass.shape
    below, theta = chains_below(mass)
    below_r, _ = chains_below(mass[::-1, ::-1])

    def above(b):  # chains of classes b..K (1-based) strictly above each level
        return np.ones(d) if b > K else below_r[K - b + 1][::-1]

    V = np.empty((d, K))
    for c in range(1, K + 1):
        V[:, c - 1] = below[c - 1] * above(c + 1)
    present = np.count_nonzero(mass > 0, axis=1)
    idx = np.flatnonzero(present >= 2)
    if idx.size:
        mi = mass[idx]
        for a in range(1, K + 1):
            for b in range(a + 1, K + 1):
                run = mi[:, a - 1:b]
                full = (run > 0).sum(axis=1) >= b - a  # at most one zero: the row's own class may be it
                if not full.any():
                    continue
                outer = below[a - 1][idx] * above(b + 1)[idx] / math.factorial(b - a + 1)
                for c in range(a, b + 1):
                    others = np.prod(np.delete(run, c - a, axis=1), axis=1)
                    V[idx, c - 1] += outer * others
    return float(min(max(theta, 0.0), 1.0)), V


class _VusDesign(_ClassRows):
    """One score of ordered classes on a sample: the class codes, masses and rows, the
    weights and clusters; the score's sort (each row's level) made when first read (the
    bootstrap's values and the numpy engine's placements)."""

    def __init__(self, codes, K, score, w, clusters):
        self.codes, self.K, self.score, self.w, self.clusters = codes, K, score, w, clusters
        self.n = codes.shape[0]
        self.mass = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
        self._levels = None
        self._rows = None


    def _rowlev(self):
        if self._levels is None:
            order, lev, L = sorted_levels(self.score)
            rowlev = np.empty(self.n, dtype=np.intp)
            rowlev[order] = lev
            self._levels = rowlev, L
        return self._levels

    def shares(self, w=None):
        K = self.K
        rowlev, L = self._rowlev()
        m = np.bincount(rowlev * K + self.codes, weights=self.w if w is None else w, minlength=L * K)
        m = m.astype(np.float64, copy=False).reshape(L, K)
        tot = m.sum(axis=0)
        return m, tot

    def value(self, w=None) -> float:
        m, tot = self.shares(w)
        if not (tot > 0).all():
            return float("nan")
        below, theta = chains_below(m / tot)
        return float(min(max(theta, 0.0), 1.0))

    def value_and_blocks(self):
        """The VUS and each class's placements (n_c, 1): compiled (one sort, two walks)
        where numba is in use, else from the level tables with numpy."""
        fast = vus_terms(self.score, self.codes, self.K, self.w, self.mass)
        if fast is not None:
            theta, V, off, order = fast
            if self._rows is None:
                self._rows = [order[off[c]:off[c + 1]] for c in range(self.K)]
            blocks = [V[off[c]:off[c + 1], None] for c in range(self.K)]
            return float(min(max(theta, 0.0), 1.0)), blocks, [np.array([0])] * self.K
        m, tot = self.shares()
        theta, V = _vus_placements(m / tot)
        rowlev = self._rowlev()[0]
        return theta, [V[rowlev[r], c][:, None] for c, r in enumerate(self.rows)], [np.array([0])] * self.K


# --- the fits: value, components, per-row terms ---------------------------------------------

class _Fit:
    """Everything :func:`estimate_multiclass` and :func:`compare_multiclass` need for one
    score (matrix): value, components, the per-class term blocks and the average's
    coefficients."""

    def __init__(self, criterion, params, design):
        self.criterion, self.params, self.design = criterion, params, design
        d = design
        self.prev = None
        if criterion == "vus":
            self.value, self.blocks, self.cols = d.value_and_blocks()
            self.comp, self.coef, self.names = np.array([self.value]), np.ones(1), ()
            return
        mc, av = params["multi_class"], params["average"]
        if av == "micro":
            self.value, self.blocks, self.cols = d.pooled.blocks(d.rows, d.mass)
            self.comp, self.coef, self.names = np.array([self.value]), np.ones(1), ()
            return
        mass = d.mass
        fast = class_terms(d.S, d.codes, d.K, d.w, mass, mc == "ovo", full=mc == "ovo" or av == "weighted")
        if fast is not None:
            num, self.blocks, self.cols = _compiled_blocks(fast, mc, d.K)
            if d._rows is None:
                off, order = fast[-2:]
                d._rows = [order[off[c]:off[c + 1]] for c in range(d.K)]
            comp = _ovo_components(num, mass) if mc == "ovo" else _ovr_components(fast[2], mass)
        elif mc == "ovo":
            num, self.blocks, self.cols = _ovo_blocks(d)
            comp = _ovo_components(num, mass)
        else:
            comp, mass, num = _values(d, mc, full=av == "weighted")
            self.blocks, self.cols = _component_blocks(d)
        self.comp = comp
        self.value, self.coef = _average(comp, mass, mc, av)
        labels = [str(v) for v in params["_labels"]]
        if mc == "ovr":
            self.names = tuple(labels)
        else:
            iu, ju = np.triu_indices(d.K, 1)
            self.names = tuple(f"{labels[a]} vs {labels[b]}" for a, b in zip(iu, ju))
        if av == "weighted":
            g = _prevalence_gradient(num, mass, mc)
            pi = mass / mass.sum()
            self.prev = (g - pi @ g) / mass.sum()  # per-copy term of a row of each class


def _covariance(fits: list, design) -> tuple[np.ndarray, np.ndarray, list]:
    """The joint covariance of the components of every fit (stacked), and of the fits'
    averages (with the prevalence term where ``average="weighted"``)."""
    K = design.K
    sizes = [f.comp.shape[0] for f in fits]
    offs = np.concatenate(([0], np.cumsum(sizes)))
    blocks, cols = [], []
    for c in range(K):
        # One fit: its blocks themselves (centred in place below; every later reader of
        # them, the prevalence term and the BCa acceleration, centres them anyway).
        if len(fits) == 1:
            blocks.append(fits[0].blocks[c])
        else:
            blocks.append(np.hstack([f.blocks[c] for f in fits]) if design.rows[c].size else
                          np.empty((0, sum(b.blocks[c].shape[1] for b in fits))))
        cols.append(np.concatenate([f.cols[c] + offs[i] for i, f in enumerate(fits)]))
    comp_all = np.concatenate([f.comp for f in fits])
    # A component that is nan (an absent class) has nan terms: zero them (it is not averaged).
    # With every component finite, so are the terms (placements of finite scores).
    if not np.isfinite(comp_all).all():
        for b in blocks:
            b[~np.isfinite(b)] = 0.0
    C = int(offs[-1])
    cov = sparse_term_covariance(blocks, design.rows, cols, C, weights=design.w, scale=design.scale,
                                 clusters=design.clusters, bounded=True)
    cov[~np.isfinite(comp_all), :] = np.nan
    cov[:, ~np.isfinite(comp_all)] = np.nan
    M = len(fits)
    T = np.zeros((C, M))
    for i, f in enumerate(fits):
        T[offs[i]:offs[i + 1], i] = np.where(np.isfinite(f.comp), f.coef, 0.0)
    with np.errstate(invalid="ignore"):
        cov0 = np.nan_to_num(cov, nan=0.0)
        avg = T.T @ cov0 @ T
        bad = np.array([np.isnan(cov[offs[i]:offs[i + 1], offs[i]:offs[i + 1]][np.ix_(f.coef != 0, f.coef != 0)]).any()
                        for i, f in enumerate(fits)])
    prev = np.zeros((M, M))
    if any(f.prev is not None for f in fits):
        prev = _prevalence_cov(fits, design, blocks, T, offs)
    avg = avg + prev
    for i in np.flatnonzero(bad):
        avg[i, :] = np.nan
        avg[:, i] = np.nan
    return cov, avg, [float(np.sqrt(max(prev[i, i], 0.0))) for i in range(M)]


def _prevalence_cov(fits, design, blocks, T, offs) -> np.ndarray:
    """The covariance added by the prevalences being estimated: each row of class ``c``
    carries ``tau_c`` per copy; over independent rows ``W/(W-1) sum_c W_c tau_c tau_c'``,
    over clusters Obuchowski's ``I/(I-1) sum_g`` of the cluster sums, with their products
    with the placement terms' centred cluster sums."""
    K, mass = design.K, design.mass
    M = len(fits)
    tau = np.zeros((K, M))
    for i, f in enumerate(fits):
        if f.prev is not None:
            tau[:, i] = f.prev
    W = mass.sum()
    if design.clusters is None:
        size = W * design.scale  # the weights are divided by ``scale`` (a power of two)
        return (tau.T * mass) @ tau * (W / (size - 1.0)) if size > 1 else np.full((M, M), np.nan)
    codes, G = design.clusters
    wr = np.ones(design.n) if design.w is None else design.w
    Tg = np.zeros((G, M))
    Ug = np.zeros((G, M))
    for c in range(K):
        r = design.rows[c]
        if not r.size:
            continue
        Wgc = np.bincount(codes[r], weights=wr[r], minlength=G)
        Tg += np.outer(Wgc, tau[c])
        H = blocks[c] @ T[np.concatenate([f.cols[c] + offs[i] for i, f in enumerate(fits)])]  # (n_c, M) averages
        S, Wc = cluster_sums(H, r, design.w, design.clusters)
        nc = float(Wc.sum())
        Ug += (S - np.outer(Wc, S.sum(axis=0) / nc)) / nc
    occupied = np.bincount(codes, weights=wr, minlength=G) > 0
    I = int(occupied.sum())
    f = I / (I - 1.0) if I > 1 else float("nan")
    return f * (Tg.T @ Tg + Tg.T @ Ug + Ug.T @ Tg)


# --- inputs --------------------------------------------------------------------------------

def _check_multiclass(y_true, y_score, labels, sample_weight, multi_class, average, func):
    check_choice(multi_class, "multi_class", func, ("ovr", "ovo"))
    if average is None:
        raise ValueError(f"{func}(criterion='multiclass_auc') needs an average ('macro', 'weighted' or 'micro'): "
                         f"average=None has no single value. Each class's (OvR) or pair's (OvO) value comes with "
                         f"its interval in the result's components.")
    check_choice(average, "average", func, ("macro", "weighted", "micro"))
    if average == "micro" and multi_class == "ovo":
        raise ValueError("The 'average' argument 'micro' is defined for multi_class='ovr' only.")
    y, classes, codes = multiclass_labels(y_true, labels)
    S = multiclass_score_matrix(y_score, classes, labels is not None, y.shape[0])
    w = check_sample_weight(sample_weight, y.shape[0])
    check_probability_rows(S)
    return codes, classes, S, w


def _multiclass_design(codes, K, S, w, clusters, average):
    d = _Design(codes, K, None if average == "micro" else S, w, clusters)
    if average == "micro":
        d.pooled = _Pooled(S, codes, w)
    return d


def _resampler(design, value_of, clusters):
    """Bootstrap draws: rows within each class (sizes kept) or whole clusters, as frequency
    weights on the sample's own levels (no sort per resample)."""
    w0 = np.ones(design.n) if design.w is None else design.w

    def resample(n_resamples, random_state):
        rng = np.random.default_rng(random_state)
        out = np.empty(n_resamples)
        for b in range(n_resamples):
            if clusters is None:
                drawn = [r[rng.integers(0, r.size, r.size)] for r in design.rows if r.size]
                cnt = np.bincount(np.concatenate(drawn), minlength=design.n).astype(np.float64)
            else:
                codes, G = clusters
                cnt = np.bincount(rng.integers(0, G, G), minlength=G).astype(np.float64)[codes]
            with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out[b] = value_of(w0 * cnt)
        return out

    return resample


def _acceleration(fit, design):
    """BCa acceleration from the average's per-copy influence terms (cluster sums with
    clusters)."""
    def accel():
        u = np.zeros(design.n)
        sel_all = []
        for c, r in enumerate(design.rows):
            if not r.size:
                continue
            H = fit.blocks[c] @ np.where(np.isfinite(fit.coef[fit.cols[c]]), fit.coef[fit.cols[c]], 0.0)
            wc = np.ones(r.size) if design.w is None else design.w[r]
            nc = wc.sum()
            u[r] = (H - (wc @ H) / nc) / nc
            sel_all.append(r)
        wr = np.ones(design.n) if design.w is None else design.w
        if design.clusters is not None:
            codes, G = design.clusters
            u = np.bincount(codes, weights=u * wr, minlength=G)
            wr = np.ones(G)
        s2 = float(wr @ u ** 2)
        return float(wr @ u ** 3) / (6.0 * s2 ** 1.5) if s2 > 0 else 0.0
    return accel


# --- entries -------------------------------------------------------------------------------

def estimate_multiclass(y_true, y_score, criterion: str = "multiclass_auc", *, multi_class: str = "ovr",
                        average: str = "macro", labels=None, sample_weight=None, clusters=None,
                        method: str | None = None) -> MulticlassEstimate:
    r"""The multiclass AUC (:func:`rankwise.multiclass_auc`) or the VUS
    (:func:`rankwise.vus`) with its standard error; reached as
    ``rw.stats.estimate(y, S, criterion="multiclass_auc" | "vus", ...)``.

    Parameters
    ----------
    y_true : array-like (n,)
        Class labels.
    y_score : array-like (n, K) or DataFrame (multiclass AUC); array-like (n,) (VUS)
        As in :func:`rankwise.multiclass_auc` (rows summing to 1) and :func:`rankwise.vus`
        (one score, higher = a higher class).
    criterion : {"multiclass_auc", "vus"}
    multi_class, average
        Multiclass AUC: ``"ovr"`` or ``"ovo"``; ``"macro"``, ``"weighted"`` or
        ``"micro"`` (OvR only). OvO macro is Hand & Till's M.
    labels : sequence
        Multiclass AUC: the classes of the score columns (default: the sorted classes).
        VUS: required, the classes in their order, lowest first.
    sample_weight : array-like (n,), optional
        Non-negative frequency weights.
    clusters : array-like (n,), optional
        The sampling unit of each row (patient, user): the standard error is taken over
        clusters (Obuchowski's form) and the bootstrap resamples whole clusters.
    method : {"delong"}, optional

    Returns
    -------
    MulticlassEstimate

    Notes
    -----
    Every criterion here reads directed AUCs
    :math:`D_k(a|b) = \frac{1}{W_a W_b}\sum_{i \in a}\sum_{j \in b} w_i w_j \psi(s_{ik}, s_{jk})`
    (ties 1/2). A row ``i`` of class ``a`` enters :math:`D_k(a|b)` with its placement
    :math:`P_i` (the share of class ``b`` below it on column ``k``), a row ``j`` of class
    ``b`` with :math:`Q_j` (the share of class ``a`` above it); :math:`D_k(a|b)` is the
    class mean of either. For a criterion :math:`\theta = \sum g\, D`, row ``i``'s term
    :math:`h_i` is the sum over the directed AUCs its class enters of ``g`` times its
    placement, and with the class sizes fixed (the K-sample design, as DeLong's)

    .. math:: \widehat{\mathrm{Var}}(\hat\theta) = \sum_{c=1}^K \frac{S_c^2(h)}{W_c},

    :math:`S_c^2` the sample variance of the terms in class ``c`` (denominator
    :math:`W_c - 1`). For two classes this is DeLong's variance. One-vs-rest for class
    ``k`` reads :math:`D_k(k|b)` with :math:`g = W_b / W_{\bar k}` for every other class
    ``b``; one-vs-one's pair value :math:`\hat A(a, b) = (D_a(a|b) + D_b(b|a))/2`. The
    components (classes, pairs) have their joint covariance from the same terms; the
    macro and weighted averages are linear in them. ``average="weighted"`` also reads the
    prevalences :math:`\pi_c`; treating them as estimated adds, per row of class ``c``,
    :math:`(\partial\theta/\partial\pi_c - \sum_d \pi_d\, \partial\theta/\partial\pi_d)/W`,
    whose variance is added (it is uncorrelated with the placement terms over independent
    rows). Micro pools the n K (row, class) entries: each row is one positive entry and
    K - 1 negative ones, and its term is the sum of their placements.

    The VUS (K = 3) and HUM read the chains :math:`x_1 < x_2 < \dots < x_K`, one row per
    class; a row's placement is the share of chains through it, from a forward count of
    the chains below each score and a backward count of those above, with tied runs of
    consecutive classes at the row's score (its share 1/j!). Its variance is the same sum
    (the K-sample U-statistic's, Nakas & Yiannoutsos 2004 for K = 3).

    With ``clusters``, each class's centred terms are summed per cluster and combined in
    Obuchowski's form (as for the binary AUC), with the prevalence term's cluster sums
    where it applies. The bootstrap resamples rows within each class (or whole
    clusters) as frequency weights over the sample's own sorted levels.

    Examples
    --------
    >>> import rankwise as rw
    >>> e = rw.stats.estimate([0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.6, 0.5, 0.9],
    ...                       criterion="vus", labels=[0, 1, 2])
    >>> e.value, round(e.std_error, 4)
    (0.5, 0.3536)

    By hand: of the 2 x 2 x 2 chains (one score of each class), 4 are in order, so the VUS
    is 1/2. Class 0's rows (0.1, 0.4) lie on 3/4 and 1/4 of the chains of the others,
    class 1's on 1/2 and 1/2, class 2's (0.5, 0.9) on 1/4 and 3/4: the class variances
    are 1/8, 0 and 1/8, each divided by its class size 2, and the variance is 1/8.
    """
    check_choice(criterion, "criterion", "estimate", _CRITERIA)
    if method is not None:
        check_choice(method, "method", "estimate", ("delong",))
    prep = _prepare(y_true, y_score, criterion, multi_class, average, labels, sample_weight, clusters, "estimate")
    return _finish(prep)


class _Prepared:
    """One score (matrix) on the sample: its design, fit (None when undefined), labels,
    parameters and the value of a resample's weights."""

    def __init__(self, criterion, design, fit, labels, params, value_of):
        self.criterion, self.design, self.fit = criterion, design, fit
        self.labels, self.params, self.value_of = labels, params, value_of


def _prepare(y_true, y_score, criterion, multi_class, average, labels, sample_weight, clusters, func) -> _Prepared:
    if criterion == "vus":
        codes, K, score = ordinal_inputs(y_true, y_score, labels)
        labs = np.asarray(ordered_labels(labels), dtype=object)
        w, scale = scale_weights(check_sample_weight(sample_weight, codes.shape[0]))
        clus = check_clusters(clusters, codes.shape[0], func)
        design = _VusDesign(codes, K, score, w, clus)
        design.scale = scale
        params = {"labels": labs.tolist()}
        fit = None
        if not (design.mass > 0).all():
            empty = [str(v) for v, m in zip(labs.tolist(), design.mass) if not m > 0]
            warn_undefined("vus", f"label(s) {empty} of 'labels' have no observation with positive weight")
        else:
            fit = _Fit("vus", params, design)
        return _Prepared("vus", design, fit, labs, params, design.value)
    codes, classes, S, w = _check_multiclass(y_true, y_score, labels, sample_weight, multi_class, average, func)
    K = classes.shape[0]
    clus = check_clusters(clusters, codes.shape[0], func)
    params = {"multi_class": multi_class, "average": average}
    w, scale = scale_weights(w)
    design = _multiclass_design(codes, K, S, w, clus, average)
    design.scale = scale

    def value_of(wb):
        if average == "micro":
            return design.pooled.value(wb)[0]
        comp, mass, _ = _values(design, multi_class, wb, full=False)
        return _average(comp, mass, multi_class, average)[0]

    fit = None
    if K < 2 or np.count_nonzero(design.mass > 0) < 2:
        warn_undefined("multiclass_auc", "fewer than two classes are present in y_true")
    else:
        fit = _Fit("multiclass_auc", dict(params, _labels=classes.tolist()), design)
        if not np.isfinite(fit.value):
            warn_undefined("multiclass_auc", "a class has no rows (or no rows outside it), so the one-vs-rest "
                                             "macro average is undefined, as in scikit-learn")
    return _Prepared("multiclass_auc", design, fit, classes, params, value_of)


def _ncl(clus):
    return None if clus is None else int(clus[1])


def _warn_few_clusters(design, labels, func) -> None:
    """:class:`FewClustersWarning` for each class held by fewer than ten clusters."""
    if design.clusters is None:
        return
    codes, G = design.clusters
    for c, r in enumerate(design.rows):
        rr = r if design.w is None else r[design.w[r] > 0]
        k = int(np.unique(codes[rr]).shape[0])
        if 0 < k < MIN_CLUSTERS:
            how = "cannot be estimated (nan)" if k < 2 else "rests on that few cluster totals and may be too small"
            warnings.warn(f"{func}: class {labels[c]!r} lies in {k} cluster{'s' if k != 1 else ''} (of {G}); the "
                          f"cluster-robust variance {how}.", FewClustersWarning, stacklevel=4)


def _finish(prep: _Prepared, cov_avg=None) -> MulticlassEstimate:
    design, fit = prep.design, prep.fit
    w = design.w
    if fit is None:
        return MulticlassEstimate(criterion=prep.criterion, params=prep.params, value=float("nan"),
                                  std_error=float("nan"), labels=np.asarray(prep.labels),
                                  class_sizes=design.mass * design.scale,
                                  n_clusters=_ncl(design.clusters), weighted=w is not None)
    _warn_few_clusters(design, list(prep.labels), "estimate")
    cov, avg, prev_se = _covariance([fit], design)
    var = float(avg[0, 0])
    se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")
    has_comp = bool(fit.names)
    comp_se = np.sqrt(np.clip(np.diag(cov), 0.0, None)) if has_comp else np.empty(0)
    inference = Inference(_resampler(design, prep.value_of, design.clusters), _acceleration(fit, design),
                          path="clusters" if design.clusters is not None else "table")
    return MulticlassEstimate(
        criterion=fit.criterion, params=prep.params, value=float(fit.value), std_error=se,
        labels=np.asarray(prep.labels), class_sizes=design.mass * design.scale,
        components=fit.names, component_values=fit.comp if has_comp else np.empty(0),
        component_std_errors=comp_se if has_comp else np.empty(0),
        component_cov=cov if has_comp else np.empty((0, 0)),
        n_clusters=_ncl(design.clusters), std_error_prevalence=prev_se[0], weighted=w is not None,
        _inference=inference)


def compare_multiclass(y_true, y_scores, criterion: str = "multiclass_auc", *, names=None, multi_class: str = "ovr",
                       average: str = "macro", labels=None, sample_weight=None, clusters=None,
                       reference: str | None = None, adjust: str = "holm", alternative: str = "two-sided",
                       confidence_level: float = 0.95, method: str | None = None, margin: float | None = None):
    """Several models' multiclass AUCs or VUS on the same rows, with their joint
    covariance (the K-sample DeLong terms of each model, paired by row), every pairwise
    difference with its test and interval, adjusted p-values and the global Wald test;
    reached as ``rw.stats.compare(y, [S_1, S_2, ...], criterion="multiclass_auc" | "vus",
    ...)``. ``y_scores``: a list or dict of score matrices (multiclass AUC; each (n, K)
    or a DataFrame named by class) or of score columns (VUS). See
    :func:`estimate_multiclass` for the variance and :func:`rankwise.stats.compare` for
    the tests (``alternative="noninferiority"|"equivalence"`` with ``margin``, in AUC or
    VUS units, as there)."""
    func = "compare"
    check_choice(criterion, "criterion", func, _CRITERIA)
    if method is not None:
        check_choice(method, "method", func, ("delong",))
    adjust = check_choice(adjust, "adjust", func, ADJUSTMENTS)
    alternative = check_choice(alternative, "alternative", func, TEST_ALTERNATIVES)
    margin = check_margin(margin, alternative, func)
    level = _core.check_level(confidence_level, func)
    if criterion == "multiclass_auc":
        if isinstance(y_scores, dict):
            cols, keys = list(y_scores.values()), [str(k) for k in y_scores]
        elif isinstance(y_scores, (list, tuple)):
            cols, keys = list(y_scores), [f"score_{i + 1}" for i in range(len(y_scores))]
        else:
            raise TypeError("compare(criterion='multiclass_auc') takes a list or dict of score matrices, one "
                            f"(n, K) matrix per model. Got {type(y_scores).__name__} instead.")
        names = check_names(cols, keys, names)
    else:
        cols, names = score_columns(y_scores, names)
    preps = [_prepare(y_true, S, criterion, multi_class, average, labels, sample_weight, clusters, func)
             for S in cols]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateIntervalWarning)
        est = [_finish(p) for p in preps]
    values = np.array([e.value for e in est])
    M = len(cols)
    if any(p.fit is None for p in preps):
        cov = np.full((M, M), np.nan)
    else:
        # The models share the rows, classes, weights and clusters: their terms stack on one design.
        cov = _covariance([p.fit for p in preps], preps[0].design)[1]
    params = preps[0].params
    return build_comparison(criterion, params, names, values, cov, "delong", True, adjust, level, est,
                            reference=reference, alternative=alternative, bounds=[(0.0, 1.0)] * M,
                            n_clusters=_ncl(preps[0].design.clusters), margin=margin)


# --- registration in estimate / compare ----------------------------------------------------

def _from_estimate(criterion):
    def entry(y_true, y_score, *, sample_weight, pos_label, method, bandwidth, clusters, **kw):
        if pos_label is not None or bandwidth is not None:
            raise TypeError(f"estimate(criterion={criterion!r}) takes no pos_label and no bandwidth.")
        allowed = {"labels"} if criterion == "vus" else {"multi_class", "average", "labels"}
        extra = sorted(set(kw) - allowed)
        if extra:
            raise TypeError(f"estimate(criterion={criterion!r}) got unexpected keyword(s) {extra}; it takes "
                            f"{sorted(allowed)}, sample_weight and clusters.")
        return estimate_multiclass(y_true, y_score, criterion, sample_weight=sample_weight, clusters=clusters,
                                   method=method, **kw)
    return entry


def _from_compare(criterion):
    def entry(y_true, y_scores, *, names, sample_weight, pos_label, method, bandwidth, clusters, reference,
              adjust, alternative, confidence_level, margin=None, **kw):
        if pos_label is not None or bandwidth is not None:
            raise TypeError(f"compare(criterion={criterion!r}) takes no pos_label and no bandwidth.")
        allowed = {"labels"} if criterion == "vus" else {"multi_class", "average", "labels"}
        extra = sorted(set(kw) - allowed)
        if extra:
            raise TypeError(f"compare(criterion={criterion!r}) got unexpected keyword(s) {extra}; it takes "
                            f"{sorted(allowed)}, sample_weight and clusters.")
        return compare_multiclass(y_true, y_scores, criterion, names=names, sample_weight=sample_weight,
                                  clusters=clusters, reference=reference, adjust=adjust, alternative=alternative,
                                  confidence_level=confidence_level, method=method, margin=margin, **kw)
    return entry


for _name in _CRITERIA:
    OWN_ENTRIES[_name] = _from_estimate(_name)
    COMPARE_ENTRIES[_name] = _from_compare(_name)
