"""Power and sample size from observed curves (rw.stats.auc_study_from_pilot with
method="obuchowski" | "bootstrap", partial AUC bands), from binormal parameters with a band
(rw.stats.auc_study_binormal), and the non-inferiority / equivalence designs of
rw.stats.auc_study: against R pROC 1.18 (golden to 1e-9; the bootstrap in law) and the
literal formulas of tests/_support/reference_coords.py.

Golden fixture: ``tests/golden/make_proc_coords_power.R``.
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, stats

import rankwise as rw
from _support import reference_coords as ref
from _support.paths import GOLDEN

with open(os.path.join(GOLDEN, "inputs_stats.json")) as fh:
    INPUTS = {c["name"]: c for c in json.load(fh)}
with open(os.path.join(GOLDEN, "proc_coords_power.json")) as fh:
    PROC = json.load(fh)
TOL = 1e-9


def _f(v):
    return float({"NA": "nan", "Inf": "inf", "-Inf": "-inf"}.get(v, v))


def _arg(v):
    return None if v == "null" else v


def _pilot(case, **kw):
    c = INPUTS[case["name"]]
    d = case["design"]
    alt = {"two.sided": "two-sided", "one.sided": "one-sided"}[d["alternative"]]
    return rw.stats.auc_study_from_pilot(c["y"], c["s1"], c["s2"], alpha=_arg(d["sig.level"]), power=_arg(d["power"]),
                                         kappa=_arg(d["kappa"]), alternative=alt, **kw)


FULL = [c for c in PROC["power"] if c["partial"] == "none"]
PARTIAL = [c for c in PROC["power"] if c["partial"] != "none"]


def test_fixture():
    assert PROC["versions"]["pROC"].startswith("1.18")
    assert len(FULL) >= 15 and len(PARTIAL) >= 30 and len(PROC["params"]) == 9


@pytest.mark.parametrize("case", FULL, ids=lambda c: f"{c['name']}-{c['design']}")
def test_obuchowski_matches_proc(case):
    got = _pilot(case, method="obuchowski")
    assert got.method == "obuchowski"
    assert abs(got.auc - _f(case["auc1"])) < 1e-12 and abs(got.auc2 - _f(case["auc2"])) < 1e-12
    for ours, key in ((got.n_positive, "ncases"), (got.n_negative, "ncontrols"), (got.power, "power"),
                      (got.alpha, "sig.level")):
        assert ours == pytest.approx(_f(case[key]), rel=TOL, abs=TOL), key


@pytest.mark.parametrize("case", PROC["params"], ids=lambda c: f"{c['params'].get('FPR12', 'full')}-{c['design']}")
def test_binormal_parameters_match_proc(case):
    p = {k: _f(v) for k, v in case["params"].items()}
    d = case["design"]
    band = dict(min_fpr=p["FPR11"], max_fpr=p["FPR12"]) if "FPR11" in p else {}
    sizes = {k: _arg(d.get(k, "null")) for k in ("ncases", "ncontrols")}
    got = rw.stats.auc_study_binormal(p["A1"], p["B1"], p["A2"], p["B2"], rho_positive=p["ra"], rho_negative=p["rn"],
                                      delta=p["delta"], n_positive=sizes["ncases"], n_negative=sizes["ncontrols"],
                                      kappa=d.get("kappa", 1.0), alpha=_arg(d["sig.level"]), power=_arg(d["power"]),
                                      **band)
    for ours, key in ((got.n_positive, "ncases"), (got.n_negative, "ncontrols"), (got.power, "power"),
                      (got.alpha, "sig.level")):
        assert ours == pytest.approx(_f(case[key]), rel=TOL, abs=TOL), key


def test_proc_partial_obuchowski_from_curves_is_not_a_reference():
    """pROC's power.roc.test(roc1, roc2, method = "obuchowski") with partial.auc puts its
    fit (intercept and slope of z(specificity) on z(sensitivity), slope < 0) into the
    band formulas: nan, or levels above 1. rankwise's are valid numbers."""
    bad = [c for c in PARTIAL if math.isnan(_f(c["power"])) or math.isnan(_f(c["sig.level"]))
           or _f(c["sig.level"]) > 1 or math.isnan(_f(c["ncases"]))]
    assert len(bad) >= 10
    for case in bad[:6]:
        lo, hi = (1 - _f(case["partial"][0]), 1 - _f(case["partial"][1]))
        try:
            got = _pilot(case, method="obuchowski", min_fpr=lo, max_fpr=hi)
        except ValueError as e:  # a power no size reaches at this level: said, never nan
            assert "power" in str(e)
            continue
        assert 0 < got.alpha < 1 and 0 <= got.power <= 1 and got.n_positive > 0
        assert got.auc == pytest.approx(_f(case["auc1"]), abs=1e-12)


def _fit(z_x, z_y):
    slope, intercept = np.polyfit(z_x, z_y, 1)
    return intercept, slope


def _zpoints(y, s):
    y, s = np.asarray(y, bool), np.asarray(s, float)
    out = []
    for t in [math.inf] + sorted(set(s.tolist()), reverse=True):
        tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
        if 0 < tpr < 1 and 0 < fpr < 1:
            out.append((stats.norm.ppf(fpr), stats.norm.ppf(tpr)))
    return np.array(out)


@pytest.mark.parametrize("name", ["continuous_large", "mixed_ties"])
def test_partial_obuchowski_matches_literal_formula(name):
    c = INPUTS[name]
    y, s1, s2 = np.asarray(c["y"], bool), np.asarray(c["s1"]), np.asarray(c["s2"])
    band = (0.05, 0.3)
    got = rw.stats.auc_study_from_pilot(y, s1, s2, method="obuchowski", min_fpr=band[0], max_fpr=band[1],
                                        alpha=0.05, power=None)
    z1, z2 = _zpoints(y, s1), _zpoints(y, s2)
    a1, b1 = _fit(z1[:, 0], z1[:, 1])
    a2, b2 = _fit(z2[:, 0], z2[:, 1])
    kappa = (~y).sum() / y.sum()
    ra, rn = np.corrcoef(s1[y], s2[y])[0, 1], np.corrcoef(s1[~y], s2[~y])[0, 1]
    v1, v2 = ref.binormal_var(a1, b1, kappa, band), ref.binormal_var(a2, b2, kappa, band)
    cv = ref.binormal_cov(a1, b1, a2, b2, rn, ra, kappa, band)
    assert got.var_null == pytest.approx(2 * v1 - 2 * cv, rel=1e-9)
    assert got.var_alternative == pytest.approx(v1 + v2 - 2 * cv, rel=1e-9)
    d = rw.partial_auc(y, s1, min_fpr=band[0], max_fpr=band[1]) - rw.partial_auc(y, s2, min_fpr=band[0],
                                                                                    max_fpr=band[1])
    assert got.delta == pytest.approx(d, abs=1e-14) and got.fpr_band == band
    z = stats.norm.ppf(0.975)
    n = y.sum()
    exp = stats.norm.cdf((math.sqrt(n) * abs(d) - z * math.sqrt(2 * v1 - 2 * cv)) / math.sqrt(v1 + v2 - 2 * cv))
    assert got.power == pytest.approx(exp, rel=1e-9)


@settings(max_examples=25)
@given(st.floats(-1, 3), st.floats(0.3, 2.5), st.floats(0, 0.6), st.floats(0.05, 0.4))
def test_band_derivatives_are_those_of_the_partial_area(a, b, lo, width):
    """f and g are the derivatives of int_lo^hi Phi(a + b Phi^{-1}(x)) dx (numerically)."""
    band = (lo, lo + width)
    f, g = ref.binormal_f_g(a, b, band)

    def area(a, b):
        return integrate.quad(lambda z: stats.norm.cdf(a + b * z) * stats.norm.pdf(z), *stats.norm.ppf(band),
                              epsabs=1e-13, epsrel=1e-12)[0]
    h = 1e-5
    assert f == pytest.approx((area(a + h, b) - area(a - h, b)) / (2 * h), abs=1e-7)
    assert g == pytest.approx((area(a, b + h) - area(a, b - h)) / (2 * h), abs=1e-7)
    st_ = rw.stats.auc_study_binormal(a, b, a, b, delta=0.01, min_fpr=band[0], max_fpr=band[1], n_positive=50,
                                      kappa=1.5)
    assert st_.auc == pytest.approx(area(a, b), abs=1e-10)
    v = ref.binormal_var(a, b, 1.5, band)
    assert st_.var_alternative == pytest.approx(2 * v - 2 * ref.binormal_cov(a, b, a, b, 0, 0, 1.5, band), rel=1e-9)


def test_bootstrap_agrees_with_proc_in_law():
    g = PROC["bootstrap"][0]
    c = INPUTS[g["name"]]
    y = np.asarray(c["y"], bool)
    P = y.sum()
    got = rw.stats.auc_study_from_pilot(y, c["s1"], c["s2"], method="bootstrap", n_resamples=2000, random_state=3,
                                        alpha=0.05, power=None)
    va = _f(g["var1"]) + _f(g["var2"]) - 2 * _f(g["cov12"])
    # 2000 and 4000 resamples: each variance within about 3% (sd sqrt(2 / B)); 12% allowed
    assert got.var_alternative == pytest.approx(va, rel=0.12)
    assert got.power == pytest.approx(_f(g["power"]), abs=0.06)
    again = rw.stats.auc_study_from_pilot(y, c["s1"], c["s2"], method="bootstrap", n_resamples=2000, random_state=3,
                                          alpha=0.05, power=None)
    assert again == got
    assert P == 120


def test_one_scorer_methods():
    c = INPUTS["continuous_large"]
    y = np.asarray(c["y"], bool)
    base = rw.stats.auc_study_from_pilot(y, c["s1"], alpha=0.05, power=None)
    same = rw.stats.auc_study_from_pilot(y, c["s1"], alpha=0.05, power=None, method="obuchowski")
    assert base == same and base.method == "binormal"
    dl = rw.stats.auc_study_from_pilot(y, c["s1"], alpha=0.05, power=None, method="delong")
    se = rw.stats.estimate(y, c["s1"], "auc").std_error
    assert dl.var_alternative == pytest.approx(se ** 2 * y.sum(), rel=1e-12)
    assert dl.var_null == pytest.approx(base.var_null, rel=1e-12) and dl.delta == pytest.approx(base.delta)
    band = rw.stats.auc_study_from_pilot(y, c["s1"], alpha=0.05, power=0.9, method="obuchowski", max_fpr=0.2)
    assert band.null_auc == pytest.approx(0.02) and band.fpr_band == (0.0, 0.2)
    assert band.var_null == pytest.approx(ref.binormal_var(0.0, 1.0, (~y).sum() / y.sum(), (0.0, 0.2)), rel=1e-12)


# --- non-inferiority and equivalence ---------------------------------------------------------

@settings(max_examples=30)
@given(st.floats(0.6, 0.9), st.floats(-0.04, 0.04), st.floats(0.05, 0.1), st.floats(0.005, 0.1),
       st.floats(0.6, 0.95), st.floats(0.0, 0.8))
def test_noninferiority_matches_formula(auc, diff, margin, alpha, power, rho):
    auc2 = auc - diff
    st_ = rw.stats.auc_study(auc, auc2=auc2, rho_positive=rho, rho_negative=rho, alpha=alpha, power=power,
                             alternative="noninferiority", margin=margin)
    va = st_.var_alternative
    assert st_.n_positive == pytest.approx(ref.noninferiority_n(diff, margin, va, alpha, power), rel=1e-10)
    back = rw.stats.power_auc(auc, auc2=auc2, rho_positive=rho, rho_negative=rho, n_positive=st_.n_positive,
                              alpha=alpha, alternative="noninferiority", margin=margin)
    assert back.power == pytest.approx(power, abs=1e-10)
    lvl = rw.stats.auc_study(auc, auc2=auc2, rho_positive=rho, rho_negative=rho, n_positive=st_.n_positive,
                             alpha=None, power=power, alternative="noninferiority", margin=margin)
    assert lvl.alpha == pytest.approx(alpha, rel=1e-9)


@settings(max_examples=30)
@given(st.floats(0.6, 0.9), st.floats(-0.03, 0.03), st.floats(0.04, 0.1), st.floats(0.01, 0.1),
       st.floats(0.6, 0.95))
def test_equivalence_matches_tost_power(auc, diff, margin, alpha, power):
    auc2 = auc - diff
    st_ = rw.stats.sample_size_auc(auc, auc2=auc2, rho_positive=0.5, rho_negative=0.5, alpha=alpha, power=power,
                                   alternative="equivalence", margin=margin)
    va = st_.var_alternative
    assert ref.equivalence_power(st_.n_positive, diff, margin, va, alpha) == pytest.approx(power, abs=1e-9)
    if diff == 0:
        z = stats.norm.ppf
        assert st_.n_positive == pytest.approx((z(1 - alpha) + z(1 - (1 - power) / 2)) ** 2 * va / margin ** 2)
    lvl = rw.stats.auc_study(auc, auc2=auc2, rho_positive=0.5, rho_negative=0.5, n_positive=st_.n_positive,
                             alpha=None, power=power, alternative="equivalence", margin=margin)
    assert lvl.alpha == pytest.approx(alpha, rel=1e-7)


def test_equivalence_at_zero_difference_is_chow_shao_wang():
    st_ = rw.stats.sample_size_auc(0.8, auc2=0.8, rho_positive=0.5, rho_negative=0.5, alpha=0.05, power=0.8,
                                   alternative="equivalence", margin=0.05)
    z = stats.norm.ppf
    assert st_.n_positive == pytest.approx((z(0.95) + z(0.9)) ** 2 * st_.var_alternative / 0.05 ** 2, rel=1e-10)
    assert "two one-sided tests" in st_.summary() and st_.margin == 0.05


def test_pilot_margin_designs():
    c = INPUTS["continuous_large"]
    st_ = rw.stats.auc_study_from_pilot(c["y"], c["s2"], c["s1"], alpha=0.025, power=0.8, alternative="noninferiority",
                                        margin=0.05)
    assert st_.method == "delong" and st_.var_null == st_.var_alternative
    assert st_.n_positive == pytest.approx(ref.noninferiority_n(st_.delta, 0.05, st_.var_alternative, 0.025, 0.8))


@pytest.mark.parametrize("kw, err, match", [
    ({"alternative": "noninferiority"}, ValueError, "'margin' parameter of auc_study is required"),
    ({"margin": 0.05}, ValueError, "only for alternative='noninferiority'"),
    ({"alternative": "equivalence", "margin": -0.1}, ValueError, "'margin' parameter of auc_study"),
    ({"alternative": "equivalence", "margin": math.inf}, ValueError, r"margin.*\(0, inf\)"),
    ({"alternative": "superiority"}, ValueError, "'alternative' parameter of auc_study"),
])
def test_bad_margin(kw, err, match):
    with pytest.raises(err, match=match):
        rw.stats.auc_study(0.8, auc2=0.82, power=0.8, **kw)


def test_bad_pilot_input():
    c = INPUTS["continuous"]
    y, s1, s2 = c["y"], c["s1"], c["s2"]
    with pytest.raises(ValueError, match="'method' parameter of auc_study_from_pilot must be 'obuchowski' or"):
        rw.stats.auc_study_from_pilot(y, s1, s2, method="delong", max_fpr=0.2)
    with pytest.raises(ValueError, match="'method' parameter"):
        rw.stats.auc_study_from_pilot(y, s1, s2, method="binormal")
    with pytest.raises(ValueError, match="'max_fpr' parameter of auc_study_from_pilot must exceed"):
        rw.stats.auc_study_from_pilot(y, s1, s2, min_fpr=0.3, max_fpr=0.2)
    with pytest.raises(ValueError, match="'margin' parameter of auc_study_from_pilot is for two scorers"):
        rw.stats.auc_study_from_pilot(y, s1, alternative="noninferiority", margin=0.05)
    with pytest.raises(ValueError, match="'clusters' parameter"):
        rw.stats.auc_study_from_pilot(y, s1, s2, method="bootstrap", clusters=list(range(len(y))))
    with pytest.raises(ValueError, match="the difference .* is not within the margin"):
        rw.stats.auc_study(0.8, auc2=0.7, power=0.8, alternative="equivalence", margin=0.05)
    with pytest.raises(TypeError, match="give 'auc'"):
        rw.stats.auc_study(None, n_positive=100, power=0.8, alternative="noninferiority", margin=0.05)


@pytest.mark.parametrize("two", [True, False])
def test_bootstrap_band_is_the_literal_bootstrap(two):
    """The same draws written out: positives then negatives, with replacement, per resample."""
    c = INPUTS["mixed_ties"]
    y, s1, s2 = np.asarray(c["y"], bool), np.asarray(c["s1"], float), np.asarray(c["s2"], float)
    band = (0.0, 0.3)
    got = rw.stats.auc_study_from_pilot(y, s1, s2 if two else None, method="bootstrap", min_fpr=band[0],
                                        max_fpr=band[1], n_resamples=60, random_state=11, alpha=0.05, power=None)
    rng = np.random.default_rng(11)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    vals = []
    for _ in range(60):
        rows = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        yy = np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)]
        vals.append([rw.partial_auc(yy, s[rows], max_fpr=0.3) for s in ((s1, s2) if two else (s1,))])
    cov = np.atleast_2d(np.cov(np.array(vals), rowvar=False)) * y.sum()
    va = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1] if two else cov[0, 0]
    assert got.var_alternative == pytest.approx(va, rel=1e-12)
    assert got.method == "bootstrap" and got.fpr_band == band
    if not two:
        assert got.null_auc == pytest.approx(0.045) and got.delta == pytest.approx(
            rw.partial_auc(y, s1, max_fpr=0.3) - 0.045)
