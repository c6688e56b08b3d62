"""compare's families, adjustments and alternatives: many-to-one comparisons against a
reference, Holm / Bonferroni / Benjamini-Hochberg against R's ``p.adjust``, one-sided
DeLong tests against R pROC 1.18.

Golden fixtures: ``tests/golden/make_proc_one_sided.R`` writes ``proc_one_sided.json``
(the calls are recorded in it, e.g. ``roc.test(r1, r2, method = 'delong', paired = TRUE,
alternative = 'greater')``) from the inputs of ``tests/golden/make_stats_inputs.py``.
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import rankwise as rw
from _support.paths import GOLDEN
from _support.quiet import quiet

with open(os.path.join(GOLDEN, "inputs_stats.json")) as fh:
    INPUTS = {c["name"]: c for c in json.load(fh)}
with open(os.path.join(GOLDEN, "proc_one_sided.json")) as fh:
    ONE_SIDED = json.load(fh)
CASES = [c["name"] for c in ONE_SIDED["cases"]]
GOLD = {c["name"]: c for c in ONE_SIDED["cases"]}
TOL = 1e-9


def approx(x, tol=TOL):
    return pytest.approx(x, rel=tol, abs=tol)


def scores(seed=3, n=400, K=4):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    base = rng.normal(size=n) + y
    sds = (0.3, 1.0, 0.6, 2.0, 1.5, 0.1, 3, 4)
    cols = {name: base + sd * rng.normal(size=n) for name, sd in zip("abcdefgh"[:K], sds)}
    return y, cols


# --- adjustments against R ------------------------------------------------------------------

# Rscript -e 'p.adjust(P, M)' for M in "holm", "bonferroni", "BH", printed with sprintf("%.17g").
R_P_ADJUST = [
    ([0.01, 0.04, 0.03, 0.5], {
        "holm": [0.04, 0.09, 0.09, 0.5],
        "bonferroni": [0.04, 0.16, 0.12, 1.0],
        "bh": [0.04, 0.05333333333333333, 0.05333333333333333, 0.5]}),
    ([0.002, 0.049, 0.02, 0.049, 0.3, 0.0001, 0.75, 0.041], {  # ties at 0.049
        "holm": [0.014, 0.205, 0.12, 0.205, 0.6, 0.0008, 0.75, 0.205],
        "bonferroni": [0.016, 0.392, 0.16, 0.392, 1.0, 0.0008, 1.0, 0.328],
        "bh": [0.008, 0.065333333333333327, 0.05333333333333333, 0.065333333333333327, 0.3428571428571428,
               0.0008, 0.75, 0.065333333333333327]}),
    ([0.04, float("nan"), 0.01, 0.02], {  # R: c(0.04, NA, 0.01, 0.02); NA is not counted
        "holm": [0.04, float("nan"), 0.03, 0.04],
        "bonferroni": [0.12, float("nan"), 0.03, 0.06],
        "bh": [0.04, float("nan"), 0.03, 0.03]}),
]


@pytest.mark.parametrize("p, want", R_P_ADJUST)
@pytest.mark.parametrize("method", ["holm", "bonferroni", "bh"])
def test_adjust_p_values_match_r(p, want, method):
    got = rw.stats.adjust_p_values(p, method)
    np.testing.assert_allclose(got, want[method], rtol=1e-15, atol=0)
    got_none = rw.stats.adjust_p_values(p, "none")
    np.testing.assert_array_equal(got_none, p)


def _literal(p, method):
    """The textbook definitions, one p-value at a time (i-th smallest, 1-based)."""
    m = len(p)
    order = sorted(range(m), key=lambda k: (p[k], k))
    rank = {k: i + 1 for i, k in enumerate(order)}
    out = []
    for k in range(m):
        i = rank[k]
        if method == "holm":
            v = max((m - j + 1) * p[order[j - 1]] for j in range(1, i + 1))
        else:
            v = min(m * p[order[j - 1]] / j for j in range(i, m + 1))
        out.append(min(1.0, v))
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1e-6, 0.001, 0.01, 0.02, 0.049, 0.05, 0.3, 0.5, 0.99, 1.0])
                | st.floats(0, 1), min_size=1, max_size=12))
def test_adjustments_match_their_definitions(p):
    holm, bh = rw.stats.adjust_p_values(p, "holm"), rw.stats.adjust_p_values(p, "bh")
    np.testing.assert_allclose(holm, _literal(p, "holm"), rtol=1e-12, atol=0)
    np.testing.assert_allclose(bh, _literal(p, "bh"), rtol=1e-12, atol=0)
    # BH never exceeds Holm, Holm never exceeds Bonferroni, none is below the raw p.
    bonf = rw.stats.adjust_p_values(p, "bonferroni")
    assert (bh <= holm + 1e-15).all() and (holm <= bonf + 1e-15).all() and (bh >= np.asarray(p) - 1e-15).all()


def test_adjust_p_values_errors():
    with pytest.raises(ValueError, match="'adjust'.*'holm', 'bonferroni', 'bh', 'none'.*'fdr'"):
        rw.stats.adjust_p_values([0.1, 0.2], "fdr")
    with pytest.raises(ValueError, match=r"p-values in \[0, 1\].*1.5"):
        rw.stats.adjust_p_values([0.1, 1.5], "bh")
    with pytest.raises(ValueError, match="1-D"):
        rw.stats.adjust_p_values([[0.1, 0.2]], "holm")
    assert rw.stats.adjust_p_values([], "bh").shape == (0,)


# --- one-sided tests against pROC -------------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_paired_delong_matches_proc(name, alternative):
    c, g = INPUTS[name], GOLD[name][f"paired_{alternative}"]
    d = quiet(rw.stats.compare, c["y"], [c["s1"], c["s2"]], alternative=alternative).pairs[0]
    if g["statistic"] is None:  # pROC: Z = +-Inf (zero variance, different AUCs)
        assert math.isinf(d.statistic)
    else:
        assert d.statistic == approx(g["statistic"])
    assert d.p_value == approx(g["p_value"])


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided_unpaired_delong_matches_proc(name, alternative):
    c, g = INPUTS[name], GOLD[name][f"unpaired_{alternative}"]
    cmp_ = quiet(rw.stats.compare_unpaired, c["y"], c["s1"], c["y_b"], c["s_b"], alternative=alternative)
    d = cmp_.pairs[0]
    if g["statistic"] is None:  # pROC: 0 / 0 variance, no test (rankwise: +-inf, the normal's tail)
        assert math.isinf(d.statistic)
        return
    assert d.statistic == approx(g["statistic"])
    assert d.p_value == approx(g["p_value"])
    assert cmp_.df == approx(g["parameter"])
    assert cmp_.alternative == alternative


@pytest.mark.parametrize("level", [0.95, 0.8])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_intervals_are_dual_to_the_tests(level, alternative):
    rng = np.random.default_rng(11)
    for trial in range(30):
        n = int(rng.integers(20, 80))
        y = rng.random(n) < 0.5
        y[:2] = [True, False]
        s1, s2 = rng.normal(size=n) + y, rng.normal(size=n) + rng.uniform(0, 1.5) * y
        yb = rng.random(n) < 0.4
        yb[:2] = [True, False]
        sb = rng.normal(size=n) + rng.uniform(0, 1.5) * yb
        paired = rw.stats.compare(y, [s1, s2], alternative=alternative, confidence_level=level)
        unpaired = rw.stats.compare_unpaired(y, s1, yb, sb, alternative=alternative, confidence_level=level)
        for cmp_, ref in ((paired, sps.norm), (unpaired, sps.t(unpaired.df))):
            d = cmp_.pairs[0]
            if alternative == "two-sided":
                q = ref.ppf(0.5 + level / 2)
                half = q * d.std_error
                assert (d.low, d.high) == (approx(d.difference - half), approx(d.difference + half))
            elif alternative == "greater":
                assert d.high == math.inf and d.low == approx(d.difference - ref.ppf(level) * d.std_error)
            else:
                assert d.low == -math.inf and d.high == approx(d.difference + ref.ppf(level) * d.std_error)
            # The interval leaves out 0 exactly when the test rejects at 1 - level.
            assert (d.low > 0 or d.high < 0) == (d.p_value < 1 - level)


def test_one_sided_p_is_the_tail_of_the_two_sided():
    y, cols = scores()
    two = rw.stats.compare(y, cols, "local_auc:top=0.2")
    for alt in ("greater", "less"):
        one = rw.stats.compare(y, cols, "local_auc:top=0.2", alternative=alt)
        for p, q in zip(one.pairs, two.pairs):
            assert p.statistic == q.statistic and p.difference == q.difference
            toward = (p.statistic > 0) == (alt == "greater")
            assert p.p_value == approx(q.p_value / 2 if toward else 1 - q.p_value / 2)
        assert one.global_p_value == two.global_p_value


def test_zero_variance_one_sided():
    # Perfect separation by both scorers: equal values, zero variance, statistic 0 (pROC).
    y = [0, 0, 0, 1, 1, 1]
    c = quiet(rw.stats.compare, y, [[1, 2, 3, 4, 5, 6], [1, 3, 2, 5, 6, 4]], alternative="greater")
    assert c.pairs[0].statistic == 0.0 and c.pairs[0].p_value == 0.5


# --- reference: many-to-one ---------------------------------------------------------------------

@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "bh", "none"])
def test_reference_compares_each_with_it_and_adjusts_over_those(adjust):
    y, cols = scores(K=5)
    every = rw.stats.compare(y, cols, adjust=adjust)
    ref = rw.stats.compare(y, cols, reference="c", adjust=adjust)
    assert [(p.a, p.b) for p in ref.pairs] == [("a", "c"), ("b", "c"), ("d", "c"), ("e", "c")]
    assert ref.family == "each against 'c' (4)" and every.family == "all pairs (K(K-1)/2 = 10)"
    assert ref.reference == "c" and every.reference is None
    by_pair = {(p.a, p.b): p for p in every.pairs}
    for p in ref.pairs:
        q = by_pair.get((p.a, p.b))
        sign = 1.0
        if q is None:
            q, sign = by_pair[(p.b, p.a)], -1.0
        assert p.difference == approx(sign * q.difference) and p.std_error == approx(q.std_error)
        assert p.p_value == approx(q.p_value)
        assert (p.low, p.high) == (approx(sign * (q.low if sign > 0 else q.high)),
                                   approx(sign * (q.high if sign > 0 else q.low)))
    # Adjusted over the 4 comparisons against the reference, not the 10 pairs.
    raw = np.array([p.p_value for p in ref.pairs])
    np.testing.assert_allclose([p.p_adjusted for p in ref.pairs], rw.stats.adjust_p_values(raw, adjust), rtol=1e-15)
    if adjust != "none":
        assert any(p.p_adjusted < by_pair.get((p.a, p.b), by_pair.get((p.b, p.a))).p_adjusted - 1e-12
                   for p in ref.pairs if p.p_adjusted < 1)
    # The global test does not depend on the family.
    assert ref.global_statistic == every.global_statistic and ref.global_p_value == every.global_p_value


def test_reference_for_real_labels_and_undefined_samples():
    rng = np.random.default_rng(5)
    y = rng.normal(size=120)
    S = {"u": y + rng.normal(size=120), "v": y + 2 * rng.normal(size=120), "w": rng.normal(size=120)}
    c = rw.stats.compare(y, S, "ranking_risk", reference="w", alternative="less", adjust="bh")
    assert [(p.a, p.b) for p in c.pairs] == [("u", "w"), ("v", "w")] and c.family == "each against 'w' (2)"
    assert all(p.low == -math.inf for p in c.pairs)
    u = quiet(rw.stats.compare, [1, 1, 1, 1], {"a": [1, 2, 3, 4], "b": [4, 3, 2, 1]}, reference="a")
    assert u.family == "each against 'a' (1)" and math.isnan(u.pairs[0].p_adjusted)


def test_reference_and_alternative_errors():
    y, s = [0, 1, 0, 1], {"a": [1, 2, 3, 4], "b": [4, 3, 2, 1]}
    with pytest.raises(ValueError, match=r"'reference'.*\['a', 'b'\].*'z'"):
        rw.stats.compare(y, s, reference="z")
    with pytest.raises(TypeError, match="'reference'.*scorer name"):
        rw.stats.compare(y, s, reference=0)
    with pytest.raises(ValueError, match="'alternative'.*'two-sided', 'greater', 'less'.*'two.sided'"):
        rw.stats.compare(y, s, alternative="two.sided")
    with pytest.raises(ValueError, match="'alternative'.*compare_unpaired"):
        rw.stats.compare_unpaired(y, s["a"], y, s["b"], alternative="bigger")
    with pytest.raises(ValueError, match="'adjust'.*'bh'"):
        rw.stats.compare(y, s, adjust="fdr")


def test_summary_names_the_family_and_the_side():
    y, cols = scores(K=3)
    c = rw.stats.compare(y, cols, reference="a", adjust="bh", alternative="greater")
    text = c.summary()
    assert "p (bh) adjusted over each against 'a' (2)" in text
    assert "alternative a - b > 0" in text and "95% CI (one-sided)" in text and ", inf)" in text
    assert "b - a" in text and "c - a" in text and "b - c" not in text
    html = c._repr_html_()
    assert "each against &#x27;a&#x27; (2)" in html and "differences to &#x27;a&#x27;" in html
    plain = rw.stats.compare(y, cols, adjust="none").summary()
    assert "not adjusted" in plain and "all pairs (K(K-1)/2 = 3)" in plain and "one-sided" not in plain


def test_per_scorer_intervals_stay_in_the_criterion_range():
    """A near-perfect scorer's Wald interval is clipped to [0, 1] (it was [0.88, 1.06])."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(12), np.zeros(12)].astype(int)
    perfect = np.r_[rng.normal(3, 1, 12), rng.normal(0, 1, 12)]
    weak = rng.normal(size=24)
    c = rw.stats.compare(y, {"perfect": perfect, "weak": weak})
    ci = c.confidence_intervals()
    z = 1.959963984540054
    raw = np.column_stack([c.values - z * c.std_errors, c.values + z * c.std_errors])
    assert raw[0, 1] > 1.0  # the unclipped interval leaves the AUC's range
    # rtol 1e-15: the normal quantile comes from the standard library (1 ulp from SciPy's).
    np.testing.assert_allclose(ci, np.clip(raw, 0.0, 1.0), rtol=1e-15, atol=0)
    assert f"{ci[0, 1]:.4f}" in c.summary() and "1.0" in c.summary().splitlines()[3]
    un = rw.stats.compare_unpaired(y, perfect, y, weak)
    assert un.confidence_intervals()[0, 1] <= 1.0
    assert c.confidence_intervals(0.5)[0, 1] < ci[0, 1]
