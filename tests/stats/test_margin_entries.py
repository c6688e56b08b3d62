"""Non-inferiority and equivalence on the comparisons with their own entries (several
classes, the VUS, the stratified AUC): the same differences and standard errors as the
two-sided comparison, the margin's statistic, p-value and interval by the literal
formulas of docs/inference.md ("Non-inferiority and equivalence")."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

import rankwise as rw


def _check(two, test, alternative, d, level=0.95):
    assert test.alternative == alternative and test.margin == d
    z = sps.norm.ppf(level)
    for p0, p in zip(two.pairs, test.pairs):
        D, se = p0.difference, p0.std_error
        assert p.difference == pytest.approx(D, abs=1e-15) and p.std_error == pytest.approx(se, rel=1e-12)
        if alternative == "noninferiority":
            stat = (D + d) / se
            pv = sps.norm.sf(stat)
            lo, hi = D - z * se, np.inf
        else:
            stat = min((D + d) / se, (d - D) / se)
            pv = max(sps.norm.sf((D + d) / se), sps.norm.cdf((D - d) / se))
            lo, hi = D - z * se, D + z * se
        assert p.statistic == pytest.approx(stat, rel=1e-10)
        assert p.p_value == pytest.approx(pv, rel=1e-9, abs=1e-300)
        assert p.low == pytest.approx(lo, rel=1e-10) and p.high == pytest.approx(hi, rel=1e-10)


@pytest.fixture(scope="module")
def three_classes():
    rng = np.random.default_rng(4)
    n = 300
    y = rng.integers(0, 3, n)
    mats = {}
    for name, noise in (("a", 1.0), ("b", 1.2)):
        z = np.eye(3)[y] * 1.5 + noise * rng.normal(size=(n, 3))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        mats[name] = e / e.sum(axis=1, keepdims=True)
    return y, mats


@pytest.mark.parametrize("alternative, d", [("noninferiority", 0.03), ("equivalence", 0.05)])
@pytest.mark.parametrize("kw", [dict(criterion="multiclass_auc", multi_class="ovo"),
                                dict(criterion="multiclass_auc", multi_class="ovr")])
def test_multiclass(three_classes, alternative, d, kw):
    from rankwise.stats._multiclass import compare_multiclass

    y, mats = three_classes
    two = compare_multiclass(y, mats, **kw)
    _check(two, compare_multiclass(y, mats, alternative=alternative, margin=d, **kw), alternative, d)


def test_through_compare(three_classes):
    y, mats = three_classes
    got = rw.stats.compare(y, mats, criterion="multiclass_auc", multi_class="ovo", alternative="equivalence",
                           margin=0.05)
    from rankwise.stats._multiclass import compare_multiclass

    want = compare_multiclass(y, mats, multi_class="ovo", alternative="equivalence", margin=0.05)
    assert got.margin == 0.05 and got.pairs == want.pairs


def test_vus(three_classes):
    from rankwise.stats._multiclass import compare_multiclass

    y, mats = three_classes
    cols = {k: m @ np.array([0.0, 1.0, 2.0]) for k, m in mats.items()}
    two = compare_multiclass(y, cols, "vus", labels=[0, 1, 2])
    _check(two, compare_multiclass(y, cols, "vus", labels=[0, 1, 2], alternative="noninferiority", margin=0.02),
           "noninferiority", 0.02)


@pytest.mark.parametrize("alternative, d", [("noninferiority", 0.04), ("equivalence", 0.06)])
def test_stratified(alternative, d):
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    strata = rng.integers(0, 4, n)
    scores = {"a": y + rng.normal(size=n), "b": y + 1.2 * rng.normal(size=n)}
    two = rw.stats.compare_stratified(y, scores, strata)
    _check(two, rw.stats.compare_stratified(y, scores, strata, alternative=alternative, margin=d), alternative, d)


@pytest.mark.parametrize("kw, exc", [(dict(alternative="noninferiority"), ValueError),
                                     (dict(margin=0.02), ValueError),
                                     (dict(alternative="equivalence", margin=-1.0), ValueError)])
def test_margin_checked(three_classes, kw, exc):
    from rankwise.stats._multiclass import compare_multiclass

    y, mats = three_classes
    with pytest.raises(exc, match="margin"):
        compare_multiclass(y, mats, **kw)
    with pytest.raises(exc, match="margin"):
        rw.stats.compare_stratified(y % 2, {"a": mats["a"][:, 0], "b": mats["b"][:, 0]}, np.arange(y.shape[0]) % 3,
                                    **kw)
