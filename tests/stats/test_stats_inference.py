"""rankwise.stats against R pROC 1.18 (golden values), against the literal variance
formulas of tests/_support/reference.py, and its behaviour on bad or degenerate input.

Golden fixtures: ``tests/golden/make_stats_inputs.py`` writes the inputs,
``tests/golden/make_proc_stats.R`` the pROC values; the calls are recorded in the
JSON under ``"calls"`` (e.g. ``var(roc(y, s, levels=c(0, 1), direction='<'), method='delong')``).
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference as ref
from _support import reference_variance as rv
from _support.paths import GOLDEN
from _support.strategies import real_label_samples, samples
from _support.quiet import quiet

HERE = GOLDEN
with open(os.path.join(HERE, "inputs_stats.json")) as fh:
    INPUTS = {c["name"]: c for c in json.load(fh)}
with open(os.path.join(HERE, "proc_stats.json")) as fh:
    PROC = json.load(fh)
with open(os.path.join(HERE, "inputs_sklearn.json")) as fh:
    SK = json.load(fh)
with open(os.path.join(HERE, "proc.json")) as fh:
    PROC1 = json.load(fh)

TOL = 1e-9
CASES = [c["name"] for c in PROC["cases"]]
PCASE = {c["name"]: c for c in PROC["cases"]}


def approx(x, tol=TOL):
    return pytest.approx(x, rel=tol, abs=tol)


# --- pROC ----------------------------------------------------------------------------------

def test_fixture_versions():
    assert PROC["pROC_version"].startswith("1.18")
    assert set(CASES) >= {"continuous", "integer_ties", "perfect_separation", "constant", "tiny"}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("key", ["s1", "s2"])
def test_delong_variance_and_ci_match_proc(name, key):
    c, g = INPUTS[name], PCASE[name][key]
    e = quiet(rw.stats.estimate, c["y"], c[key])
    assert e.method == "delong"
    assert e.value == approx(g["auc"])
    assert e.std_error ** 2 == approx(g["var"])
    for level, k in ((0.95, "ci95"), (0.9, "ci90")):
        lo, hi = quiet(e.confidence_interval, level)
        assert (lo, hi) == (approx(g[k][0]), approx(g[k][2]))


def test_unpaired_second_sample_matches_proc():
    for name in CASES:
        c, g = INPUTS[name], PCASE[name]["b"]
        e = quiet(rw.stats.estimate, c["y_b"], c["s_b"])
        assert e.std_error ** 2 == approx(g["var"])


@pytest.mark.parametrize("name", CASES)
def test_paired_delong_test_matches_proc(name):
    c, g = INPUTS[name], PCASE[name]
    cmp_ = quiet(rw.stats.compare, c["y"], [c["s1"], c["s2"]])
    assert cmp_.cov[0, 1] == approx(g["cov"])
    d = cmp_.pairs[0]
    if g["paired"]["statistic"] is None:  # pROC: Z = Inf (zero variance, different AUCs)
        assert math.isinf(d.statistic) and d.p_value == 0.0
    else:
        assert d.statistic == approx(g["paired"]["statistic"])
        assert d.p_value == approx(g["paired"]["p_value"])
        lo, hi = g["paired"]["conf_int"]
        assert (d.low, d.high) == (approx(lo), approx(hi))
    # With two scorers the global Wald test is the same test.
    if np.isfinite(d.statistic) and d.std_error > 0:
        assert cmp_.global_statistic == approx(d.statistic ** 2)
        assert cmp_.global_p_value == approx(d.p_value)


@pytest.mark.parametrize("name", CASES)
def test_unpaired_delong_test_matches_proc(name):
    c, g = INPUTS[name], PCASE[name]["unpaired"]
    cmp_ = quiet(rw.stats.compare_unpaired, c["y"], c["s1"], c["y_b"], c["s_b"])
    d = cmp_.pairs[0]
    if g["statistic"] is None:
        assert math.isinf(d.statistic)
        return
    assert d.statistic == approx(g["statistic"])
    assert d.p_value == approx(g["p_value"])
    assert cmp_.df == approx(g["parameter"])


@pytest.mark.parametrize("name", sorted(SK["cases"]))
def test_issue2_fixtures_delong(name):
    # The fixtures of issue 2 also carry pROC's DeLong variance and CI.
    c = SK["cases"][name]
    g = PROC1["cases"][name]
    e = quiet(rw.stats.estimate, c["y"], c["s"])
    assert e.std_error ** 2 == approx(g["var(r, method='delong')"])
    lo, _, hi = g["ci.auc(r, method='delong', conf.level=0.95)"]
    assert tuple(quiet(e.confidence_interval)) == (approx(lo), approx(hi))


# --- literal formulas ------------------------------------------------------------------------

def _close(a, b, tol=1e-9):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def _enough(y, w):
    """At least two units of mass in each class (sample variances need n_c > 1)."""
    wt = [1.0] * len(y) if w is None else w
    return sum(q for q, t in zip(wt, y) if t) > 1 and sum(q for q, t in zip(wt, y) if not t) > 1


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])))
def test_delong_matches_definition(sample):
    y, s, w = sample
    e = quiet(rw.stats.estimate, y, s, sample_weight=w)
    assert _close(e.std_error ** 2, ref.delong_var(y, s, w))
    # The Hajek projection of phi(u) = u is DeLong's variance exactly.
    assert _close(e.standard_error("hajek"), e.std_error)


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])),
       st.sampled_from(["auc", "local_auc:u0=0.6", "pnorm_push:p=3", "dcg:k=4"]),
       st.sampled_from(["average", "max"]), st.sampled_from([0.1, 0.3, 1.0]))
def test_hajek_rank_statistic_matches_definition(sample, spec, ties, bw):
    y, s, w = sample
    phi = rw.phi.resolve(spec)
    e = quiet(rw.stats.estimate, y, s, "rank_statistic", phi=phi, ties=ties, bandwidth=bw, sample_weight=w)
    want = ref.hajek_var_rank_statistic(y, s, lambda r, n: float(phi.at_ranks(np.array([r]), n)[0]), w, ties, bw)
    assert _close(e.std_error ** 2, want)


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])),
       st.sampled_from([0.2, 0.5, 0.9]), st.sampled_from([0.1, 0.4]))
def test_hajek_local_auc_matches_definition(sample, top, bw):
    y, s, w = sample
    e = quiet(rw.stats.estimate, y, s, "local_auc", top=top, bandwidth=bw, sample_weight=w)
    assert _close(e.std_error ** 2, ref.hajek_var_local_auc(y, s, top, w, bw))


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])),
       st.sampled_from([1.0, 2.0, 4.0, 2.5]), st.sampled_from(["average", "max"]))
def test_hajek_pnorm_push_matches_definition(sample, p, ties):
    y, s, w = sample
    e = quiet(rw.stats.estimate, y, s, "pnorm_push", p=p, ties=ties, sample_weight=w)
    if e.value == 0:
        assert e.std_error == 0
        return
    assert _close(e.std_error ** 2, ref.hajek_var_pnorm_push(y, s, p, w, ties))


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])),
       st.sampled_from([0.1, 0.25, 0.5, 1.0]))
def test_hajek_partial_auc_matches_definition(sample, max_fpr):
    y, s, w = sample
    e = quiet(rw.stats.estimate, y, s, "partial_auc", max_fpr=max_fpr, sample_weight=w)
    assert _close(e.std_error ** 2, rv.partial_auc_variance(y, s, w, max_fpr=max_fpr))
    std = quiet(rw.stats.estimate, y, s, "partial_auc", max_fpr=max_fpr, standardize="mcclish", sample_weight=w)
    if max_fpr < 1:
        lo, hi = 0.5 * max_fpr ** 2, max_fpr
        assert _close(std.std_error, e.std_error / (2 * (hi - lo)))


@given(real_label_samples().filter(lambda t: len(set(t[0])) > 1 and len(t[0]) > 2),
       st.sampled_from(["comparable", "all"]))
def test_hoeffding_matches_definition(sample, pairs):
    y, s, w = sample
    e = quiet(rw.stats.estimate, y, s, "ranking_risk", pairs=pairs, sample_weight=w)
    d = e.decomposition
    if w is not None and sum(w) <= 1:
        # Frequency weights of total at most 1: fewer than two observations, so no variance.
        assert math.isnan(d.variance) and math.isnan(e.std_error)
        with pytest.warns(rw.stats.DegenerateIntervalWarning, match="cannot be estimated"):
            iv = e.confidence_interval()
        assert (iv.low, iv.high) == e.bounds
        return
    value, z1, z2, var = ref.risk_decomposition(y, s, w, pairs)
    assert _close(e.value, value)
    assert _close(d.zeta1, z1) and _close(d.zeta2, z2)
    assert _close(d.variance, var)
    assert _close(d.var_linear + d.var_degenerate, d.variance)
    assert _close(e.std_error ** 2, max(var, 0.0))
    wt = np.ones(len(y)) if w is None else np.asarray(w)
    assert abs(float(np.dot(wt, d.projection))) < 1e-9 * max(1.0, float(wt.sum()))


@given((samples(weights=True) | samples(min_n=4)).filter(lambda t: _enough(t[0], t[2])))
def test_compare_covariance_matches_definition(sample):
    y, s, w = sample
    s2 = [v * 0.5 + (i % 3) for i, v in enumerate(s)]
    c = quiet(rw.stats.compare, y, [s, s2], sample_weight=w)
    assert _close(c.cov[0, 1], ref.delong_cov(y, s, s2, w))
    assert _close(c.cov[0, 0], ref.delong_var(y, s, w))
    assert _close(c.cov[1, 1], ref.delong_var(y, s2, w))


def test_identities_between_criteria():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    a = rw.stats.estimate(y, s)
    P, M = y.sum(), (~y).sum()
    N = P + M
    # W = n+ n- AUC / (N + 1) + constant, so its projection variance is DeLong's, rescaled.
    w = rw.stats.estimate(y, s, "rank_statistic", phi="auc")
    assert w.std_error == approx(a.std_error * P * M / (N + 1))
    # Rudin's p = 1 is 1 - AUC; partial AUC over [0, 1] is the AUC.
    assert rw.stats.estimate(y, s, "pnorm_push", p=1).std_error == approx(a.std_error)
    assert rw.stats.estimate(y, s, "partial_auc", max_fpr=1.0).std_error == approx(a.std_error)
    # Binary ranking risk (comparable pairs) is 1 - AUC; its U-statistic variance is close to DeLong's.
    r = rw.stats.estimate(y, s, "ranking_risk")
    assert r.value == approx(1 - a.value)
    assert r.std_error == pytest.approx(a.std_error, rel=0.05)


# --- bootstrap -------------------------------------------------------------------------------

@given(samples(weights=True, max_n=12) | samples(max_n=12),
       st.sampled_from(["auc", "local_auc:top=0.4", "pnorm_push:p=2", "pnorm_push:p=3,ties=max,normalize=False",
                        "partial_auc:max_fpr=0.3", "partial_auc:max_fpr=0.3,standardize=mcclish", "dcg:k=3",
                        "ndcg", "rank_statistic:phi=local_auc,u0=0.5", "rank_statistic:phi=pnorm_push,p=2,scale=mean",
                        "rank_statistic:phi=dcg,k=3,ties=max,scale=minmax"]))
@settings(max_examples=60)
def test_batched_criteria_equal_single_table(sample, spec):
    # A bootstrap resample is a row of level masses; the batched criterion on that row must
    # equal the criterion of the weighted sample with those masses.
    from rankwise.stats import _core

    y, s, w = sample
    name, params = rw.phi.parse_spec(spec)
    unit = rw.criteria.get(spec)
    is_pos = np.asarray(y, dtype=bool)
    sample_ = _core.Sample(is_pos, np.asarray(s, dtype=float), None if w is None else np.asarray(w))
    fit = _core.fit_criterion(unit, sample_, None)
    rng = np.random.default_rng(len(y))
    L = sample_.table.size
    A = _core.ClassDraws(sample_)._class(True, rng, 3)
    B = _core.ClassDraws(sample_)._class(False, rng, 3)
    A[0], B[0] = sample_.dense.a, sample_.dense.b  # the sample itself
    got = fit.batch(A, B)
    assert _close(got[0], fit.value)
    levels = sample_.table.levels
    func = getattr(rw, name)
    for r in range(1, 3):
        if A[r].sum() == 0 or B[r].sum() == 0:
            continue
        yy = np.r_[np.ones(L, bool), np.zeros(L, bool)]
        ss = np.r_[levels, levels]
        ww = np.r_[A[r], B[r]]
        kw = dict(params)
        if name == "rank_statistic":
            kw["phi"] = unit.phi
            for k in list(kw):
                if k not in ("phi", "ties", "scale"):
                    kw.pop(k)
        want = quiet(func, yy, ss, sample_weight=ww, **kw)
        assert _close(got[r], want, 1e-9)


def test_bootstrap_is_reproducible_and_stratified():
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.3
    s = rng.normal(size=400) + y
    e = rw.stats.estimate(y, s)
    r1 = e.bootstrap_distribution(500, random_state=3)
    r2 = rw.stats.estimate(y, s).bootstrap_distribution(500, random_state=3)
    assert np.array_equal(r1, r2)
    assert r1.shape == (500,)
    # The bootstrap SD and the DeLong standard error estimate the same thing.
    assert np.std(r1, ddof=1) == pytest.approx(e.std_error, rel=0.15)
    for kind in ("percentile", "bca"):
        ci = e.confidence_interval(method="bootstrap", kind=kind, n_resamples=500, random_state=3)
        assert ci.n_resamples == 500 and ci.method == "bootstrap" and ci.kind == kind
        assert ci.low < e.value < ci.high
    # Stratified: every resample keeps the class sizes, so W_n with phi = 1 is n+.
    from rankwise.stats import _core

    smp = _core.Sample(y, s, None)
    A = _core.ClassDraws(smp)._class(True, np.random.default_rng(1), 20)
    B = _core.ClassDraws(smp)._class(False, np.random.default_rng(1), 20)
    assert (A.sum(axis=1) == y.sum()).all() and (B.sum(axis=1) == (~y).sum()).all()


def test_bootstrap_with_ties_uses_levels_and_weights():
    rng = np.random.default_rng(1)
    y = rng.random(2000) < 0.5
    s = rng.integers(0, 5, 2000) + y  # few levels: multinomial over levels
    e = rw.stats.estimate(y, s)
    reps = e.bootstrap_distribution(400, random_state=0)
    assert np.std(reps, ddof=1) == pytest.approx(e.std_error, rel=0.15)
    w = rng.uniform(0.5, 2.0, 2000)
    ew = rw.stats.estimate(y, s, sample_weight=w)
    repw = ew.bootstrap_distribution(400, random_state=0)
    assert np.std(repw, ddof=1) == pytest.approx(ew.std_error, rel=0.2)


def test_ranking_risk_bootstrap():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 150).astype(float)
    s = y + rng.normal(size=150) * 2
    e = rw.stats.estimate(y, s, "ranking_risk")
    ci = e.confidence_interval(method="bootstrap", n_resamples=300, random_state=0)
    assert ci.low < e.value < ci.high
    assert ci.std_error == pytest.approx(e.std_error, rel=0.25)


# --- intervals at the boundary, transforms ------------------------------------------------

def test_perfect_separation_is_degenerate_and_warned():
    y = [0, 0, 0, 1, 1, 1]
    s = [1, 2, 3, 4, 5, 6]
    e = rw.stats.estimate(y, s)
    assert e.value == 1.0 and e.std_error == 0.0
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="standard error is 0"):
        assert tuple(e.confidence_interval()) == (1.0, 1.0)
    with pytest.warns(rw.stats.DegenerateIntervalWarning):
        assert tuple(e.confidence_interval(transform="logit")) == (1.0, 1.0)
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="every bootstrap resample"):
        ci = e.confidence_interval(method="bootstrap", n_resamples=50, random_state=0)
    assert (ci.low, ci.high) == (1.0, 1.0)


def test_logit_interval_stays_inside_the_range():
    y = [0, 0, 1, 0, 1, 1, 1, 1]
    s = [1, 2, 3, 4, 5, 6, 7, 8]
    e = rw.stats.estimate(y, s)
    lo, hi = e.confidence_interval()
    assert hi == 1.0  # clipped
    lo2, hi2 = e.confidence_interval(transform="logit")
    assert 0 < lo2 < e.value < hi2 < 1
    # Symmetric on the logit scale.
    from scipy.special import logit
    assert logit(e.value) - logit(lo2) == pytest.approx(logit(hi2) - logit(e.value))
    # Partial AUC: the range is [0, max_fpr].
    p = rw.stats.estimate(y, s, "partial_auc", max_fpr=0.5)
    lo3, hi3 = p.confidence_interval(transform="logit")
    assert 0 <= lo3 <= p.value <= hi3 <= 0.5


def test_single_class_is_undefined():
    with pytest.warns(rw.UndefinedMetricWarning):
        e = rw.stats.estimate([1, 1, 1], [1, 2, 3])
    assert math.isnan(e.value) and math.isnan(e.std_error)
    assert all(math.isnan(v) for v in e.confidence_interval())
    with pytest.warns(rw.UndefinedMetricWarning):
        c = rw.stats.compare([1, 1, 1], [[1, 2, 3], [3, 2, 1]])
    assert np.isnan(c.values).all()
    with pytest.warns(rw.UndefinedMetricWarning):
        b = rw.stats.roc_band([0, 0], [1, 2])
    assert np.isnan(b.tpr).all()


def test_one_observation_in_a_class_has_no_variance_estimate():
    e = rw.stats.estimate([0, 0, 1], [1, 2, 3])
    assert e.value == 1.0 and math.isnan(e.std_error)


# --- compare -------------------------------------------------------------------------------

def test_holm_and_bonferroni():
    p = np.array([0.01, 0.04, 0.03, 0.5])
    # Holm by hand: sorted 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1, running max, capped at 1.
    assert rw.stats.adjust_p_values(p, "holm").tolist() == approx([0.04, 0.09, 0.09, 0.5])
    assert rw.stats.adjust_p_values(p, "bonferroni").tolist() == approx([0.04, 0.16, 0.12, 1.0])
    assert rw.stats.adjust_p_values(p, "none").tolist() == p.tolist()


def test_compare_inputs_names_and_global_test():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(4)
    y = rng.random(300) < 0.4
    base = rng.normal(size=300) + y
    S = np.column_stack([base, base + rng.normal(size=300), base + 2 * rng.normal(size=300)])
    a = rw.stats.compare(y, S)
    b = rw.stats.compare(y, [S[:, 0], S[:, 1], S[:, 2]], names=["x", "y", "z"])
    c = rw.stats.compare(y, pd.DataFrame(S, columns=["x", "y", "z"]))
    d = rw.stats.compare(y, {"x": S[:, 0], "y": S[:, 1], "z": S[:, 2]})
    assert a.names == ("score_1", "score_2", "score_3") and b.names == c.names == d.names == ("x", "y", "z")
    for o in (b, c, d):
        assert np.allclose(o.cov, a.cov) and np.allclose(o.values, a.values)
    assert len(a.pairs) == 3 and a.global_df == 2
    # Holm-adjusted p-values are the step-down of the raw ones.
    raw = np.array([p.p_value for p in a.pairs])
    assert np.allclose([p.p_adjusted for p in a.pairs], rw.stats.adjust_p_values(raw, "holm"))
    # The covariance matrix is symmetric positive semi-definite.
    assert np.allclose(a.cov, a.cov.T) and np.linalg.eigvalsh(a.cov).min() > -1e-15
    # Every other criterion works the same way.
    for spec in ("local_auc:top=0.2", "pnorm_push:p=4", "dcg:k=30", "partial_auc:max_fpr=0.1", "ranking_risk"):
        o = rw.stats.compare(y, S, spec)
        assert o.values.shape == (3,) and np.isfinite(o.cov).all()
        assert o.values[0] == approx(rw.stats.estimate(y, S[:, 0], spec).value)
    # The diagonal of a paired comparison is each scorer's own variance.
    e = rw.stats.estimate(y, S[:, 1], "pnorm_push", p=4)
    assert rw.stats.compare(y, S, "pnorm_push", p=4).std_errors[1] == approx(e.std_error)


def test_compare_errors():
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="at least two scorers"):
        rw.stats.compare(y, [[1, 2, 3, 4]])
    with pytest.raises(ValueError, match="same length"):
        rw.stats.compare(y, [[1, 2, 3, 4], [1, 2, 3]])
    with pytest.raises(ValueError, match="NaN|finite"):
        rw.stats.compare(y, {"a": [1, 2, 3, 4], "b": [1, np.nan, 3, 4]})
    with pytest.raises(ValueError, match="adjust"):
        rw.stats.compare(y, [[1, 2, 3, 4], [4, 3, 2, 1]], adjust="sidak")
    with pytest.raises(ValueError, match="names"):
        rw.stats.compare(y, [[1, 2, 3, 4], [4, 3, 2, 1]], names=["a"])
    with pytest.raises(ValueError, match="2-D"):
        rw.stats.compare(y, np.arange(4.0))


# --- parameters and errors ------------------------------------------------------------------

def test_estimate_errors():
    y, s = [0, 1, 0, 1], [0.1, 0.4, 0.3, 0.8]
    with pytest.raises(ValueError, match="criterion"):
        rw.stats.estimate(y, s, "accuracy")
    with pytest.raises(ValueError, match="method"):
        rw.stats.estimate(y, s, "local_auc", top=0.5, method="delong")
    with pytest.raises(ValueError, match="confidence_level"):
        rw.stats.estimate(y, s).confidence_interval(1.5)
    with pytest.raises(ValueError, match="transform"):
        rw.stats.estimate(y, s).confidence_interval(transform="probit")
    with pytest.raises(ValueError, match="kind"):
        rw.stats.estimate(y, s).confidence_interval(method="bootstrap", kind="basic")
    with pytest.raises(ValueError, match="n_resamples"):
        rw.stats.estimate(y, s).confidence_interval(method="bootstrap", n_resamples=1)
    with pytest.raises(ValueError, match="bandwidth"):
        rw.stats.estimate(y, s, "local_auc", top=0.5, bandwidth=0)
    with pytest.raises(ValueError, match="top"):
        rw.stats.estimate(y, s, "local_auc", top=2)
    with pytest.raises(ValueError, match="NaN|finite"):
        rw.stats.estimate(y, [0.1, np.inf, 0.3, 0.8])
    with pytest.raises(ValueError, match="same length"):
        rw.stats.estimate(y, [0.1, 0.3])
    with pytest.raises(ValueError, match="negative"):
        rw.stats.estimate(y, s, sample_weight=[1, -1, 1, 1])
    with pytest.raises(TypeError, match="pos_label"):
        rw.stats.estimate([0.0, 1.5, 2.0], [1, 2, 3], "ranking_risk", pos_label=1)


def test_spec_strings_and_keywords_agree():
    y, s = [0, 1, 0, 1, 1, 0, 1], [0.1, 0.4, 0.3, 0.8, 0.5, 0.6, 0.9]
    a = rw.stats.estimate(y, s, "pnorm_push:p=4")
    b = rw.stats.estimate(y, s, "pnorm_push", p=4)
    assert a.value == b.value == rw.pnorm_push(y, s, p=4) and a.std_error == b.std_error


# --- ROC bands -------------------------------------------------------------------------------

def test_roc_band():
    rng = np.random.default_rng(6)
    y = rng.random(500) < 0.4
    s = np.round(rng.normal(size=500) + y, 1)
    b = rw.stats.roc_band(y, s, n_resamples=400, random_state=0)
    assert b.fpr.shape == b.tpr.shape == b.pointwise_low.shape == b.simultaneous_high.shape == (101,)
    # The curve at the grid is the empirical ROC polygon (read at the top of vertical steps).
    pts = ref.roc_points(list(y), list(s))
    for x, t in zip(b.fpr[::10], b.tpr[::10]):
        assert t == approx(ref._roc_at(pts, x))
    assert (b.pointwise_low <= b.tpr + 1e-12).all() and (b.tpr <= b.pointwise_high + 1e-12).all()
    assert (b.simultaneous_low <= b.pointwise_low + 1e-12).mean() > 0.9
    assert (b.simultaneous_high >= b.pointwise_high - 1e-12).mean() > 0.9
    b2 = rw.stats.roc_band(y, s, n_resamples=400, random_state=0)
    assert np.array_equal(b.simultaneous_low, b2.simultaneous_low)
    with pytest.raises(ValueError, match="fpr"):
        rw.stats.roc_band(y, s, fpr=[0.5, 1.5])


# --- display -------------------------------------------------------------------------------

def test_summaries_show_the_numbers():
    y, s = INPUTS["continuous"]["y"], INPUTS["continuous"]["s1"]
    e = rw.stats.estimate(y, s)
    text = e.summary()
    assert f"{e.value:.4f}" in text and f"{e.std_error:.4f}" in text and "delong" in text
    assert "<table>" in e._repr_html_()
    e.bootstrap_distribution(200, random_state=0)
    assert "bootstrap" in e.summary()
    c = rw.stats.compare(y, {"one": s, "two": INPUTS["continuous"]["s2"]})
    assert "one - two" in c.summary() and "holm" in c.summary() and "<table>" in c._repr_html_()
    r = rw.stats.estimate([0.0, 1.0, 2.0, 3.0, 1.0], [0.1, 0.5, 0.4, 0.9, 0.2], "ranking_risk")
    assert "degenerate" in r.summary()
    b = rw.stats.roc_band(y, s, n_resamples=100, random_state=0)
    assert "sup-norm" in b.summary() and "<table>" in b._repr_html_()


def test_estimate_many_equals_estimate():
    rng = np.random.default_rng(9)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    specs = ["auc", "local_auc:top=0.2", "pnorm_push:p=4", "dcg:k=20", "partial_auc:max_fpr=0.1", "ranking_risk"]
    many = rw.stats.estimate_many(y, s, specs)
    for spec, e in zip(specs, many):
        one = rw.stats.estimate(y.astype(float) if spec == "ranking_risk" else y, s, spec)
        assert e.value == one.value and e.std_error == pytest.approx(one.std_error, rel=1e-12, abs=1e-15)
    with pytest.raises(ValueError, match="criteria"):
        rw.stats.estimate_many(y, s, ["accuracy"])


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=70000),
       st.sampled_from([1.0, 1e-300, 1e-200, 1e200, 1e300]), st.sampled_from([1.0, 0.5, 4.0]))
def test_unit_mass_variance_is_the_weighted_one_with_masses_one(values, magnitude, scale):
    """An untied class side passes no masses (None): its variance of the mean, BCa
    acceleration and moments equal those of the general path with every mass 1 (to a few
    ulps: the unit path skips the scaling of terms that cannot overflow, and reads the
    deviations in blocks, so sums are grouped differently), for terms of any size and
    samples longer than one block."""
    from rankwise._kernels import moments
    from rankwise.stats import _core

    h = np.asarray(values) * magnitude
    n = float(h.shape[0])
    ones = np.ones(h.shape[0])
    got = _core.mean_variance(h, None, n, scale, positive=True)
    want = _core.mean_variance(h, ones, n, scale, positive=True)
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(want, rel=1e-11, abs=0.0)
    W, mean, m2 = moments(h, None)
    W1, mean1, m21 = moments(h, ones)
    assert W == W1 and mean == pytest.approx(mean1, rel=1e-12, abs=1e-300)
    assert m2 == pytest.approx(m21, rel=1e-9, abs=1e-290 * magnitude)

