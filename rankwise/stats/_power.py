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

__all__ = ["AUCStudy", "auc_study", "auc_study_from_pilot", "power_auc", "sample_size_auc", "auc_variance_binormal",
           "STUDY_ALTERNATIVES"]

STUDY_ALTERNATIVES = ("two-sided", "one-sided")


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
        ``"two-sided"`` or ``"one-sided"``.
    solved_for : str
        Which of ``"power"``, ``"n"``, ``"alpha"``, ``"detectable_auc"`` was computed.
    delta : float
        The difference tested: ``auc - null_auc`` or ``auc - auc2``.
    var_null, var_alternative : float
        ``n_positive`` times the variance of the estimated difference under the null and
        under the alternative (the variance of one case's worth of data), times
        ``design_effect``.
    method : str
        ``"binormal"`` (Obuchowski & McClish) or ``"delong"`` (variances from a pilot).
    design_effect : float
        The factor the variances were multiplied by: 1 for independent rows; from a pilot
        with ``clusters=``, its cluster-robust variance over its independent-rows variance.
        ``n_positive`` and ``n_negative`` are then rows (``design_effect`` times the rows
        independent ones would need).
    n_clusters : int or None
        The pilot's number of clusters (``clusters=``), else None.
    mean_cluster_size : float or None
        The pilot's rows per cluster (``clusters=``), else None.
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

    @property
    def clusters_needed(self) -> float | None:
        """The rows of the design over the pilot's mean cluster size: about how many clusters
        like the pilot's hold them (not rounded); None without a pilot's clusters."""
        if self.mean_cluster_size is None:
            return None
        return (self.n_positive + self.n_negative) / self.mean_cluster_size

    def summary(self) -> str:
        what = (f"AUC {self.auc:.4f} against {self.null_auc:.4f}" if self.auc2 is None
                else f"AUC {self.auc:.4f} against {self.auc2:.4f} (paired)")
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


def auc_study(auc: Any = None, *, n_positive: Any = None, n_negative: Any = None, kappa: Any = 1.0,
              alpha: Any = 0.05, power: Any = None, alternative: str = "two-sided", null_auc: float = 0.5,
              auc2: Any = None, b: float = 1.0, b2: float = 1.0, rho_positive: float = 0.0,
              rho_negative: float = 0.0, design_effect: Any = 1.0) -> AUCStudy:
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
    alternative : {"two-sided", "one-sided"}
        Two-sided tests use ``alpha / 2`` in the tail of the alternative (the other tail is
        ignored, as in the paper and in pROC).
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

    Examples
    --------
    >>> import rankwise as rw
    >>> st = rw.stats.auc_study(auc=0.8, n_positive=20, alpha=0.05)
    >>> round(st.power, 4)
    0.9479
    """
    alternative = check_choice(alternative, "alternative", "auc_study", STUDY_ALTERNATIVES)
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
    alpha = check_param(alpha, "alpha", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    power = check_param(power, "power", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    n_positive = check_param(n_positive, "n_positive", f, low=0.0, low_inclusive=False, allow_none=True)
    n_negative = check_param(n_negative, "n_negative", f, low=0.0, low_inclusive=False, allow_none=True)
    kappa = check_param(kappa, "kappa", f, low=0.0, low_inclusive=False)
    b = check_param(b, "b", f, low=0.0, low_inclusive=False)
    b2 = check_param(b2, "b2", f, low=0.0, low_inclusive=False)
    rho_positive = check_param(rho_positive, "rho_positive", f, low=-1.0, high=1.0)
    rho_negative = check_param(rho_negative, "rho_negative", f, low=-1.0, high=1.0)
    design_effect = check_param(design_effect, "design_effect", f, low=0.0, low_inclusive=False)
    if not math.isfinite(design_effect):
        raise ValueError(f"The 'design_effect' parameter of {f} must be a finite number > 0. Got {design_effect!r} "
                         "instead.")
    return _study(solve, auc, n_positive, n_negative, kappa, alpha, power, alternative, null_auc, auc2, b, b2,
                  rho_positive, rho_negative, design_effect)


def _study(solve, auc, n_positive, n_negative, kappa, alpha, power, alternative, null_auc, auc2, b, b2,
           rho_positive, rho_negative, deff) -> AUCStudy:
    """:func:`auc_study` on validated arguments, the variances multiplied by ``deff``."""
    if solve == "detectable_auc" and auc2 is not None:
        raise TypeError("auc_study solves for the AUC of one scorer only; with 'auc2' give 'auc'.")
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
                         clusters=None) -> AUCStudy:
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
    alternative : {"two-sided", "one-sided"}
    pos_label : optional
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
    it is 1.

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
    alternative = check_choice(alternative, "alternative", f, STUDY_ALTERNATIVES)
    alpha = check_param(alpha, "alpha", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    power = check_param(power, "power", f, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False,
                        allow_none=True)
    kappa = check_param(kappa, "kappa", f, low=0.0, low_inclusive=False, allow_none=True)
    if alpha is None and power is None:
        raise TypeError(f"{f} needs 'alpha' or 'power' (or both, to solve for the size). Got neither instead.")
    is_pos, _, _, defined = check_binary_inputs(y_true, y_score, None, pos_label=pos_label)
    clusters = check_clusters(clusters, is_pos.shape[0], f)
    if not defined:
        raise ValueError(f"{f} needs both classes in the pilot sample. Got only one in y_true instead.")
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
    if delta == 0.0:
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
    z_a, z_b = _z(alpha, power, alternative)
    n, alpha, power = _solve(solve, P, alpha, power, z_a, z_b, v0, va, delta, alternative)
    k = M / P if kappa is None else kappa
    return AUCStudy(float(n), float(M if solve != "n" else k * n), float(k if solve == "n" else M / P), float(auc1),
                    float(auc2), None, float(alpha), float(power), alternative, solve, delta, v0, va, "delong",
                    **extra)


def _design_effect(var_clusters: float, var_rows: float, func: str) -> float:
    """``var_clusters / var_rows``: 1 when both are 0 (an estimate without spread, whose
    limits the solvers give); an error when the variance over clusters is undefined."""
    if not math.isfinite(var_clusters):
        raise ValueError(f"The 'clusters' of {func} leave a class in fewer than two clusters: the pilot's "
                         "cluster-robust variance, hence its design effect, cannot be estimated.")
    if var_rows == 0.0:
        return 1.0
    return float(var_clusters / var_rows)
