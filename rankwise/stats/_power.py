"""Power and sample size of a study of the AUC: one scorer against a null AUC, or two
paired (correlated) scorers against each other (Obuchowski & McClish 1997), with rows
independent or in clusters (a design effect); the formulas: ``docs/operating_points.md``."""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_choice, check_clusters, check_param
from . import _dist

__all__ = ["AUCStudy", "auc_study", "auc_study_from_pilot", "auc_study_binormal", "power_auc", "sample_size_auc",
           "auc_variance_binormal", "STUDY_ALTERNATIVES", "MARGIN_STUDY_ALTERNATIVES", "PILOT_METHODS"]

STUDY_ALTERNATIVES = ("two-sided", "one-sided")
#: Designs against a margin: non-inferiority (one-sided test of ``delta <= -margin``) and
#: equivalence (two one-sided tests of ``|delta| >= margin``).
MARGIN_STUDY_ALTERNATIVES = ("noninferiority", "equivalence")
#: How :func:`auc_study_from_pilot` estimates the variances.
PILOT_METHODS = ("delong", "obuchowski", "bootstrap")


@dataclass(frozen=True)
class AUCStudy:
    """A design of an AUC study with every quantity filled in.

    Attributes
    ----------
    n_positive, n_negative : float
        Cases and controls (not rounded: take ``math.ceil`` for a study).
    kappa : float
        ``n_negative / n_positive``.
    auc : float
        The AUC to detect (of the first scorer with two scorers).
    auc2 : float or None
        The second scorer's AUC (two scorers).
    null_auc : float or None
        The AUC under the null hypothesis (one scorer).
    alpha, power : float
    alternative : str
        ``"two-sided"``, ``"one-sided"``, ``"noninferiority"`` or ``"equivalence"``.
    solved_for : str
        Which of ``"power"``, ``"n"``, ``"alpha"``, ``"detectable_auc"`` was computed.
    delta : float
        The difference tested: ``auc - null_auc`` or ``auc - auc2``.
    var_null, var_alternative : float
        ``n_positive`` times the variance of the estimated difference under the null and
        under the alternative (the variance of one case's worth of data), times
        ``design_effect``.
    method : str
        ``"binormal"`` (Obuchowski & McClish, from given parameters), or how a pilot's
        variances were estimated: ``"delong"``, ``"obuchowski"`` (binormal fit) or
        ``"bootstrap"``.
    design_effect : float
        The factor the variances were multiplied by: 1 for independent rows; from a pilot
        with ``clusters=``, its cluster-robust variance over its independent-rows variance.
        ``n_positive`` and ``n_negative`` are then rows (``design_effect`` times the rows
        independent ones would need).
    n_clusters : int or None
        The pilot's number of clusters (``clusters=``), else None.
    mean_cluster_size : float or None
        The pilot's rows per cluster (``clusters=``), else None.
    margin : float or None
        The non-inferiority or equivalence margin (``alternative="noninferiority"`` or
        ``"equivalence"``), else None.
    fpr_band : tuple of float or None
        ``(min_fpr, max_fpr)`` when the study is of the partial AUC over that band of
        false-positive rates (``auc``, ``auc2``, ``delta`` are then partial areas), else
        None.
    """

    n_positive: float
    n_negative: float
    kappa: float
    auc: float
    auc2: float | None
    null_auc: float | None
    alpha: float
    power: float
    alternative: str
    solved_for: str
    delta: float
    var_null: float
    var_alternative: float
    method: str = "binormal"
    design_effect: float = 1.0
    n_clusters: int | None = None
    mean_cluster_size: float | None = None
    margin: float | None = None
    fpr_band: tuple | None = None

    @property
    def clusters_needed(self) -> float | None:
        """The rows of the design over the pilot's mean cluster size: about how many clusters
        like the pilot's hold them (not rounded); None without a pilot's clusters."""
        if self.mean_cluster_size is None:
            return None
        return (self.n_positive + self.n_negative) / self.mean_cluster_size

    def summary(self) -> str:
        area = "AUC" if self.fpr_band is None else f"partial AUC (FPR {self.fpr_band[0]:g} to {self.fpr_band[1]:g})"
        what = (f"{area} {self.auc:.4f} against {self.null_auc:.4f}" if self.auc2 is None
                else f"{area} {self.auc:.4f} against {self.auc2:.4f} (paired)")
        if self.margin is not None:
            what += (f", margin {self.margin:g} (H0: difference <= -{self.margin:g})"
                     if self.alternative == "noninferiority"
                     else f", margin {self.margin:g} (H0: |difference| >= {self.margin:g}, two one-sided tests)")
        text = (f"AUC study ({self.method}, {self.alternative}, solved for {self.solved_for}): {what}; "
                f"n+ = {self.n_positive:.2f}, n- = {self.n_negative:.2f} (kappa = {self.kappa:.4g}), "
                f"alpha = {self.alpha:.4g}, power = {self.power:.4f}")
        if self.n_clusters is not None:
            text += (f"\ndesign effect {self.design_effect:.4g} from the pilot's {self.n_clusters} clusters (mean "
                     f"size {self.mean_cluster_size:.4g}): the rows above are {self.design_effect:.4g} times what "
                     f"independent rows would need, about {self.clusters_needed:.1f} clusters of that size")
        elif self.design_effect != 1.0:
            text += f"\ndesign effect {self.design_effect:.4g}: variances (and rows needed) multiplied by it"
        return text

    def __str__(self) -> str:
        return self.summary()


def auc_variance_binormal(auc: float, kappa: float, b: float = 1.0, *, ab_covariance: bool = False) -> float:
    r"""``n_positive`` times the variance of the AUC under a binormal model (Obuchowski &
    McClish 1997), with ``kappa = n_negative / n_positive`` and ``b`` the ratio of the
    negatives' to the positives' score standard deviation.

    With ``a = Phi^{-1}(auc) sqrt(1 + b^2)``, ``f = exp(-a^2 / (2 (1 + b^2))) / sqrt(2 pi (1 + b^2))``
    and ``g = -f a b / (1 + b^2)``, the published variance is
    ``V = f^2 (1 + b^2 / kappa + a^2 / 2) + g^2 b^2 (1 + kappa) / (2 kappa)``: the delta
    method over the variances of the estimated binormal parameters ``a`` and ``b``,
    without their covariance ``a b / (2 n_positive)``. ``ab_covariance=True`` adds the
    term ``2 f g a b / 2``; simulated binormal samples agree with that version to a few
    percent, while the published one (used by :func:`auc_study`, as in R's pROC) is 30% to
    55% larger at AUC 0.8 (``b`` from 0.8 to 1.3, ``kappa = 2``), so sample sizes from it are
    conservative.
    """
    a = _dist.norm_ppf(auc) * math.sqrt(1.0 + b * b)
    f, g = _fg(a, b)
    return _var_ab(a, b, f, g, kappa) + (f * g * a * b if ab_covariance else 0.0)


def _fg(a: float, b: float) -> tuple[float, float]:
    e = 1.0 + b * b
    f = math.exp(-a * a / (2.0 * e)) / math.sqrt(2.0 * math.pi * e)
    return f, -f * a * b / e


def _var_ab(a: float, b: float, f: float, g: float, kappa: float) -> float:
    return f * f * (1.0 + b * b / kappa + a * a / 2.0) + g * g * b * b * (1.0 + kappa) / (2.0 * kappa)


def _var_one(auc: float, kappa: float) -> float:
    """The one-scorer variance in the published form (b = 1): ``0.0099 exp(-A^2 / 2)
    ((5 A^2 + 8) + (A^2 + 8) / kappa)``, ``A = 1.414 Phi^{-1}(auc)``. The constants are the
    paper's roundings of ``1 / (32 pi)`` and ``sqrt(2)``, kept so that the numbers are
    those of the published tables and of R's pROC."""
    a = _dist.norm_ppf(auc) * 1.414
    return 0.0099 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _cov_pair(a1, b1, a2, b2, rho_pos, rho_neg, kappa) -> float:
    """``n_positive`` times the covariance of two correlated binormal AUC estimates
    (Obuchowski & McClish 1997): ``rho_pos``/``rho_neg`` are the correlations of the two
    scores among positives and among negatives."""
    f1, g1 = _fg(a1, b1)
    f2, g2 = _fg(a2, b2)
    ra, rn = rho_pos, rho_neg
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa)
            + f1 * g2 * ra * ra * a1 * b2 / 2.0 + f2 * g1 * ra * ra * a2 * b1 / 2.0)


def _fg_band(a: float, b: float, band: tuple | None) -> tuple[float, float]:
    """The derivatives ``f = d theta / d a`` and ``g = d theta / d b`` of the area under
    ``TPR = Phi(a + b Phi^{-1}(FPR))`` over the band of false-positive rates ``band =
    (lo, hi)`` (the whole curve when None; Obuchowski & McClish 1997)."""
    if band is None:
        return _fg(a, b)
    e = 1.0 + b * b
    root = math.sqrt(e)
    c_hi, c_lo = ((_dist.norm_ppf(x) + a * b / e) * root for x in (band[1], band[0]))
    ex = math.exp(-a * a / (2.0 * e))
    e3 = _dist.norm_cdf(c_hi) - _dist.norm_cdf(c_lo)
    e4 = math.exp(-c_hi * c_hi / 2.0) - math.exp(-c_lo * c_lo / 2.0)
    f = ex / math.sqrt(2.0 * math.pi * e) * e3
    g = -ex / (2.0 * math.pi * e) * e4 - a * b * ex / math.sqrt(2.0 * math.pi * e ** 3) * e3
    return f, g


def _var_band(a, b, kappa, band) -> float:
    """``n_positive`` times the variance of the binormal (partial) area's estimate."""
    return _var_ab(a, b, *_fg_band(a, b, band), kappa)


def _cov_band(a1, b1, a2, b2, rho_pos, rho_neg, kappa, band) -> float:
    """:func:`_cov_pair` over a band of false-positive rates."""
    f1, g1 = _fg_band(a1, b1, band)
    f2, g2 = _fg_band(a2, b2, band)
    ra, rn = rho_pos, rho_neg
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa)
            + f1 * g2 * ra * ra * a1 * b2 / 2.0 + f2 * g1 * ra * ra * a2 * b1 / 2.0)


def binormal_partial_area(a: float, b: float, band: tuple | None) -> float:
    """``int_lo^hi Phi(a + b Phi^{-1}(x)) dx`` (the whole curve: ``Phi(a / sqrt(1 + b^2))``)."""
    if band is None:
        return float(_dist.norm_cdf(a / math.sqrt(1.0 + b * b)))
    from scipy import integrate

    # over z = Phi^{-1}(x): int Phi(a + b z) phi(z) dz, smooth on the whole line
    lo, hi = (_dist.norm_ppf(x) for x in band)
    val, _ = integrate.quad(lambda z: _dist.norm_cdf(a + b * z) * math.exp(-z * z / 2.0) / math.sqrt(2.0 * math.pi),
                            lo, hi, epsabs=1e-14, epsrel=1e-13, limit=200)
    return float(val)


def _roc_z(is_pos: np.ndarray, s: np.ndarray) -> tuple:
    """``(Phi^{-1}(fpr), Phi^{-1}(tpr), (fpr, tpr))``: the normal deviates of the empirical
    ROC points whose rates are both strictly between 0 and 1, and every point's rates."""
    from .._kernels import build_rank_table, roc_rows

    t = build_rank_table(is_pos, s, None)
    fps, tps = roc_rows(t.pos[None, :], t.neg[None, :])
    fpr, tpr = fps[0] / t.n_neg, tps[0] / t.n_pos
    keep = (fpr > 0) & (fpr < 1) & (tpr > 0) & (tpr < 1)
    return _dist.norm_ppf(fpr[keep]), _dist.norm_ppf(tpr[keep]), (fpr, tpr)


def _ols(x: np.ndarray, y: np.ndarray, func: str) -> tuple[float, float]:
    """Intercept and slope of the least-squares line of ``y`` on ``x``."""
    if x.shape[0] < 2 or not np.ptp(x) > 0:
        raise ValueError(f"{func} with method='obuchowski' fits a binormal curve to the pilot's ROC points: it needs "
                         f"at least two points with both rates strictly between 0 and 1. Got {x.shape[0]} instead.")
    mx, my = x.mean(), y.mean()
    slope = float(((x - mx) * (y - my)).sum() / ((x - mx) ** 2).sum())
    return float(my - slope * mx), slope


def binormal_fit_proc(is_pos, s, func: str = "auc_study_from_pilot") -> tuple[float, float]:
    """pROC's binormal fit of an empirical curve (``smooth(roc, method = "binormal")``):
    intercept and slope of the least-squares line of ``Phi^{-1}(specificity)`` on
    ``Phi^{-1}(sensitivity)`` over the curve's points."""
    zf, zt, _ = _roc_z(is_pos, s)
    return _ols(zt, -zf, func)


def binormal_fit(is_pos, s, func: str = "auc_study_from_pilot") -> tuple[float, float]:
    """``(a, b)`` of ``TPR = Phi(a + b Phi^{-1}(FPR))``: intercept and slope of the
    least-squares line of ``Phi^{-1}(TPR)`` on ``Phi^{-1}(FPR)`` over the curve's points."""
    zf, zt, _ = _roc_z(is_pos, s)
    return _ols(zf, zt, func)


def _margin_solve(solve, n_positive, alpha, power, va, delta, margin, alternative) -> tuple[float, float, float]:
    """``(n_positive, alpha, power)`` of a non-inferiority or equivalence design, the one
    named by ``solve`` computed. ``alpha`` is the level of each one-sided test; the
    statistic's variance is ``va / n_positive`` (that of the estimated difference, as
    :func:`rankwise.stats.compare` estimates it)."""
    from scipy import optimize

    va, delta, margin = float(va), float(delta), float(margin)
    if not (va > 0 and math.isfinite(va)):
        raise ValueError(f"The variance of this design must be a finite number > 0. Got {va!r} instead.")
    z_a = None if alpha is None else -_dist.norm_ppf(alpha)
    z_b = None if power is None else _dist.norm_ppf(power)
    if alternative == "noninferiority":
        shift = delta + margin
        if solve == "power":
            power = float(_dist.norm_cdf(math.sqrt(n_positive / va) * shift - z_a))
        elif solve == "n":
            if not (shift > 0 and z_a + z_b > 0):
                raise ValueError(f"No sample size gives power {power} at alpha = {alpha}: "
                                 + ("the difference is at or below -margin (the null holds)." if shift <= 0
                                    else "the test has that power with any number of positives."))
            n_positive = (z_a + z_b) ** 2 * va / (shift * shift)
        else:
            alpha = float(_dist.norm_sf(math.sqrt(n_positive / va) * shift - z_b))
        return float(n_positive), float(alpha), float(power)

    def tost(n, z):
        k = math.sqrt(n / va)
        both = _dist.norm_cdf(k * (margin - delta) - z) + _dist.norm_cdf(k * (margin + delta) - z)
        return max(0.0, float(both) - 1.0)

    if solve == "power":
        return float(n_positive), float(alpha), tost(n_positive, z_a)
    if not abs(delta) < margin:
        raise ValueError(f"No design reaches power {power}: the difference {delta:g} is not within the margin "
                         f"{margin:g} (the null of the two one-sided tests holds).")
    if solve == "n":
        if not tost(1e300, z_a) > power:
            raise ValueError(f"No sample size gives power {power} at alpha = {alpha}.")
        lo, hi = 0.0, max(1.0, (z_a + abs(z_b)) ** 2 * va / (margin - abs(delta)) ** 2)
        while tost(hi, z_a) < power:
            hi *= 2.0
        if tost(lo, z_a) >= power:
            raise ValueError(f"No sample size gives power {power} at alpha = {alpha}: the test has at least that "
                             "power with any number of positives.")
        n_positive = optimize.brentq(lambda n: tost(n, z_a) - power, lo, hi, xtol=1e-12, rtol=4 * np.finfo(float).eps)
        return float(n_positive), float(alpha), float(power)
    z = optimize.brentq(lambda z: tost(n_positive, z) - power, -60.0, 60.0, xtol=1e-13, rtol=4 * np.finfo(float).eps)
    alpha = float(_dist.norm_sf(z))
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"No significance level in (0, 1) gives power {power} with n_positive = {n_positive:g}.")
    return float(n_positive), alpha, float(power)


def _variances(auc, kappa, null_auc, auc2, b, b2, rho_pos, rho_neg) -> tuple[float, float, float]:
    """``(delta, var_null, var_alternative)`` per positive."""
    if auc2 is None:
        return auc - null_auc, _var_one(null_auc, kappa), _var_one(auc, kappa)
    a1 = _dist.norm_ppf(auc) * math.sqrt(1.0 + b * b)
    a2 = _dist.norm_ppf(auc2) * math.sqrt(1.0 + b2 * b2)
    v1 = _var_ab(a1, b, *_fg(a1, b), kappa)
    v2 = _var_ab(a2, b2, *_fg(a2, b2), kappa)
    c = _cov_pair(a1, b, a2, b2, rho_pos, rho_neg, kappa)
    return auc - auc2, 2.0 * v1 - 2.0 * c, v1 + v2 - 2.0 * c


def _inflated(auc, kappa, null_auc, auc2, b, b2, rho_pos, rho_neg, deff) -> tuple[float, float, float]:
    """:func:`_variances` with both variances multiplied by the design effect ``deff``."""
    delta, v0, va = _variances(auc, kappa, null_auc, auc2, b, b2, rho_pos, rho_neg)
    if deff != 1.0:
        v0, va = deff * v0, deff * va
    return delta, v0, va


def _n_needed(z_a, z_b, v0, va, delta) -> float:
    return (z_a * math.sqrt(v0) + z_b * math.sqrt(va)) ** 2 / (delta * delta)


def _solve(solve, n_positive, alpha, power, z_a, z_b, v0, va, delta, alternative) -> tuple[float, float, float]:
    """``(n_positive, alpha, power)`` with the one named by ``solve`` (``"n"``, ``"power"``,
    ``"alpha"``) computed from ``n+ delta^2 = (z_a sqrt(v0) + z_b sqrt(va))^2``.

    The result lies in its parameter's range (a size in (0, inf), a level in (0, 1), a
    power in [0, 1]), or a ValueError says why no value exists: a power that the test
    already has with no data (a size), or that no level below 1 reaches (a level). A level
    below the smallest positive double is reported as 0, and a design whose variances are
    both 0 (an estimate without spread) gives pROC's limits: size 0, level 0, power 1."""
    # numpy floats: a variance of 0 (a pilot AUC of 0 or 1) gives the limits (power 1,
    # level 0, size 0) rather than an exception, as in pROC.
    v0, va, delta = np.float64(v0), np.float64(va), np.float64(delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        if solve == "n":
            # The power grows with n from Phi(-z_a sqrt(v0) / sqrt(va)) at n -> 0: a power at
            # or below that is reached by any size and no size solves the equation.
            root = z_a * np.sqrt(v0) + z_b * np.sqrt(va)
            if not (root > 0 or (v0 == 0 and va == 0)) or delta == 0:
                raise ValueError(
                    f"No sample size gives power {power} at alpha = {alpha}: the test has at least that power "
                    f"with any number of positives (a power must exceed what the level alone gives).")
            n_positive = float(root ** 2 / (delta * delta))
            if not (math.isfinite(n_positive) and (n_positive > 0 or (v0 == 0 and va == 0))):
                raise ValueError(f"No finite sample size gives power {power} at alpha = {alpha} "
                                 f"(the variances {float(v0):g}, {float(va):g} and difference {float(delta):g} "
                                 f"give {n_positive!r} positives).")
        elif solve == "power":
            power = float(_dist.norm_cdf((np.sqrt(n_positive) * abs(delta) - z_a * np.sqrt(v0)) / np.sqrt(va)))
            if not 0.0 <= power <= 1.0:
                raise ValueError(f"The power of this design is undefined (variances {float(v0):g} and "
                                 f"{float(va):g}, difference {float(delta):g}).")
        elif solve == "alpha":
            tail = float(_dist.norm_sf((np.sqrt(n_positive) * abs(delta) - z_b * np.sqrt(va)) / np.sqrt(v0)))
            alpha = 2.0 * tail if alternative == "two-sided" else tail
            if not 0.0 <= alpha < 1.0:
                raise ValueError(
                    f"No significance level in (0, 1) gives power {power} with n_positive = {n_positive:g}"
                    + (": the sample is too small for that power at any level."
                       if alpha == alpha else " (the design's variances are undefined)."))
    return n_positive, alpha, power


def _z(alpha, power, alternative) -> tuple[float | None, float | None]:
    tail = alpha / 2.0 if alternative == "two-sided" and alpha is not None else alpha
    return (None if tail is None else -_dist.norm_ppf(tail),
            None if power is None else float(_dist.norm_ppf(power)))


def _check_design(alpha, power, n_positive, n_negative, kappa, f: str) -> tuple:
    """A study's level, power, class sizes (None: solved for) and ratio ``kappa``,
    checked (``ValueError``/``TypeError`` naming the argument)."""
    alpha = check_param(alpha, "alpha", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    power = check_param(power, "power", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    n_positive = check_param(n_positive, "n_positive", f, low=0.0, low_inclusive=False, allow_none=True)
    n_negative = check_param(n_negative, "n_negative", f, low=0.0, low_inclusive=False, allow_none=True)
    kappa = check_param(kappa, "kappa", f, low=0.0, low_inclusive=False)
    return alpha, power, n_positive, n_negative, kappa


def auc_study(auc: Any = None, *, n_positive: Any = None, n_negative: Any = None, kappa: Any = 1.0,
              alpha: Any = 0.05, power: Any = None, alternative: str = "two-sided", null_auc: float = 0.5,
              auc2: Any = None, b: float = 1.0, b2: float = 1.0, rho_positive: float = 0.0,
              rho_negative: float = 0.0, design_effect: Any = 1.0, margin: Any = None) -> AUCStudy:
    r"""Solve an AUC study design for the one quantity left as None: ``power``, the sample
    size (``n_positive``), ``alpha`` or ``auc`` (one scorer only), as R pROC's
    ``power.roc.test`` does.

    Parameters
    ----------
    auc : float in (0, 1), optional
        The AUC to detect; with ``auc2``, the first of two paired scorers.
    n_positive : float, optional
        Number of positives (cases).
    n_negative : float, optional
        Number of negatives (controls); default ``kappa * n_positive``. When both are
        given, ``kappa`` is their ratio.
    kappa : float
        ``n_negative / n_positive``.
    alpha : float in (0, 1), optional
        Significance level.
    power : float in (0, 1), optional
    alternative : {"two-sided", "one-sided", "noninferiority", "equivalence"}
        Two-sided tests use ``alpha / 2`` in the tail of the alternative (the other tail is
        ignored, as in the paper and in pROC). ``"noninferiority"``: the one-sided test
        of ``H0: delta <= -margin`` at level ``alpha``; ``"equivalence"``: the two
        one-sided tests of ``H0: |delta| >= margin``, each at level ``alpha`` (Notes).
    null_auc : float
        One scorer: the AUC under the null hypothesis (0.5: no discrimination).
    auc2 : float, optional
        Two scorers measured on the same subjects: the second scorer's AUC; the null is
        that both equal ``auc``'s.
    b, b2 : float
        Binormal ratio of the negatives' to the positives' score standard deviation, per
        scorer (two scorers; 1 gives equal spread).
    rho_positive, rho_negative : float in [-1, 1]
        Correlation of the two scorers' scores among positives and among negatives.
    design_effect : float > 0
        Rows in clusters (several lesions per patient, several images per reader): the
        variance of the estimate over that of as many independent rows (Kish's design
        effect), by which ``V0`` and ``VA`` are multiplied; the sizes are then rows, and
        the rows needed are ``design_effect`` times those of independent rows. Default 1
        (independent rows). :func:`auc_study_from_pilot` estimates it from a pilot's
        clusters.
    margin : float > 0, optional
        The non-inferiority or equivalence margin on the AUC scale: required with
        ``alternative="noninferiority"`` or ``"equivalence"``, refused with the others.

    Returns
    -------
    AUCStudy

    Notes
    -----
    The test statistic is the estimated difference ``delta`` (``auc - null_auc``, or
    ``auc - auc2``) over its standard error. With per-positive variances ``V0`` under the
    null and ``VA`` under the alternative (the variance of the estimate times
    ``n_positive``), the number of positives needed at one-sided level ``alpha`` and power
    ``1 - beta`` is (Obuchowski & McClish 1997, "Sample size determination for
    diagnostic accuracy studies involving binormal ROC curve indices")

    .. math:: n_+ = \frac{(z_{1-\alpha} \sqrt{V_0} + z_{1-\beta} \sqrt{V_A})^2}{\delta^2},

    and the power, level or AUC follow by solving the same equation for them (the AUC by
    root finding, to 1e-12). One scorer: ``V(theta) = 0.0099 exp(-A^2/2) ((5 A^2 + 8) +
    (A^2 + 8) / kappa)``, ``A = 1.414 Phi^{-1}(theta)`` (the binormal variance with equal
    spread, constants as published), ``V0 = V(null_auc)``, ``VA = V(auc)``. Two scorers:
    the binormal variances ``V_1``, ``V_2`` and covariance ``C`` of the two estimates
    (see :func:`auc_variance_binormal`), ``V0 = 2 V_1 - 2 C``, ``VA = V_1 + V_2 - 2 C``.
    These agree with R pROC's ``power.roc.test`` (numeric ``auc``, or the list of binormal
    parameters ``A1, B1, A2, B2, rn, ra, delta``); pROC's AUC is found by ``uniroot`` to
    about 1e-4, rankwise's to 1e-12.

    **Non-inferiority and equivalence** (margin ``d``; Obuchowski 1997, "Testing for
    equivalence of diagnostic tests", and Chow, Shao & Wang 2008, "Sample Size
    Calculations in Clinical Research", sections 3.2 and 4.2): the statistic is the
    estimated difference over its estimated standard error, as
    :func:`rankwise.stats.compare` computes it, so its variance is ``VA / n_+`` under the
    null and the alternative alike. Non-inferiority rejects ``delta <= -d`` when
    ``(delta_hat + d) / se > z_{1-alpha}``:

    .. math:: \mathrm{power} = \Phi\Bigl(\sqrt{n_+ / V_A}\,(\delta + d) - z_{1-\alpha}\Bigr),
              \qquad n_+ = \frac{(z_{1-\alpha} + z_{1-\beta})^2 V_A}{(\delta + d)^2}.

    Equivalence rejects ``|delta| >= d`` when both one-sided tests do (Schuirmann 1987,
    "A comparison of the two one-sided tests procedure and the power approach for
    assessing the equivalence of average bioavailability"):

    .. math:: \mathrm{power} = \Phi\Bigl(\sqrt{n_+/V_A}\,(d - \delta) - z_{1-\alpha}\Bigr)
              + \Phi\Bigl(\sqrt{n_+/V_A}\,(d + \delta) - z_{1-\alpha}\Bigr) - 1

    (at least 0), solved for ``n_+`` or ``alpha`` by root finding (to 1e-12). At
    ``delta = 0`` this gives Chow, Shao & Wang's ``n_+ = (z_{1-alpha} + z_{1-beta/2})^2
    V_A / d^2``. ``alpha`` is the level of each one-sided test; ``delta = auc -
    null_auc`` (one scorer) or ``auc - auc2``.

    Examples
    --------
    >>> import rankwise as rw
    >>> st = rw.stats.auc_study(auc=0.8, n_positive=20, alpha=0.05)
    >>> round(st.power, 4)
    0.9479

    Positives needed to show that a score of AUC 0.80 is not worse than one of AUC 0.82
    by more than 0.05 (paired, correlation 0.6 in both classes), power 0.8 at 2.5%:

    >>> st = rw.stats.auc_study(0.80, auc2=0.82, rho_positive=0.6, rho_negative=0.6, power=0.8,
    ...                         alpha=0.025, alternative="noninferiority", margin=0.05)
    >>> round(st.n_positive, 1), round(st.power, 4)
    (1166.9, 0.8)
    """
    alternative = check_choice(alternative, "alternative", "auc_study", STUDY_ALTERNATIVES + MARGIN_STUDY_ALTERNATIVES)
    margin = _check_margin(margin, alternative, "auc_study")
    unknowns = (("detectable_auc", "auc", auc), ("n", "n_positive", n_positive if n_negative is None else n_negative),
                ("alpha", "alpha", alpha), ("power", "power", power))
    missing = [(label, name) for label, name, v in unknowns if v is None]
    if len(missing) != 1:
        raise TypeError("auc_study solves for exactly one of auc, n_positive, alpha and power left as None. "
                        f"Got {len(missing)} left as None ({', '.join(m[1] for m in missing) or 'none'}) instead.")
    solve = missing[0][0]
    f = "auc_study"
    auc = check_param(auc, "auc", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False, allow_none=True)
    auc2 = check_param(auc2, "auc2", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                       allow_none=True)
    null_auc = check_param(null_auc, "null_auc", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    alpha, power, n_positive, n_negative, kappa = _check_design(alpha, power, n_positive, n_negative, kappa, f)
    b = check_param(b, "b", f, low=0.0, low_inclusive=False)
    b2 = check_param(b2, "b2", f, low=0.0, low_inclusive=False)
    rho_positive = check_param(rho_positive, "rho_positive", f, low=-1.0, high=1.0)
    rho_negative = check_param(rho_negative, "rho_negative", f, low=-1.0, high=1.0)
    design_effect = check_param(design_effect, "design_effect", f, low=0.0, low_inclusive=False)
    if not math.isfinite(design_effect):
        raise ValueError(f"The 'design_effect' parameter of {f} must be a finite number > 0. Got {design_effect!r} "
                         "instead.")
    return _study(solve, auc, n_positive, n_negative, kappa, alpha, power, alternative, null_auc, auc2, b, b2,
                  rho_positive, rho_negative, design_effect, margin)


def _check_margin(margin: Any, alternative: str, func: str) -> float | None:
    """A finite margin > 0 with the margin alternatives, None with the others."""
    if alternative not in MARGIN_STUDY_ALTERNATIVES:
        if margin is not None:
            raise ValueError(f"The 'margin' parameter of {func} is only for alternative='noninferiority' or "
                             f"'equivalence'. Got margin={margin!r} with alternative={alternative!r} instead.")
        return None
    if margin is None:
        raise ValueError(f"The 'margin' parameter of {func} is required with alternative={alternative!r}: the "
                         "largest difference of AUCs that still counts as " + (
                             "non-inferior." if alternative == "noninferiority" else "equivalent."))
    m = check_param(margin, "margin", func, low=0.0, low_inclusive=False)
    if not math.isfinite(m):
        raise ValueError(f"The 'margin' parameter of {func} must be a finite number > 0. Got {margin!r} instead.")
    return m


def _study(solve, auc, n_positive, n_negative, kappa, alpha, power, alternative, null_auc, auc2, b, b2,
           rho_positive, rho_negative, deff, margin=None) -> AUCStudy:
    """:func:`auc_study` on validated arguments, the variances multiplied by ``deff``."""
    if solve == "detectable_auc" and auc2 is not None:
        raise TypeError("auc_study solves for the AUC of one scorer only; with 'auc2' give 'auc'.")
    if solve == "detectable_auc" and margin is not None:
        raise TypeError(f"auc_study with alternative={alternative!r} solves for power, n_positive or alpha; give "
                        "'auc'.")
    if n_positive is not None and n_negative is not None:
        kappa = n_negative / n_positive
    elif n_positive is None and n_negative is not None:
        n_positive = n_negative / kappa
    z_a, z_b = _z(alpha, power, alternative)
    args = (kappa, null_auc, auc2, b, b2, rho_positive, rho_negative, deff)
    if solve == "detectable_auc":
        def gap(theta):
            d, v0, va = _inflated(theta, *args)
            return _n_needed(z_a, z_b, v0, va, d) - n_positive
        hi = 1.0 - 1e-16
        if not z_a + z_b > 0:
            # Every AUC above the null then has this power already with any sample: the
            # equation's square has no root in (null_auc, 1).
            raise ValueError(f"No AUC in ({null_auc}, 1) is the smallest to reach power {power} at alpha = {alpha}: "
                             "the test has at least that power at any AUC above the null (a power must exceed "
                             "what the level alone gives).")
        if not gap(hi) < 0:
            raise ValueError(f"No AUC in ({null_auc}, 1) reaches power {power} with n_positive = {n_positive} "
                             f"at alpha = {alpha}; more positives are needed.")
        if not gap(null_auc + 1e-12) > 0:
            raise ValueError(f"No AUC in ({null_auc}, 1) can be resolved as the smallest to reach power {power} "
                             f"with n_positive = {n_positive:g} at alpha = {alpha}: every AUC above "
                             f"{null_auc} + 1e-12 already does.")
        from scipy import optimize
        auc = float(optimize.brentq(gap, null_auc + 1e-12, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps))
        d, v0, va = _inflated(auc, *args)
        if not z_a * math.sqrt(v0) + z_b * math.sqrt(va) > 0:
            # A root of the squared equation where the power is 1 - power, not power.
            raise ValueError(f"No AUC in ({null_auc}, 1) reaches power {power} with n_positive = {n_positive} "
                             f"at alpha = {alpha} as the smallest detectable one (the power is not increasing "
                             "in the AUC for this design).")
    delta, v0, va = _inflated(auc, *args)
    if margin is not None:
        n_positive, alpha, power = _margin_solve(solve, n_positive, alpha, power, va, delta, margin, alternative)
        return AUCStudy(float(n_positive), float(kappa * n_positive), float(kappa), float(auc), auc2,
                        None if auc2 is not None else null_auc, float(alpha), float(power), alternative, solve,
                        float(delta), float(va), float(va), design_effect=float(deff), margin=margin)
    if delta == 0.0:
        raise ValueError("The 'auc' parameter of auc_study must differ from "
                         f"{'auc2' if auc2 is not None else 'null_auc'}: there is no difference to detect.")
    n_positive, alpha, power = _solve(solve, n_positive, alpha, power, z_a, z_b, v0, va, delta, alternative)
    n_negative = kappa * n_positive
    if not (math.isfinite(n_negative) and (n_negative > 0 or n_positive == 0)):
        raise ValueError(f"No number of negatives in (0, inf): kappa * n_positive = {kappa:g} * {n_positive:g} "
                         f"{'overflows' if n_negative else 'underflows'}.")
    return AUCStudy(float(n_positive), float(n_negative), float(kappa), float(auc), auc2,
                    None if auc2 is not None else null_auc, float(alpha), float(power), alternative, solve,
                    float(delta), float(v0), float(va), design_effect=float(deff))


def power_auc(auc: float, *, n_positive: float, n_negative: float | None = None, kappa: float = 1.0,
              alpha: float = 0.05, alternative: str = "two-sided", **design) -> AUCStudy:
    """The power of an AUC study: :func:`auc_study` solved for ``power``.

    ``design``: ``null_auc`` (one scorer) or ``auc2, b, b2, rho_positive, rho_negative``
    (two paired scorers), as in :func:`auc_study`.

    Examples
    --------
    >>> import rankwise as rw
    >>> round(rw.stats.power_auc(0.8, n_positive=20).power, 4)
    0.9479
    """
    return auc_study(auc, n_positive=n_positive, n_negative=n_negative, kappa=kappa, alpha=alpha, power=None,
                     alternative=alternative, **design)


def sample_size_auc(auc: float, *, power: float = 0.8, kappa: float = 1.0, alpha: float = 0.05,
                    alternative: str = "two-sided", **design) -> AUCStudy:
    """The sample size of an AUC study: :func:`auc_study` solved for ``n_positive``
    (``n_negative = kappa * n_positive``; round both up).

    Examples
    --------
    >>> import math
    >>> import rankwise as rw
    >>> st = rw.stats.sample_size_auc(0.8, power=0.9)
    >>> math.ceil(st.n_positive), math.ceil(st.n_negative)
    (17, 17)
    """
    return auc_study(auc, n_positive=None, kappa=kappa, alpha=alpha, power=power, alternative=alternative, **design)


def auc_study_from_pilot(y_true, y_score, y_score2=None, *, alpha: Any = 0.05, power: Any = None,
                         kappa: Any = None, alternative: str = "two-sided", pos_label=None,
                         clusters=None, method: str | None = None, min_fpr: Any = None, max_fpr: Any = None,
                         margin: Any = None, n_resamples: Any = 2000, random_state: Any = None) -> AUCStudy:
    r"""An AUC study designed from a pilot sample, as R pROC's ``power.roc.test`` on
    ``roc`` objects: the power (``power=None``) or the level (``alpha=None``) at the
    pilot's size, or the size needed for ``power`` at ``alpha`` (both given).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        The pilot sample (higher score = more likely positive).
    y_score2 : array-like of shape (n,), optional
        A second scorer on the same subjects: the study compares the two AUCs.
    alpha, power : float in (0, 1) or None
        Leave one as None to solve for it at the pilot's size; give both to solve for the
        size.
    kappa : float, optional
        ``n_negative / n_positive`` of the planned study (default: the pilot's).
    alternative : {"two-sided", "one-sided", "noninferiority", "equivalence"}
        The margin designs (two scorers, with ``margin``) as in :func:`auc_study`.
    pos_label : optional
    method : {"delong", "obuchowski", "bootstrap"}, optional
        How the pilot's variances are estimated (Notes). Default: ``"delong"`` for two
        scorers, ``"obuchowski"`` for one.
    min_fpr, max_fpr : float in [0, 1], optional
        Design a study of the partial AUC over the band ``[min_fpr, max_fpr]`` of
        false-positive rates (defaults 0 and 1; pROC's ``partial.auc = c(1 - min_fpr, 1 -
        max_fpr)``, ``partial.auc.focus = "specificity"``), with ``method="obuchowski"`` or
        ``"bootstrap"``.
    margin : float > 0, optional
        With ``alternative="noninferiority"`` or ``"equivalence"``.
    n_resamples : int
        Resamples of ``method="bootstrap"``.
    random_state : int, Generator or None
        Seed of ``method="bootstrap"``.
    clusters : array-like of shape (n,), optional
        The pilot's sampling unit of each row (a patient with several lesions, a reader;
        ids of any type, no missing ids). The study's variances are then multiplied by the
        pilot's design effect (below), and its sizes are rows in clusters like the
        pilot's. Default: independent rows.

    Returns
    -------
    AUCStudy
        With ``clusters``: ``design_effect``, ``n_clusters`` and ``mean_cluster_size`` of
        the pilot, and ``clusters_needed``.

    Notes
    -----
    One scorer: :func:`auc_study` with the pilot's AUC against 0.5 (the binormal variance
    of Obuchowski & McClish 1997). Two scorers: the DeLong variances ``V_1``, ``V_2`` and
    covariance ``C`` of the two AUCs (DeLong, DeLong & Clarke-Pearson 1988, "Comparing the
    areas under two or more correlated receiver operating characteristic curves: a
    nonparametric approach"), times the pilot's ``n_positive``, give the per-positive
    ``V0 = 2 V_1 - 2 C`` and ``VA = V_1 + V_2 - 2 C``, and ``delta = AUC_1 - AUC_2``; these
    are held fixed when the size changes (so ``kappa`` only sets ``n_negative``), as in
    pROC's ``method = "delong"``. A one-scorer pilot with AUC 0 or 1 is refused (pROC
    returns nan); two scorers whose DeLong variances vanish give the limits (power 1,
    level 0, size 0), as in pROC.

    **Clusters**: the design effect is the pilot's cluster-robust variance of the AUC (of
    the difference of the two AUCs), Obuchowski (1997), "Nonparametric analysis of
    clustered ROC curve data" (:func:`rankwise.stats.estimate` with ``clusters``), over
    its independent-rows variance (DeLong): ``deff = Var_clusters / Var_rows`` (Kish 1965,
    "Survey Sampling"). Both ``V0`` and ``VA`` are multiplied by it, so the rows needed
    are ``deff`` times those of independent rows, and the power at the pilot's size is the
    power of ``n / deff`` independent rows; the clusters needed are the rows over the
    pilot's mean cluster size (Donner & Klar 2000, "Design and Analysis of Cluster
    Randomization Trials in Health Research", where ``deff = 1 + (m - 1) rho`` for
    clusters of ``m`` rows with intra-cluster correlation ``rho``). The design effect
    holds for clusters like the pilot's: larger clusters give a larger one. It is an
    estimate (from the pilot's clusters; a class in fewer than ten of them gives a
    :class:`rankwise.stats.FewClustersWarning`), and it is used as estimated, below 1
    included (clusters whose rows are negatively correlated). With one row per cluster
    it is 1. Clusters go with the default methods over the whole curve only.

    **Methods** (two scorers; each gives ``V_1``, ``V_2``, ``C`` per positive, held fixed
    when the size changes, and ``delta`` is the difference of the pilot's empirical
    areas): ``"delong"`` as above (whole curve only, as in pROC). ``"obuchowski"``
    (Obuchowski & McClish 1997): a binormal curve is fitted to each scorer's empirical
    ROC points and the correlations of the two scores among positives and among
    negatives (Pearson) are taken from the pilot; ``V_1``, ``V_2``, ``C`` are the
    binormal variances and covariance of :func:`auc_variance_binormal` at the pilot's
    ``kappa``. Over the whole curve the fit is pROC's (``smooth(roc, method =
    "binormal")``: the least-squares line of ``Phi^{-1}(specificity)`` on
    ``Phi^{-1}(sensitivity)``, whose intercept and slope pROC uses as ``a`` and ``b``),
    so that the numbers are pROC's ``power.roc.test(roc1, roc2, method = "obuchowski")``.
    Over a band of false-positive rates the fit is the least-squares line of
    ``Phi^{-1}(TPR)`` on ``Phi^{-1}(FPR)`` (``TPR = Phi(a + b Phi^{-1}(FPR))``, the
    orientation the partial-area formulas assume), with Obuchowski & McClish's partial
    derivatives ``f``, ``g`` over the band; pROC plugs its own fit into those formulas,
    which gives nan or levels above 1 on ordinary pilots, so rankwise does not follow it
    there (:func:`auc_study_binormal` gives pROC's formulas for given parameters).
    ``"bootstrap"``: ``V_1``, ``V_2``, ``C`` are the variances and covariance (``n - 1``
    divisor) of the two areas over ``n_resamples`` stratified resamples of the pilot's
    rows (pairs kept), times ``n_positive``, as pROC's ``method = "bootstrap"`` (equal in
    law).

    One scorer, other methods than the default: ``delta`` is the pilot's area minus the
    chance area (0.5, or ``(max_fpr^2 - min_fpr^2) / 2`` over a band), ``V0`` the binormal
    variance of chance (``a = 0``, ``b = 1``; over the whole curve the published form of
    :func:`auc_study`) and ``VA`` the pilot's: DeLong's, the binormal fit's (the ``TPR``
    on ``FPR`` line), or the bootstrap's, times ``n_positive``, held fixed when the size
    changes. (pROC's ``power.roc.test`` of one curve ignores ``method``.)

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> st = rw.stats.auc_study_from_pilot(y, [0.1, 0.2, 0.3, 0.6, 0.4, 0.7, 0.8, 0.9])
    >>> st.auc, st.n_positive, st.solved_for
    (0.9375, 4.0, 'power')
    """
    from .. import metrics
    from .._labels import check_binary_inputs
    from ._compare import compare
    from ._estimate import FewClustersWarning, estimate, warn_few_clusters

    f = "auc_study_from_pilot"
    alternative = check_choice(alternative, "alternative", f, STUDY_ALTERNATIVES + MARGIN_STUDY_ALTERNATIVES)
    margin = _check_margin(margin, alternative, f)
    alpha = check_param(alpha, "alpha", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    power = check_param(power, "power", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    kappa = check_param(kappa, "kappa", f, low=0.0, low_inclusive=False, allow_none=True)
    if method is not None:
        method = check_choice(method, "method", f, PILOT_METHODS)
    band = _check_band(min_fpr, max_fpr, f)
    if alpha is None and power is None:
        raise TypeError(f"{f} needs 'alpha' or 'power' (or both, to solve for the size). Got neither instead.")
    is_pos, _, _, defined = check_binary_inputs(y_true, y_score, None, pos_label=pos_label)
    clusters = check_clusters(clusters, is_pos.shape[0], f)
    if not defined:
        raise ValueError(f"{f} needs both classes in the pilot sample. Got only one in y_true instead.")
    default = "delong" if y_score2 is not None else "obuchowski"
    if band is not None and method in (None, "delong"):
        if method == "delong":
            raise ValueError(f"The 'method' parameter of {f} must be 'obuchowski' or 'bootstrap' for a partial AUC "
                             "(min_fpr, max_fpr): DeLong's variance is of the whole area. Got 'delong' instead.")
        method = "obuchowski"
    if clusters is not None and (band is not None or method not in (None, default)):
        raise ValueError(f"The 'clusters' parameter of {f} goes with the default method over the whole curve "
                         f"({default!r}). Got method={method!r}, band {band!r} instead.")
    if margin is not None and y_score2 is None:
        raise ValueError(f"The 'margin' parameter of {f} is for two scorers (non-inferiority or equivalence of "
                         "y_score to y_score2). Got one scorer instead.")
    if method is not None and (method != default or band is not None):
        return _pilot_other(f, y_true, y_score, y_score2, is_pos, pos_label, method, band, alpha, power, kappa,
                            alternative, margin, n_resamples, random_state)
    P, M = float(is_pos.sum()), float((~is_pos).sum())
    solve = "power" if power is None else "alpha" if alpha is None else "n"
    if clusters is not None:
        warn_few_clusters(is_pos, None, clusters, f, stacklevel=3)
        G = clusters[1]
        cl = dict(n_clusters=int(G), mean_cluster_size=float(is_pos.shape[0]) / G)
    if y_score2 is None:
        auc = metrics.auc(y_true, y_score, pos_label=pos_label)
        if not 0.0 < auc < 1.0:
            # pROC returns nan here: the binormal variance at an AUC of 0 or 1 is undefined.
            raise ValueError(f"The pilot's AUC is {auc:g}; {f} needs an AUC strictly between 0 and 1 for one scorer.")
        deff = 1.0
        if clusters is not None:
            se_rows = estimate(y_true, y_score, "auc", pos_label=pos_label).std_error
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FewClustersWarning)  # said once above, under this name
                se_cl = estimate(y_true, y_score, "auc", pos_label=pos_label, clusters=clusters[0]).std_error
            deff = _design_effect(se_cl * se_cl, se_rows * se_rows, f)
        if solve == "n":
            sizes = (None, None, M / P if kappa is None else kappa)
        else:
            sizes = (P, M, M / P)
        study = _study(solve, auc, *sizes, alpha, power, alternative, 0.5, None, 1.0, 1.0, 0.0, 0.0, deff)
        return study if clusters is None else dataclasses.replace(study, **cl)
    cmp = compare(y_true, [y_score, y_score2], "auc", pos_label=pos_label, method="delong")
    (auc1, auc2), cov = cmp.values, cmp.cov * P
    delta = float(auc1 - auc2)
    if delta == 0.0 and margin is None:
        raise ValueError(f"The two scorers of {f} have the same AUC in the pilot: there is no difference to detect.")
    v0 = float(2.0 * cov[0, 0] - 2.0 * cov[0, 1])
    va = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
    deff, extra = 1.0, {}
    if clusters is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FewClustersWarning)  # said once above, under this name
            cc = compare(y_true, [y_score, y_score2], "auc", pos_label=pos_label, method="delong",
                         clusters=clusters[0]).cov * P
        deff = _design_effect(float(cc[0, 0] + cc[1, 1] - 2.0 * cc[0, 1]), va, f)
        v0, va = deff * v0, deff * va
        extra = dict(design_effect=deff, **cl)
    return _pilot_study(solve, P, M, kappa, alpha, power, alternative, margin, delta, v0, va, float(auc1),
                        float(auc2), None, "delong", None, extra)


def auc_study_binormal(a: float, b: float, a2: float, b2: float, *, rho_positive: float = 0.0,
                       rho_negative: float = 0.0, delta: Any = None, min_fpr: Any = None, max_fpr: Any = None,
                       n_positive: Any = None, n_negative: Any = None, kappa: Any = 1.0, alpha: Any = 0.05,
                       power: Any = None, alternative: str = "two-sided") -> AUCStudy:
    r"""A study comparing two paired scorers given their binormal curves, over the whole
    curve or a band of false-positive rates: R pROC's ``power.roc.test(list(A1 = a, B1 = b,
    A2 = a2, B2 = b2, rn = rho_negative, ra = rho_positive, delta = delta, FPR11 =
    min_fpr, FPR12 = max_fpr, FPR21 = min_fpr, FPR22 = max_fpr), ...)``.

    Parameters
    ----------
    a, b, a2, b2 : float
        The curves ``TPR = Phi(a + b Phi^{-1}(FPR))`` of the two scorers.
    rho_positive, rho_negative : float in [-1, 1]
        Correlation of the two scorers' scores among positives and among negatives.
    delta : float, optional
        The difference of the two (partial) areas to detect; default: that of the two
        curves, ``int Phi(a + b Phi^{-1}(x)) dx`` over the band (the whole curve:
        ``Phi(a / sqrt(1 + b^2))``) of the first minus the second's.
    min_fpr, max_fpr : float in [0, 1], optional
        The band (defaults 0 and 1). Without both, the whole curve.
    n_positive, n_negative, kappa, alpha, power, alternative
        As in :func:`auc_study`; leave exactly one of ``n_positive``, ``alpha``, ``power``
        as None.

    Returns
    -------
    AUCStudy
        ``auc`` and ``auc2`` are the curves' (partial) areas, ``fpr_band`` the band.

    Notes
    -----
    Obuchowski & McClish (1997), "Sample size determination for diagnostic accuracy
    studies involving binormal ROC curve indices": with ``e = 1 + b^2``,
    ``c_x = (Phi^{-1}(x) + a b / e) sqrt(e)`` at the band's ends ``x = lo, hi``, the
    derivatives of the partial area in ``a`` and ``b`` are

    .. math:: f = \frac{e^{-a^2/(2e)}}{\sqrt{2\pi e}} \bigl(\Phi(c_{hi}) - \Phi(c_{lo})\bigr), \qquad
              g = -\frac{e^{-a^2/(2e)}}{2\pi e} \bigl(e^{-c_{hi}^2/2} - e^{-c_{lo}^2/2}\bigr)
                  - \frac{a b\, e^{-a^2/(2e)}}{\sqrt{2\pi e^3}} \bigl(\Phi(c_{hi}) - \Phi(c_{lo})\bigr)

    (the whole curve: the bracket is 1 and the exponential difference 0), and the
    variance and covariance per positive are those of :func:`auc_variance_binormal`
    with these ``f``, ``g``; ``V0 = 2 V_1 - 2 C``, ``VA = V_1 + V_2 - 2 C`` and the sizes
    as in :func:`auc_study`.

    Examples
    --------
    >>> import rankwise as rw
    >>> st = rw.stats.auc_study_binormal(1.2, 0.9, 0.8, 1.1, rho_positive=0.5, rho_negative=0.4, delta=0.05,
    ...                                  min_fpr=0.0, max_fpr=0.2, n_positive=50, n_negative=100)
    >>> round(st.power, 4)
    0.5575
    """
    f = "auc_study_binormal"
    alternative = check_choice(alternative, "alternative", f, STUDY_ALTERNATIVES)
    vals = {}
    for name, v in (("a", a), ("a2", a2)):
        vals[name] = check_param(v, name, f)
    for name, v in (("b", b), ("b2", b2)):
        vals[name] = check_param(v, name, f, low=0.0, low_inclusive=False)
    rp = check_param(rho_positive, "rho_positive", f, low=-1.0, high=1.0)
    rn = check_param(rho_negative, "rho_negative", f, low=-1.0, high=1.0)
    band = _check_band(min_fpr, max_fpr, f)
    unknowns = (("n", "n_positive", n_positive if n_negative is None else n_negative), ("alpha", "alpha", alpha),
                ("power", "power", power))
    missing = [(label, name) for label, name, v in unknowns if v is None]
    if len(missing) != 1:
        raise TypeError(f"{f} solves for exactly one of n_positive, alpha and power left as None. Got "
                        f"{len(missing)} left as None ({', '.join(m[1] for m in missing) or 'none'}) instead.")
    solve = missing[0][0]
    alpha, power, n_positive, n_negative, kappa = _check_design(alpha, power, n_positive, n_negative, kappa, f)
    if n_positive is not None and n_negative is not None:
        kappa = n_negative / n_positive
    elif n_positive is None and n_negative is not None:
        n_positive = n_negative / kappa
    a1, b1, a2, b2 = vals["a"], vals["b"], vals["a2"], vals["b2"]
    area1, area2 = binormal_partial_area(a1, b1, band), binormal_partial_area(a2, b2, band)
    delta = area1 - area2 if delta is None else check_param(delta, "delta", f)
    if delta == 0.0:
        raise ValueError(f"The 'delta' parameter of {f} must not be 0: there is no difference to detect.")
    v1, v2 = _var_band(a1, b1, kappa, band), _var_band(a2, b2, kappa, band)
    c = _cov_band(a1, b1, a2, b2, rp, rn, kappa, band)
    v0, va = 2.0 * v1 - 2.0 * c, v1 + v2 - 2.0 * c
    z_a, z_b = _z(alpha, power, alternative)
    n_positive, alpha, power = _solve(solve, n_positive, alpha, power, z_a, z_b, v0, va, delta, alternative)
    return AUCStudy(float(n_positive), float(kappa * n_positive), float(kappa), area1, area2, None, float(alpha),
                    float(power), alternative, solve, float(delta), float(v0), float(va), fpr_band=band)


def _check_band(min_fpr, max_fpr, func: str) -> tuple | None:
    """``(min_fpr, max_fpr)`` with ``0 <= min_fpr < max_fpr <= 1``, or None (the whole curve)."""
    if min_fpr is None and max_fpr is None:
        return None
    lo = check_param(0.0 if min_fpr is None else min_fpr, "min_fpr", func, low=0.0, high=1.0)
    hi = check_param(1.0 if max_fpr is None else max_fpr, "max_fpr", func, low=0.0, high=1.0)
    if not lo < hi:
        raise ValueError(f"The 'max_fpr' parameter of {func} must exceed 'min_fpr'. Got min_fpr={lo!r}, "
                         f"max_fpr={hi!r} instead.")
    return (lo, hi)


def _pilot_study(solve, P, M, kappa, alpha, power, alternative, margin, delta, v0, va, auc1, auc2, null, method, band,
                 extra) -> AUCStudy:
    """Solve a design whose per-positive variances are held fixed (from a pilot)."""
    if margin is not None:
        n, alpha, power = _margin_solve(solve, P, alpha, power, va, delta, margin, alternative)
        v0 = va
    else:
        z_a, z_b = _z(alpha, power, alternative)
        n, alpha, power = _solve(solve, P, alpha, power, z_a, z_b, v0, va, delta, alternative)
    k = M / P if kappa is None else kappa
    return AUCStudy(float(n), float(M if solve != "n" else k * n), float(k if solve == "n" else M / P), float(auc1),
                    None if auc2 is None else float(auc2), null, float(alpha), float(power), alternative, solve,
                    float(delta), float(v0), float(va), method, margin=margin, fpr_band=band, **extra)


def _area(y_true, y_score, band, pos_label) -> float:
    from .. import metrics

    if band is None:
        return float(metrics.auc(y_true, y_score, pos_label=pos_label))
    return float(metrics.partial_auc(y_true, y_score, min_fpr=band[0], max_fpr=band[1], pos_label=pos_label))


def _bootstrap_areas(is_pos, scores, band, n_resamples, random_state, func) -> np.ndarray:
    """The areas of each scorer over stratified resamples of the rows (the rows of a
    resample shared by the scorers), shape ``(n_resamples, len(scores))``."""
    from .. import metrics
    from . import _core

    n_resamples = _core.check_resamples(n_resamples, func)
    rng = np.random.default_rng(random_state)
    pos, neg = np.flatnonzero(is_pos), np.flatnonzero(~is_pos)
    y = np.r_[np.ones(pos.shape[0], dtype=bool), np.zeros(neg.shape[0], dtype=bool)]
    out = np.empty((n_resamples, len(scores)))
    for r in range(n_resamples):
        rows = np.r_[rng.choice(pos, pos.shape[0]), rng.choice(neg, neg.shape[0])]
        for c, s in enumerate(scores):
            out[r, c] = (metrics.auc(y, s[rows]) if band is None
                         else metrics.partial_auc(y, s[rows], min_fpr=band[0], max_fpr=band[1]))
    return out


def _pilot_other(f, y_true, y_score, y_score2, is_pos, pos_label, method, band, alpha, power, kappa, alternative,
                 margin, n_resamples, random_state) -> AUCStudy:
    """:func:`auc_study_from_pilot` with the Obuchowski (binormal fit) or bootstrap
    variances, or over a band of false-positive rates."""
    from .._validation import to_numpy

    P, M = float(is_pos.sum()), float((~is_pos).sum())
    kp = M / P
    solve = "power" if power is None else "alpha" if alpha is None else "n"
    s1 = np.asarray(to_numpy(y_score, "y_score"), dtype=np.float64)
    scores = [s1]
    if y_score2 is not None:
        s2 = np.asarray(to_numpy(y_score2, "y_score2"), dtype=np.float64)
        if s2.shape != s1.shape:
            raise ValueError(f"The 'y_score2' parameter of {f} must have the shape of y_score {s1.shape}. Got "
                             f"{s2.shape} instead.")
        scores.append(s2)
    areas = [_area(y_true, s, band, pos_label) for s in scores]
    if method == "bootstrap":
        boot = _bootstrap_areas(is_pos, scores, band, n_resamples, random_state, f)
        cov = np.atleast_2d(np.cov(boot, rowvar=False, ddof=1)) * P
    elif method == "obuchowski":
        fit = binormal_fit_proc if band is None else binormal_fit
        ab = [fit(is_pos, s, f) for s in scores]
        if len(scores) == 1:
            cov = np.array([[_var_band(*ab[0], kp, band)]])
        else:
            ra = float(np.corrcoef(s1[is_pos], s2[is_pos])[0, 1])
            rn = float(np.corrcoef(s1[~is_pos], s2[~is_pos])[0, 1])
            if not (math.isfinite(ra) and math.isfinite(rn)):
                raise ValueError(f"{f} with method='obuchowski' needs the two scorers' correlations among positives "
                                 "and among negatives; a scorer constant within a class has none.")
            c12 = _cov_band(*ab[0], *ab[1], ra, rn, kp, band)
            cov = np.array([[_var_band(*ab[0], kp, band), c12], [c12, _var_band(*ab[1], kp, band)]])
    else:  # delong, one scorer
        from ._estimate import estimate

        cov = np.array([[estimate(y_true, y_score, "auc", pos_label=pos_label).std_error ** 2 * P]])
    if len(scores) == 1:
        null = 0.5 if band is None else (band[1] ** 2 - band[0] ** 2) / 2.0
        delta = areas[0] - null
        if delta == 0.0:
            raise ValueError(f"The pilot's area equals chance ({null:g}): {f} has no difference to detect.")
        v0 = _var_one(0.5, kp) if band is None else _var_band(0.0, 1.0, kp, band)
        return _pilot_study(solve, P, M, kappa, alpha, power, alternative, None, delta, v0, float(cov[0, 0]),
                            areas[0], None, null, method, band, {})
    delta = areas[0] - areas[1]
    if delta == 0.0 and margin is None:
        raise ValueError(f"The two scorers of {f} have the same area in the pilot: there is no difference to detect.")
    v0 = float(2.0 * cov[0, 0] - 2.0 * cov[0, 1])
    va = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
    return _pilot_study(solve, P, M, kappa, alpha, power, alternative, margin, delta, v0, va, areas[0], areas[1],
                        None, method, band, {})


def _design_effect(var_clusters: float, var_rows: float, func: str) -> float:
    """``var_clusters / var_rows``: 1 when both are 0 (an estimate without spread, whose
    limits the solvers give); an error when the variance over clusters is undefined."""
    if not math.isfinite(var_clusters):
        raise ValueError(f"The 'clusters' of {func} leave a class in fewer than two clusters: the pilot's "
                         "cluster-robust variance, hence its design effect, cannot be estimated.")
    if var_rows == 0.0:
        return 1.0
    return float(var_clusters / var_rows)
