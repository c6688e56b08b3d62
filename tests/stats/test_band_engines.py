"""The order-statistics engine of ROC bands and operating-point intervals draws the same law
as resampling the rows.

Three kinds of checks:
- exact reading: given the resampled counts the engine draws (the level of an order
  statistic, each class's counts above and at it), read off explicit resamples, the curve
  it reads equals, bit for bit, the curve read off the rows of resampled masses;
- exact law, tiny samples: every stratified resample enumerated with its multinomial
  probability; the engine's draws against that law by a chi-square test;
- equal in distribution, larger samples: 4,000 resamples by each engine, compared at each
  grid point by a two-sample Kolmogorov-Smirnov test (Bonferroni over the grid) and by
  z-scores of the means, and the bands' sup-norm distributions compared the same way.
Seeds are fixed, so every run draws the same numbers; the levels (1e-4 overall) make a
false alarm on a correct engine improbable and a wrong law (a shifted step, a count off by
one) visible.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats

import rankwise as rw
from rankwise._kernels import count_at_rate, draw_order_reads, read_points, read_rates_by_order_stats
from rankwise.stats import _core
from rankwise.stats._band import resampled_reads

ALPHA = 1e-4


def _reads_of_rows(A_top, B_top, by):
    """The counts :func:`draw_order_reads` draws, read off explicit resamples (rows of
    counts per level from the top) by their definition."""
    def draw(x_top, y_top, K):
        X, Y = (B_top, A_top) if by == "fpr" else (A_top, B_top)
        cx, cy = np.cumsum(X, axis=1), np.cumsum(Y, axis=1)
        lam = np.stack([np.argmax(cx >= kk, axis=1) for kk in K], axis=1)  # level of the K-th largest
        rows = np.arange(X.shape[0])[:, None]
        xt, yt = cx[rows, lam], cy[rows, lam]
        return lam, xt - X[rows, lam], xt, yt - Y[rows, lam], yt
    return draw


def _grids(n_neg, n_pos):
    return [np.linspace(0, 1, 11), np.arange(n_neg + 1) / n_neg, np.arange(n_pos + 1) / n_pos,
            np.array([0.0, 1e-13, 0.1, 1 - 0.9, 0.5, 1 - 1e-13, 1.0]), np.linspace(0, 1, 101)]


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=8),
       st.integers(0, 2 ** 32 - 1))
def test_reading_from_order_statistics_is_the_rows_reading(counts, seed):
    """Exact, for every resample: the reading at fixed rates through the order statistic
    and the counts around it is the reading of the resample's row of masses."""
    a = np.array([c[0] for c in counts])
    b = np.array([c[1] for c in counts])
    a[0] += a.sum() == 0
    b[-1] += b.sum() == 0
    rng = np.random.default_rng(seed)
    k = 40
    A = rng.multinomial(a.sum(), a / a.sum(), size=k).astype(float)
    B = rng.multinomial(b.sum(), b / b.sum(), size=k).astype(float)
    for by in ("fpr", "tpr"):
        for q in _grids(int(b.sum()), int(a.sum())):
            want = read_points(A, B, by, q)[:3]
            got = read_rates_by_order_stats(None, a[::-1].astype(np.int64), b[::-1].astype(np.int64), q, by, k,
                                            draw=_reads_of_rows(A[:, ::-1], B[:, ::-1], by))
            for w_, g_ in zip(want, got):
                np.testing.assert_array_equal(g_, w_)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=6), st.integers(1, 60))
def test_count_at_rate_is_its_definition(qs, n):
    q = np.array(qs + [0.0, 1.0, 1 - 0.9, 0.3, 0.7])
    m_r, snap_r = count_at_rate(q, n, "right")
    m_l, snap_l = count_at_rate(q, n, "left")
    rates = np.arange(n + 1) / n
    for i, x in enumerate(q):
        near = np.flatnonzero(np.abs(rates - x) <= 1e-12)
        assert m_r[i] == (near[0] if near.size else np.flatnonzero(rates <= x).max())
        assert m_l[i] == (near[0] if near.size else np.flatnonzero(rates >= x).min())
        assert snap_r[i] == snap_l[i] == bool(near.size)


def _enumerate(counts):
    """Every stratified resample of one class (counts per level) with its probability."""
    n = int(counts.sum())
    levels = np.repeat(np.arange(counts.shape[0]), counts)
    out = {}
    for draw in itertools.product(range(n), repeat=n):
        row = tuple(np.bincount(levels[list(draw)], minlength=counts.shape[0]))
        out[row] = out.get(row, 0.0) + n ** -n
    return np.array(list(out)), np.array(list(out.values()))


@pytest.mark.parametrize("a, b", [([1, 0, 1, 1], [1, 2, 0, 1]), ([2, 1], [1, 3]), ([0, 1, 0, 2], [2, 0, 1, 0])])
def test_order_statistics_draw_the_exact_law_tiny_samples(a, b):
    """n+ + n- <= 7: every pair of class resamples enumerated; the engine's reads at each
    FPR of the grid against their exact law (chi-square, cells of expected count >= 5
    pooled)."""
    a, b = np.array(a), np.array(b)
    Ar, pa = _enumerate(a)
    Br, pb = _enumerate(b)
    A = np.repeat(Ar, Br.shape[0], axis=0).astype(float)
    B = np.tile(Br, (Ar.shape[0], 1)).astype(float)
    p = np.repeat(pa, Br.shape[0]) * np.tile(pb, Ar.shape[0])
    q = np.array([0.0, 0.2, 1 / 3, 0.5, 0.6, 0.75, 1.0])
    k = 20000
    for by in ("fpr", "tpr"):
        col = 0 if by == "fpr" else 1
        exact = read_points(A, B, by, q)[col]
        drawn = read_rates_by_order_stats(np.random.default_rng(11), a[::-1].astype(np.int64),
                                          b[::-1].astype(np.int64), q, by, k)[col]
        for j in range(q.shape[0]):
            vals, inv = np.unique(np.round(np.r_[exact[:, j], drawn[:, j]], 12), return_inverse=True)
            pmf = np.bincount(inv[:exact.shape[0]], weights=p, minlength=vals.size)
            obs = np.bincount(inv[exact.shape[0]:], minlength=vals.size)
            assert obs[pmf == 0].sum() == 0  # never a value the law cannot give
            big = pmf * k >= 5
            f_obs = np.r_[obs[big], obs[~big].sum()]
            f_exp = np.r_[pmf[big], pmf[~big].sum()] * k
            keep = f_exp > 0
            if keep.sum() > 1:
                assert stats.chisquare(f_obs[keep], f_exp[keep]).pvalue > ALPHA / q.shape[0]


@pytest.mark.parametrize("K", [[1], [2, 3, 5], [1, 2, 4, 6, 9, 10]])
def test_order_statistics_and_counts_joint_law(K):
    """The joint law of (level, counts above and at it, other class's counts) of the
    drawn order statistics equals that of explicit resamples (each component and the
    level of each order statistic, two-sample KS with Bonferroni)."""
    a = np.array([1, 3, 0, 2, 4, 1])
    b = np.array([2, 0, 3, 1, 2, 2])
    k = 4000
    rng = np.random.default_rng(5)
    Kx = np.array(K, dtype=np.int64)
    got = draw_order_reads(rng, b, a, Kx, k)
    A = rng.multinomial(a.sum(), a / a.sum(), size=k)
    B = rng.multinomial(b.sum(), b / b.sum(), size=k)
    want = _reads_of_rows(A, B, "fpr")(b, a, Kx)
    tests = 5 * len(K) + 1
    for g, w in zip(got, want):
        for j in range(len(K)):
            assert stats.ks_2samp(g[:, j], w[:, j]).pvalue > ALPHA / tests
    # a joint feature: the spread between the first and last order statistic's counts
    assert stats.ks_2samp(got[2][:, -1] - got[1][:, 0], want[2][:, -1] - want[1][:, 0]).pvalue > ALPHA / tests


def _compare_laws(x, y, what):
    """Columns of two (k, G) draws of one law: KS per column, z-scores of the means and of
    the variances, and each quantile of ``x`` at 5, 25, 50, 75, 95% against the share of
    ``y`` below and at it (Bonferroni over everything)."""
    k, G = x.shape
    probs = np.array([0.05, 0.25, 0.5, 0.75, 0.95])
    crit = stats.norm.isf(ALPHA / (2 * G * (3 + probs.size)))
    for j in range(G):
        a, b = x[:, j], y[:, j]
        if np.ptp(np.r_[a, b]) == 0:
            continue
        p = stats.ks_2samp(a, b, method="asymp").pvalue
        assert p > ALPHA / G, f"{what}: column {j} KS p = {p}"
        se = math.sqrt((a.var() + b.var()) / k)
        assert abs(a.mean() - b.mean()) <= crit * se, f"{what}: column {j} means"
        # Var(sample variance) ~ (m4 - s^4) / k for each sample
        m4 = np.mean((a - a.mean()) ** 4) + np.mean((b - b.mean()) ** 4)
        se_v = math.sqrt((m4 - a.var() ** 2 - b.var() ** 2) / k)
        assert abs(a.var() - b.var()) <= crit * se_v + 1e-15, f"{what}: column {j} variances"
        for pr, qa in zip(probs, np.quantile(a, probs, method="inverted_cdf")):
            tol = crit * math.sqrt(2 * pr * (1 - pr) / k)
            assert np.mean(b < qa) <= pr + tol and np.mean(b <= qa) >= pr - tol, f"{what}: column {j} q{pr}"


def _samples():
    rng = np.random.default_rng(2)
    y1 = rng.random(60) < 0.4  # heavy ties: 6 levels
    s1 = np.round(rng.normal(size=60) + y1, 0)
    y2 = rng.random(400) < 0.3  # continuous
    s2 = rng.normal(size=400) + 1.2 * y2
    return [("ties", y1, s1), ("continuous", y2, s2)]


@pytest.mark.parametrize("name, y, s", _samples())
def test_band_engines_equal_in_distribution(name, y, s):
    """4,000 resamples each way: the band's TPR at each grid point (law, mean) and the
    sup-norm distance to the empirical curve (the simultaneous band's statistic)."""
    sample = _core.Sample(*_core_inputs(y, s))
    grid = np.linspace(0, 1, 41)
    k = 4000
    rows = resampled_reads(sample, "fpr", grid, k, np.random.default_rng(1), "rows")[0]
    order = resampled_reads(sample, "fpr", grid, k, np.random.default_rng(2), "order")[0]
    _compare_laws(rows, order, name)
    tpr = read_points(sample.dense.a[None, :], sample.dense.b[None, :], "fpr", grid)[0][0]
    sup_r = np.abs(rows - tpr).max(axis=1)
    sup_o = np.abs(order - tpr).max(axis=1)
    _compare_laws(sup_r[:, None], sup_o[:, None], f"{name} sup-norm")


@pytest.mark.parametrize("name, y, s", _samples())
@pytest.mark.parametrize("by", ["fpr", "tpr"])
def test_operating_point_engines_equal_in_distribution(name, y, s, by):
    sample = _core.Sample(*_core_inputs(y, s))
    q = np.array([0.0, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 1.0])
    k = 4000
    rows = resampled_reads(sample, by, q, k, np.random.default_rng(3), "rows")
    order = resampled_reads(sample, by, q, k, np.random.default_rng(4), "order")
    for c, what in ((0, "tpr"), (1, "fpr"), (2, "precision")):
        x, z = rows[c], order[c]
        ok = ~np.isnan(x).any(axis=0) & ~np.isnan(z).any(axis=0)
        np.testing.assert_array_equal(np.isnan(x).any(axis=0), np.isnan(z).any(axis=0))
        _compare_laws(x[:, ok], z[:, ok], f"{name} {by} {what}")


def _core_inputs(y, s):
    return np.asarray(y, dtype=bool), np.asarray(s, dtype=np.float64), None


def test_public_engines_and_weights():
    y, s = _samples()[0][1:]
    b = rw.stats.roc_band(y, s, n_resamples=300, random_state=0)
    b_order = rw.stats.roc_band(y, s, n_resamples=300, random_state=0, engine="order")
    np.testing.assert_array_equal(b.pointwise_low, b_order.pointwise_low)  # "auto" is "order" without weights
    b_rows = rw.stats.roc_band(y, s, n_resamples=300, random_state=0, engine="rows")
    np.testing.assert_array_equal(b.tpr, b_rows.tpr)
    w = np.ones(len(y))
    bw = rw.stats.roc_band(y, s, n_resamples=300, random_state=0, sample_weight=w)  # weights: the rows engine
    bw_rows = rw.stats.roc_band(y, s, n_resamples=300, random_state=0, sample_weight=w, engine="rows")
    np.testing.assert_array_equal(bw.pointwise_low, bw_rows.pointwise_low)
    with pytest.raises(ValueError, match="unweighted"):
        rw.stats.roc_band(y, s, sample_weight=w, engine="order")
    with pytest.raises(ValueError, match="'engine' parameter of roc_band must be one of"):
        rw.stats.roc_band(y, s, engine="fast")
    op = rw.stats.operating_points(y, s, fpr=[0.1, 0.5])
    ci = op.confidence_interval(n_resamples=300, random_state=0)
    np.testing.assert_array_equal(ci.tpr_low, op.confidence_interval(n_resamples=300, random_state=0,
                                                                     engine="order").tpr_low)
    assert (ci.tpr_low <= op.tpr + 1e-12).all() and (op.tpr <= ci.tpr_high + 1e-12).all()
    thr = rw.stats.operating_points(y, s, thresholds=[0.0, 1.0])
    with pytest.raises(ValueError, match="fixed rates only"):
        thr.confidence_interval(engine="order")


def test_scores_of_any_dtype_give_the_same_band():
    """The engines see only the rank table: int, float32 and huge scores with the same
    order give the same band."""
    y, s = _samples()[0][1:]
    base = rw.stats.roc_band(y, s, n_resamples=200, random_state=3)
    as_int = (s - s.min()).astype(np.int64)
    for t in (as_int, as_int.astype(np.float32), as_int + 2 ** 60, s * 1e300):
        b = rw.stats.roc_band(y, t, n_resamples=200, random_state=3)
        np.testing.assert_array_equal(b.pointwise_high, base.pointwise_high)
        np.testing.assert_array_equal(b.simultaneous_low, base.simultaneous_low)
