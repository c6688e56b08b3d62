"""The formulas of ``docs/operating_points.md`` are the ones the code computes.

As in ``tests/test_docs.py``: each test transcribes a formula as the page writes it (the
section is named in each test) into literal numpy and compares it with the library."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

import rankwise as rw


def _sample(seed, n=31):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, 9, n) / 4.0 + 0.5 * y
    return y, s


# --- "Operating points": between two ROC points, linear; precision from the masses ----------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rates_between_points_as_written(seed):
    y, s = _sample(seed)
    c = rw.roc_curve(y, s)
    P, M = (y == 1).sum(), (y == 0).sum()
    for x in (0.07, 0.33, 0.61):
        k = np.flatnonzero(c.fpr < x).max()       # the last point left of x (the top of its step)
        k2 = np.flatnonzero(c.fpr > x).min()      # the first point right of x
        tpr = c.tpr[k] + (x - c.fpr[k]) / (c.fpr[k2] - c.fpr[k]) * (c.tpr[k2] - c.tpr[k])
        op = rw.operating_points(y, s, fpr=x)
        assert op.tpr[0] == pytest.approx(tpr, abs=1e-12) and math.isnan(op.threshold[0])
        assert op.precision[0] == pytest.approx(tpr * P / (tpr * P + x * M), abs=1e-12)


# --- "The optimal cut": TPR - r FPR and (1 - TPR)^2 + r FPR^2 ------------------------------

@pytest.mark.parametrize("cost,prevalence", [(1.0, 0.5), (2.0, 0.2), (0.5, 0.7)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_cut_criteria_as_written(seed, cost, prevalence):
    y, s = _sample(seed)
    c = rw.roc_curve(y, s)
    r = (1 - prevalence) / (cost * prevalence)
    j = c.tpr - r * c.fpr
    d = (1 - c.tpr) ** 2 + r * c.fpr ** 2
    cut = rw.optimal_threshold(y, s, cost=cost, prevalence=prevalence)
    assert cut.threshold == c.thresholds[np.flatnonzero(j >= j.max() - 1e-12)[0]]
    assert cut.youden_index == pytest.approx(c.tpr[c.thresholds == cut.threshold][0]
                                             - c.fpr[c.thresholds == cut.threshold][0])
    near = rw.optimal_threshold(y, s, method="closest_topleft", cost=cost, prevalence=prevalence)
    assert near.threshold == c.thresholds[np.flatnonzero(d <= d.min() + 1e-12)[0]]


# --- "Power and sample size of an AUC study" ---------------------------------------------

def _v_one(theta, kappa):
    A = 1.414 * sps.norm.ppf(theta)
    return 0.0099 * np.exp(-A ** 2 / 2) * ((5 * A ** 2 + 8) + (A ** 2 + 8) / kappa)


def _binormal(auc, b, kappa):
    a = sps.norm.ppf(auc) * np.sqrt(1 + b ** 2)
    f = np.exp(-a ** 2 / (2 * (1 + b ** 2))) / np.sqrt(2 * np.pi * (1 + b ** 2))
    g = -f * a * b / (1 + b ** 2)
    return a, f, g, f ** 2 * (1 + b ** 2 / kappa + a ** 2 / 2) + g ** 2 * b ** 2 * (1 + kappa) / (2 * kappa)


@pytest.mark.parametrize("auc,auc0,kappa,alpha,power,alt", [(0.8, 0.5, 1.0, 0.05, 0.9, "two-sided"),
                                                             (0.7, 0.6, 2.5, 0.01, 0.8, "one-sided")])
def test_one_scorer_size_as_written(auc, auc0, kappa, alpha, power, alt):
    za = sps.norm.isf(alpha / 2 if alt == "two-sided" else alpha)
    zb = sps.norm.ppf(power)
    n = (za * np.sqrt(_v_one(auc0, kappa)) + zb * np.sqrt(_v_one(auc, kappa))) ** 2 / (auc - auc0) ** 2
    st = rw.stats.sample_size_auc(auc, power=power, kappa=kappa, alpha=alpha, alternative=alt, null_auc=auc0)
    assert st.n_positive == pytest.approx(n, rel=1e-12)
    assert st.n_negative == pytest.approx(kappa * n, rel=1e-12)


def test_two_scorers_variances_as_written():
    auc1, auc2, b1, b2, rp, rn, kappa = 0.85, 0.78, 1.2, 0.9, 0.6, 0.4, 1.5
    a1, f1, g1, v1 = _binormal(auc1, b1, kappa)
    a2, f2, g2, v2 = _binormal(auc2, b2, kappa)
    C = (f1 * f2 * (rp + rn * b1 * b2 / kappa + rp ** 2 * a1 * a2 / 2)
         + g1 * g2 * b1 * b2 * (rn ** 2 + kappa * rp ** 2) / (2 * kappa)
         + f1 * g2 * rp ** 2 * a1 * b2 / 2 + f2 * g1 * rp ** 2 * a2 * b1 / 2)
    st = rw.stats.power_auc(auc1, n_positive=120, kappa=kappa, auc2=auc2, b=b1, b2=b2, rho_positive=rp,
                            rho_negative=rn)
    assert st.var_null == pytest.approx(2 * v1 - 2 * C, rel=1e-12)
    assert st.var_alternative == pytest.approx(v1 + v2 - 2 * C, rel=1e-12)
    za = sps.norm.isf(0.025)
    power = sps.norm.cdf((np.sqrt(120) * (auc1 - auc2) - za * np.sqrt(2 * v1 - 2 * C)) / np.sqrt(v1 + v2 - 2 * C))
    assert st.power == pytest.approx(power, rel=1e-12)
    # "A caution, measured": the published V plus f g a b (the covariance of a and b).
    assert rw.stats.auc_variance_binormal(auc1, kappa, b1, ab_covariance=True) == pytest.approx(
        v1 + f1 * g1 * a1 * b1, rel=1e-12)
