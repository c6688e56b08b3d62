"""The formulas of ``docs/`` are the ones the code computes.

Each test transcribes a formula *as the documentation writes it* (docs/criteria.md,
docs/inference.md, docs/learners.md; the section is named in each test) into literal
numpy, and compares it with the library on small samples with ties and integer weights.
If the code or the page changes alone, a test here fails. The full O(n^2) reference
definitions used by the rest of the suite live in ``tests/_support/reference*.py``; these
transcriptions are deliberately separate, since their subject is the text."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

import rankwise as rw
from rankwise import losses
from _support.quiet import quiet


def _sample(seed, n=23, levels=6, weights=True):
    """Scores on a few levels (heavy ties), both classes, integer weights 1..3."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, levels, n).astype(float) / 2.0
    w = rng.integers(1, 4, n).astype(float) if weights else np.ones(n)
    return y, s, w


SEEDS = [0, 1, 2, 3, 4]


# --- docs/criteria.md, "The rank table and the linear rank statistic" -------------------

def _table(y, s, w):
    lev = np.unique(s)
    a = np.array([w[(y == 1) & (s == v)].sum() for v in lev])
    b = np.array([w[(y == 0) & (s == v)].sum() for v in lev])
    Pb = np.concatenate(([0.0], np.cumsum(a)[:-1]))
    Nb = np.concatenate(([0.0], np.cumsum(b)[:-1]))
    return a, b, Pb, Nb


def _ranks(a, b, Pb, Nb, ties):
    if ties == "average":
        return Pb + Nb + (a + b + 1.0) / 2.0
    return Pb + Nb + a + b


PHIS = {"auc": lambda u: u, "pnorm_push:p=3": lambda u: u ** 3,
        "local_auc:u0=0.6": lambda u: np.where(u >= 0.6, u, 0.0)}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", ["average", "max"])
@pytest.mark.parametrize("phi", list(PHIS))
def test_rank_statistic_and_its_scales(seed, ties, phi):
    y, s, w = _sample(seed)
    f = PHIS[phi]
    a, b, Pb, Nb = _table(y, s, w)
    n_pos, n_neg = a.sum(), b.sum()
    N = n_pos + n_neg
    W = np.sum(a * f(_ranks(a, b, Pb, Nb, ties) / (N + 1)))
    r_min = Pb + (a + 1.0) / 2.0 if ties == "average" else Pb + a
    W_min = np.sum(a * f(r_min / (N + 1)))
    W_max = np.sum(a * f((r_min + n_neg) / (N + 1)))
    expect = {"raw": W, "mean": W / n_pos, "minmax": (W - W_min) / (W_max - W_min)}
    for scale, value in expect.items():
        got = rw.rank_statistic(y, s, phi, ties=ties, scale=scale, sample_weight=w)
        assert got == pytest.approx(value, rel=1e-12, abs=1e-14), scale


@pytest.mark.parametrize("seed", SEEDS)
def test_rank_statistic_of_u_is_an_affine_function_of_the_auc(seed):
    # W_auc = [n+ n- AUC + n+ (n+ + 1) / 2] / (N + 1), with ties and weights; minmax = AUC.
    y, s, w = _sample(seed)
    n_pos, n_neg = w[y == 1].sum(), w[y == 0].sum()
    auc = rw.auc(y, s, sample_weight=w)
    W = rw.rank_statistic(y, s, "auc", sample_weight=w)
    assert W == pytest.approx((n_pos * n_neg * auc + n_pos * (n_pos + 1) / 2) / (n_pos + n_neg + 1), rel=1e-12)
    assert rw.rank_statistic(y, s, "auc", scale="minmax", sample_weight=w) == pytest.approx(auc, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_weighted_auc_table_form(seed):
    # AUC = (1 / (n+ n-)) sum_l a_l (Nb_l + b_l / 2), and the pair form.
    y, s, w = _sample(seed)
    a, b, Pb, Nb = _table(y, s, w)
    table_form = np.sum(a * (Nb + b / 2)) / (a.sum() * b.sum())
    P, M = (y == 1), (y == 0)
    pair = (w[P][:, None] * w[M][None, :] * ((s[P][:, None] > s[M][None, :]) + 0.5 * (s[P][:, None] == s[M][None, :])))
    assert table_form == pytest.approx(pair.sum() / (a.sum() * b.sum()), rel=1e-12)
    assert rw.auc(y, s, sample_weight=w) == pytest.approx(table_form, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_ks_average_precision_pnorm_and_local_auc_as_written(seed):
    y, s, w = _sample(seed)
    a, b, Pb, Nb = _table(y, s, w)
    n_pos, n_neg = a.sum(), b.sum()
    A, B = n_pos - Pb, n_neg - Nb  # mass at or above each level
    assert rw.ks_statistic(y, s, sample_weight=w) == pytest.approx(np.max(np.abs(A / n_pos - B / n_neg)), abs=1e-14)
    keep = a > 0
    ap = np.sum(a[keep] / n_pos * A[keep] / (A[keep] + B[keep]))
    assert rw.average_precision(y, s, sample_weight=w) == pytest.approx(ap, rel=1e-12)
    for ties, c in (("average", 0.5), ("max", 1.0)):
        height = Pb + c * a
        R = np.sum(b * height ** 3)
        got = rw.pnorm_push(y, s, p=3, ties=ties, sample_weight=w)
        assert got == pytest.approx((R / (n_neg * n_pos ** 3)) ** (1 / 3), rel=1e-12)
    N = n_pos + n_neg
    for top in (0.2, 0.5, 1.0):
        strictly_above = N - (Pb + Nb + a + b)
        kept = strictly_above < top * N
        expect = np.sum((a * (Nb + b / 2))[kept]) / (n_pos * n_neg)
        assert rw.local_auc(y, s, top=top, sample_weight=w) == pytest.approx(expect, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 3, 8])
def test_dcg_tied_blocks_as_written(seed, k):
    # A block of tied scores at positions q0+1 .. q0+c gives each positive the mean of
    # d(q) 1{q <= k} over those positions; NDCG divides by sum_{q <= min(k, n+)} d(q).
    y, s, _ = _sample(seed, weights=False)
    n = y.shape[0]
    kk = n if k is None else k
    d = lambda q: 1.0 / np.log2(1.0 + q)  # noqa: E731
    dcg, q0 = 0.0, 0
    for v in np.unique(s)[::-1]:
        block = s == v
        c = int(block.sum())
        q = np.arange(q0 + 1, q0 + c + 1)
        dcg += y[block].sum() * np.mean(d(q) * (q <= kk))
        q0 += c
    assert rw.dcg(y, s, k=k) == pytest.approx(dcg, rel=1e-12)
    ideal = np.sum(d(np.arange(1, min(kk, int(y.sum())) + 1)))
    assert rw.ndcg(y, s, k=k) == pytest.approx(dcg / ideal, rel=1e-12)


# --- docs/criteria.md, "Ranking risk, a U-statistic" ------------------------------------

def _kernel(y, s):
    dy = y[:, None] - y[None, :]
    ds = s[:, None] - s[None, :]
    return (dy * ds < 0) + 0.5 * ((ds == 0) & (dy != 0))


def _real_sample(seed, n, labels, levels):
    """Real-valued labels on a few values, tied scores, integer weights 1..3."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, labels, n).astype(float)
    s = rng.integers(0, levels, n).astype(float)
    return y, s, rng.integers(1, 4, n).astype(float)


@pytest.mark.parametrize("seed", SEEDS)
def test_ranking_risk_as_written(seed):
    n = 17
    y, s, w = _real_sample(seed, n, 4, 5)
    q = _kernel(y, s)
    iu = np.triu_indices(n, 1)
    ww = (w[:, None] * w[None, :])[iu]
    comparable = (y[:, None] != y[None, :])[iu]
    num = np.sum(ww * q[iu])
    assert rw.ranking_risk(y, s, sample_weight=w, pairs="all") == pytest.approx(num / ww.sum(), rel=1e-12)
    assert rw.ranking_risk(y, s, sample_weight=w, pairs="comparable") == pytest.approx(
        num / ww[comparable].sum(), rel=1e-12)
    # As the page says: integer weights are repetitions for "comparable", not for "all".
    yr, sr = np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int))
    assert rw.ranking_risk(yr, sr, pairs="comparable") == pytest.approx(
        rw.ranking_risk(y, s, sample_weight=w, pairs="comparable"), rel=1e-12)
    assert rw.ranking_risk(yr, sr, pairs="all") != pytest.approx(rw.ranking_risk(y, s, sample_weight=w, pairs="all"))


# --- docs/inference.md, "DeLong's variance of the AUC" ----------------------------------

def _delong_var(y, s, w):
    P, M = (y == 1), (y == 0)
    n_pos, n_neg = w[P].sum(), w[M].sum()
    win = (s[P][:, None] > s[M][None, :]) + 0.5 * (s[P][:, None] == s[M][None, :])
    V10 = win @ w[M] / n_neg
    V01 = w[P] @ win / n_pos
    S10 = np.sum(w[P] * (V10 - np.sum(w[P] * V10) / n_pos) ** 2) / (n_pos - 1)
    S01 = np.sum(w[M] * (V01 - np.sum(w[M] * V01) / n_neg) ** 2) / (n_neg - 1)
    return S10 / n_pos + S01 / n_neg


def test_delong_worked_example():
    e = rw.stats.estimate([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9])
    assert e.value == pytest.approx(7 / 9, rel=1e-14)
    assert e.std_error == pytest.approx(math.sqrt(5) / 9, rel=1e-13)


@pytest.mark.parametrize("seed", SEEDS)
def test_delong_variance_as_written(seed):
    y, s, w = _sample(seed)
    var = _delong_var(y, s, w)
    e = rw.stats.estimate(y, s, "auc", sample_weight=w)
    assert e.std_error ** 2 == pytest.approx(var, rel=1e-11)
    # frequency weights: the same as the repeated sample
    k = w.astype(int)
    assert rw.stats.estimate(np.repeat(y, k), np.repeat(s, k)).std_error == pytest.approx(e.std_error, rel=1e-11)


# --- docs/inference.md, "Clustered samples" -------------------------------------------------

def _cluster_var_as_written(y, s, w, g, K_scores=None):
    """u_i = w_i (h_i - class mean of h) / n_class; U by cluster and class;
    Var = I+/(I+-1) sum U+^2 + I-/(I--1) sum U-^2 + 2 I/(I-1) sum U+ U-."""
    P, M = (y == 1), (y == 0)
    n_pos, n_neg = w[P].sum(), w[M].sum()
    win = (s[P][:, None] > s[M][None, :]) + 0.5 * (s[P][:, None] == s[M][None, :])
    h = np.empty(len(y))
    h[P] = win @ w[M] / n_neg  # placements
    h[M] = w[P] @ win / n_pos
    u = np.empty(len(y))
    u[P] = w[P] * (h[P] - np.sum(w[P] * h[P]) / n_pos) / n_pos
    u[M] = w[M] * (h[M] - np.sum(w[M] * h[M]) / n_neg) / n_neg
    ids = list(dict.fromkeys(g.tolist()))
    Up = np.array([u[(g == c) & P].sum() for c in ids])
    Um = np.array([u[(g == c) & M].sum() for c in ids])
    Ip = len(set(g[P].tolist()))
    Im = len(set(g[M].tolist()))
    I = len(ids)
    return Ip / (Ip - 1) * np.sum(Up ** 2) + Im / (Im - 1) * np.sum(Um ** 2) + 2 * I / (I - 1) * np.sum(Up * Um)


@pytest.mark.parametrize("seed", SEEDS)
def test_cluster_variance_as_written(seed):
    y, s, w = _sample(seed, n=40)
    rng = np.random.default_rng(seed + 100)
    g = np.array([f"patient-{k}" for k in rng.integers(0, 9, 40)])  # string ids, unequal clusters
    with pytest.warns(rw.stats.FewClustersWarning, match="clusters"):  # at most 9 clusters hold a class
        e = rw.stats.estimate(y, s, "auc", sample_weight=w, clusters=g)
    assert e.std_error ** 2 == pytest.approx(_cluster_var_as_written(y, s, w, g), rel=1e-11)
    assert e.n_clusters == len(set(g.tolist()))
    # one row per cluster, no weights: the independent-rows (DeLong) variance
    one = np.ones_like(w)
    alone = rw.stats.estimate(y, s, clusters=np.arange(40)).std_error ** 2
    assert alone == pytest.approx(_delong_var(y, s, one), rel=1e-12)
    assert alone == pytest.approx(_cluster_var_as_written(y, s, one, np.arange(40)), rel=1e-12)


# --- docs/inference.md, "The Hájek variance of a linear rank statistic" -----------------

def _hajek_var_w_phi(y, s, f, ties="average", bandwidth=None, positions=None):
    w = np.ones_like(s)
    a, b, Pb, Nb = _table(y, s, w)
    n_pos, n_neg = a.sum(), b.sum()
    N = n_pos + n_neg
    c = 0.5 if ties == "average" else 1.0
    R = _ranks(a, b, Pb, Nb, ties)
    u = R / (N + 1)
    if bandwidth is None:
        m = N if positions is None else min(positions, N)
        bandwidth = min(0.5, max(2.0, math.sqrt(m)) / (N + 1))
    width = bandwidth * (N + 1)
    lo = np.clip(R - width / 2, 0.0, N + 1 - width)
    hi = lo + width
    slope = (f(hi / (N + 1)) - f(lo / (N + 1))) / (width / (N + 1))
    g = a * slope / (N + 1)
    D = np.array([g[k + 1:].sum() + c * g[k] for k in range(g.shape[0])])
    hp, hn = n_pos * (f(u) + D), n_neg * D

    def class_var(h, m, n_c):
        mean = np.sum(m * h) / n_c
        return np.sum(m * (h - mean) ** 2) / (n_c - 1) / n_c

    return class_var(hp, a, n_pos) + class_var(hn, b, n_neg)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("phi", list(PHIS))
@pytest.mark.parametrize("ties", ["average", "max"])
def test_hajek_variance_of_w_phi_as_written(seed, phi, ties):
    y, s, _ = _sample(seed, n=40, levels=12, weights=False)
    var = _hajek_var_w_phi(y, s, PHIS[phi], ties)
    e = rw.stats.estimate(y, s, "rank_statistic", phi=phi, ties=ties, method="hajek")
    assert e.std_error ** 2 == pytest.approx(var, rel=1e-10)
    e2 = rw.stats.estimate(y, s, "rank_statistic", phi=phi, ties=ties, bandwidth=0.3)
    assert e2.std_error ** 2 == pytest.approx(_hajek_var_w_phi(y, s, PHIS[phi], ties, bandwidth=0.3), rel=1e-10)


@pytest.mark.parametrize("seed", SEEDS)
def test_hajek_of_u_is_delong_scaled(seed):
    # Var(W_auc) = (n+ n- / (N + 1))^2 Var_DeLong; with scale="minmax" the standard error is DeLong's.
    y, s, w = _sample(seed)
    n_pos, n_neg = w[y == 1].sum(), w[y == 0].sum()
    dl = _delong_var(y, s, w)
    raw = rw.stats.estimate(y, s, "rank_statistic", phi="auc", sample_weight=w)
    assert raw.std_error ** 2 == pytest.approx((n_pos * n_neg / (n_pos + n_neg + 1)) ** 2 * dl, rel=1e-10)
    mm = rw.stats.estimate(y, s, "rank_statistic", phi="auc", scale="minmax", sample_weight=w)
    assert mm.std_error ** 2 == pytest.approx(dl, rel=1e-10)


# --- docs/inference.md, "Normal intervals" and the bootstrap ----------------------------

def test_logit_interval_as_written():
    y, s, w = _sample(3)
    e = rw.stats.estimate(y, s, "auc", sample_weight=w)
    z = sps.norm.ppf(0.975)
    x = e.value
    g = np.log(x / (1 - x))
    se_g = e.std_error / (x * (1 - x))
    expect = [1 / (1 + np.exp(-(g - z * se_g))), 1 / (1 + np.exp(-(g + z * se_g)))]
    ci = e.confidence_interval(0.95, transform="logit")
    assert [ci.low, ci.high] == pytest.approx(expect, rel=1e-12)


def test_bca_as_written():
    y, s, w = _sample(2, n=30, levels=10, weights=False)
    e = rw.stats.estimate(y, s, "auc")
    reps = e.bootstrap_distribution(500, random_state=7)
    B = reps.shape[0]
    b = (np.sum(reps < e.value) + 0.5 * np.sum(reps == e.value)) / B
    z0 = sps.norm.ppf(min(max(b, 0.5 / B), 1 - 0.5 / B))
    # the acceleration from the placements (the AUC's projection terms), U = (h - mean_c) / n_c
    P, M = (y == 1), (y == 0)
    win = (s[P][:, None] > s[M][None, :]) + 0.5 * (s[P][:, None] == s[M][None, :])
    U = np.concatenate([(win.mean(1) - win.mean()) / P.sum(), (win.mean(0) - win.mean()) / M.sum()])
    acc = np.sum(U ** 3) / (6 * np.sum(U ** 2) ** 1.5)
    zq = sps.norm.ppf([0.025, 0.975])
    levels = sps.norm.cdf(z0 + (z0 + zq) / (1 - acc * (z0 + zq)))
    ci = e.confidence_interval(0.95, method="bootstrap", n_resamples=500, random_state=7)
    assert [ci.low, ci.high] == pytest.approx(np.quantile(reps, levels).tolist(), rel=1e-12)


# --- docs/inference.md, "Comparing scorers" ---------------------------------------------

def _adjust(p, how):
    m = p.shape[0]
    order = np.argsort(p)
    ps = p[order]
    out = np.empty(m)
    for i in range(m):  # i-th smallest, 0-based
        if how == "holm":
            v = max((m - j) * ps[j] for j in range(i + 1))
        elif how == "bh":
            v = min(m * ps[j] / (j + 1) for j in range(i, m))
        else:
            v = m * ps[i]
        out[order[i]] = min(1.0, v)
    return out


@pytest.mark.parametrize("how", ["holm", "bonferroni", "bh"])
def test_adjustments_as_written(how):
    p = np.random.default_rng(5).uniform(0, 0.2, 9)
    assert rw.stats.adjust_p_values(p, how) == pytest.approx(_adjust(p, how), rel=1e-14)


def test_compare_tests_as_written():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 60)
    base = y + rng.normal(0, 1.2, 60)
    scores = {"a": base, "b": base + rng.normal(0, 0.8, 60), "c": np.round(base + rng.normal(0, 1, 60))}
    for alternative in ("two-sided", "greater", "less"):
        c = rw.stats.compare(y, scores, reference="c", alternative=alternative, adjust="holm")
        S = c.cov
        for pair in c.pairs:
            i, j = c.names.index(pair.a), c.names.index(pair.b)
            d = c.values[i] - c.values[j]
            se = math.sqrt(S[i, i] + S[j, j] - 2 * S[i, j])
            z = d / se
            p = {"two-sided": 2 * (1 - sps.norm.cdf(abs(z))), "greater": 1 - sps.norm.cdf(z),
                 "less": sps.norm.cdf(z)}[alternative]
            assert (pair.std_error, pair.statistic, pair.p_value) == pytest.approx((se, z, p), rel=1e-10)
        assert len(c.pairs) == 2 and c.family == "each against 'c' (2)"
        assert [pr.p_adjusted for pr in c.pairs] == pytest.approx(_adjust(np.array([pr.p_value for pr in c.pairs]),
                                                                          "holm"), rel=1e-12)
    # global test: C the successive differences, chi2 = d' (C S C')^+ d, df = rank
    Cm = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])
    d = Cm @ c.values
    V = Cm @ c.cov @ Cm.T
    stat = d @ np.linalg.pinv(V) @ d
    assert c.global_statistic == pytest.approx(stat, rel=1e-9)
    assert c.global_df == np.linalg.matrix_rank(V)
    assert c.global_p_value == pytest.approx(sps.chi2.sf(stat, c.global_df), rel=1e-9)
    # paired covariance: within-class sample covariances of the placements over n_c
    P, M = (y == 1), (y == 0)
    pl_p, pl_n = [], []
    for name in c.names:
        sc = scores[name]
        win = (sc[P][:, None] > sc[M][None, :]) + 0.5 * (sc[P][:, None] == sc[M][None, :])
        pl_p.append(win.mean(1))
        pl_n.append(win.mean(0))
    Sigma = np.cov(np.array(pl_p)) / P.sum() + np.cov(np.array(pl_n)) / M.sum()
    assert c.cov == pytest.approx(Sigma, rel=1e-10)


def test_unpaired_welch_df_as_written():
    ya, sa, _ = _sample(1, weights=False)
    yb, sb, _ = _sample(2, n=31, weights=False)
    c = rw.stats.compare_unpaired(ya, sa, yb, sb)
    va, vb = c.cov[0, 0], c.cov[1, 1]
    assert c.df == pytest.approx((va + vb) ** 2 / (va ** 2 / (len(ya) - 1) + vb ** 2 / (len(yb) - 1)), rel=1e-12)
    t = (c.values[0] - c.values[1]) / math.sqrt(va + vb)
    assert c.pairs[0].p_value == pytest.approx(2 * sps.t(c.df).sf(abs(t)), rel=1e-10)


# --- docs/inference.md, "The ranking risk: Hoeffding's decomposition" -------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_hoeffding_variance_as_written(seed):
    n = 19
    y, s, _ = _real_sample(seed, n, 3, 6)
    q = _kernel(y, s).astype(float)
    off = ~np.eye(n, dtype=bool)
    L = q[off].mean()
    g = (q * off).sum(1) / (n - 1)                      # row means of the kernel
    zeta1 = np.mean((g - g.mean()) ** 2)
    zeta2 = np.mean(q[off] ** 2) - L ** 2               # (D + T/4) / A - L^2
    var = (4 * (n - 2) * zeta1 + 2 * zeta2) / (n * (n - 1))
    e = rw.stats.estimate(y, s, "ranking_risk", pairs="all")
    dec = e.decomposition
    assert (dec.zeta1, dec.zeta2) == pytest.approx((zeta1, zeta2), rel=1e-10, abs=1e-15)
    assert e.std_error ** 2 == pytest.approx(var, rel=1e-10)
    assert rw.stats.estimate(y, s, "ranking_risk", pairs="all", method="hajek").std_error ** 2 == pytest.approx(
        4 * zeta1 / n, rel=1e-10)
    assert dec.var_degenerate == pytest.approx(2 * (zeta2 - 2 * zeta1) / (n * (n - 1)), rel=1e-10, abs=1e-15)


# --- docs/learners.md -------------------------------------------------------------------

def _pairs(y, s, w):
    P, M = (y == 1), (y == 0)
    m = s[P][:, None] - s[M][None, :]
    ww = w[P][:, None] * w[M][None, :]
    return m, ww


@pytest.mark.parametrize("seed", SEEDS)
def test_pairwise_surrogates_closed_forms(seed):
    y, s, w = _sample(seed)
    s = s + np.random.default_rng(seed).normal(0, 0.3, s.shape[0])
    m, ww = _pairs(y, s, w)
    W = ww.sum()
    c = 1.0
    P, M = (y == 1), (y == 0)
    mup, mun = np.average(s[P], weights=w[P]), np.average(s[M], weights=w[M])
    Vp = np.average((s[P] - mup) ** 2, weights=w[P])
    Vn = np.average((s[M] - mun) ** 2, weights=w[M])
    squared = (c - mup + mun) ** 2 + Vp + Vn
    assert squared == pytest.approx(np.sum(ww * (c - m) ** 2) / W, rel=1e-12)
    assert losses.pairwise("squared").value(y, s, w) == pytest.approx(squared, rel=1e-12)
    expo = np.sum(w[P] * np.exp(-s[P])) * np.sum(w[M] * np.exp(s[M])) / W
    assert losses.pairwise("exponential").value(y, s, w) == pytest.approx(expo, rel=1e-12)
    hinge = np.sum(ww * np.maximum(0, c - m)) / W
    assert losses.pairwise("hinge").value(y, s, w) == pytest.approx(hinge, rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_bbr_moments_and_closed_form(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 3))
    y = (X[:, 0] + rng.normal(0, 1, 30) > 0).astype(int)
    w = rng.integers(1, 4, 30).astype(float)
    P, M = (y == 1), (y == 0)
    d = (X[P][:, None, :] - X[M][None, :, :]).reshape(-1, 3)
    pw = (w[P][:, None] * w[M][None, :]).ravel()
    mu = pw @ d / pw.sum()
    Sigma = (d.T * pw) @ d / pw.sum()
    mp, mn = np.average(X[P], axis=0, weights=w[P]), np.average(X[M], axis=0, weights=w[M])
    Mp = (X[P].T * w[P]) @ X[P] / w[P].sum()
    Mn = (X[M].T * w[M]) @ X[M] / w[M].sum()
    assert mu == pytest.approx(mp - mn, abs=1e-12)
    assert Sigma == pytest.approx(Mp + Mn - np.outer(mp, mn) - np.outer(mn, mp), abs=1e-12)
    alpha = 0.1
    m = rw.BBRRanker(alpha=alpha).fit(X, y, sample_weight=w)
    assert m.pair_mean_ == pytest.approx(mu, abs=1e-12)
    assert m.pair_covariance_ == pytest.approx(Sigma, abs=1e-12)
    assert m.coef_ == pytest.approx(np.linalg.solve(Sigma + alpha * np.eye(3), mu), rel=1e-9)
    # Outside the ball: w(nu) = (Sigma + (alpha + nu) I)^{-1} mu with ||w|| = W*.
    r = 0.5 * np.linalg.norm(m.coef_)
    mb = rw.BBRRanker(alpha=alpha, radius=r).fit(X, y, sample_weight=w)
    assert np.linalg.norm(mb.coef_) == pytest.approx(r, rel=1e-9)
    assert mb.coef_ == pytest.approx(np.linalg.solve(Sigma + (alpha + mb.multiplier_) * np.eye(3), mu), rel=1e-8)


@pytest.mark.parametrize("name", sorted(losses.LOSSES))
def test_regret_bound_constant_and_strong_properness(name):
    loss = losses.get(name)
    lam = loss.strong_properness
    for p in (0.1, 0.5, 0.8):
        for r in (1e-4, 0.01, 0.3):
            bound = math.sqrt(2) / (p * (1 - p) * math.sqrt(lam)) * math.sqrt(r)
            assert loss.regret_bound(r, p) == pytest.approx(bound, rel=1e-14)
            assert rw.theory.theorem13_bound(r, p, lam) == pytest.approx(bound, rel=1e-12)
    # lambda = inf over eta of -H''(eta), H the Bayes risk of the table
    # (a lower bound everywhere, approached at 1/2 or at the ends): a grid of (0, 1) to 1e-3
    eta = np.r_[np.linspace(0.001, 0.999, 999), 0.5]
    h = 1e-5
    d2 = (loss.bayes_risk(eta + h) - 2 * loss.bayes_risk(eta) + loss.bayes_risk(eta - h)) / h ** 2
    assert np.all(-d2 >= lam * (1 - 1e-4))
    assert float(np.min(-d2)) <= lam * (1 + 1e-2)
    # H(eta) = min over yhat of L(eta, yhat), attained at the link psi(eta)
    for e in (0.2, 0.5, 0.7):
        assert float(loss.conditional_risk(e, loss.link(e))) == pytest.approx(float(loss.bayes_risk(e)), rel=1e-10)


def test_low_noise_and_balanced_bounds_as_written():
    loss = losses.get("squared")
    r, p, a, C = 0.04, 0.3, 0.5, 2.0
    e = (1 + a) / (2 + a)
    assert loss.low_noise_bound(r, p, a, C) == pytest.approx(C / (p * (1 - p)) * (2 / 8) ** e * r ** e, rel=1e-14)
    assert losses.balanced_regret_bound(0.01, "logistic") == pytest.approx(0.2, rel=1e-14)
    assert losses.balanced_regret_bound(0.02, "exponential") == pytest.approx(3 / math.sqrt(2) * math.sqrt(0.02),
                                                                              rel=1e-14)


def test_pnorm_push_objective_factorises():
    # R_p = sum_k v_k (sum_i v_i e^{-(s_i - s_k)})^p = P^p N (docs/learners.md)
    rng = np.random.default_rng(0)
    sp, sn = rng.normal(size=7), rng.normal(size=5)
    vp, vn = rng.uniform(size=7), rng.uniform(size=5)
    vp, vn = vp / vp.sum(), vn / vn.sum()
    p = 3.0
    literal = np.sum(vn * np.sum(vp[:, None] * np.exp(-(sp[:, None] - sn[None, :])), axis=0) ** p)
    assert literal == pytest.approx(np.sum(vp * np.exp(-sp)) ** p * np.sum(vn * np.exp(p * sn)), rel=1e-12)
    X = np.c_[np.r_[sp, sn]]
    y = np.r_[np.ones(7), np.zeros(5)].astype(int)
    m = quiet(rw.PNormPush(p=p, n_estimators=3).fit, X, y)
    s = m.decision_function(X) - m.intercept_
    P, M = y == 1, y == 0
    v = np.sum(1 / 7 * np.exp(-s[P])) ** p * np.sum(1 / 5 * np.exp(p * s[M]))
    assert m.objective_[-1] == pytest.approx(v, rel=1e-9)


# --- docs/learners.md, "Boosted trees on all pairs" -------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_boosting_second_derivatives_as_documented(seed):
    """The per-row second derivatives as the page writes them (pair sums for the pairwise
    surrogates, the a_i / b_k form for the p-norm push), against the library."""
    y, s, w = _sample(seed)
    s = s + np.random.default_rng(seed).normal(0, 0.3, s.shape[0])   # off the squared hinge's kink
    P, M = y == 1, y == 0
    W = w[P].sum() * w[M].sum()
    m = s[P][:, None] - s[M][None, :]
    a = np.exp(-np.abs(m))
    d2 = {"exponential": np.exp(-m), "squared": np.full(m.shape, 2.0),
          "squared_hinge": np.where(m < 1.0, 2.0, 0.0), "logistic": a / (1 + a) ** 2}
    for name, phi2 in d2.items():
        want = np.empty(s.shape[0])
        want[P] = w[P] / W * (phi2 @ w[M])
        want[M] = w[M] / W * (w[P] @ phi2)
        params = {"mode": "exact"} if name == "logistic" else {}
        h = rw.learners.AllPairsObjective(name, **params).prepare(y, w).value_grad_hess(s)[2]
        np.testing.assert_allclose(h, want, rtol=1e-10, atol=1e-15)
    p = 3.0
    v = np.where(P, w / w[P].sum(), w / w[M].sum())
    Pm, N = np.sum(v[P] * np.exp(-s[P])), np.sum(v[M] * np.exp(p * s[M]))
    R = Pm ** p * N
    ai, bk = v[P] * np.exp(-s[P]) / Pm, v[M] * np.exp(p * s[M]) / N
    want = np.empty(s.shape[0])
    want[P] = R * (p * (p - 1) * ai ** 2 + p * ai)
    want[M] = p ** 2 * R * bk
    h = rw.learners.AllPairsObjective("pnorm_push", p=p).prepare(y, w).value_grad_hess(s)[2]
    np.testing.assert_allclose(h, want, rtol=1e-10)
