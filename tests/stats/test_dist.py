"""rankwise.stats._dist: the normal, t and chi-squared functions that replace scipy.stats
(whose import cost every command ~0.9 s), against SciPy on grids that reach the tails."""

import math

import numpy as np
import pytest
from scipy import stats

from rankwise.stats import _dist


def test_normal_quantile_and_tails_agree_with_scipy():
    ps = np.r_[1e-300, 1e-20, 1e-10, 1e-5, 0.001, 0.025, 0.05, 0.3, 0.5, 0.7, 0.95, 0.975, 0.999, 1 - 1e-10]
    got = _dist.norm_ppf(ps)
    np.testing.assert_allclose(got, stats.norm.ppf(ps), rtol=1e-15, atol=0)
    assert [_dist.norm_ppf(p) for p in (0.0, 1.0)] == [-math.inf, math.inf] and math.isnan(_dist.norm_ppf(1.5))
    assert _dist.norm_ppf(0.975) == pytest.approx(1.959963984540054, rel=1e-15)
    xs = np.r_[-37.0, -10.0, -3.0, -1.0, 0.0, 0.5, 2.0, 8.0, 30.0]
    np.testing.assert_allclose(_dist.norm_cdf(xs), stats.norm.cdf(xs), rtol=1e-12, atol=0)  # erfc vs ndtr at 1e-300
    np.testing.assert_allclose([_dist.norm_sf(x) for x in xs], stats.norm.sf(xs), rtol=1e-12, atol=0)
    assert _dist.norm_cdf(1.0) == pytest.approx(stats.norm.cdf(1.0), rel=1e-15)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 9, 10, 45, 100, 1001])
def test_chi2_tail_agrees_with_scipy(df):
    for x in (1e-8, 0.1, 1.0, df / 2, df, 2 * df, df + 10 * math.sqrt(df), 200.0, 700.0, 1500.0):
        want = float(stats.chi2.sf(x, df))
        assert _dist.chi2_sf(x, df) == pytest.approx(want, rel=1e-11, abs=1e-300), (x, df)
    assert _dist.chi2_sf(0.0, df) == 1.0 and _dist.chi2_sf(math.inf, df) == 0.0
    assert _dist.chi2_sf(3.5, 2.5) == pytest.approx(float(stats.chi2.sf(3.5, 2.5)), rel=1e-14)  # SciPy's route


@pytest.mark.parametrize("df", [2.0, 7.5, 30.0])
def test_t_functions_agree_with_scipy(df):
    for x in (-4.0, -0.3, 0.0, 1.7, 6.0):
        assert _dist.t_cdf(x, df) == pytest.approx(float(stats.t.cdf(x, df)), rel=1e-14)
        assert _dist.t_sf(x, df) == pytest.approx(float(stats.t.sf(x, df)), rel=1e-14)
    for p in (0.025, 0.5, 0.95, 0.975):
        assert _dist.t_ppf(p, df) == pytest.approx(float(stats.t.ppf(p, df)), rel=1e-13, abs=1e-15)


def test_logit_expit():
    for x in (1e-12, 0.2, 0.5, 0.9, 1 - 1e-9):
        assert _dist.expit(_dist.logit(x)) == pytest.approx(x, rel=1e-12)
    assert _dist.expit(-800.0) == 0.0 and _dist.expit(800.0) == 1.0
