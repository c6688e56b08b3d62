"""The formulas of ``docs/groups.md`` are the ones the code computes.

As in ``tests/test_docs.py``: each test transcribes a formula as the page writes it (the
section is named in each test) into literal numpy, with the O(n^2) pair definition of
``A(P, N)`` and no rankwise code, and compares it with the library on small generated
samples with tied scores and integer weights. The page's hand examples are checked as
fractions, and every ``>>>`` example of the page is run and its printed output compared."""

from __future__ import annotations

import doctest
import os
import warnings
from typing import NamedTuple

import numpy as np
import pytest
from scipy import stats as sps

import rankwise as rw
from _support.paths import ROOT

PAGE = os.path.join(ROOT, "docs", "groups.md")


def _sample(seed, n=54, G=3, weights=True, clusters=False):
    """Scores on a few levels (ties), G groups each with at least two rows of each class,
    integer weights 1..3, and optionally cluster ids that span groups."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    g = rng.integers(0, G, n)
    base = np.repeat(np.arange(G), 4)
    g[:4 * G] = base
    y[:4 * G] = np.tile([1, 1, 0, 0], G)
    s = rng.integers(0, 7, n) / 2.0
    w = rng.integers(1, 4, n).astype(float) if weights else np.ones(n)
    cl = rng.integers(0, 13, n) if clusters else None
    names = np.array([f"g{k}" for k in range(G)])
    return y.astype(bool), s, w, names[g], cl


# --- "Cells: every statistic is an AUC of one set of rows over another" ---------------------

def _psi(a, b):
    return (a > b) + 0.5 * (a == b)


def _A(s, w, P, N):
    """A(P, N) = sum_{i in P, j in N} w_i w_j psi(s_i, s_j) / (w(P) w(N))."""
    return float(w[P] @ _psi(s[P][:, None], s[N][None, :]) @ w[N] / (w[P].sum() * w[N].sum()))


def _terms(s, w, P, N):
    """The DeLong terms of A(P, N): on P the share of N below (ties half), on N the share
    of P above (ties half), 0 elsewhere."""
    h = np.zeros(s.shape[0])
    M = _psi(s[P][:, None], s[N][None, :])
    h[P] = M @ w[N] / w[N].sum()
    h[N] = w[P] @ M / w[P].sum()
    return h


def _cells(y, g):
    """One cell id per row: the group and the class."""
    return np.array([f"{a}|{int(b)}" for a, b in zip(g, y)])


class Stat:
    """A statistic, A(P, N) or (``gap``) 1/2 - A(P, N), with its terms scaled by the cells' shares."""

    def __init__(self, y, s, w, g, P, N, gap=False):
        a = _A(s, w, P, N)
        self.value = 0.5 - a if gap else a
        h = _terms(s, w, P, N) * (-1.0 if gap else 1.0)
        # "terms scaled by the cell's share": u_i = (m_c / n_S) h_i on cell c of side S
        cell = _cells(y, g)
        self.u = np.zeros_like(h)
        for side in (P, N):
            n_side = w[side].sum()
            for c in np.unique(cell[side]):
                rows = side & (cell == c)
                self.u[rows] = w[rows].sum() / n_side * h[rows]
        self.rows = P | N


def _cov(stats, y, w, g, clusters=None):
    """The joint covariance of the page, independent rows or clusters:
    sum_c S_c(u_k, u_l) / m_c; with clusters sum_c f_c sum_k U_ck U_ck' + f sum_{c != d} ...
    over the cells that hold rows of the statistics."""
    U = np.column_stack([st.u for st in stats])
    involved = np.zeros(y.shape[0], dtype=bool)
    for st in stats:
        involved |= st.rows
    cell = _cells(y, g)
    K = U.shape[1]
    out = np.zeros((K, K))
    if clusters is None:
        for c in np.unique(cell[involved]):
            r = involved & (cell == c)
            m = w[r].sum()
            D = U[r] - w[r] @ U[r] / m
            out += (D.T * w[r]) @ D / (m - 1) / m
        return out
    ids = np.unique(clusters)
    k_of = np.searchsorted(ids, clusters)
    T = np.zeros((ids.shape[0], K))
    own = np.zeros((K, K))
    for c in np.unique(cell[involved]):
        r = involved & (cell == c)
        m = w[r].sum()
        D = w[r][:, None] * (U[r] - w[r] @ U[r] / m) / m
        Uc = np.zeros((ids.shape[0], K))
        np.add.at(Uc, k_of[r], D)
        I_c = np.unique(clusters[r]).shape[0]
        out += I_c / (I_c - 1) * Uc.T @ Uc
        own += Uc.T @ Uc
        T += Uc
    I = np.unique(clusters[involved]).shape[0]
    return out + I / (I - 1) * (T.T @ T - own)


def _p(d, var):
    return 2 * sps.norm.sf(abs(d / np.sqrt(var)))


def _holm(p):
    """Holm (1979): p~_(i) = max_{j <= i} (m - j + 1) p_(j), capped at 1; nan not counted."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.shape[0]
    order = ok[np.argsort(p[ok], kind="stable")]
    run = 0.0
    for j, i in enumerate(order):
        run = max(run, (m - j) * p[i])
        out[i] = min(1.0, run)
    return out


SEEDS = [0, 1, 2]


@pytest.mark.parametrize("seed", SEEDS)
def test_bias_aucs_and_xauc_as_written(seed):
    y, s, w, g, _ = _sample(seed, G=4)
    pos, neg = y, ~y
    got = rw.bias_aucs(y, s, g, sample_weight=w)
    for k in np.unique(g):
        ing = g == k
        expect = {"subgroup_auc": _A(s, w, pos & ing, neg & ing), "bpsn_auc": _A(s, w, pos & ~ing, neg & ing),
                  "bnsp_auc": _A(s, w, pos & ing, neg & ~ing), "aeg_positive": 0.5 - _A(s, w, pos & ing, pos & ~ing),
                  "aeg_negative": 0.5 - _A(s, w, neg & ing, neg & ~ing)}
        assert got[k] == pytest.approx(expect, abs=1e-12)
    a, b = "g0", "g2"
    x = rw.xauc(y, s, g, a, b, sample_weight=w)
    A_, B_ = g == a, g == b
    xab, xba = _A(s, w, pos & A_, neg & B_), _A(s, w, pos & B_, neg & A_)
    assert tuple(x) == pytest.approx((xab, xba, xab - xba, _A(s, w, pos & A_, neg), _A(s, w, pos & B_, neg),
                                      _A(s, w, pos, neg & A_), _A(s, w, pos, neg & B_)), abs=1e-12)
    # "with b the rest ... the xAUC disparity of a group against the rest is BNSP - BPSN"
    two = np.where(g == a, a, "rest")
    xr = rw.xauc(y, s, two, a, "rest", sample_weight=w)
    assert xr.disparity == pytest.approx(got[a]["bnsp_auc"] - got[a]["bpsn_auc"], abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_delong_terms_average_to_the_statistic(seed):
    # "The weighted mean of h over P is theta, and so is its weighted mean over N."
    y, s, w, g, _ = _sample(seed)
    P, N = y & (g != "g1"), ~y & (g == "g1")
    h = _terms(s, w, P, N)
    theta = _A(s, w, P, N)
    assert w[P] @ h[P] / w[P].sum() == pytest.approx(theta, abs=1e-12)
    assert w[N] @ h[N] / w[N].sum() == pytest.approx(theta, abs=1e-12)


def test_integer_weights_are_repeated_rows():
    # "frequency weights: every count on this page becomes a total weight"
    y, s, w, g, _ = _sample(5, n=40)
    k = w.astype(int)
    a = rw.stats.by_group(y, s, g, sample_weight=w)
    b = rw.stats.by_group(np.repeat(y, k), np.repeat(s, k), np.repeat(g, k))
    for table in ("rows", "differences", "bias"):
        for ra, rb in zip(getattr(a, table), getattr(b, table)):
            fa = [v for v in ra if isinstance(v, float)]  # not n_rows (an int): it counts rows, not weight
            fb = [v for v in rb if isinstance(v, float)]
            assert fa == pytest.approx(fb, rel=1e-10, abs=1e-12)
    sa = rw.stats.stratified_auc(y, s, g, weighting="positives", sample_weight=w)
    sb = rw.stats.stratified_auc(np.repeat(y, k), np.repeat(s, k), np.repeat(g, k), weighting="positives")
    assert (sa.value, sa.std_error) == pytest.approx((sb.value, sb.std_error), rel=1e-12)


# --- "Criteria by group" and "Variances, covariances and tests" ------------------------------

def _group_stats(y, s, w, g):
    pos, neg = y, ~y
    groups = np.unique(g)
    own = {k: Stat(y, s, w, g, pos & (g == k), neg & (g == k)) for k in groups}
    rest = {k: Stat(y, s, w, g, pos & (g != k), neg & (g != k)) for k in groups}
    return groups, own, rest


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("with_clusters", [False, True])
def test_group_rows_differences_and_global_test_as_written(seed, with_clusters):
    y, s, w, g, cl = _sample(seed, clusters=with_clusters)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few clusters
        res = rw.stats.by_group(y, s, g, sample_weight=w, clusters=cl, bias=False)
        ref = rw.stats.by_group(y, s, g, sample_weight=w, clusters=cl, bias=False, reference="g1", adjust="bonferroni")
    groups, own, rest = _group_stats(y, s, w, g)
    z = sps.norm.ppf(0.975)
    # each group's row: its own cells (with clusters: the clusters of its rows)
    for row in res.rows:
        st = own[row.group]
        ing = g == row.group
        se = np.sqrt(_cov([st], y, w, g, cl)[0, 0])
        assert (row.value, row.std_error) == pytest.approx((st.value, se), abs=1e-12)
        assert (row.low, row.high) == pytest.approx((max(st.value - z * se, 0), min(st.value + z * se, 1)), abs=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            e = rw.stats.estimate(y[ing], s[ing], sample_weight=w[ing], clusters=None if cl is None else cl[ing])
        assert (row.value, row.std_error) == pytest.approx((e.value, e.std_error), abs=1e-12)
        if cl is None:  # DeLong on the group's rows: S10 / n+ + S01 / n-
            P, N = y & ing, ~y & ing
            h = _terms(s, w, P, N)
            S = [np.sum(w[X] * (h[X] - w[X] @ h[X] / w[X].sum()) ** 2) / (w[X].sum() - 1) / w[X].sum() for X in (P, N)]
            assert row.std_error ** 2 == pytest.approx(sum(S), abs=1e-12)
    # each group against the rest: Var(d) = Var(g) + Var(rest) - 2 Cov
    p = []
    for d in res.differences:
        C = _cov([own[d.group], rest[d.group]], y, w, g, cl)
        diff, var = own[d.group].value - rest[d.group].value, C[0, 0] + C[1, 1] - 2 * C[0, 1]
        if cl is None:
            assert C[0, 1] == 0.0  # disjoint cells: independent
        p.append(_p(diff, var))
        assert (d.versus, d.difference, d.std_error, d.p_value) == pytest.approx(("rest", diff, np.sqrt(var), p[-1]),
                                                                                 abs=1e-12)
        assert (d.low, d.high) == pytest.approx((diff - z * np.sqrt(var), diff + z * np.sqrt(var)), abs=1e-12)
    assert [d.p_adjusted for d in res.differences] == pytest.approx(list(_holm(p)), abs=1e-12)
    # against a reference, from the joint covariance of all groups
    C = _cov([own[k] for k in groups], y, w, g, cl)
    assert res.cov[("score", "auc")] == pytest.approx(C, abs=1e-12)
    if cl is None:
        assert np.count_nonzero(C - np.diag(np.diag(C))) == 0
    r = list(groups).index("g1")
    pr = []
    for d in ref.differences:
        k = list(groups).index(d.group)
        diff, var = own[d.group].value - own["g1"].value, C[k, k] + C[r, r] - 2 * C[k, r]
        pr.append(_p(diff, var))
        assert (d.difference, d.std_error, d.p_value) == pytest.approx((diff, np.sqrt(var), pr[-1]), abs=1e-12)
    assert [d.p_adjusted for d in ref.differences] == pytest.approx(list(np.minimum(1, 2 * np.array(pr))), abs=1e-12)
    # the global test: chi2 = (C theta)' (C Sigma C')^+ (C theta), df = rank(C Sigma C')
    theta = np.array([own[k].value for k in groups])
    D = np.eye(len(groups))[:-1] - np.eye(len(groups), k=1)[:-1]
    S = D @ C @ D.T
    chi2 = (D @ theta) @ np.linalg.pinv(S) @ (D @ theta)
    df = np.linalg.matrix_rank(S)
    t = res.global_tests[0]
    assert (t.statistic, t.df, t.p_value, t.n_groups) == pytest.approx((chi2, df, sps.chi2.sf(chi2, df), len(groups)),
                                                                       rel=1e-10, abs=1e-12)
    if cl is None:
        assert df == len(groups) - 1


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("with_clusters", [False, True])
def test_bias_statistics_intervals_and_tests_as_written(seed, with_clusters):
    y, s, w, g, cl = _sample(seed, clusters=with_clusters)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rw.stats.by_group(y, s, g, sample_weight=w, clusters=cl)
    pos, neg = y, ~y
    z = sps.norm.ppf(0.975)
    expect: dict = {}
    for k in np.unique(g):
        ing = g == k
        st = [Stat(y, s, w, g, pos & ing, neg & ing), Stat(y, s, w, g, pos & ~ing, neg & ing),
              Stat(y, s, w, g, pos & ing, neg & ~ing), Stat(y, s, w, g, pos & ing, pos & ~ing, gap=True),
              Stat(y, s, w, g, neg & ing, neg & ~ing, gap=True), Stat(y, s, w, g, pos, neg)]
        C = _cov(st, y, w, g, cl)
        v = [x.value for x in st]
        for j, name in enumerate(("subgroup_auc", "bpsn_auc", "bnsp_auc")):
            se = np.sqrt(C[j, j])
            d, dv = v[j] - v[5], C[j, j] + C[5, 5] - 2 * C[j, 5]
            expect[(k, name)] = (v[j], se, max(v[j] - z * se, 0), min(v[j] + z * se, 1), d, _p(d, dv))
        for j, name in ((3, "aeg_positive"), (4, "aeg_negative")):
            se = np.sqrt(C[j, j])
            expect[(k, name)] = (v[j], se, max(v[j] - z * se, -0.5), min(v[j] + z * se, 0.5), v[j], _p(v[j], C[j, j]))
        d, dv = v[2] - v[1], C[2, 2] + C[1, 1] - 2 * C[1, 2]
        expect[(k, "xauc_disparity")] = (d, np.sqrt(dv), max(d - z * np.sqrt(dv), -1), min(d + z * np.sqrt(dv), 1), d,
                                         _p(d, dv))
    for name in ("subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative", "xauc_disparity"):
        rows = [b for b in res.bias if b.statistic == name]
        assert len(rows) == 3
        for b in rows:
            assert (b.value, b.std_error, b.low, b.high, b.difference, b.p_value) == pytest.approx(
                expect[(b.group, name)], abs=1e-12), (b.group, name)
        # one family per statistic: its groups
        assert [b.p_adjusted for b in rows] == pytest.approx(list(_holm([b.p_value for b in rows])), abs=1e-12)


# --- "The stratified AUC" and "Its variance: the strata and the weights" ---------------------

class Terms(NamedTuple):
    """Scaled terms ``u`` (0 off the statistic) and the rows they live on."""

    u: np.ndarray
    rows: np.ndarray


def _raw_weight(weighting, p, q):
    return {"pairs": p * q, "positives": p, "size": p + q, "uniform": 1.0}[weighting]


def _stratified(y, s, w, st, weighting, clusters=None):
    pos, neg = y, ~y
    used = [k for k in np.unique(st) if w[pos & (st == k)].sum() > 0 and w[neg & (st == k)].sum() > 0]
    p = {k: w[pos & (st == k)].sum() for k in used}
    q = {k: w[neg & (st == k)].sum() for k in used}
    v = {k: _raw_weight(weighting, p[k], q[k]) for k in used}
    total = sum(v.values())
    c = {k: v[k] / total for k in used}
    auc = {k: _A(s, w, pos & (st == k), neg & (st == k)) for k in used}
    value = sum(c[k] * auc[k] for k in used)
    keep = np.isin(st, used)
    # the strata part: the terms c_g h_i of every stratum, cells = class x stratum
    u = np.zeros(y.shape[0])
    for k in used:
        ink = st == k
        u += c[k] * _terms(s, w, pos & ink, neg & ink)
    var_strata = _cov([Terms(u, keep)], y, w, st, clusters)[0, 0]
    if clusters is None:
        assert var_strata == pytest.approx(sum(c[k] ** 2 * _cov([Stat(y, s, w, st, pos & (st == k), neg & (st == k))],
                                                                y, w, st)[0, 0] for k in used), abs=1e-14)
    # the weights part: t_i = N_k (dv_g / dn_gk) (AUC_g - AUC_S) / sum v, cells = the classes
    dv = {"pairs": (lambda k: q[k], lambda k: p[k]), "positives": (lambda k: 1.0, lambda k: 0.0),
          "size": (lambda k: 1.0, lambda k: 1.0), "uniform": (lambda k: 0.0, lambda k: 0.0)}[weighting]
    N = (w[pos & keep].sum(), w[neg & keep].sum())
    t = np.zeros(y.shape[0])
    for k in used:
        ink = st == k
        t[pos & ink] = N[0] * dv[0](k) * (auc[k] - value) / total
        t[neg & ink] = N[1] * dv[1](k) * (auc[k] - value) / total
    one_group = np.full(y.shape[0], "all")  # the cells of the weights part are the two classes
    var_weights = _cov([Terms(t, keep)], y, w, one_group, clusters)[0, 0] if np.any(t != 0) else 0.0
    if weighting == "positives" and clusters is None:
        n_pos = N[0]
        jp = sum(p[k] / n_pos * (auc[k] - value) ** 2 for k in used) / (n_pos - 1)
        assert var_weights == pytest.approx(jp, abs=1e-14)
    return value, var_strata, var_weights, len(used), len(np.unique(st)) - len(used)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighting", ["pairs", "positives", "size", "uniform"])
@pytest.mark.parametrize("with_clusters", [False, True])
def test_stratified_auc_and_its_two_parts_as_written(seed, weighting, with_clusters):
    y, s, w, st, cl = _sample(seed, n=60, G=4, clusters=with_clusters)
    st = st.copy()
    onlyneg = np.flatnonzero(~y)[-3:]
    st[onlyneg] = "skipped"  # a stratum with negatives only
    value, vs, vw, n_used, n_skipped = _stratified(y, s, w, st, weighting, cl)
    assert rw.stratified_auc(y, s, st, weighting=weighting, sample_weight=w) == pytest.approx(value, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = rw.stats.stratified_auc(y, s, st, weighting=weighting, sample_weight=w, clusters=cl)
        e = rw.stats.estimate(y, s, "stratified_auc", strata=st, weighting=weighting, sample_weight=w, clusters=cl)
    assert (r.value, r.std_error_strata, r.std_error) == pytest.approx((value, np.sqrt(vs), np.sqrt(vs + vw)),
                                                                       abs=1e-12)
    assert (r.n_strata, r.n_skipped) == (n_used, n_skipped) == (4, 1)
    assert (e.value, e.std_error) == pytest.approx((r.value, r.std_error), abs=1e-15)
    if weighting == "uniform":
        assert vw == 0.0


def test_pairs_weighting_is_the_share_of_within_stratum_pairs():
    y, s, w, st, _ = _sample(7, G=3)
    same = st[:, None] == st[None, :]
    num = den = 0.0
    for i in np.flatnonzero(y):
        for j in np.flatnonzero(~y):
            if same[i, j]:
                num += w[i] * w[j] * _psi(s[i], s[j])
                den += w[i] * w[j]
    assert rw.stratified_auc(y, s, st, sample_weight=w) == pytest.approx(num / den, abs=1e-12)


# --- "Groups and strata with one class" ------------------------------------------------------

def test_one_class_group_as_written():
    y, s, w, g, _ = _sample(3, n=50)
    g = g.astype(object)
    neg_rows = np.flatnonzero(~y)[-4:]
    g[neg_rows] = "solo"  # negatives only
    with pytest.warns(rw.stats.OneClassGroupWarning, match="solo"):
        res = rw.stats.by_group(y, s, g, sample_weight=w)
    solo = next(r for r in res.rows if r.group == "solo")
    assert np.isnan([solo.value, solo.std_error, solo.low, solo.high]).all()
    assert res.one_class == ("solo",) and res.global_tests[0].n_groups == 3
    d = [x for x in res.differences]
    assert np.isnan(next(x.p_value for x in d if x.group == "solo"))
    others = [x for x in d if x.group != "solo"]
    assert [x.p_adjusted for x in others] == pytest.approx(list(_holm([x.p_value for x in others])), abs=1e-12)
    # its rows still belong to the rest of the other groups and to the overall AUC
    pos, neg = y, ~y
    for x in others:
        out = g != x.group
        assert x.difference == pytest.approx(_A(s, w, pos & ~out, neg & ~out) - _A(s, w, pos & out, neg & out),
                                             abs=1e-12)
    assert res.overall[0].value == pytest.approx(_A(s, w, pos, neg), abs=1e-12)
    # its own defined bias statistics keep their intervals and tests
    b = {x.statistic: x for x in res.bias if x.group == "solo"}
    ing = g == "solo"
    for name, st in (("bpsn_auc", Stat(y, s, w, g, pos & ~ing, neg & ing)),
                     ("aeg_negative", Stat(y, s, w, g, neg & ing, neg & ~ing, gap=True))):
        assert (b[name].value, b[name].std_error) == pytest.approx((st.value, np.sqrt(_cov([st], y, w, g)[0, 0])),
                                                                   abs=1e-12)
        assert np.isfinite(b[name].p_value)
    for name in ("subgroup_auc", "bnsp_auc", "aeg_positive", "xauc_disparity"):
        assert np.isnan([b[name].value, b[name].std_error, b[name].p_value]).all()
    with pytest.warns(rw.stats.OneClassGroupWarning):
        ref = rw.stats.by_group(y, s, g, sample_weight=w, reference="solo", bias=False)
    assert all(np.isnan(x.difference) for x in ref.differences)
    with pytest.warns(rw.UndefinedMetricWarning):
        ba = rw.bias_aucs(y, s, g, sample_weight=w)
    assert np.isnan(ba["solo"]["subgroup_auc"]) and np.isfinite(ba["solo"]["bpsn_auc"])
    with pytest.warns(rw.UndefinedMetricWarning):
        assert np.isnan(rw.stratified_auc(y[~y], s[~y], g[~y]))


# --- the page's hand examples and printed outputs --------------------------------------------

def test_eight_row_example_by_hand():
    y = np.array([1, 1, 0, 0, 1, 1, 0, 0], dtype=bool)
    s = np.array([9, 6, 5, 2, 7, 5, 8, 3], dtype=float)
    g = np.array(["a"] * 4 + ["b"] * 4)
    b = rw.bias_aucs(y, s, g)
    assert b["a"] == {"subgroup_auc": 1.0, "bpsn_auc": 3.5 / 4, "bnsp_auc": 3 / 4, "aeg_positive": -0.25,
                      "aeg_negative": 0.25}
    assert (b["b"]["subgroup_auc"], b["b"]["bpsn_auc"], b["b"]["bnsp_auc"]) == (0.5, 0.75, 0.875)
    assert rw.auc(y, s) == 12.5 / 16
    x = rw.xauc(y, s, g, "a", "b")
    assert tuple(x) == (0.75, 0.875, -0.125, 7 / 8, 5.5 / 8, 7.5 / 8, 5 / 8)
    res = rw.stats.by_group(y, s, g)
    a_row, b_row = res.rows
    assert (a_row.std_error, b_row.std_error) == pytest.approx((0.0, 0.5), abs=1e-15)
    d = res.differences[0]
    assert (d.difference, d.std_error, d.statistic) == pytest.approx((0.5, 0.5, 1.0), abs=1e-15)
    assert (d.p_value, d.p_adjusted) == pytest.approx((2 * sps.norm.sf(1), 4 * sps.norm.sf(1)), abs=1e-15)
    t = res.global_tests[0]
    assert (t.statistic, t.df) == pytest.approx((1.0, 1.0), abs=1e-14)
    bpsn_a = next(r for r in res.bias if r.group == "a" and r.statistic == "bpsn_auc")
    assert bpsn_a.std_error ** 2 == pytest.approx(1 / 32, abs=1e-15)


def test_stratified_hand_example():
    y = np.array([1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0], dtype=bool)
    s = np.array([6, 3, 2, 4, 7, 9, 5, 8, 9, 4, 6, 3, 1], dtype=float)
    st = np.array(["x"] * 6 + ["y"] * 5 + ["z"] * 2)
    expect = {"pairs": 8 / 14, "positives": 13 / 20, "size": 7 / 12, "uniform": 29 / 48}
    for weighting, v in expect.items():
        assert rw.stratified_auc(y, s, st, weighting=weighting) == pytest.approx(v, abs=1e-15)
    assert rw.auc(y, s) == 0.6875
    assert rw.stats.estimate(y[st == "x"], s[st == "x"]).std_error ** 2 == pytest.approx(7 / 96, abs=1e-15)
    assert rw.stats.estimate(y[st == "y"], s[st == "y"]).std_error ** 2 == pytest.approx(1 / 18, abs=1e-15)
    r = rw.stats.stratified_auc(y, s, st, weighting="positives")
    assert r.std_error_strata ** 2 == pytest.approx(19 / 600, abs=1e-15)
    assert r.std_error ** 2 - r.std_error_strata ** 2 == pytest.approx(121 / 9600, abs=1e-15)
    assert r.std_error ** 2 == pytest.approx(17 / 384, abs=1e-15)
    assert (r.n_strata, r.n_skipped) == (2, 1)


def test_every_example_of_the_page_runs_as_printed():
    text = open(PAGE, encoding="utf-8").read()
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "docs/groups.md", PAGE, 0)
    assert len(test.examples) >= 30
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of docs/groups.md print something else (run doctest)"


def test_the_page_cites_its_papers():
    text = open(PAGE, encoding="utf-8").read()
    for cite in ("Borkan, Dixon, Sorensen, Thain", "Kallus and A. Zhou (2019)", "Janes and M. S. Pepe (2009)",
                 "Deep interest network", "DeLong, D. M. DeLong and D. L. Clarke-Pearson (1988)",
                 "Obuchowski (1997)", "van Elteren (1960)", "Holm (1979)"):
        assert cite in text, cite
