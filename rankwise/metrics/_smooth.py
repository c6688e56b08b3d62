"""Smoothed ROC curves: the binormal fit on the empirical points and the kernel density
method, the same numbers as pROC's ``smooth``; their AUC, partial AUC and bootstrap
interval.

Both methods work from the distinct scores of the sample and each class's mass at each
of them (:class:`_Prepared`), so that one code path serves the curve of the sample and the
curve of every bootstrap resample (which only changes the masses).
"""

from __future__ import annotations

import html
import math
import numbers
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .._labels import check_sample
from .._validation import check_choice, check_param

__all__ = ["SmoothROC", "BinormalFit", "SmoothAUCInterval", "smooth_roc", "r_density"]

METHODS = ("binormal", "density")
KERNELS = ("gaussian", "epanechnikov", "rectangular", "triangular", "biweight", "cosine", "optcosine")
BANDWIDTH_RULES = ("nrd0", "nrd")
_FUNC = "smooth_roc"


class BinormalFit(NamedTuple):
    """The binormal model fitted on the empirical ROC points.

    ``intercept`` and ``slope`` are the least-squares line of the specificity's normal
    deviate on the sensitivity's, :math:`\\Phi^{-1}(\\mathrm{Sp}) = c_0 + c_1 \\Phi^{-1}(\\mathrm{Se})`
    (pROC's ``lm(sp ~ se)``); ``a`` and ``b`` the same line in the usual binormal form
    :math:`\\Phi^{-1}(\\mathrm{TPR}) = a + b\\,\\Phi^{-1}(\\mathrm{FPR})`, so ``a = -c0/c1``
    and ``b = -1/c1``. ``n_points``: the empirical points used (those with both rates
    strictly between 0 and 1).
    """

    a: float
    b: float
    intercept: float
    slope: float
    n_points: int


@dataclass(frozen=True)
class SmoothAUCInterval:
    """A stratified bootstrap percentile interval of a smoothed curve's (partial) AUC.

    Attributes
    ----------
    low, high : float
        The ``(1 - confidence_level) / 2`` and ``(1 + confidence_level) / 2`` quantiles
        (type 7) of the resampled values.
    median : float
        Their median.
    estimate : float
        The value on the sample itself.
    confidence_level : float
    n_resamples : int
        Resamples drawn.
    n_failed : int
        Resamples whose curve could not be smoothed (left out, as pROC does).
    replicates : numpy.ndarray
        The values of the resamples that could be smoothed.
    """

    low: float
    high: float
    median: float
    estimate: float
    confidence_level: float
    n_resamples: int
    n_failed: int
    replicates: np.ndarray = field(repr=False)

    def __iter__(self):
        return iter((self.low, self.high))

    def summary(self) -> str:
        out = (f"{self.estimate:.4f}, {100 * self.confidence_level:g}% CI [{self.low:.4f}, {self.high:.4f}] "
               f"(stratified bootstrap, {self.n_resamples} resamples, percentile)")
        if self.n_failed:
            out += f"; {self.n_failed} resamples could not be smoothed and were left out"
        return out

    def __str__(self) -> str:
        return self.summary()


# --- the sample as masses at its distinct scores ---------------------------------------------

def _own_levels(codes: np.ndarray, L: int) -> tuple[np.ndarray, np.ndarray]:
    """``(idx, inv)`` of one class whose observations sit at the pooled levels ``codes``:
    the class's own distinct levels (``idx``, increasing) and each observation's position
    among them (``inv``)."""
    present = np.bincount(codes, minlength=L) > 0
    return np.flatnonzero(present), (np.cumsum(present) - 1)[codes]


class _Prepared:
    """The two classes' distinct scores and where they sit among the pooled distinct
    scores; a curve is computed from each class's count at each of its distinct scores
    (``k0``, ``k1``: the sample's own counts, or a resample's)."""

    def __init__(self, controls: np.ndarray, cases: np.ndarray):
        self.n0, self.n1 = int(controls.shape[0]), int(cases.shape[0])
        self.values, codes = np.unique(np.concatenate([controls, cases]), return_inverse=True)
        codes = codes.reshape(-1)
        self.idx0, self.inv0 = _own_levels(codes[:self.n0], self.values.shape[0])
        self.idx1, self.inv1 = _own_levels(codes[self.n0:], self.values.shape[0])
        self.u0, self.u1 = self.values[self.idx0], self.values[self.idx1]
        self._tables = None

    def counts(self) -> tuple[np.ndarray, np.ndarray]:
        return (np.bincount(self.inv0, minlength=self.u0.shape[0]),
                np.bincount(self.inv1, minlength=self.u1.shape[0]))

    def resample(self, rng) -> tuple[np.ndarray, np.ndarray]:
        """A stratified bootstrap resample's counts."""
        return (np.bincount(self.inv0[rng.integers(0, self.n0, self.n0)], minlength=self.u0.shape[0]),
                np.bincount(self.inv1[rng.integers(0, self.n1, self.n1)], minlength=self.u1.shape[0]))

    def pooled(self, k0: np.ndarray, k1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each class's count at every pooled distinct score (integers)."""
        neg = np.zeros(self.values.shape[0], dtype=np.int64)
        pos = np.zeros(self.values.shape[0], dtype=np.int64)
        neg[self.idx0] = k0
        pos[self.idx1] = k1
        return neg, pos

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The normal deviates of ``k / n0`` and ``k / n1`` for every count ``k``: the
        rates of the empirical points are such ratios, so their deviates are looked up."""
        if self._tables is None:
            from scipy import special

            self._tables = (special.ndtri(np.arange(self.n0 + 1) / self.n0),
                            special.ndtri(np.arange(self.n1 + 1) / self.n1))
        return self._tables


# --- the two methods ------------------------------------------------------------------------

def _binormal(P: _Prepared, k0: np.ndarray, k1: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, BinormalFit]:
    """``(sensitivities, specificities, fit)`` of the binormal smoothing, in pROC's order
    before its end points are added. Raises ValueError when the fit is not defined.

    pROC's empirical points (direction ``<``) are one per threshold: ``-inf``, every
    midpoint between consecutive distinct scores, ``+inf``; at the threshold just above
    the distinct score ``v`` the sensitivity is the share of positives above ``v`` and the
    specificity the share of negatives at or below it. Scores absent from a resample are
    no thresholds. The points with both rates strictly inside (0, 1) are fitted.
    """
    from scipy import special

    neg, pos = P.pooled(k0, k1)
    keep = (neg + pos) > 0
    below0 = np.cumsum(neg[keep])  # negatives at or below each distinct score
    above1 = P.n1 - np.cumsum(pos[keep])  # positives above it
    inner = (above1 > 0) & (above1 < P.n1) & (below0 > 0) & (below0 < P.n0)
    t0, t1 = P.tables()
    x = t1[above1[inner]]
    y = t0[below0[inner]]
    m = int(x.shape[0])
    if m < 2 or np.all(x == x[0]):
        raise ValueError(
            f"The scores in 'y_score' give {m} empirical ROC point(s) with both rates strictly between "
            f"0 and 1{'' if m < 2 else ', all at one sensitivity'}: the binormal fit (method='binormal') "
            f"needs at least 2 at distinct sensitivities. Use method='density' or scores with more "
            f"distinct values.")
    xc = x - x.mean()
    slope = float(np.sum(xc * (y - y.mean())) / np.sum(xc * xc))
    intercept = float(y.mean() - slope * x.mean())
    if slope == 0 or np.all(y == y[0]):  # pROC stops here too (the ends of the curve are 0 * inf)
        raise ValueError(
            f"The scores in 'y_score' give {m} empirical ROC points inside the square, all at one "
            f"specificity: the binormal line (method='binormal') is flat and the curve undefined. Use "
            f"method='density'.")
    grid = np.minimum(np.arange(n) * (1.0 / (n - 1)), 1.0)  # seq(0, 1, by = 1/(n-1))
    z = special.ndtri(grid)
    with np.errstate(invalid="ignore"):
        zsp = intercept + slope * z
    a, b = -intercept / slope, -1.0 / slope
    return special.ndtr(z), special.ndtr(zsp), BinormalFit(float(a), float(b), intercept, slope, m)


def _type7(values: np.ndarray, counts: np.ndarray, probs) -> np.ndarray:
    """Quantiles of type 7 (R's default) of the sample holding ``counts[k]`` copies of
    ``values[k]`` (values increasing, counts integers)."""
    cum = np.cumsum(counts)
    total = int(cum[-1])
    hs = [(total - 1) * p for p in probs]
    ranks = [r for h in hs for r in (math.floor(h), min(math.floor(h) + 1, total - 1))]
    # the order statistic of 0-based rank r is the value where the running count passes r
    at = values[np.searchsorted(cum, np.asarray(ranks, dtype=cum.dtype), side="right")]
    out = []
    for i, h in enumerate(hs):
        xlo, xhi = at[2 * i], at[2 * i + 1]
        f = h - math.floor(h)
        out.append(xlo if (f == 0 or xhi == xlo) else (1 - f) * xlo + f * xhi)
    return np.asarray(out, dtype=np.float64)


def _bandwidth(values: np.ndarray, counts: np.ndarray, rule: str) -> float:
    """R's ``bw.nrd0`` / ``bw.nrd`` of the pooled sample holding ``counts[k]`` copies of
    ``values[k]``. Where both spreads are 0 R falls back on the first value's size, then
    on 1: all values are equal then, so the first is any."""
    n = counts.sum()
    mean = np.sum(counts * values) / n
    sd = math.sqrt(np.sum(counts * (values - mean) ** 2) / (n - 1))
    q1, q3 = _type7(values, counts, (0.25, 0.75))
    if rule == "nrd":
        return 1.06 * min(sd, (q3 - q1) / 1.34) * n ** (-0.2)
    lo = min(sd, (q3 - q1) / 1.34)
    if not lo:
        lo = sd or abs(float(values[np.flatnonzero(counts)[0]])) or 1.0
    return 0.9 * lo * n ** (-0.2)


def _seq_len(a: float, b: float, m: int) -> np.ndarray:
    """R's ``seq.int(a, b, length.out = m)``: the first half counted from ``a``, the second
    from ``b``, both ends exact."""
    out = np.empty(m)
    out[0] = a
    if m > 1:
        out[-1] = b
    if m > 2:
        by = (b - a) / (m - 1)
        i = np.arange(1, m - 1)
        out[1:-1] = np.where(i < m // 2, a + i * by, b - (m - 1 - i) * by)
    return out


def _kernel(kernel: str, x: np.ndarray, bw: float) -> np.ndarray:
    """R's ``density`` kernels with standard deviation ``bw``, at ``x``."""
    ax = np.abs(x)
    if kernel == "gaussian":
        return np.exp(-0.5 * (x / bw) ** 2) / (math.sqrt(2 * math.pi) * bw)
    if kernel == "rectangular":
        a = bw * math.sqrt(3)
        return np.where(ax < a, 0.5 / a, 0.0)
    if kernel == "triangular":
        a = bw * math.sqrt(6)
        return np.where(ax < a, (1 - ax / a) / a, 0.0)
    if kernel == "epanechnikov":
        a = bw * math.sqrt(5)
        return np.where(ax < a, 0.75 * (1 - (ax / a) ** 2) / a, 0.0)
    if kernel == "biweight":
        a = bw * math.sqrt(7)
        return np.where(ax < a, 15 / 16 * (1 - (ax / a) ** 2) ** 2 / a, 0.0)
    if kernel == "cosine":
        a = bw / math.sqrt(1 / 3 - 2 / math.pi ** 2)
        return np.where(ax < a, (1 + np.cos(math.pi * x / a)) / (2 * a), 0.0)
    a = bw / math.sqrt(1 - 8 / math.pi ** 2)  # optcosine
    return np.where(ax < a, math.pi / 4 * np.cos(math.pi * x / (2 * a)) / a, 0.0)


def r_density(values: np.ndarray, mass: np.ndarray, *, bw: float, n: int, start: float, stop: float,
              kernel: str = "gaussian") -> np.ndarray:
    """R's ``density(x, weights=, bw=, n=, from=start, to=stop, kernel=)$y`` for the points
    ``values`` carrying the masses ``mass`` (summing to 1 for a density).

    R's algorithm: the points are binned linearly on a grid of ``max(n, 512)`` points
    (rounded up to a power of 2 beyond 512) over ``[start - 4 bw, stop + 4 bw]``, padded
    with as many zeros, convolved with the kernel by the FFT, negative values (and the
    FFT's rounding residues, below 1e-14 of the peak) set to 0, and the result
    interpolated linearly at ``n`` equally spaced points of ``[start, stop]``.
    """
    m = max(n, 512)
    if m > 512:
        m = 1 << math.ceil(math.log2(m))
    lo, up = start - 4 * bw, stop + 4 * bw
    delta = (up - lo) / (m - 1)
    pos = (values - lo) / delta
    y = np.zeros(2 * m)
    top = pos.max() if pos.shape[0] else 0.0
    if pos.shape[0] and pos.min() >= 0 and top <= m - 1:
        # every point inside the grid (always so here: the grid reaches 4 bw beyond the
        # points); a point at the last grid point goes wholly to it, as in R
        ix = pos.astype(np.int64)
        if top == m - 1:
            ix = np.minimum(ix, m - 2)
        upper = mass * (pos - ix)
        step = np.diff(ix)
        if np.all(step >= 0):  # sorted points: sum each grid cell's run in order
            starts = np.concatenate([[0], np.flatnonzero(step) + 1])
            cells = ix[starts]
            y[cells] += np.add.reduceat(mass - upper, starts)
            y[cells + 1] += np.add.reduceat(upper, starts)
        else:
            y[:m] += np.bincount(ix, weights=mass - upper, minlength=m)
            y[1:m + 1] += np.bincount(ix, weights=upper, minlength=m)
    else:
        ix = np.floor(pos).astype(np.int64)
        fx = pos - ix
        inside = (ix >= 0) & (ix <= m - 2)
        y += np.bincount(ix[inside], weights=mass[inside] * (1 - fx[inside]), minlength=2 * m)
        y += np.bincount(ix[inside] + 1, weights=mass[inside] * fx[inside], minlength=2 * m)
        left = ix == -1
        y[0] += np.sum(mass[left] * fx[left])
        right = ix == m - 1
        y[m - 1] += np.sum(mass[right] * (1 - fx[right]))
    k = _seq_len(0.0, 2 * (up - lo), 2 * m)
    k[m + 1:] = -k[m - 1:0:-1]
    k = _kernel(kernel, k, bw)
    conv = np.fft.ifft(np.fft.fft(y) * np.conj(np.fft.fft(k))).real[:m]
    # Negative values are set to 0 as R does; so are the FFT's rounding residues (below
    # 1e-14 of the peak), so that a kernel of bounded support leaves exact zeros where it
    # has no mass, whichever way the rounding of R's or NumPy's FFT falls there.
    conv[conv < 1e-14 * conv.max()] = 0.0
    grid = _seq_len(lo, up, m)
    return np.interp(_seq_len(start, stop, n), grid, conv)


def _density(P: _Prepared, k0: np.ndarray, k1: np.ndarray, n: int, bw: Any, adjust: float, kernel: str,
             cut: float) -> tuple[np.ndarray, np.ndarray, float]:
    """``(sensitivities, specificities, bandwidth)`` of the density smoothing."""
    counts = np.zeros(P.values.shape[0], dtype=np.int64)
    counts[P.idx0] = k0
    counts[P.idx1] += k1
    h = float((_bandwidth(P.values, counts, bw) if isinstance(bw, str) else float(bw)) * adjust)
    if not (math.isfinite(h) and h > 0):
        raise ValueError(f"The bandwidth of smooth_roc (rule {bw!r} times adjust={adjust!r}) is {h!r}: it "
                         f"must be positive and finite. Give 'bw' as a positive number.")
    has = counts > 0
    first, last = int(np.argmax(has)), counts.shape[0] - 1 - int(np.argmax(has[::-1]))
    start, stop = P.values[first] - cut * h, P.values[last] + cut * h
    d0 = r_density(P.u0, k0 / P.n0, bw=h, n=n, start=start, stop=stop, kernel=kernel)
    d1 = r_density(P.u1, k1 / P.n1, bw=h, n=n, start=start, stop=stop, kernel=kernel)
    # threshold between grid points k and k+1: cases at or above, controls below
    if not (d0.sum() > 0 and d1.sum() > 0):
        raise ValueError(f"The kernel densities of smooth_roc are 0 at every one of the n={n} points for "
                         f"{'the negatives' if not d0.sum() > 0 else 'the positives'} (a kernel of bounded "
                         f"support between too few points): raise 'n' or the bandwidth.")
    # (each total is the last of its running sums, so that a rate is exactly 1 where the
    # rest of the density is exactly 0, as in pROC)
    above = np.cumsum(d1[::-1])[::-1]
    below = np.cumsum(d0)
    se = above / above[0]
    sp = np.concatenate([[0.0], below[:-1]]) / below[-1]
    return se, sp, h


def _finish(se: np.ndarray, sp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """pROC's ordering (reversed when the specificities are not increasing) and its end
    points (specificity 0, sensitivity 1) and (1, 0)."""
    if np.any(sp[1:] < sp[:-1]):
        se, sp = se[::-1], sp[::-1]
    return np.concatenate([[1.0], se, [0.0]]), np.concatenate([[0.0], sp, [1.0]])


# --- areas ------------------------------------------------------------------------------------

def _trapezoid(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.sum((y[1:] + y[:-1]) / 2 * (x[1:] - x[:-1])))


def _proc_partial(sp: np.ndarray, se: np.ndarray, hi: float, lo: float, focus: str) -> float:
    """The area under the piecewise-linear curve through the points over the band
    ``[lo, hi]`` of the focus axis, with pROC's rules for the ends of the band: the
    vertices inside the band are joined by trapezoids, and a band end that is no vertex
    adds the slice up to the curve interpolated on the segment that crosses it."""
    if focus == "sensitivity":
        x, y = se[::-1], sp[::-1]
    else:
        x, y = sp, se
    inc = (x <= hi) & (x >= lo)
    xi, yi = x[inc], y[inc]
    if xi.shape[0] == 0:
        up = int(np.flatnonzero(~(x < hi))[0])  # first vertex at or beyond the upper end
        dn = up - 1
        ph = (x[up] - hi) / (x[up] - x[dn])
        pl = (lo - x[dn]) / (x[up] - x[dn])
        y_hi = y[up] + ph * (y[dn] - y[up])
        y_lo = y[dn] - pl * (y[dn] - y[up])
        return float((y_hi + y_lo) / 2 * (hi - lo))
    area = _trapezoid(xi, yi)
    if not np.any(xi == hi):
        out = int(np.flatnonzero(~(x < hi))[0])
        inn = out - 1
        f = (hi - x[out]) / (x[inn] - x[out])
        yv = y[out] + f * (y[inn] - y[out])
        area += (hi - x[inn]) * (y[inn] + yv) / 2
    if not np.any(xi == lo):
        out = int(np.flatnonzero(x > lo)[0]) - 1
        inn = out + 1
        f = (x[inn] - lo) / (x[inn] - x[out])
        yv = y[inn] + f * (y[out] - y[inn])
        area += (x[inn] - lo) * (y[inn] + yv) / 2
    return float(area)


def _band(max_fpr, min_fpr, min_tpr, max_tpr, standardize, func: str) -> tuple[float, float, str, bool]:
    """``(upper, lower, focus, correct)`` in pROC's terms for a partial AUC request."""
    fpr = max_fpr is not None or min_fpr is not None
    tpr = min_tpr is not None or max_tpr is not None
    if fpr and tpr:
        raise ValueError(f"{func}: give a band of false-positive rates (max_fpr, min_fpr) or of "
                         f"true-positive rates (min_tpr, max_tpr), not both.")
    if standardize is not None:
        check_choice(standardize, "standardize", func, ("mcclish",))
    names = ("min_tpr", "max_tpr") if tpr else ("min_fpr", "max_fpr")
    vals = (min_tpr, max_tpr) if tpr else (min_fpr, max_fpr)
    a = check_param(0.0 if vals[0] is None else vals[0], names[0], func, low=0, high=1)
    b = check_param(1.0 if vals[1] is None else vals[1], names[1], func, low=0, high=1)
    if not a < b:
        raise ValueError(f"{func}: the band must have {names[0]} < {names[1]}; got {a!r} and {b!r}.")
    if tpr:
        return b, a, "sensitivity", standardize is not None
    return 1.0 - a, 1.0 - b, "specificity", standardize is not None


def _mcclish(area: float, hi: float, lo: float) -> float:
    low = ((1 - hi) + (1 - lo)) * abs(hi - lo) / 2
    top = abs(hi - lo)
    return (1 + (area - low) / (top - low)) / 2


# --- the result -------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class SmoothROC:
    """A smoothed ROC curve (:func:`smooth_roc`).

    Attributes
    ----------
    fpr, tpr : numpy.ndarray
        The smoothed curve, from ``(0, 0)`` to ``(1, 1)`` by increasing false-positive
        rate (1 - specificity) for an increasing curve: the points of pROC's ``smooth``,
        its end points included, in the opposite order.
    method : str
        ``"binormal"`` or ``"density"``.
    n : int
        Points asked for (the curve has ``n + 2``: the two end points are added).
    fit : BinormalFit or None
        The binormal fit (binormal method).
    bandwidth : float or None
        The kernel's standard deviation (density method): the bandwidth rule's value on
        the pooled scores times ``adjust``.
    bw, adjust, kernel, cut
        The density method's settings as given.
    n_pos, n_neg : int
        Observations of each class.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    method: str
    n: int
    fit: BinormalFit | None
    bandwidth: float | None
    bw: Any
    adjust: float
    kernel: str
    cut: float
    n_pos: int
    n_neg: int
    _sensitivities: np.ndarray = field(repr=False)
    _specificities: np.ndarray = field(repr=False)
    _controls: np.ndarray = field(repr=False)
    _cases: np.ndarray = field(repr=False)

    @property
    def sensitivities(self) -> np.ndarray:
        """The sensitivities in pROC's order (by increasing specificity)."""
        return self._sensitivities.copy()

    @property
    def specificities(self) -> np.ndarray:
        """The specificities in pROC's order (increasing for an increasing curve)."""
        return self._specificities.copy()

    @property
    def parameters(self) -> dict:
        """The settings and, for the binormal method, the fit, as a dict."""
        out = {"method": self.method, "n": self.n}
        if self.fit is not None:
            out.update(self.fit._asdict())
        else:
            out.update(bandwidth=self.bandwidth, bw=self.bw, adjust=self.adjust, kernel=self.kernel, cut=self.cut)
        return out

    def auc(self) -> float:
        r"""The area under the smoothed curve.

        Binormal: :math:`\Phi(c_0 / \sqrt{1 + c_1^2}) = \Phi(a / \sqrt{1 + b^2})`, the area
        under the fitted binormal curve (pROC's formula, exact rather than summed over the
        ``n`` points). Density: the trapezoids through the smoothed points.
        """
        if self.fit is not None:
            from scipy import special

            return float(special.ndtr(self.fit.intercept / math.sqrt(1 + self.fit.slope ** 2)))
        return _trapezoid(self._specificities, self._sensitivities)

    def partial_auc(self, *, max_fpr: float | None = None, min_fpr: float | None = None,
                    min_tpr: float | None = None, max_tpr: float | None = None,
                    standardize: str | None = None) -> float:
        """The area under the smoothed curve over a band of false-positive rates, or beside
        it over a band of true-positive rates, as :func:`rankwise.partial_auc` defines them
        (pROC's ``auc(smooth, partial.auc=, partial.auc.focus=, partial.auc.correct=)``).

        Parameters
        ----------
        max_fpr, min_fpr : float in [0, 1], optional
            The band ``[min_fpr, max_fpr]`` (defaults 0 and 1): pROC's specificity focus
            with ``partial.auc = c(1 - min_fpr, 1 - max_fpr)``.
        min_tpr, max_tpr : float in [0, 1], optional
            Instead, the band ``[min_tpr, max_tpr]`` of true-positive rates: pROC's
            sensitivity focus, the integral of the specificity over the sensitivity.
        standardize : {None, "mcclish"}
            McClish's (1989) correction ``(1 + (A - m)/(M - m)) / 2``; below the diagonal
            it gives a value below 0.5 (pROC returns NA there unless asked).

        Notes
        -----
        The area is that of the straight-line join of the smoothed points (trapezoids),
        the curve interpolated linearly at a band end that is no point, for both methods
        (for the binormal method too, unlike :meth:`auc`).
        """
        func = "SmoothROC.partial_auc"
        hi, lo, focus, correct = _band(max_fpr, min_fpr, min_tpr, max_tpr, standardize, func)
        area = _proc_partial(self._specificities, self._sensitivities, hi, lo, focus)
        return _mcclish(area, hi, lo) if correct else area

    def confidence_interval(self, confidence_level: float = 0.95, *, n_resamples: int = 2000,
                            random_state: Any = None, max_fpr: float | None = None,
                            min_fpr: float | None = None, min_tpr: float | None = None,
                            max_tpr: float | None = None, standardize: str | None = None) -> SmoothAUCInterval:
        """A stratified bootstrap percentile interval of the smoothed curve's AUC (or of a
        partial AUC, with the arguments of :meth:`partial_auc`).

        Each resample draws ``n_neg`` negatives from the negatives and ``n_pos`` positives
        from the positives with replacement, smooths their curve with the same settings
        (the bandwidth rule is applied again to the resample; a numeric ``bw`` stays) and
        takes its area. Resamples whose curve cannot be smoothed (too few empirical points
        for the binormal fit) are left out and counted (``n_failed``). The interval is
        the pair of quantiles (R's type 7) of the remaining values: pROC's
        ``ci.auc(smooth.roc, boot.n=, boot.stratified=TRUE)``, equal to it in law.

        Parameters
        ----------
        confidence_level : float in (0, 1)
        n_resamples : int, default 2000
        random_state : None, int or numpy.random.Generator
            Seed; the same seed gives the same interval.
        """
        func = "SmoothROC.confidence_interval"
        level = check_param(confidence_level, "confidence_level", func, low=0, high=1, low_inclusive=False,
                            high_inclusive=False)
        B = check_param(n_resamples, "n_resamples", func, low=1, integer=True)
        partial = any(v is not None for v in (max_fpr, min_fpr, min_tpr, max_tpr, standardize))
        band = _band(max_fpr, min_fpr, min_tpr, max_tpr, standardize, func) if partial else None
        rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
        P = _Prepared(self._controls, self._cases)
        estimate = self.partial_auc(max_fpr=max_fpr, min_fpr=min_fpr, min_tpr=min_tpr, max_tpr=max_tpr,
                                    standardize=standardize) if partial else self.auc()
        out = np.full(B, np.nan)
        for r in range(B):
            k0, k1 = P.resample(rng)
            try:
                se, sp, _, fit = _smooth(P, k0, k1, self.method, self.n, self.bw, self.adjust, self.kernel, self.cut)
            except ValueError:
                continue
            se, sp = _finish(se, sp)
            if band is None:
                if fit is not None:
                    from scipy import special

                    out[r] = special.ndtr(fit.intercept / math.sqrt(1 + fit.slope ** 2))
                else:
                    out[r] = _trapezoid(sp, se)
            else:
                hi, lo, focus, correct = band
                a = _proc_partial(sp, se, hi, lo, focus)
                out[r] = _mcclish(a, hi, lo) if correct else a
        ok = out[~np.isnan(out)]
        if ok.shape[0] == 0:
            raise ValueError(f"{func}: no resample could be smoothed ({B} tried).")
        q = np.quantile(ok, [(1 - level) / 2, 0.5, (1 + level) / 2])
        return SmoothAUCInterval(float(q[0]), float(q[2]), float(q[1]), float(estimate), level, B,
                                 int(B - ok.shape[0]), ok)

    def _rows(self) -> list[tuple[str, str]]:
        rows = [("method", self.method), ("points", f"{self.n} (+ 2 end points)"),
                ("observations", f"{self.n_pos} positive, {self.n_neg} negative"),
                ("AUC", f"{self.auc():.4f}")]
        if self.fit is not None:
            f = self.fit
            rows += [("binormal a, b", f"{f.a:.4f}, {f.b:.4f}"),
                     ("fit", f"qnorm(Sp) = {f.intercept:.4f} {'-' if f.slope < 0 else '+'} {abs(f.slope):.4f} qnorm(Se)"
                             f" on {f.n_points} points")]
        else:
            rows += [("bandwidth", f"{self.bandwidth:.6g} (bw={self.bw!r}, adjust={self.adjust:g})"),
                     ("kernel", f"{self.kernel}, cut={self.cut:g}")]
        return rows

    def summary(self) -> str:
        rows = self._rows()
        w = max(len(k) for k, _ in rows)
        return "Smoothed ROC curve\n" + "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return f"SmoothROC(method={self.method!r}, n={self.n}, auc={self.auc():.6g})"

    def _repr_html_(self) -> str:
        body = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in self._rows())
        return f"<div><strong>Smoothed ROC curve</strong><table><tbody>{body}</tbody></table></div>"


def _smooth(P: _Prepared, k0: np.ndarray, k1: np.ndarray, method: str, n: int, bw: Any, adjust: float,
            kernel: str, cut: float):
    """``(se, sp, bandwidth, fit)`` before pROC's ordering and end points."""
    if method == "binormal":
        se, sp, fit = _binormal(P, k0, k1, n)
        return se, sp, None, fit
    se, sp, h = _density(P, k0, k1, n, bw, adjust, kernel, cut)
    return se, sp, h, None


def smooth_roc(y_true, y_score, *, method: str = "binormal", n: int = 512, bw: Any = "nrd0", adjust: float = 1.0,
               kernel: str = "gaussian", cut: float = 3.0, pos_label=None) -> SmoothROC:
    r"""A smoothed ROC curve: the binormal fit on the empirical curve, or the curve of
    kernel density estimates of the two classes' scores.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, booleans, or any two values with
        ``pos_label``).
    y_score : array-like of shape (n_samples,)
        Scores, higher = more likely positive.
    method : {"binormal", "density"}
        ``"binormal"``: a straight line fitted by least squares to the empirical ROC
        points on normal-deviate axes. ``"density"``: each class's scores smoothed by a
        kernel density estimate (R's ``density``), the curve read off the two densities.
    n : int, default 512
        Points of the smoothed curve (besides its two end points); at least 2.
    bw : {"nrd0", "nrd"} or float, default "nrd0"
        Density method: the bandwidth (the kernel's standard deviation), or the rule that
        picks it from the pooled scores of both classes: ``"nrd0"`` (Silverman's rule of
        thumb, :math:`0.9 \min(\hat\sigma, \mathrm{IQR}/1.34)\, N^{-1/5}`) or ``"nrd"``
        (Scott's, :math:`1.06 \min(\hat\sigma, \mathrm{IQR}/1.34)\, N^{-1/5}`).
    adjust : float, default 1
        Density method: the bandwidth is multiplied by ``adjust``.
    kernel : str, default "gaussian"
        Density method: one of R's kernels, ``"gaussian"``, ``"epanechnikov"``,
        ``"rectangular"``, ``"triangular"``, ``"biweight"``, ``"cosine"``,
        ``"optcosine"``.
    cut : float, default 3
        Density method: the densities are evaluated from ``cut`` bandwidths below the
        smallest score to ``cut`` above the largest.
    pos_label : optional
        The positive label.

    Returns
    -------
    SmoothROC
        The curve (``fpr``, ``tpr``), the fit or bandwidth, and ``auc()``,
        ``partial_auc(...)``, ``confidence_interval(...)``, ``summary()``.

    Raises
    ------
    ValueError
        One class only; the binormal method with fewer than 2 empirical points strictly
        inside the unit square (at distinct sensitivities), or with all of them at one
        specificity (a flat line); the density method with fewer than 2 observations of a
        class, or a class whose density is 0 at all ``n`` points; a bandwidth that is not
        positive; an unknown ``method``, ``kernel`` or ``bw`` rule; ``n < 2``.

    Notes
    -----
    **Binormal.** The binormal model (Metz 1978, "Basic principles of ROC analysis";
    Hanley 1988, "The robustness of the 'binormal' assumptions used in fitting ROC
    curves") takes the scores of each class to be normal after one common monotone
    transformation; the ROC curve is then a straight line on normal-deviate axes,
    :math:`\Phi^{-1}(\mathrm{TPR}) = a + b\,\Phi^{-1}(\mathrm{FPR})`, with area
    :math:`\Phi(a/\sqrt{1+b^2})`. As pROC does (Robin et al. 2011, "pROC: an open-source
    package for R and S+ to analyze and compare ROC curves"), the line is fitted by
    ordinary least squares of :math:`\Phi^{-1}(\mathrm{Sp})` on :math:`\Phi^{-1}(\mathrm{Se})`
    over the empirical ROC points (one per threshold between consecutive distinct
    scores) whose two rates lie strictly between 0 and 1; it is not the maximum-likelihood
    fit of Dorfman & Alf (1969, "Maximum-likelihood estimation of parameters of
    signal-detection theory and determination of confidence intervals: rating-method
    data"). The curve is read at the sensitivities :math:`\Phi(\Phi^{-1}(k/(n-1)))`,
    ``k = 0 .. n-1``.

    **Density.** Zou, Hall & Shapiro (1997, "Smooth non-parametric receiver operating
    characteristic (ROC) curves for continuous diagnostic tests") estimate each class's
    score density by a kernel density estimate and read the ROC curve off the two
    estimates. Here each density is R's ``density`` (linear binning on a grid of
    ``max(n, 512)`` points, FFT convolution, linear interpolation to ``n`` points from
    ``min - cut*h`` to ``max + cut*h`` of the pooled scores), both with the bandwidth ``h``
    of the pooled scores; at the threshold between grid points ``k`` and ``k + 1`` the
    sensitivity is the share of the positives' density at points ``> k`` and the
    specificity the share of the negatives' at points ``<= k``.

    The smoothed points, :meth:`SmoothROC.auc` and :meth:`SmoothROC.partial_auc` equal
    pROC 1.18's ``smooth(roc(..., direction="<"), method=, n=, bw=, adjust=, kernel=)``,
    ``auc`` of it and its partial areas to 1e-9. The bandwidth rules ``"ucv"``, ``"bcv"``
    and ``"SJ"`` (a numerical minimisation in R) are not offered: give their value as a
    number. Sample weights are not taken.

    Examples
    --------
    Negatives at 1, 2, 3, 4 and positives at 2, 3, 4, 5. Two empirical points lie strictly
    inside the square, (Se, Sp) = (3/4, 1/2) and (1/2, 3/4); on normal-deviate axes they
    are (0.6745, 0) and (0, 0.6745), so the fitted line is
    :math:`\Phi^{-1}(\mathrm{Sp}) = 0.6745 - \Phi^{-1}(\mathrm{Se})` and the area is
    :math:`\Phi(0.6745/\sqrt 2) = \Phi(0.4769)`:

    >>> import rankwise as rw
    >>> c = rw.smooth_roc([0, 0, 0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 2, 3, 4, 5])
    >>> round(c.fit.intercept, 4), round(c.fit.slope, 4)
    (0.6745, -1.0)
    >>> round(c.auc(), 4)
    0.6833
    """
    method = check_choice(method, "method", _FUNC, METHODS)
    n = check_param(n, "n", _FUNC, low=2, integer=True)
    if isinstance(bw, str):
        bw = check_choice(bw, "bw", _FUNC, BANDWIDTH_RULES)
    elif isinstance(bw, bool) or not isinstance(bw, numbers.Real):
        raise TypeError(f"The 'bw' parameter of {_FUNC} must be one of {BANDWIDTH_RULES} or a positive float. "
                        f"Got {bw!r} instead.")
    else:
        bw = check_param(bw, "bw", _FUNC, low=0, low_inclusive=False)
    adjust = check_param(adjust, "adjust", _FUNC, low=0, low_inclusive=False)
    kernel = check_choice(kernel, "kernel", _FUNC, KERNELS)
    cut = check_param(cut, "cut", _FUNC, low=0)
    x = check_sample(y_true, y_score, pos_label=pos_label, func=_FUNC)
    s = np.asarray(x.scores, dtype=np.float64)
    is_pos = np.asarray(x.labels, dtype=bool)
    cases, controls = s[is_pos], s[~is_pos]
    if cases.shape[0] == 0 or controls.shape[0] == 0:
        raise ValueError(f"{_FUNC} needs both classes in 'y_true'; got {cases.shape[0]} positive and "
                         f"{controls.shape[0]} negative observations.")
    if method == "density" and min(cases.shape[0], controls.shape[0]) < 2:
        raise ValueError(f"{_FUNC}(method='density') needs at least 2 observations of each class in 'y_true'; "
                         f"got {cases.shape[0]} positive and {controls.shape[0]} negative.")
    P = _Prepared(controls, cases)
    se, sp, h, fit = _smooth(P, *P.counts(), method, n, bw, adjust, kernel, cut)
    se, sp = _finish(se, sp)
    se.setflags(write=False)
    sp.setflags(write=False)
    controls.setflags(write=False)
    cases.setflags(write=False)
    return SmoothROC(fpr=1.0 - sp[::-1], tpr=se[::-1].copy(), method=method, n=n, fit=fit, bandwidth=h, bw=bw,
                     adjust=adjust, kernel=kernel, cut=cut, n_pos=int(cases.shape[0]), n_neg=int(controls.shape[0]),
                     _sensitivities=se, _specificities=sp, _controls=controls, _cases=cases)
