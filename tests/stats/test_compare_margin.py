"""Non-inferiority and equivalence (two one-sided tests) of the difference of two criteria:
``compare(..., alternative="noninferiority" | "equivalence", margin=d)`` and
``compare_unpaired`` against the literal formulas (O(n^2) AUCs and DeLong covariances
from ``_support.reference``, the normal and Student t from scipy), the decisions on
constructed cases, the margin's checks, and the other alternatives unchanged."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import rankwise as rw
from _support import reference as ref
from _support.quiet import quiet

TOL = 1e-9


def approx(x, tol=TOL):
    return pytest.approx(x, rel=tol, abs=tol)


def sample(seed, n=40, ties=False, weights=False, shift=0.3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = [True, False]
    a = rng.normal(size=n) + y
    b = rng.normal(size=n) + shift * y + 0.5 * a
    if ties:
        a, b = np.round(a), np.round(b * 2) / 2
    w = rng.integers(1, 4, n).astype(float) if weights else None
    return y, a, b, w


def literal_paired(y, a, b, w):
    """The difference of the two AUCs and its DeLong standard error, literally."""
    diff = ref.auc(y, a, w) - ref.auc(y, b, w)
    var = ref.delong_var(y, a, w) + ref.delong_var(y, b, w) - 2.0 * ref.delong_cov(y, a, b, w)
    return diff, math.sqrt(var)


CASES = [dict(seed=1), dict(seed=2, ties=True), dict(seed=3, weights=True), dict(seed=4, ties=True, weights=True)]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("margin", [0.02, 0.1])
@pytest.mark.parametrize("level", [0.95, 0.9])
def test_noninferiority_literal(case, margin, level):
    y, a, b, w = sample(**case)
    diff, se = literal_paired(y, a, b, w)
    c = rw.stats.compare(y, {"new": a, "old": b}, sample_weight=w, alternative="noninferiority", margin=margin,
                         confidence_level=level)
    p = c.pairs[0]
    z = (diff + margin) / se
    assert (p.a, p.b) == ("new", "old")
    assert p.difference == approx(diff) and p.std_error == approx(se)
    assert p.statistic == approx(z) and p.p_value == approx(sps.norm.sf(z))
    assert p.low == approx(diff - sps.norm.ppf(level) * se) and p.high == math.inf
    assert c.margin == margin and c.alternative == "noninferiority"
    # Non-inferior exactly when the one-sided interval's lower end exceeds -margin.
    assert (p.low > -margin) == (p.p_value < 1 - level)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("margin", [0.05, 0.3])
def test_equivalence_literal(case, margin):
    y, a, b, w = sample(**case)
    diff, se = literal_paired(y, a, b, w)
    level = 0.95
    c = rw.stats.compare(y, [a, b], sample_weight=w, alternative="equivalence", margin=margin)
    p = c.pairs[0]
    p_low, p_up = sps.norm.sf((diff + margin) / se), sps.norm.cdf((diff - margin) / se)
    assert p.p_value == approx(max(p_low, p_up))
    assert p.statistic == approx(min((diff + margin) / se, (margin - diff) / se))
    q = sps.norm.ppf(0.95)  # the 90% two-sided interval
    assert (p.low, p.high) == (approx(diff - q * se), approx(diff + q * se))
    assert (-margin < p.low and p.high < margin) == (p.p_value < 1 - level)


@pytest.mark.parametrize("alternative", ["noninferiority", "equivalence"])
@pytest.mark.parametrize("weights", [False, True])
def test_unpaired_uses_welch_t(alternative, weights):
    ya, a, _, wa = sample(5, n=30, ties=True, weights=weights)
    yb, _, b, wb = sample(6, n=45, weights=weights)
    d = 0.08
    c = rw.stats.compare_unpaired(ya, a, yb, b, sample_weight_a=wa, sample_weight_b=wb, alternative=alternative,
                                  margin=d, confidence_level=0.9)
    diff = ref.auc(ya, a, wa) - ref.auc(yb, b, wb)
    va, vb = ref.delong_var(ya, a, wa), ref.delong_var(yb, b, wb)
    na = len(ya) if wa is None else wa.sum()
    nb = len(yb) if wb is None else wb.sum()
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    se = math.sqrt(va + vb)
    p = c.pairs[0]
    assert c.df == approx(df) and c.margin == d
    q = sps.t.ppf(0.9, df)
    if alternative == "noninferiority":
        assert p.p_value == approx(sps.t.sf((diff + d) / se, df))
        assert (p.low, p.high) == (approx(diff - q * se), math.inf)
    else:
        assert p.p_value == approx(max(sps.t.sf((diff + d) / se, df), sps.t.cdf((diff - d) / se, df)))
        assert (p.low, p.high) == (approx(diff - q * se), approx(diff + q * se))


def test_decisions_on_constructed_cases():
    rng = np.random.default_rng(7)
    n = 600
    y = rng.random(n) < 0.5
    good = 2.0 * y + rng.normal(size=n)
    close = good + 0.05 * rng.normal(size=n)  # nearly the same ranking: AUCs within ~0.005
    poor = 0.3 * y + rng.normal(size=n)  # an AUC about 0.3 lower
    ni = lambda a, b, d: rw.stats.compare(y, [a, b], alternative="noninferiority", margin=d).pairs[0]  # noqa: E731
    eq = lambda a, b, d: rw.stats.compare(y, [a, b], alternative="equivalence", margin=d).pairs[0]  # noqa: E731
    assert ni(close, good, 0.02).p_value < 0.01  # not worse by 0.02
    assert ni(poor, good, 0.02).p_value > 0.99  # far worse
    assert ni(good, poor, 0.02).p_value < 1e-6  # better is non-inferior too
    assert eq(close, good, 0.02).p_value < 0.01 and eq(close, good, 0.02).high < 0.02
    assert eq(good, poor, 0.02).p_value > 0.99  # better is not equivalent
    assert eq(poor, good, 0.02).p_value > 0.99
    # A margin too small for the sample's precision: neither test concludes.
    assert ni(close, good, 1e-5).p_value > 0.05 or eq(close, good, 1e-5).p_value > 0.05


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), margin=st.floats(0.001, 0.5))
def test_equivalence_is_both_noninferiorities(seed, margin):
    """TOST: the equivalence p-value is the larger of a's and b's non-inferiority p-values."""
    y, a, b, _ = sample(seed, n=25, ties=seed % 2 == 0)
    pe = quiet(rw.stats.compare, y, [a, b], alternative="equivalence", margin=margin).pairs[0].p_value
    p1 = quiet(rw.stats.compare, y, [a, b], alternative="noninferiority", margin=margin).pairs[0].p_value
    p2 = quiet(rw.stats.compare, y, [b, a], alternative="noninferiority", margin=margin).pairs[0].p_value
    assert pe == approx(max(p1, p2), 1e-12)


def test_reference_orientation_and_family_adjustment():
    y, a, b, _ = sample(8, n=60)
    c_ = b + np.random.default_rng(9).normal(size=60)
    cmp_ = rw.stats.compare(y, {"a": a, "b": b, "cur": c_}, reference="cur", alternative="noninferiority",
                            margin=0.05, adjust="holm")
    assert [(p.a, p.b) for p in cmp_.pairs] == [("a", "cur"), ("b", "cur")]
    for p in cmp_.pairs:
        diff, se = literal_paired(y, {"a": a, "b": b}[p.a], c_, None)
        assert p.p_value == approx(sps.norm.sf((diff + 0.05) / se))
    raw = np.array([p.p_value for p in cmp_.pairs])
    assert [p.p_adjusted for p in cmp_.pairs] == approx(rw.stats.adjust_p_values(raw, "holm").tolist())
    assert cmp_.family == "each against 'cur' (2)"


@pytest.mark.parametrize("alternative", ["noninferiority", "equivalence"])
def test_outputs_state_margin_and_hypotheses(alternative):
    y, a, b, _ = sample(10)
    c = rw.stats.compare(y, {"new": a, "old": b}, alternative=alternative, margin=0.03)
    text, html = c.summary(), c._repr_html_()
    for out in (text, html):
        assert "margin 0.03" in out and "H0:" in out and "H1:" in out
    if alternative == "equivalence":
        assert "|a - b| &gt;= 0.03" in html and "90% CI (TOST)" in text and "Schuirmann 1987" in text
    else:
        assert "a - b <= -0.03" in text and "95% CI (one-sided)" in text


@pytest.mark.parametrize("func", ["compare", "compare_unpaired"])
@pytest.mark.parametrize("alternative, margin, exc, words", [
    ("noninferiority", None, ValueError, "required"),
    ("equivalence", None, ValueError, "required"),
    ("noninferiority", 0.0, ValueError, "positive number"),
    ("equivalence", -0.1, ValueError, "positive number"),
    ("noninferiority", float("nan"), ValueError, "positive number"),
    ("equivalence", float("inf"), ValueError, "positive number"),
    ("noninferiority", "0.1", TypeError, "positive number"),
    ("noninferiority", True, TypeError, "positive number"),
    ("two-sided", 0.1, ValueError, "only for"),
    ("greater", 0.1, ValueError, "only for"),
])
def test_bad_margins(func, alternative, margin, exc, words):
    y, a, b, _ = sample(11)
    args = (y, [a, b]) if func == "compare" else (y, a, y, b)
    with pytest.raises(exc, match="'margin'") as info:
        getattr(rw.stats, func)(*args, alternative=alternative, margin=margin)
    assert words in str(info.value)


def test_unknown_alternative_and_stratified_margin():
    y, a, b, _ = sample(12)
    with pytest.raises(ValueError, match="alternative"):
        rw.stats.compare(y, [a, b], alternative="non-inferiority", margin=0.1)
    strata = np.arange(len(y)) % 2
    with pytest.raises(ValueError, match="margin"):
        rw.stats.compare(y, [a, b], "stratified_auc", alternative="noninferiority", strata=strata)
    got = rw.stats.compare(y, [a, b], "stratified_auc", alternative="noninferiority", margin=0.1, strata=strata)
    want = rw.stats.compare_stratified(y, [a, b], strata, alternative="noninferiority", margin=0.1)
    assert got.margin == 0.1 and got.pairs == want.pairs


def test_inputs_not_modified():
    y, a, b, w = sample(13, weights=True)
    copies = [x.copy() for x in (y, a, b, w)]
    rw.stats.compare(y, [a, b], sample_weight=w, alternative="equivalence", margin=0.1)
    for x, c in zip((y, a, b, w), copies):
        assert np.array_equal(x, c)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_other_alternatives_unchanged(alternative):
    y, a, b, w = sample(14, ties=True, weights=True)
    diff, se = literal_paired(y, a, b, w)
    c = rw.stats.compare(y, [a, b], sample_weight=w, alternative=alternative)
    p = c.pairs[0]
    z = diff / se
    want = {"two-sided": 2 * sps.norm.sf(abs(z)), "greater": sps.norm.sf(z), "less": sps.norm.cdf(z)}[alternative]
    assert p.statistic == approx(z) and p.p_value == approx(want)
    assert c.margin is None and rw.stats.PairwiseDifference._fields[-1] == "high"
    assert "margin" not in c.summary() and "H0" not in c.summary()
    assert rw.stats.ALTERNATIVES == ("two-sided", "greater", "less")
