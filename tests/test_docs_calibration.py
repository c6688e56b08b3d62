"""The formulas of ``docs/calibration.md`` are the ones the code computes.

As in ``tests/test_docs.py``: each test transcribes a formula as the page writes it (the
section is named in each test) into literal numpy and compares it with the library."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

import rankwise as rw


def _sample(seed, n=41, weights=False):
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(2, 3, n), 1)  # ties, some on the uniform edges
    o = (rng.random(n) < p ** 1.5).astype(float)
    w = rng.integers(1, 4, n).astype(float) if weights else np.ones(n)
    return o, p, w


def _bins(p, n_bins):
    # "Bins follow scikit-learn's": edges np.linspace(0, 1, n_bins + 1); row i in bin k when
    # edge_k < p_i <= edge_{k+1}, the first bin also holding p_i = edge_0.
    edges = np.linspace(0, 1, n_bins + 1)
    k = np.zeros(p.shape[0], dtype=int)
    for j in range(1, n_bins):
        k[p > edges[j]] = j
    return k


# --- "The reliability curve" and "Per-bin intervals" ---------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weights", [False, True])
def test_curve_and_wilson_interval_as_written(seed, weights):
    o, p, w = _sample(seed, weights=weights)
    c = rw.calibration_curve(o, p, n_bins=5, sample_weight=w if weights else None, confidence_level=0.9)
    k = _bins(p, 5)
    z = sps.norm.ppf(0.95)
    for b in range(5):
        sel = k == b
        Wk = w[sel].sum()
        if Wk == 0:
            assert c.count[b] == 0 and np.isnan(c.fraction_positive[b])
            continue
        pbar, obar = (w[sel] * p[sel]).sum() / Wk, (w[sel] * o[sel]).sum() / Wk
        n = Wk ** 2 / (w[sel] ** 2).sum()  # Kish; the row count without weights
        centre = (obar + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
        half = z / (1 + z ** 2 / n) * np.sqrt(obar * (1 - obar) / n + z ** 2 / (4 * n ** 2))
        assert c.mean_predicted[b] == pytest.approx(pbar, abs=1e-12)
        assert c.fraction_positive[b] == pytest.approx(obar, abs=1e-12)
        assert c.lower[b] == pytest.approx(max(centre - half, 0.0), abs=1e-12)
        assert c.upper[b] == pytest.approx(min(centre + half, 1.0), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_jeffreys_interval_as_written(seed):
    o, p, w = _sample(seed, weights=True)
    c = rw.calibration_curve(o, p, n_bins=4, sample_weight=w, interval="jeffreys")
    for b in np.flatnonzero(c.count > 0):
        n = c.effective_count[b]
        x = c.fraction_positive[b] * n
        lo = 0.0 if x == 0 else sps.beta.ppf(0.025, x + 0.5, n - x + 0.5)
        hi = 1.0 if x == n else sps.beta.ppf(0.975, x + 0.5, n - x + 0.5)
        assert (c.lower[b], c.upper[b]) == pytest.approx((lo, hi), abs=1e-10)


# --- "The Brier score and its decomposition" ------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weights", [False, True])
def test_decomposition_as_written(seed, weights):
    o, p, w = _sample(seed, weights=weights)
    d = rw.stats.brier_decomposition(o, p, n_bins=4, sample_weight=w if weights else None)
    k = _bins(p, 4)
    W = w.sum()
    BS = (w * (p - o) ** 2).sum() / W
    obar = (w * o).sum() / W
    REL = RES = WBV = WBC = 0.0
    for b in range(4):
        sel = k == b
        Wk = w[sel].sum()
        if Wk == 0:
            continue
        pk, ok = (w[sel] * p[sel]).sum() / Wk, (w[sel] * o[sel]).sum() / Wk
        REL += Wk * (pk - ok) ** 2 / W
        RES += Wk * (ok - obar) ** 2 / W
        WBV += (w[sel] * (p[sel] - pk) ** 2).sum() / W
        WBC += 2 * (w[sel] * (o[sel] - ok) * (p[sel] - pk)).sum() / W
    UNC = obar * (1 - obar)
    got = (d.brier_score, d.reliability, d.resolution, d.uncertainty, d.within_bin_variance, d.within_bin_covariance)
    assert got == pytest.approx((BS, REL, RES, UNC, WBV, WBC), abs=1e-12)
    assert BS == pytest.approx(REL - RES + UNC + WBV - WBC, abs=1e-12)


# --- "Expected calibration error" -----------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ece_and_mce_as_written(seed):
    o, p, w = _sample(seed, weights=True)
    k = _bins(p, 6)
    W = w.sum()
    gaps = [(w[k == b].sum(), abs((w * o)[k == b].sum() - (w * p)[k == b].sum()) / w[k == b].sum())
            for b in range(6) if w[k == b].sum() > 0]
    ece = sum(Wk / W * g for Wk, g in gaps)
    mce = max(g for _, g in gaps)
    assert rw.expected_calibration_error(o, p, n_bins=6, sample_weight=w) == pytest.approx(ece, abs=1e-12)
    assert rw.expected_calibration_error(o, p, n_bins=6, sample_weight=w, norm="max") == pytest.approx(mce, abs=1e-12)


# --- "Intervals: rw.stats.calibration" ------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weights", [False, True])
def test_brier_interval_as_written(seed, weights):
    o, p, w = _sample(seed, weights=weights)
    e = (p - o) ** 2
    n, W = len(e), w.sum()
    if weights:
        ebar = (w * e).sum() / W
        se = np.sqrt(n / (n - 1) * (w ** 2 * (e - ebar) ** 2).sum() / W ** 2)
    else:
        se = e.std(ddof=1) / np.sqrt(n)
    b = rw.stats.calibration(o, p, sample_weight=w if weights else None).brier_score
    assert b.std_error == pytest.approx(se, rel=1e-12)
    z = sps.norm.ppf(0.975)
    assert tuple(b.confidence_interval(0.95)) == pytest.approx((max(b.value - z * se, 0), min(b.value + z * se, 1)),
                                                               abs=1e-12)


# --- "Lift and cumulative gain" -------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gain_and_lift_as_written(seed):
    o, s, w = _sample(seed, weights=True)
    pos = o == 1
    g = rw.gain_curve(o, s, sample_weight=w)
    lift = rw.lift_curve(o, s, sample_weight=w)
    for i, t in enumerate(np.unique(s)[::-1]):
        targeted = w[s >= t].sum() / w.sum()
        captured = w[pos & (s >= t)].sum() / w[pos].sum()
        assert (g.thresholds[i + 1], g.fraction_targeted[i + 1], g.fraction_captured[i + 1]) == pytest.approx(
            (t, targeted, captured), abs=1e-12)
        precision, base = w[pos & (s >= t)].sum() / w[s >= t].sum(), w[pos].sum() / w.sum()
        assert lift.lift[i] == pytest.approx(captured / targeted, abs=1e-12)
        assert lift.lift[i] == pytest.approx(precision / base, abs=1e-12)
    # Between corners the gain is a straight line: a share a of a tied group captures a of its positives.
    x = 0.5 * (g.fraction_targeted[1] + g.fraction_targeted[2])
    assert rw.gain_at(o, s, x, sample_weight=w) == pytest.approx(
        0.5 * (g.fraction_captured[1] + g.fraction_captured[2]), abs=1e-12)
