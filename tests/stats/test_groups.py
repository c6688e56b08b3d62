"""``rw.stats.by_group`` and ``rw.stats.stratified_auc`` against literal definitions.

The references (``tests/_support/reference_groups.py``) are written from the definitions
with loops over pairs, cells and clusters: ``A(P, N)`` and DeLong's terms; each statistic's
terms weighted by its cells' shares of their side and centred within each class x group
cell; the covariance ``sum_c S_c / n_c`` over independent rows or Obuchowski's (1997) form
over clusters; the stratified AUC's strata and weights parts. They are checked against the
cluster references of ``tests/_support/reference_clusters.py`` first.

Generated inputs (hypothesis, derandomised, few examples): small samples in 1 to 5 groups,
ties, integer and fractional weights with zero weights, groups of one class, clusters that
span groups and single-row clusters. Then: each group's row is :func:`rw.stats.estimate` on
its rows (also for criteria other than the AUC), the differences and the global test, Holm's
adjustment, several scorers, the outputs, bad input, and frequency weights as repeated rows.

Four cases once got wrong have a test each: NaN in a Python list of string ids, the
clusters of a single-cluster cell counted in Obuchowski's ``I``, the same groups in the
global test with and without clusters, and a cell of zero weight over clusters.
"""

import json
import math
import warnings
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import rankwise as rw
from _support import reference_clusters as rc
from _support import reference_groups as rg
from rankwise.stats._groups import BIAS_STATISTICS

QUIET = [
    "ignore::rankwise.stats.OneClassGroupWarning",
    "ignore::rankwise.stats.FewClustersWarning",
    "ignore::rankwise.stats.DegenerateIntervalWarning",
    "ignore::rankwise.UndefinedMetricWarning",
]


def quiet(f):
    for q in QUIET:
        f = pytest.mark.filterwarnings(q)(f)
    return f


RTOL, ATOL = 1e-12, 1e-14

#: Obuchowski's ``I`` counts every cluster holding a row of the statistics' cells, also the
#: cluster of a cell held by a single cluster (test_thin_cells_count_in_I).
THIN_IN_I = True
#: The global test leaves out the groups whose variance is nan, with clusters or without
#: (test_global_test_same_groups_over_clusters).
CLUSTER_GLOBAL_TEST_KEEPS_NAN = False
#: A variance that is 0 up to rounding may come out just below 0: then the standard error
#: is nan (rankwise takes no square root of a negative number).
TINY = 1e-15


def close(actual, expected, rtol=RTOL, atol=ATOL, what=""):
    a, e = float(actual), float(expected)
    if math.isnan(e):
        assert math.isnan(a), f"{what}: {a} where the reference is nan"
        return
    assert abs(a - e) <= atol + rtol * abs(e), f"{what}: {a!r} != {e!r} (reference)"


def close_var(se, var, what=""):
    """A standard error against a reference variance."""
    if math.isnan(var):
        assert math.isnan(se), f"{what}: std error {se} where the reference variance is nan"
        return
    if math.isnan(se) and abs(var) <= TINY:
        return  # a zero variance rounded below zero
    close(se * se, var, what=what)


def close_se(a, b, what=""):
    """Two standard errors (nan where a zero variance rounded below zero)."""
    if math.isnan(a) != math.isnan(b):
        assert (a if math.isnan(b) else b) ** 2 <= TINY, f"{what}: {a} != {b}"
        return
    close(a, b, what=what)


def z_of(level):
    return NormalDist().inv_cdf(0.5 + level / 2.0)


# --- generated samples -----------------------------------------------------------------------

@st.composite
def samples(draw, max_n=18, max_groups=5, weights=True, clusters=True, min_n=6, min_groups=1):
    """``(y, s, groups, w, clusters)``: hypothesis draws the shape (size, groups, ties,
    weights, clusters, a group of one class), a seeded generator the rows (examples that
    differ from each other, where lists drawn element by element repeat a few patterns).
    Both classes overall; every non-empty class x group cell keeps a positive mass (zero
    weights on rows, not on whole cells: see
    ``test_zero_weight_rows_are_dropped_rows_over_clusters``)."""
    n = draw(st.integers(min_n, max_n))
    G = draw(st.integers(min_groups, max_groups))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    codes = [int(v) for v in rng.integers(0, G, n)]
    y = [int(v) for v in rng.integers(0, 2, n)]
    y[0], y[1] = 1, 0
    if G > 2 and draw(st.booleans()):  # a group of one class (at least two rows, all positive)
        codes[2:4] = [G - 1, G - 1]
        codes[1] = 0 if codes[1] == G - 1 else codes[1]
        y = [1 if c == G - 1 else v for c, v in zip(codes, y)]
    if draw(st.booleans()):
        s = [float(v) for v in rng.integers(-3, 4, n)]  # many ties
    else:
        s = [round(float(v), 1) for v in rng.normal(size=n) + 0.8 * np.asarray(y)]
    groups = codes if draw(st.booleans()) else [f"g{c}" for c in codes]
    w = None
    kind = draw(st.sampled_from(["none", "int", "frac"])) if weights else "none"
    if kind != "none":
        pool = [0.0, 1.0, 2.0, 3.0] if kind == "int" else [0.0, 0.3, 0.5, 1.0, 1.5, 2.0]
        w = [float(v) for v in rng.choice(pool, n)]
        for c in {(g, v) for g, v in zip(groups, y)}:
            rows = [i for i in range(n) if (groups[i], y[i]) == c]
            if sum(w[i] for i in rows) == 0:
                w[rows[0]] = 1.0
    cl = None
    if clusters:
        how = draw(st.sampled_from(["none", "ids", "ids", "rows"]))
        if how == "ids":  # clusters across groups, some of one row
            C = draw(st.integers(max(2, n // 4), n))
            cl = [int(v) for v in rng.integers(0, C, n)]
        elif how == "rows":
            cl = list(range(n))
    return y, s, groups, w, cl


def ids_of(result):
    return list(result.groups)


def defined(y, groups, w, g):
    wv = rg.weights(y, w)
    return (rg.mass(wv, rg.cell_rows(y, groups, (g, 1))) > 0 and rg.mass(wv, rg.cell_rows(y, groups, (g, 0))) > 0)


def sub(y, s, groups, w, cl, g):
    """The group's rows as arrays (for estimate / compare)."""
    sel = np.array([v == g for v in groups])
    take = (lambda a: None if a is None else np.asarray(a)[sel])
    return np.asarray(y)[sel], np.asarray(s)[sel], take(w), take(cl)


# --- the references against each other ----------------------------------------------------

@settings(max_examples=30)
@given(samples(max_n=14, max_groups=3))
def test_reference_matches_cluster_reference(sample):
    """One group's AUC: ``A`` is the double sum of ``reference_clusters``; its variance over
    its own two cells is DeLong's (rows) and Obuchowski's (clusters)."""
    y, s, groups, w, cl = sample
    for g in rg.ids_in_order(groups):
        if not defined(y, groups, w, g):
            continue
        yg, sg, wg, cg = sub(y, s, groups, w, cl, g)
        wl = None if wg is None else list(wg)
        close(rg.value(y, s, groups, rg.subgroup(g), w), rc.auc(list(yg), list(sg), wl))
        wv = rg.weights(list(yg), wl)
        n_pos = sum(m for m, v in zip(wv, yg) if v == 1)
        n_neg = sum(m for m, v in zip(wv, yg) if v == 0)
        var = rg.joint_cov(y, s, groups, [rg.subgroup(g)], w)[0][0]
        if n_pos > 1 and n_neg > 1:
            close(var, rc.delong_cov(list(yg), [list(sg)], wl)[0, 0], rtol=1e-10)
        else:
            assert math.isnan(var)
        if cl is not None:
            held = [len({c for c, v, m in zip(cg, yg, wv) if v == k and m > 0}) for k in (1, 0)]
            var = rg.joint_cov(y, s, groups, [rg.subgroup(g)], w, cl)[0][0]
            if min(held) >= 2:
                close(var, rc.obuchowski_var(list(yg), list(sg), list(cg), wl), rtol=1e-10)
            else:
                assert math.isnan(var)


def test_reference_by_hand():
    """Group b of the by_group docstring: positives 0.8, 0.6 over negatives 0.2, 0.7."""
    y = [0, 1, 0, 1, 1, 0, 0, 1]
    s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6]
    g = ["a"] * 4 + ["b"] * 4
    assert rg.value(y, s, g, rg.subgroup("b")) == 0.75
    assert rg.value(y, s, g, rg.subgroup("a")) == 1.0
    b = rg.bias_aucs(y, s, g)["b"]
    # BPSN: a's positives 0.9, 0.4 over b's negatives 0.2, 0.7 -> 3 of 4
    assert b["bpsn_auc"] == 0.75
    # positive AEG: 1/2 - A(b's positives 0.8, 0.6 over a's 0.9, 0.4) = 1/2 - 2/4
    assert b["aeg_positive"] == 0.0
    assert rg.holm([0.01, float("nan"), 0.04, 0.03]) == pytest.approx([0.03, float("nan"), 0.06, 0.06],
                                                                      nan_ok=True)


# --- group rows and the joint covariance -------------------------------------------------------

@quiet
@settings(max_examples=50)
@given(samples(max_n=24))
def test_rows_and_covariance(sample):
    y, s, groups, w, cl = sample
    r = rw.stats.by_group(y, s, groups, clusters=cl, sample_weight=w, bias=False)
    ids = ids_of(r)
    assert sorted(ids) == ids and set(ids) == set(groups)
    wv = rg.weights(y, w)
    z = z_of(r.confidence_level)
    ok = [g for g in ids if defined(y, groups, w, g)]
    assert set(r.one_class) == set(ids) - set(ok)
    for row in r.rows:
        g = row.group
        assert row.n_rows == sum(1 for v in groups if v == g)
        close(row.n_pos, rg.mass(wv, rg.cell_rows(y, groups, (g, 1))))
        close(row.n_neg, rg.mass(wv, rg.cell_rows(y, groups, (g, 0))))
        expected = rg.value(y, s, groups, rg.subgroup(g), w)
        close(row.value, expected, what=f"value of {g}")
        if g not in ok:
            assert math.isnan(row.value) and math.isnan(row.std_error) and math.isnan(row.low)
            continue
        var = rg.joint_cov(y, s, groups, [rg.subgroup(g)], w, cl)[0][0]
        close_var(row.std_error, var, what=f"std error of {g}")
        # estimate on the group's rows (to rounding: the sums run in another order)
        yg, sg, wg, cg = sub(y, s, groups, w, cl, g)
        e = rw.stats.estimate(yg, sg, sample_weight=wg, clusters=cg)
        close(row.value, e.value, rtol=1e-14, atol=1e-16)
        close_se(row.std_error, e.std_error)
        if math.isfinite(row.std_error):
            close(row.low, max(row.value - z * row.std_error, 0.0))
            close(row.high, min(row.value + z * row.std_error, 1.0))
    # the overall row: estimate on every row
    (o,) = r.overall
    e = rw.stats.estimate(y, s, sample_weight=w, clusters=cl)
    assert o.group is None and o.n_rows == len(y)
    close(o.value, rg.value(y, s, groups, rg.overall(ids), w))
    close_se(o.std_error, e.std_error)
    # the joint covariance of the groups' values
    cov = r.cov[("score", "auc")]
    assert cov.shape == (len(ids), len(ids))
    ref = rg.joint_cov(y, s, groups, [rg.subgroup(g) for g in ok], w, cl, THIN_IN_I)
    for a, ga in enumerate(ok):
        ia = ids.index(ga)
        if math.isnan(ref[a][a]):
            assert math.isnan(cov[ia, ia])
        for b, gb in enumerate(ok):
            if math.isfinite(ref[a][b]):
                close(cov[ia, ids.index(gb)], ref[a][b], what=f"cov[{ga}, {gb}]")
    for g in set(ids) - set(ok):
        assert np.isnan(cov[ids.index(g)]).all() and np.isnan(cov[:, ids.index(g)]).all()
    if cl is None:  # independent rows: the groups are independent, their variances their own
        for a, ga in enumerate(ok):
            for b, gb in enumerate(ok):
                if a != b:
                    assert cov[ids.index(ga), ids.index(gb)] == 0.0


def _check_difference(d, diff, var, level, what):
    close(d.difference, diff, what=what)
    close_var(d.std_error, var, what=what)
    if not math.isfinite(var):
        assert math.isnan(d.p_value) and math.isnan(d.statistic)
        return float("nan")
    if var > 1e-12:
        close(d.statistic, diff / math.sqrt(var), rtol=1e-9, what=what)
        p = rg.two_sided_p(diff, math.sqrt(var))
        close(d.p_value, p, rtol=1e-9, atol=1e-12, what=what)
        z = z_of(level)
        close(d.low, diff - z * math.sqrt(var), atol=1e-12, what=what)
        close(d.high, diff + z * math.sqrt(var), atol=1e-12, what=what)
    return d.p_value


@quiet
@settings(max_examples=50)
@given(samples(min_n=14, max_n=30, max_groups=4, min_groups=2), st.data())
def test_differences(sample, data):
    """Each group against the rest (default) and against a reference group: the
    difference, its variance from the joint covariance, the test, Holm's adjustment."""
    y, s, groups, w, cl = sample
    ids = sorted(set(groups))
    ok = [g for g in ids if defined(y, groups, w, g)]
    # against the rest
    r = rw.stats.by_group(y, s, groups, clusters=cl, sample_weight=w, bias=False)
    assert r.reference is None and [d.group for d in r.differences] == ids
    ps = []
    for d, g in zip(r.differences, ids):
        assert d.versus == "rest"
        rest_ok = g in ok and any(h != g for h in ids) and (
            math.isfinite(rg.value(y, s, groups, rg.rest_auc(g, ids), w)))
        if not rest_ok:
            assert math.isnan(d.difference) and math.isnan(d.p_value)
            ps.append(float("nan"))
            continue
        specs = [rg.subgroup(g), rg.rest_auc(g, ids)]
        cov = rg.joint_cov(y, s, groups, specs, w, cl, THIN_IN_I)
        diff = rg.value(y, s, groups, specs[0], w) - rg.value(y, s, groups, specs[1], w)
        ps.append(_check_difference(d, diff, rg.diff_var(cov, 0, 1), r.confidence_level, f"{g} vs rest"))
    for d, q in zip(r.differences, rg.holm(ps)):
        close(d.p_adjusted, q, rtol=1e-9, atol=1e-12)
    # against a reference group
    ref = data.draw(st.sampled_from(ids))
    adjust = data.draw(st.sampled_from(["holm", "bonferroni", "none"]))
    r = rw.stats.by_group(y, s, groups, clusters=cl, sample_weight=w, bias=False, reference=ref, adjust=adjust,
                          confidence_level=0.9)
    assert r.reference == ref and r.adjust == adjust
    assert [d.group for d in r.differences] == [g for g in ids if g != ref]
    cov = rg.joint_cov(y, s, groups, [rg.subgroup(g) for g in ok], w, cl, THIN_IN_I)
    ps = []
    for d in r.differences:
        assert d.versus == ref
        if d.group not in ok or ref not in ok:
            assert math.isnan(d.difference) and math.isnan(d.p_value)
            ps.append(float("nan"))
            continue
        a, b = ok.index(d.group), ok.index(ref)
        diff = rg.value(y, s, groups, rg.subgroup(d.group), w) - rg.value(y, s, groups, rg.subgroup(ref), w)
        ps.append(_check_difference(d, diff, rg.diff_var(cov, a, b), 0.9, f"{d.group} vs {ref}"))
    m = sum(1 for p in ps if not math.isnan(p))
    expected = {"holm": rg.holm(ps), "bonferroni": [p if math.isnan(p) else min(1.0, m * p) for p in ps],
                "none": ps}[adjust]
    for d, q in zip(r.differences, expected):
        close(d.p_adjusted, q, rtol=1e-9, atol=1e-12)


@quiet
@settings(max_examples=40)
@given(samples(min_n=10, max_n=24, min_groups=2))
def test_global_test_is_wald(sample):
    """The chi-square statistic ``d' S^-1 d`` with ``d`` each group minus the first (any
    basis of the contrasts gives the same), ``S`` from the reference covariance."""
    y, s, groups, w, cl = sample
    r = rw.stats.by_group(y, s, groups, clusters=cl, sample_weight=w, bias=False)
    (t,) = r.global_tests
    ok = [g for g in ids_of(r) if defined(y, groups, w, g)]
    own = [rg.joint_cov(y, s, groups, [rg.subgroup(g)], w, cl)[0][0] for g in ok]
    if not (cl is not None and CLUSTER_GLOBAL_TEST_KEEPS_NAN):
        # the groups with both classes and a variance
        ok = [g for g, v in zip(ok, own) if math.isfinite(v)]
    assert t.n_groups == len(ok)
    if len(ok) < 2:
        assert math.isnan(t.statistic) and math.isnan(t.p_value)
        return
    v = np.array([rg.value(y, s, groups, rg.subgroup(g), w) for g in ok])
    cov = np.array(rg.joint_cov(y, s, groups, [rg.subgroup(g) for g in ok], w, cl, THIN_IN_I))
    C = np.zeros((len(ok) - 1, len(ok)))
    C[:, 0] = -1.0
    C[np.arange(len(ok) - 1), np.arange(1, len(ok))] = 1.0
    S = C @ cov @ C.T
    if not np.isfinite(S).all():
        assert math.isnan(t.statistic)
        return
    if np.linalg.cond(S) > 1e6:
        return  # near-singular: the code's rank rule decides df
    d = C @ v
    stat = float(d @ np.linalg.solve(S, d))
    close(t.statistic, stat, rtol=1e-8, atol=1e-10)
    assert t.df == len(ok) - 1
    close(t.p_value, sps.chi2.sf(stat, len(ok) - 1), rtol=1e-7, atol=1e-12)


# --- the bias statistics -----------------------------------------------------------------------

@quiet
@settings(max_examples=40)
@given(samples(min_n=10, max_n=24, max_groups=4, min_groups=2))
def test_bias_statistics(sample):
    """Each statistic with its standard error from the joint covariance of the group's
    statistics that are defined (both sides with mass) and the overall AUC, its interval,
    its test (the AUCs against the overall AUC, the gaps and the disparity against 0) and
    Holm's adjustment over the groups. One group: no rest, every row nan."""
    y, s, groups, w, cl = sample
    r = rw.stats.by_group(y, s, groups, clusters=cl, sample_weight=w)
    ids = ids_of(r)
    z = z_of(r.confidence_level)
    assert [b.statistic for b in r.bias] == [k for k in BIAS_STATISTICS for _ in ids]
    if len(ids) == 1:
        assert all(math.isnan(b.value) and math.isnan(b.std_error) for b in r.bias)
        return
    ov = rg.value(y, s, groups, rg.overall(ids), w)
    ps = {k: [] for k in BIAS_STATISTICS}
    nan = float("nan")
    for g in ids:
        specs = list(rg.bias_specs(g, ids).values()) + [rg.overall(ids)]
        values = [rg.value(y, s, groups, sp, w) for sp in specs]
        keep = [k for k, v in enumerate(values) if math.isfinite(v)]
        sub_cov = rg.joint_cov(y, s, groups, [specs[k] for k in keep], w, cl, THIN_IN_I)
        cov = [[nan] * 6 for _ in range(6)]
        for a, ka in enumerate(keep):
            for b_, kb in enumerate(keep):
                cov[ka][kb] = sub_cov[a][b_]
        rows = {b.statistic: b for b in r.bias if b.group == g}
        for k, name in enumerate(rg.BIAS):
            b = rows[name]
            close(b.value, values[k], what=f"{name} of {g}")
            close_var(b.std_error, cov[k][k], what=f"{name} of {g}")
            lo, hi = (0.0, 1.0) if k < 3 else (-0.5, 0.5)
            if math.isfinite(b.std_error):
                close(b.low, max(values[k] - z * b.std_error, lo))
                close(b.high, min(values[k] + z * b.std_error, hi))
            if k < 3:  # against the overall AUC
                assert b.versus == "overall AUC"
                diff, var = values[k] - ov, rg.diff_var(cov, k, 5)
            else:
                assert b.versus == "0"
                diff, var = values[k], cov[k][k]
            close(b.difference, diff)
            ps[name].append(_p_or_nan(b, diff, var))
        # the xAUC disparity: BNSP - BPSN
        b = rows["xauc_disparity"]
        close(b.value, values[2] - values[1], atol=1e-13)
        close_var(b.std_error, rg.diff_var(cov, 2, 1))
        ps["xauc_disparity"].append(_p_or_nan(b, values[2] - values[1], rg.diff_var(cov, 2, 1)))
    for name in BIAS_STATISTICS:
        got = [b.p_adjusted for b in r.bias if b.statistic == name]
        for a, e in zip(got, rg.holm(ps[name])):
            close(a, e, rtol=1e-9, atol=1e-12)


def _p_or_nan(b, diff, var):
    if not (math.isfinite(var) and math.isfinite(diff)):
        assert math.isnan(b.p_value)
        return float("nan")
    if var > 1e-12:
        close(b.p_value, rg.two_sided_p(diff, math.sqrt(var)), rtol=1e-9, atol=1e-12)
    return b.p_value


@quiet
@settings(max_examples=25)
@given(samples(max_n=24, clusters=False))
def test_bias_values_equal_point_functions(sample):
    """The bias table's values are :func:`rw.bias_aucs`; the xAUC disparity is
    :func:`rw.xauc` between the group and the rest relabelled as one group."""
    y, s, groups, w, _ = sample
    r = rw.stats.by_group(y, s, groups, sample_weight=w)
    point = rw.bias_aucs(y, s, groups, sample_weight=w)
    if len(r.groups) == 1:
        return  # by_group: no rest, no bias table (bias_aucs gives the subgroup AUC)
    for b in r.bias:
        if b.statistic != "xauc_disparity":
            close(b.value, point[b.group][b.statistic], rtol=1e-15, atol=1e-15)
        elif len(r.groups) > 1:
            two = ["in" if v == b.group else "out" for v in groups]
            close(b.value, rw.xauc(y, s, two, "in", "out", sample_weight=w).disparity, atol=1e-15)


# --- the stratified AUC ----------------------------------------------------------------------

@quiet
@settings(max_examples=40)
@given(samples(max_n=24), st.sampled_from(rg.WEIGHTINGS))
def test_stratified_auc(sample, weighting):
    y, s, strata, w, cl = sample
    r = rw.stats.stratified_auc(y, s, strata, weighting=weighting, sample_weight=w, clusters=cl)
    ids = sorted(set(strata))
    parts = rg.strata_parts(y, s, strata, weighting, w)
    assert r.weighting == weighting and list(r.strata) == ids
    assert r.n_strata == len(parts) and r.n_skipped == len(ids) - len(parts)
    assert r.n_clusters == (None if cl is None else len(set(cl)))
    wv = rg.weights(y, w)
    for k, g in enumerate(ids):
        close(r.n_pos[k], rg.mass(wv, rg.cell_rows(y, strata, (g, 1))))
        close(r.n_neg[k], rg.mass(wv, rg.cell_rows(y, strata, (g, 0))))
        if g in parts:
            close(r.values[k], parts[g][0])
            close(r.weights[k], parts[g][1])
        else:
            assert math.isnan(r.values[k]) and r.weights[k] == 0
    close(r.value, rg.stratified_auc(y, s, strata, weighting, w), what="value")
    # the point value (the cells' moments) and the estimate (over clusters: per-row terms) to rounding
    close(rw.stratified_auc(y, s, strata, weighting=weighting, sample_weight=w), r.value, rtol=1e-14, atol=1e-15)
    if weighting == "pairs" and parts:
        close(r.value, rg.pairs_within_strata(y, s, strata, w))
    vs, vw = rg.stratified_variance(y, s, strata, weighting, w, cl)
    close_var(r.std_error_strata, vs, what="strata part")
    close_var(r.std_error, vs + vw, what="total")
    if weighting == "uniform":
        assert vw == 0.0 and (r.std_error == r.std_error_strata or math.isnan(r.std_error))
    if weighting == "positives" and cl is None and parts and sum(p[2] for p in parts.values()) > 1:
        close(vw, rg.janes_pepe_weights_part(y, s, strata, w))
    # the same through estimate
    e = rw.stats.estimate(y, s, "stratified_auc", strata=strata, weighting=weighting, sample_weight=w, clusters=cl)
    close(e.value, r.value, rtol=0, atol=0)
    close(e.std_error, r.std_error, rtol=0, atol=0)
    if math.isfinite(r.std_error):
        lo, hi = r.confidence_interval(0.9)
        z = z_of(0.9)
        close(lo, max(r.value - z * r.std_error, 0.0))
        close(hi, min(r.value + z * r.std_error, 1.0))


def test_stratified_one_stratum_is_the_auc():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    s = np.round(rng.normal(size=40) + y, 1)
    for weighting in rg.WEIGHTINGS:
        r = rw.stats.stratified_auc(y, s, np.zeros(40), weighting=weighting)
        e = rw.stats.estimate(y, s)
        assert r.value == pytest.approx(e.value, abs=1e-15)
        assert r.std_error == pytest.approx(e.std_error, rel=1e-12)
        assert r.std_error_strata == r.std_error


def test_stratified_no_stratum_with_both_classes():
    with pytest.warns(rw.UndefinedMetricWarning):
        r = rw.stats.stratified_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], ["a", "b", "a", "b"])
    assert math.isnan(r.value) and r.n_strata == 0 and r.n_skipped == 2
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(rw.stratified_auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], ["a", "b", "a", "b"]))


def test_stratified_summary_and_html():
    y = [0, 1, 0, 1, 0, 0, 1, 1, 0, 1]
    s = [0.1, 0.9, 0.5, 0.3, 0.2, 0.6, 0.7, 0.8, 0.4, 0.45]
    r = rw.stats.stratified_auc(y, s, ["a"] * 4 + ["b"] * 6, weighting="positives")
    text = r.summary()
    assert f"{r.value:.4f}" in text and f"{r.std_error:.4f}" in text and "positives" in text
    assert "<table" in r._repr_html_() and f"{r.value:.4f}" in r._repr_html_()
    lo, hi = r.confidence_interval(transform="logit")
    assert 0 < lo < r.value < hi < 1


# --- other criteria: group rows are estimate on the group's rows ---------------------------

CRITERIA = ("pnorm_push:p=4", "local_auc:top=0.3")


@quiet
@settings(max_examples=20)
@given(samples(min_n=10, max_n=24, max_groups=3))
def test_other_criteria_rows_equal_estimate(sample):
    y, s, groups, w, cl = sample
    r = rw.stats.by_group(y, s, groups, CRITERIA, clusters=cl, sample_weight=w)
    assert r.bias == () and r.criteria == CRITERIA
    ids = ids_of(r)
    for row in r.rows:
        yg, sg, wg, cg = sub(y, s, groups, w, cl, row.group)
        if not defined(y, groups, w, row.group):
            assert math.isnan(row.value) and math.isnan(row.std_error)
            continue
        e = rw.stats.estimate(yg, sg, row.criterion, sample_weight=wg, clusters=cg)
        close(row.value, e.value, what=f"{row.criterion} of {row.group}")
        close(row.std_error, e.std_error, rtol=1e-10, what=f"{row.criterion} of {row.group}")
    for o in r.overall:
        e = rw.stats.estimate(y, s, o.criterion, sample_weight=w, clusters=cl)
        close(o.value, e.value)
        close(o.std_error, e.std_error, rtol=1e-10)
    # each group against the rest: the value is the criterion on the rest's rows
    for d in r.differences:
        g = d.group
        rest = [v != g for v in groups]
        if not defined(y, groups, w, g) or not any(rest):
            assert math.isnan(d.difference)
            continue
        yr, sr = np.asarray(y)[rest], np.asarray(s)[rest]
        wr = None if w is None else np.asarray(w)[rest]
        if not (yr == 1).any() or not (yr == 0).any() or (wr is not None and (
                wr[yr == 1].sum() == 0 or wr[yr == 0].sum() == 0)):
            assert math.isnan(d.difference)
            continue
        e_g = r.value(g, d.criterion)
        e_r = rw.stats.estimate(yr, sr, d.criterion, sample_weight=wr).value
        close(d.difference, e_g - e_r, atol=1e-13)
    # against a reference group over independent rows: the groups are independent
    if cl is None and len(ids) > 1:
        r2 = rw.stats.by_group(y, s, groups, CRITERIA, sample_weight=w, reference=ids[0])
        for d in r2.differences:
            se_g = next(x.std_error for x in r2.rows if x.group == d.group and x.criterion == d.criterion)
            se_r = next(x.std_error for x in r2.rows if x.group == ids[0] and x.criterion == d.criterion)
            close_var(d.std_error, se_g ** 2 + se_r ** 2)


def test_criterion_without_projection_gets_values_only():
    """A criterion with no analytic variance (the KS statistic): values from estimate on
    each group's rows, no standard errors, no tests."""
    y = [0, 1, 0, 1, 1, 0, 0, 1, 1, 0]
    s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6, 0.5, 0.55]
    g = ["a"] * 5 + ["b"] * 5
    r = rw.stats.by_group(y, s, g, "ks_statistic")
    for row in r.rows:
        sel = np.array(g) == row.group
        assert row.value == rw.stats.estimate(np.array(y)[sel], np.array(s)[sel], "ks_statistic").value
        assert math.isnan(row.std_error)
    assert all(math.isnan(d.p_value) for d in r.differences)
    assert math.isnan(r.global_tests[0].statistic)


# --- one-class groups ---------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")
def test_one_class_group():
    y = [0, 1, 0, 1, 1, 0, 0, 1, 1, 1]
    s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6, 0.5, 0.3]
    g = ["a"] * 4 + ["b"] * 4 + ["c"] * 2  # c: positives only
    with pytest.warns(rw.stats.OneClassGroupWarning, match="c"):
        r = rw.stats.by_group(y, s, g)
    assert r.one_class == ("c",)
    c = next(x for x in r.rows if x.group == "c")
    assert math.isnan(c.value) and math.isnan(c.std_error) and c.n_rows == 2 and c.n_neg == 0
    (t,) = r.global_tests
    assert t.n_groups == 2 and t.df == 1
    assert np.isnan(r.cov[("score", "auc")][2]).all()
    d = {x.group: x for x in r.differences}
    assert math.isnan(d["c"].difference) and math.isnan(d["c"].p_adjusted)
    # left out of the family: Holm over the two others only
    ps = [d["a"].p_value, d["b"].p_value]
    assert [d["a"].p_adjusted, d["b"].p_adjusted] == pytest.approx(rg.holm(ps), rel=1e-12)
    assert "one class" in r.summary() and "c" in r.summary()
    # a group with only zero-weight negatives is one class too
    w = [1.0] * 10
    w[5] = w[6] = 0.0
    with pytest.warns(rw.stats.OneClassGroupWarning, match="b"):
        r = rw.stats.by_group(y, s, g, sample_weight=w)
    assert set(r.one_class) == {"b", "c"}
    # and one group of one class only: no test at all
    with pytest.warns(rw.stats.OneClassGroupWarning):
        r = rw.stats.by_group([1, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], ["a", "a", "b", "b"])
    assert all(math.isnan(x.value) for x in r.rows)
    assert math.isnan(r.global_tests[0].statistic) and r.global_tests[0].n_groups == 0


@pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")
def test_single_group_and_single_row_cells():
    y = [0, 1, 0, 1, 1, 0]
    s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2]
    r = rw.stats.by_group(y, s, ["a"] * 6)
    assert r.groups == ("a",)
    e = rw.stats.estimate(y, s)
    assert r.rows[0].value == e.value and r.rows[0].std_error == pytest.approx(e.std_error, rel=1e-12)
    assert math.isnan(r.differences[0].difference)  # no rest
    assert math.isnan(r.global_tests[0].statistic)
    # a group of one positive and one negative: a value, no standard error
    r = rw.stats.by_group(y, s, ["a", "a", "b", "b", "b", "b"])
    a = r.rows[0]
    assert a.value == 1.0 and math.isnan(a.std_error) and math.isnan(a.low)


# --- several scorers --------------------------------------------------------------------------

@quiet
@settings(max_examples=15)
@given(samples(min_n=10, max_n=24, max_groups=3))
def test_several_scorers(sample):
    y, s, groups, w, cl = sample
    s2 = [round(v * 0.5 + (k % 3) * 0.25, 2) for k, v in enumerate(s)]
    r = rw.stats.by_group(y, {"m1": s, "m2": s2}, groups, clusters=cl, sample_weight=w, bias=False)
    assert r.scorers == ("m1", "m2")
    one = rw.stats.by_group(y, s2, groups, clusters=cl, sample_weight=w, bias=False, names=["m2"])
    rows2 = [x for x in r.rows if x.scorer == "m2"]
    for x, o in zip(rows2, one.rows):
        assert x.group == o.group
        close(x.value, o.value, rtol=0, atol=0)
        close(x.std_error, o.std_error)
    ok = [g for g in ids_of(r) if defined(y, groups, w, g)]
    assert [g for _, g, _ in r.scorer_comparisons] == ok
    for crit, g, comp in r.scorer_comparisons:
        assert crit == "auc"
        yg, sg, wg, cg = sub(y, s, groups, w, cl, g)
        _, s2g, _, _ = sub(y, s2, groups, w, cl, g)
        c = rw.stats.compare(yg, {"m1": sg, "m2": s2g}, sample_weight=wg, clusters=cg)
        np.testing.assert_allclose(comp.values, c.values, rtol=1e-14)
        np.testing.assert_allclose(comp.cov, c.cov, rtol=1e-12, atol=1e-15)
        assert comp.names == ("m1", "m2")
        np.testing.assert_allclose([p.p_value for p in comp.pairs], [p.p_value for p in c.pairs],
                                   rtol=1e-9, atol=1e-12)
    assert r.value(ok[0] if ok else None, scorer="m2") == pytest.approx(
        one.value(ok[0] if ok else None), nan_ok=True)


def test_scorers_as_dataframe_and_2d_array():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    n = 40
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    a = np.round(y + rng.normal(size=n), 1)
    b = np.round(y + rng.normal(size=n), 1)
    g = np.where(np.arange(n) % 3 == 0, "x", "z")
    r1 = rw.stats.by_group(y, pd.DataFrame({"a": a, "b": b}), g)
    r2 = rw.stats.by_group(y, np.column_stack([a, b]), g, names=["a", "b"])
    assert r1.scorers == r2.scorers == ("a", "b")
    assert [x.value for x in r1.rows] == [x.value for x in r2.rows]
    assert len(r1.scorer_comparisons) == 2
    assert "scorers compared in group x" in r1.summary()


# --- outputs ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(11)
    n = 90
    y = rng.integers(0, 2, n)
    g = np.array(["north", "south", "east"])[rng.integers(0, 3, n)]
    s = np.round(y + (g == "east") * 0.5 + rng.normal(size=n), 2)
    return rw.stats.by_group(y, s, g, criteria=("auc", "pnorm_push:p=4"), clusters=np.arange(n) // 3)


def test_outputs(result):
    pd = pytest.importorskip("pandas")
    r = result
    assert r.groups == ("east", "north", "south") and r.n_clusters == 30
    f = r.to_frame()
    assert list(f.columns) == list(rw.stats.GroupRow._fields)
    assert len(f) == len(r.overall) + len(r.rows)
    assert pd.isna(f["group"].iloc[0]) and f["value"].tolist() == pytest.approx(
        [x.value for x in r.overall + r.rows])
    fd = r.to_frame("differences")
    assert fd["p_adjusted"].tolist() == pytest.approx([d.p_adjusted for d in r.differences])
    fg = r.to_frame("global")
    assert len(fg) == 2 and fg["df"].tolist() == [2.0, 2.0]
    fb = r.to_frame("bias")
    assert len(fb) == 6 * 3 and set(fb["statistic"]) == set(BIAS_STATISTICS)
    assert isinstance(f, pd.DataFrame)
    with pytest.raises(ValueError, match="table"):
        r.to_frame("nope")
    d = json.loads(json.dumps(r.to_dict()))
    assert d["groups"] == ["east", "north", "south"] and d["n_clusters"] == 30
    assert d["rows"][0]["value"] == pytest.approx(r.rows[0].value)
    assert len(d["bias"]) == 18 and len(d["differences"]) == 6
    text = r.summary()
    assert str(r) == text
    for x in r.rows + r.overall:
        assert f"{x.value:.4f}" in text
    for t in r.global_tests:
        assert f"{t.statistic:.4f}" in text
    assert "30 clusters" in text and "holm" in text and "BPSN AUC" in text
    html = r._repr_html_()
    assert "<table" in html and f"{r.rows[0].value:.4f}" in html and "BNSP AUC" in html
    assert r.value("east") == r.rows[0].value
    assert r.value(None, "pnorm_push:p=4") == r.overall[1].value
    with pytest.raises(KeyError):
        r.value("west")


# --- bad input ---------------------------------------------------------------------------------

Y = [0, 1, 0, 1, 1, 0]
S = [0.1, 0.9, 0.3, 0.2, 0.8, 0.5]
G = ["a", "a", "a", "b", "b", "b"]

BAD = [
    ("groups_short", dict(groups=G[:-1]), ValueError, "groups"),
    ("groups_long", dict(groups=G + ["a"]), ValueError, "groups"),
    ("groups_none_id", dict(groups=[None] + G[1:]), ValueError, "groups"),
    ("groups_nan_id", dict(groups=[float("nan"), 1.0, 1.0, 2.0, 2.0, 2.0]), ValueError, "groups"),
    ("groups_nan_object", dict(groups=np.array([float("nan")] + G[1:], dtype=object)), ValueError, "groups"),
    ("groups_missing", dict(groups=None), TypeError, "groups"),
    ("reference", dict(reference="z"), ValueError, "reference"),
    ("bias_without_auc", dict(criteria="pnorm_push:p=4", bias=True), ValueError, "bias.*'auc'.*criteria"),
    ("no_criteria", dict(criteria=()), ValueError, "criteria"),
    ("adjust", dict(adjust="sidak"), ValueError, "adjust"),
    ("level", dict(confidence_level=1.5), ValueError, "confidence_level"),
    ("clusters_short", dict(clusters=[1, 2]), ValueError, "clusters"),
    ("weights_short", dict(sample_weight=[1.0, 2.0]), ValueError, "sample_weight"),
    ("real_labels", dict(criteria="ranking_risk"), ValueError, "binary"),
]


@pytest.mark.parametrize("kw,exc,match", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_by_group_bad_input(kw, exc, match):
    kw = dict(kw)
    groups = kw.pop("groups", G)
    with pytest.raises(exc, match=match):
        rw.stats.by_group(Y, S, groups, **kw)


def test_by_group_bad_input_other():
    with pytest.raises(ValueError, match="y_true.*empty"):
        rw.stats.by_group([], [], [])
    with pytest.raises(ValueError, match="y_score"):
        rw.stats.by_group(Y, {"a": S, "b": S[:-1]}, G)


@pytest.mark.filterwarnings("ignore::rankwise.stats.OneClassGroupWarning")
def test_nan_in_a_list_of_string_ids():
    with pytest.raises(ValueError, match="groups"):
        rw.stats.by_group(Y, S, [float("nan")] + G[1:])


STRAT_BAD = [
    ("strata_short", dict(strata=G[:-1]), ValueError, "strata"),
    ("strata_none_id", dict(strata=[None] + G[1:]), ValueError, "strata"),
    ("strata_nan_id", dict(strata=[float("nan"), 1.0, 1.0, 2.0, 2.0, 2.0]), ValueError, "strata"),
    ("strata_missing", dict(strata=None), TypeError, "strata"),
    ("weighting", dict(weighting="rows"), ValueError, "weighting"),
    ("clusters_short", dict(clusters=[1]), ValueError, "clusters"),
]


@pytest.mark.parametrize("kw,exc,match", [b[1:] for b in STRAT_BAD], ids=[b[0] for b in STRAT_BAD])
def test_stratified_bad_input(kw, exc, match):
    kw = dict(kw)
    strata = kw.pop("strata", G)
    with pytest.raises(exc, match=match):
        rw.stats.stratified_auc(Y, S, strata, **kw)


def test_stratified_bad_input_other():
    with pytest.raises(ValueError, match="y_true.*empty"):
        rw.stats.stratified_auc([], [], [])
    with pytest.raises(TypeError, match="strata"):
        rw.stats.estimate(Y, S, "stratified_auc")
    with pytest.raises(TypeError, match="strata"):
        rw.stats.estimate(Y, S, "stratified_auc", strata=G, k=3)
    with pytest.raises(ValueError, match="weighting"):
        rw.stats.estimate(Y, S, "stratified_auc", strata=G, weighting="rows")
    with pytest.raises(ValueError, match="transform"):
        rw.stats.stratified_auc(Y, S, G).confidence_interval(transform="probit")


# --- frequency weights are repeated rows ------------------------------------------------------

@st.composite
def integer_weighted(draw):
    y, s, groups, _, cl = draw(samples(max_n=16, max_groups=3, min_groups=2, weights=False))
    w = draw(st.lists(st.integers(1, 3), min_size=len(y), max_size=len(y)))
    return y, s, groups, [float(v) for v in w], cl


def _repeat(w, *cols):
    reps = [int(v) for v in w]
    return [[v for v, k in zip(col, reps) for _ in range(k)] for col in cols]


@quiet
@settings(max_examples=25)
@given(integer_weighted())
def test_weights_are_repeated_rows(sample):
    """Integer weights: the same values (to rounding: sums in another order) and standard
    errors as the rows repeated (the variances use the masses; clusters: the copies stay
    in their row's cluster)."""
    y, s, groups, w, cl = sample
    cl0 = cl if cl is not None else None
    yr, sr, gr = _repeat(w, y, s, groups)
    clr = None if cl0 is None else _repeat(w, cl0)[0]
    a = rw.stats.by_group(y, s, groups, sample_weight=w, clusters=cl0)
    b = rw.stats.by_group(yr, sr, gr, clusters=clr)
    for x, z in zip(a.rows + a.overall, b.rows + b.overall):
        assert (x.group, x.n_pos, x.n_neg) == (z.group, z.n_pos, z.n_neg)
        close(x.value, z.value, rtol=1e-15, atol=0)
        close(x.std_error, z.std_error, rtol=1e-10, atol=1e-15)
    for x, z in zip(a.differences, b.differences):
        close(x.difference, z.difference, rtol=1e-14, atol=1e-15)
        close(x.std_error, z.std_error, rtol=1e-10, atol=1e-15)
    for x, z in zip(a.bias, b.bias):
        close(x.value, z.value, rtol=1e-14, atol=1e-15)
        close(x.std_error, z.std_error, rtol=1e-10, atol=1e-15)
    for x, z in zip(a.global_tests, b.global_tests):
        close(x.statistic, z.statistic, rtol=1e-8, atol=1e-12)
    for weighting in rg.WEIGHTINGS:
        p = rw.stats.stratified_auc(y, s, groups, weighting=weighting, sample_weight=w, clusters=cl0)
        q = rw.stats.stratified_auc(yr, sr, gr, weighting=weighting, clusters=clr)
        close(p.value, q.value, rtol=1e-14, atol=1e-15)
        close(p.std_error, q.std_error, rtol=1e-10, atol=1e-15)
        close(p.std_error_strata, q.std_error_strata, rtol=1e-10, atol=1e-15)


# --- one row per cluster, and what is left to fix ------------------------------------------

@quiet
@settings(max_examples=30)
@given(samples(min_n=8, max_n=24, weights=False, clusters=False))
def test_one_row_per_cluster_is_independent_rows(sample):
    """Unweighted, each row its own cluster: Obuchowski's form is DeLong's (the factors
    ``I_c/(I_c-1)`` are ``n_c/(n_c-1)``; no cluster holds two cells): the same rows,
    covariance, differences and bias statistics."""
    y, s, groups, _, _ = sample
    n = len(y)
    a = rw.stats.by_group(y, s, groups)
    b = rw.stats.by_group(y, s, groups, clusters=list(range(n)))
    assert b.n_clusters == n and a.n_clusters is None
    for x, z in zip(a.rows + a.overall, b.rows + b.overall):
        close(x.value, z.value, rtol=1e-15, atol=1e-16)
        close_se(x.std_error, z.std_error)
    np.testing.assert_allclose(a.cov[("score", "auc")], b.cov[("score", "auc")], rtol=1e-12, atol=1e-15)
    for x, z in zip(a.differences + a.bias, b.differences + b.bias):
        close(x.difference, z.difference, rtol=1e-14, atol=1e-15)
        close_se(x.std_error, z.std_error)


def _thin_example():
    """Group 0: negatives only; group 1: two positives and two negatives in clusters 0 and
    1; group 2: one positive (cluster 0) and one negative (cluster 2, of no other row), so
    each of group 2's cells is held by a single cluster."""
    y = [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    s = [0.0] * 13 + [1.0, 1.0]
    g = [1, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 1, 1, 1]
    cl = [0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]
    return y, s, g, cl


@pytest.mark.filterwarnings("ignore::rankwise.stats.OneClassGroupWarning")
@pytest.mark.filterwarnings("ignore::rankwise.stats.FewClustersWarning")
def test_thin_cells_count_in_I():
    """Obuchowski's ``I`` counts every cluster holding the statistics' rows, also those of a
    cell whose own variance cannot be estimated (held by one cluster): group 1's variance
    in the joint covariance does not depend on whether group 2's cells are thin."""
    y, s, g, cl = _thin_example()
    r = rw.stats.by_group(y, s, g, clusters=cl, bias=False)
    ref = rg.joint_cov(y, s, g, [rg.subgroup(1), rg.subgroup(2)], None, cl)
    assert math.isnan(ref[1][1])
    close(r.cov[("score", "auc")][1, 1], ref[0][0])  # 0.03125 (I = 3), not 0 (I = 2)


def test_thin_example_follows_the_current_convention():
    """The same example under the convention the comparisons follow (``THIN_IN_I``)."""
    y, s, g, cl = _thin_example()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = rw.stats.by_group(y, s, g, clusters=cl, bias=False)
    ref = rg.joint_cov(y, s, g, [rg.subgroup(1), rg.subgroup(2)], None, cl, THIN_IN_I)
    close(r.cov[("score", "auc")][1, 1], ref[0][0])


@pytest.mark.filterwarnings("ignore::rankwise.stats.FewClustersWarning")
def test_global_test_same_groups_over_clusters():
    """Group c has one positive (no variance): each row its own cluster gives the same
    global test as independent rows."""
    y = [0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1]
    s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6, 0.5, 0.55, 0.3, 0.2, 0.4]
    g = ["a"] * 5 + ["b"] * 5 + ["c"] * 3
    a = rw.stats.by_group(y, s, g).global_tests[0]
    b = rw.stats.by_group(y, s, g, clusters=list(range(len(y)))).global_tests[0]
    assert a.n_groups == 2 and math.isfinite(a.statistic)
    assert b.n_groups == a.n_groups
    close(b.statistic, a.statistic, rtol=1e-12)


@pytest.mark.filterwarnings("ignore::rankwise.stats.OneClassGroupWarning")
def test_zero_weight_rows_are_dropped_rows():
    """Rows of zero weight are no part of the sample, also when they are all of a group's
    rows of one class (group c: two positives and a zero-weight negative)."""
    y, s, g, w = _zero_weight_example()
    a = rw.stats.by_group(y, s, g, sample_weight=w)
    b = rw.stats.by_group(y[:14], s[:14], g[:14])
    for x, z in zip(a.differences + a.bias, b.differences + b.bias):
        close(x.std_error, z.std_error, rtol=1e-12)


def _zero_weight_example():
    y = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0]
    s = [.9, .1, .8, .3, .4, .5, .7, .2, .6, .65, .3, .35, .5, .45, .4]
    g = ["a"] * 6 + ["b"] * 6 + ["c"] * 3
    w = [1.0] * 14 + [0.0]
    return y, s, g, w


@quiet
def test_zero_weight_rows_are_dropped_rows_over_clusters():
    y, s, g, w = _zero_weight_example()
    a = rw.stats.by_group(y, s, g, sample_weight=w, clusters=list(range(15)))
    b = rw.stats.by_group(y[:14], s[:14], g[:14], clusters=list(range(14)))
    for x, z in zip(a.differences + a.bias, b.differences + b.bias):
        close(x.std_error, z.std_error, rtol=1e-12)
