"""by_group(transform="logit"): the intervals are Estimate's logit intervals on each
group's rows, the AUCs' tests are Wald tests of the logits (delta method), written out
here; the default (None) is untouched by it."""

import numpy as np
import pytest

import rankwise as rw
from rankwise.stats import _dist


def data(seed=0, n=1200):
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y * np.where(g == "c", 0.6, 1.0), 2)
    return y, s, g


def logit(p):
    return np.log(p / (1 - p))


@pytest.mark.parametrize("clusters", [False, True])
def test_logit_intervals_and_tests(clusters):
    y, s, g = data(1)
    cl = np.arange(y.shape[0]) // 3 if clusters else None
    r = rw.stats.by_group(y, s, g, transform="logit", clusters=cl)
    raw = rw.stats.by_group(y, s, g, clusters=cl)
    for a, b in zip(r.rows, raw.rows):  # same values and standard errors, other intervals
        assert a.value == b.value and a.std_error == b.std_error
        sel = g == a.group
        e = rw.stats.estimate(y[sel], s[sel], clusters=None if cl is None else cl[sel])
        lo, hi = e.confidence_interval(0.95, transform="logit")
        assert a.low == pytest.approx(lo, rel=1e-12) and a.high == pytest.approx(hi, rel=1e-12)
    cov = r.cov[("score", "auc")]
    v = np.array([row.value for row in r.rows])
    j = 1 / (v * (1 - v))
    # the global test: Wald on the logits, successive differences
    C = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])
    d = C @ logit(v)
    S = C @ (cov * j[:, None] * j[None, :]) @ C.T
    stat = float(d @ np.linalg.solve(S, d))
    t = r.global_tests[0]
    assert t.statistic == pytest.approx(stat, rel=1e-10) and t.df == 2
    assert t.p_value == pytest.approx(_dist.chi2_sf(stat, 2), rel=1e-10)
    assert t.statistic != pytest.approx(raw.global_tests[0].statistic, rel=1e-3)


def test_logit_reference_difference_is_the_delta_method():
    y, s, g = data(2)
    r = rw.stats.by_group(y, s, g, reference="a", transform="logit", bias=False)
    cov = r.cov[("score", "auc")]
    v = {row.group: row.value for row in r.rows}
    for dif in r.differences:
        k, ref = r.groups.index(dif.group), r.groups.index("a")
        a, b = v[dif.group], v["a"]
        ja, jb = 1 / (a * (1 - a)), 1 / (b * (1 - b))
        se = np.sqrt(ja ** 2 * cov[k, k] + jb ** 2 * cov[ref, ref] - 2 * ja * jb * cov[k, ref])
        z = (logit(a) - logit(b)) / se
        assert dif.statistic == pytest.approx(z, rel=1e-10)
        assert dif.p_value == pytest.approx(2 * _dist.norm_sf(abs(z)), rel=1e-10)
        assert dif.difference == pytest.approx(a - b, rel=1e-12)  # the difference itself stays on the AUC scale


def test_transform_is_checked():
    y, s, g = data(3, n=200)
    with pytest.raises(ValueError, match="'transform' parameter of by_group"):
        rw.stats.by_group(y, s, g, transform="probit")
