"""``clusters=`` in the bootstraps and analytic parts outside ``estimate``/``compare``:
``rw.stats.operating_points``, ``rw.stats.roc_band``, ``rw.stats.calibration`` and
``rw.stats.auc_study_from_pilot``.

* Analytic parts with one row per cluster (``clusters=np.arange(n)``): the independent-rows
  numbers (the Brier score's standard error, the reliability curve's effective counts and
  intervals, the pilot's design effect of 1).
* The cluster bootstrap against a literal one: the cluster multiplicities drawn from the
  same generator as rankwise draws them (``rng.multinomial(G, [1/G] * G)`` per resample,
  clusters numbered by first appearance), each resample's rows expanded (repeated as often
  as their cluster was drawn) and the quantity recomputed on them from its definition or
  by the public point functions; equal to 1e-12.
* Literal formulas: the Brier score's variance over clusters, each bin's design effect,
  the pilot's design effect (Obuchowski's variance over DeLong's, from
  ``tests/_support/reference_clusters.py``).
* Strongly clustered data widen every interval; independent data put in random clusters
  do not (the control that makes the first check able to fail).
* Bad ``clusters``, the ``"order"`` engine, :class:`rankwise.stats.FewClustersWarning`.
"""

import warnings

import numpy as np
import pytest

import rankwise as rw
from _support import reference_clusters as rc

FEW = "ignore::rankwise.stats.FewClustersWarning"


def _codes(ids):
    """Cluster ids numbered by first appearance (as rankwise numbers them), and their count."""
    table = {}
    codes = np.array([table.setdefault(v, len(table)) for v in list(ids)], dtype=np.int64)
    return codes, len(table)


def _multiplicities(seed, G, B):
    """The cluster counts of B resamples, drawn as rankwise draws them."""
    return np.random.default_rng(seed).multinomial(G, np.full(G, 1.0 / G), size=B)


def _clustered(seed=0, G=40, sizes=(1, 8), icc_labels=True):
    """Rows in G clusters of unequal size; labels and scores share a cluster effect
    (``icc_labels``: the label is drawn per cluster with a cluster-level probability)."""
    rng = np.random.default_rng(seed)
    m = rng.integers(sizes[0], sizes[1] + 1, size=G)
    g = np.repeat(np.arange(G), m)
    u = rng.normal(size=G)[g]
    if icc_labels:
        y = (rng.random(g.shape[0]) < 1.0 / (1.0 + np.exp(-2.5 * u))).astype(int)
    else:
        y = (rng.random(g.shape[0]) < 0.4).astype(int)
    s = np.round(0.8 * y + u + 0.6 * rng.normal(size=g.shape[0]), 2)
    return y, s, g


def _strong(seed=0, G=40, m=10):
    """Strongly clustered rows: every row of a cluster has its class (half the clusters
    positive) and the cluster's effect in its score (intra-cluster correlation of the
    scores about 0.86 within a class)."""
    rng = np.random.default_rng(seed)
    g = np.repeat(np.arange(G), m)
    y = (np.arange(G) % 2)[g]
    s = np.round(y + rng.normal(size=G)[g] + 0.4 * rng.normal(size=G * m), 2)
    return y, s, g


# --- literal readers ---------------------------------------------------------------------

def _roc_points(y, s, w):
    """The ROC points (fpr, tpr) of weighted rows, thresholds from the top down, (0, 0) first."""
    lev = np.unique(s)[::-1]
    P, M = w[y == 1].sum(), w[y == 0].sum()
    tp = np.array([0.0] + [w[(y == 1) & (s >= t)].sum() for t in lev])
    fp = np.array([0.0] + [w[(y == 0) & (s >= t)].sum() for t in lev])
    return fp / M, tp / P


def _tpr_at(fpr_pts, tpr_pts, x):
    """The curve at FPR x: the last point with FPR <= x (a rate within 1e-12 of a point's is
    that point's), then linearly towards the next point."""
    close = np.flatnonzero(np.abs(fpr_pts - x) <= 1e-12)
    if close.size:
        x = fpr_pts[close[0]]
    j = np.flatnonzero(fpr_pts <= x)[-1]
    if fpr_pts[j] == x or j + 1 == fpr_pts.shape[0]:
        return tpr_pts[j]
    return tpr_pts[j] + (x - fpr_pts[j]) / (fpr_pts[j + 1] - fpr_pts[j]) * (tpr_pts[j + 1] - tpr_pts[j])


def _expanded(counts_row, codes, *arrays):
    """The rows of one resample: each row repeated as often as its cluster was drawn."""
    rep = counts_row[codes]
    return [np.repeat(np.asarray(a), rep) for a in arrays]


# --- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda y, s, c: rw.stats.roc_band(y, s, clusters=c, n_resamples=10),
    lambda y, s, c: rw.stats.operating_points(y, s, fpr=0.2, clusters=c),
    lambda y, s, c: rw.stats.calibration(y, s, clusters=c),
    lambda y, s, c: rw.stats.auc_study_from_pilot(y, s, clusters=c),
], ids=["roc_band", "operating_points", "calibration", "auc_study_from_pilot"])
@pytest.mark.parametrize("bad", ["short", "missing", "nan"])
def test_bad_clusters_name_the_argument(call, bad):
    y = np.array([0, 1] * 10)
    s = np.linspace(0.05, 0.95, 20)
    c = {"short": np.arange(19), "missing": [None] + list(range(19)),
         "nan": np.r_[np.nan, np.arange(19.0)]}[bad]
    with pytest.raises(ValueError, match="'clusters'"):
        call(y, s, c)


def test_scalar_clusters_is_a_type_error():
    with pytest.raises(TypeError, match="'clusters'"):
        rw.stats.roc_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], clusters=3)


def test_order_engine_refused_with_clusters():
    y, s, g = _clustered()
    with pytest.raises(ValueError, match="order"):
        rw.stats.roc_band(y, s, clusters=g, engine="order", n_resamples=10)
    with pytest.raises(ValueError, match="order"):
        rw.stats.operating_points(y, s, fpr=0.2, clusters=g).confidence_interval(n_resamples=10, engine="order")


# --- one row per cluster: the analytic numbers of independent rows -------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_one_row_per_cluster(weighted):
    rng = np.random.default_rng(5)
    n = 400
    p = rng.beta(2, 3, size=n)
    y = (rng.random(n) < p).astype(int)
    w = rng.integers(0, 4, size=n).astype(float) if weighted else None
    a = rw.stats.calibration(y, p, sample_weight=w)
    b = rw.stats.calibration(y, p, sample_weight=w, clusters=np.arange(n))
    c = rw.stats.calibration(y, p, sample_weight=w, clusters=[f"r{i}" for i in rng.permutation(n)])
    for x in (b, c):
        assert x.brier_score.value == a.brier_score.value
        assert x.brier_score.std_error == pytest.approx(a.brier_score.std_error, rel=1e-12)
        assert x.calibration_error.value == a.calibration_error.value
        # Each bin's design effect is exactly 1: the same counts and intervals.
        np.testing.assert_array_equal(x.curve.effective_count, a.curve.effective_count)
        np.testing.assert_array_equal(x.curve.lower, a.curve.lower)
        np.testing.assert_array_equal(x.curve.upper, a.curve.upper)
        assert x.brier_score.n_clusters == n and x.calibration_error.n_clusters == n
    assert a.brier_score.n_clusters is None
    if not weighted:
        assert b.brier_score.std_error == a.brier_score.std_error


@pytest.mark.parametrize("two", [False, True])
def test_pilot_design_effect_one_row_per_cluster(two):
    y, s, _ = _clustered(seed=2, G=60)
    s2 = np.round(0.5 * y + np.random.default_rng(3).normal(size=len(y)), 2)  # a weaker, less related scorer
    args = (y, s, s2) if two else (y, s)
    for kw in (dict(power=None), dict(power=0.9), dict(alpha=None, power=0.8)):
        a = rw.stats.auc_study_from_pilot(*args, **kw)
        b = rw.stats.auc_study_from_pilot(*args, clusters=np.arange(len(y)), **kw)
        assert b.design_effect == pytest.approx(1.0, abs=1e-12)
        assert a.design_effect == 1.0 and a.n_clusters is None and a.clusters_needed is None
        for f in ("n_positive", "n_negative", "alpha", "power", "var_null", "var_alternative"):
            assert getattr(b, f) == pytest.approx(getattr(a, f), rel=1e-12), f
        assert b.n_clusters == len(y) and b.mean_cluster_size == 1.0


def test_points_and_curve_do_not_depend_on_clusters():
    y, s, g = _clustered()
    for kw in (dict(fpr=[0.1, 0.5]), dict(tpr=[0.3, 0.8]), dict(thresholds=[0.0, 0.7])):
        a = rw.stats.operating_points(y, s, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # 40 clusters hold each class: no warning
            b = rw.stats.operating_points(y, s, clusters=g, **kw)
        for f in ("threshold", "tpr", "fpr", "precision"):
            np.testing.assert_array_equal(getattr(b, f), getattr(a, f))
        assert b.n_clusters == 40 and a.n_clusters is None
        assert "40 clusters" in b.summary() and "clusters" not in a.summary()
    a = rw.stats.roc_band(y, s, n_resamples=20, random_state=0)
    b = rw.stats.roc_band(y, s, n_resamples=20, random_state=0, clusters=g)
    np.testing.assert_array_equal(b.tpr, a.tpr)


# --- the cluster bootstrap against a literal one ------------------------------------------

def _string_ids(g):
    # String ids in an order that is not sorted: the numbering is by first appearance.
    return [f"c{(7 * int(v)) % 41:02d}" for v in g]


def test_roc_band_literal_cluster_bootstrap():
    y, s, g = _clustered(seed=1, G=30, sizes=(1, 5))
    ids = _string_ids(g)
    codes, G = _codes(ids)
    grid = np.array([0.0, 0.05, 0.1, 0.25, 0.5, 0.8, 1.0])
    B = 200
    band = rw.stats.roc_band(y, s, fpr=grid, n_resamples=B, random_state=11, clusters=ids, confidence_level=0.9)
    counts = _multiplicities(11, G, B)
    reads = []
    for r in range(B):
        yy, ss = _expanded(counts[r], codes, y, s)
        if yy.min() == yy.max():
            continue  # no curve without both classes
        fp, tp = _roc_points(yy, ss, np.ones(yy.shape[0]))
        reads.append([_tpr_at(fp, tp, x) for x in grid])
    reads = np.array(reads)
    fp, tp = _roc_points(y, s, np.ones(len(y)))
    tpr = np.array([_tpr_at(fp, tp, x) for x in grid])
    np.testing.assert_allclose(band.tpr, tpr, rtol=0, atol=1e-12)
    assert band.n_used == reads.shape[0] and band.n_clusters == G
    lo, hi = np.quantile(reads, [0.05, 0.95], axis=0)
    np.testing.assert_allclose(band.pointwise_low, lo, rtol=0, atol=1e-12)
    np.testing.assert_allclose(band.pointwise_high, hi, rtol=0, atol=1e-12)
    c = np.quantile(np.abs(reads - tpr).max(axis=1), 0.9)
    assert band.sup_quantile == pytest.approx(c, abs=1e-12)
    assert f"{G} clusters" in band.summary()


def test_roc_band_drops_resamples_without_a_class():
    # Positives in 3 clusters of 13: some resamples draw none (probability (10/13)^13 ~ 3%).
    g = np.repeat(np.arange(13), 4)
    y = (g < 3).astype(int)
    s = np.round(np.random.default_rng(0).normal(size=52) + y, 2)
    with pytest.warns(rw.stats.FewClustersWarning, match="positives lie in 3 clusters"):
        band = rw.stats.roc_band(y, s, clusters=g, n_resamples=400, random_state=0)
    counts = _multiplicities(0, 13, 400)
    both = ((counts[:, :3].sum(axis=1) > 0) & (counts[:, 3:].sum(axis=1) > 0)).sum()
    assert 0 < 400 - both and band.n_used == both
    assert np.isfinite(band.pointwise_low).all() and np.isfinite(band.sup_quantile)
    assert f"{both} of them drew both classes" in band.summary()


@pytest.mark.parametrize("kw", [dict(fpr=[0.1, 0.3, 0.6]), dict(tpr=[0.4, 0.75, 0.95]),
                                dict(thresholds=[-0.5, 0.3, 1.1])], ids=["fpr", "tpr", "thresholds"])
@pytest.mark.parametrize("weighted", [False, True])
def test_operating_points_literal_cluster_bootstrap(kw, weighted):
    y, s, g = _clustered(seed=4, G=35, sizes=(1, 6))
    w = np.random.default_rng(9).integers(0, 3, size=len(y)).astype(float) if weighted else None
    ids = _string_ids(g)
    codes, G = _codes(ids)
    B = 150
    est = rw.stats.operating_points(y, s, sample_weight=w, clusters=ids, **kw)
    ci = est.confidence_interval(confidence_level=0.8, n_resamples=B, random_state=3)
    counts = _multiplicities(3, G, B)
    ww = np.ones(len(y)) if w is None else w
    vals = {k: [] for k in ("tpr", "fpr", "precision")}
    for r in range(B):
        yy, ss, wr = _expanded(counts[r], codes, y, s, ww)
        if wr[yy == 1].sum() == 0 or wr[yy == 0].sum() == 0:
            for k in vals:
                vals[k].append(np.full(3, np.nan))
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = rw.operating_points(yy, ss, sample_weight=wr, **kw)
        for k in vals:
            vals[k].append(getattr(p, k))
    for k, v in vals.items():
        v = np.array(v)
        for j in range(3):
            col = v[:, j][~np.isnan(v[:, j])]
            want = np.quantile(col, [0.1, 0.5, 0.9])
            got = [getattr(ci, f"{k}_{e}")[j] for e in ("low", "median", "high")]
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=f"{k}[{j}]")
    assert ci.n_clusters == G and f"{G} clusters" in ci.summary()


@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_literal_cluster_bootstrap(weighted):
    rng = np.random.default_rng(6)
    G = 30
    g = np.repeat(np.arange(G), rng.integers(1, 7, size=G))
    u = rng.normal(size=G)[g]
    p = np.round(1.0 / (1.0 + np.exp(-(u + 0.5 * rng.normal(size=len(g))))), 3)
    y = (rng.random(len(g)) < 1.0 / (1.0 + np.exp(-1.5 * u))).astype(int)
    w = rng.integers(0, 3, size=len(g)).astype(float) if weighted else None
    ids = _string_ids(g)
    codes, G = _codes(ids)
    c = rw.stats.calibration(y, p, sample_weight=w, clusters=ids, n_bins=5, strategy="quantile")
    B = 120
    brier = c.brier_score.bootstrap_distribution(B, random_state=8)
    ece = c.calibration_error.bootstrap_distribution(B, random_state=8)
    counts = _multiplicities(8, G, B)
    ww = np.ones(len(y)) if w is None else w
    edges = c.curve.bin_edges
    for r in range(B):
        yy, pp, wr = _expanded(counts[r], codes, y, p, ww)
        assert brier[r] == pytest.approx(np.dot(wr, (pp - yy) ** 2) / wr.sum(), abs=1e-12)
        # The sample's bins, kept: bin k holds edges[k] < p <= edges[k + 1] (the first also p = edges[0]).
        k = np.searchsorted(edges[1:-1], pp, side="left")
        gap = 0.0
        for b in range(len(edges) - 1):
            m = wr[k == b].sum()
            if m > 0:
                gap += abs(np.dot(wr[k == b], yy[k == b]) - np.dot(wr[k == b], pp[k == b]))
        assert ece[r] == pytest.approx(gap / wr.sum(), abs=1e-12)


# --- literal formulas of the analytic parts -------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_brier_std_error_over_clusters_is_the_sandwich(weighted):
    y, s, g = _clustered(seed=7, G=25)
    p = 1.0 / (1.0 + np.exp(-s))
    w = np.random.default_rng(1).integers(0, 4, size=len(y)).astype(float) if weighted else np.ones(len(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.stats.FewClustersWarning)
        c = rw.stats.calibration(y, p, sample_weight=w if weighted else None, clusters=g)
    e = (p - y) ** 2
    W = w.sum()
    ebar = np.dot(w, e) / W
    held = [v for v in np.unique(g) if w[g == v].sum() > 0]
    U = np.array([np.dot(w[g == v], e[g == v] - ebar) for v in held])
    I = len(held)
    var = I / (I - 1.0) * np.dot(U, U) / W ** 2
    assert c.brier_score.std_error == pytest.approx(np.sqrt(var), rel=1e-12)
    assert c.brier_score.n_clusters == 25


def test_bin_effective_counts_are_counts_over_design_effects():
    y, s, g = _clustered(seed=8, G=50, sizes=(2, 9))
    p = 1.0 / (1.0 + np.exp(-s))
    c = rw.stats.calibration(y, p, clusters=g, n_bins=6)
    plain = rw.stats.calibration(y, p, n_bins=6)
    edges = c.curve.bin_edges
    k = np.searchsorted(edges[1:-1], p, side="left")
    for b in range(6):
        rows = k == b
        n_b = rows.sum()
        if n_b == 0:
            assert c.curve.effective_count[b] == 0
            continue
        share = y[rows].mean()
        d = y[rows] - share
        ss_rows = n_b / (n_b - 1.0) * np.dot(d, d) if n_b > 1 else np.nan
        ids = np.unique(g[rows])
        S = np.array([d[g[rows] == v].sum() for v in ids])
        ss_cl = len(ids) / (len(ids) - 1.0) * np.dot(S, S) if len(ids) > 1 else np.nan
        if len(ids) < 2:
            assert np.isnan(c.curve.effective_count[b])
            continue
        deff = max(ss_cl / ss_rows, 1.0) if ss_rows > 0 else 1.0
        assert c.curve.effective_count[b] == pytest.approx(n_b / deff, rel=1e-12)
        assert c.curve.effective_count[b] <= plain.curve.effective_count[b]
    lo, hi = rw.metrics._calibration.proportion_interval(c.curve.fraction_positive, c.curve.effective_count,
                                                         0.95, "wilson")
    np.testing.assert_array_equal(c.curve.lower, lo)
    np.testing.assert_array_equal(c.curve.upper, hi)


@pytest.mark.filterwarnings(FEW)
def test_pilot_design_effect_is_obuchowski_over_delong():
    y, s, g = _clustered(seed=3, G=30, sizes=(2, 6))
    deff = rc.obuchowski_var(y, s, g) / rc.delong_cov(y, [s])[0, 0]
    a = rw.stats.auc_study_from_pilot(y, s, power=0.9)
    b = rw.stats.auc_study_from_pilot(y, s, power=0.9, clusters=g)
    assert b.design_effect == pytest.approx(deff, rel=1e-10)
    # Rows needed = deff x independent rows; clusters needed = rows / mean cluster size.
    assert b.n_positive == pytest.approx(deff * a.n_positive, rel=1e-12)
    assert b.n_negative == pytest.approx(deff * a.n_negative, rel=1e-12)
    assert b.mean_cluster_size == len(y) / 30 and b.n_clusters == 30
    assert b.clusters_needed == pytest.approx((b.n_positive + b.n_negative) * 30 / len(y), rel=1e-12)
    assert "design effect" in b.summary() and "30 clusters" in b.summary()
    # Two scorers: the design effect of the difference.
    s2 = np.round(0.5 * y + np.random.default_rng(4).normal(size=len(y)), 2)
    cov_c = rc.obuchowski_cov(y, [s, s2], g)
    cov_r = rc.delong_cov(y, [s, s2])
    d2 = (cov_c[0, 0] + cov_c[1, 1] - 2 * cov_c[0, 1]) / (cov_r[0, 0] + cov_r[1, 1] - 2 * cov_r[0, 1])
    a2 = rw.stats.auc_study_from_pilot(y, s, s2, power=0.9)
    b2 = rw.stats.auc_study_from_pilot(y, s, s2, power=0.9, clusters=g)
    assert b2.design_effect == pytest.approx(d2, rel=1e-10)
    assert b2.n_positive == pytest.approx(d2 * a2.n_positive, rel=1e-10)


def test_design_effect_grows_with_correlated_clusters():
    # Clusters of 10 rows of one class sharing a score effect: deff far above 1 (measured
    # 7.2; 1 + 9 rho = 8.8 with the scores' intra-cluster correlation rho = 0.86).
    y, s, g = _strong(seed=0)
    st = rw.stats.auc_study_from_pilot(y, s, power=0.8, clusters=g)
    assert st.design_effect > 4.0
    # The same rows in random clusters of the same sizes: about 1.
    perm = np.random.default_rng(1).permutation(len(y))
    st0 = rw.stats.auc_study_from_pilot(y, s, power=0.8, clusters=g[perm])
    assert 0.6 < st0.design_effect < 1.5
    # A design effect given directly scales the rows needed.
    base = rw.stats.sample_size_auc(0.75, power=0.9)
    two = rw.stats.sample_size_auc(0.75, power=0.9, design_effect=2.0)
    assert two.n_positive == pytest.approx(2.0 * base.n_positive, rel=1e-12) and two.design_effect == 2.0
    with pytest.raises(ValueError, match="'design_effect'"):
        rw.stats.auc_study(0.8, n_positive=None, power=0.8, design_effect=0.0)


# --- clustering widens the intervals; random clusters do not -------------------------------

def _widths(y, s, p, g):
    band = rw.stats.roc_band(y, s, n_resamples=600, random_state=0, clusters=g, engine="rows")
    op = rw.stats.operating_points(y, s, fpr=[0.1, 0.3], clusters=g).confidence_interval(
        n_resamples=600, random_state=0, engine="rows")
    cal = rw.stats.calibration(y, p, clusters=g)
    ece = cal.calibration_error.confidence_interval(n_resamples=400, random_state=0)
    cw = cal.curve.upper - cal.curve.lower
    return np.array([np.mean(band.pointwise_high - band.pointwise_low), band.sup_quantile,
                     np.mean(op.tpr_high - op.tpr_low), cal.brier_score.std_error, ece.high - ece.low,
                     np.nanmean(cw[cal.curve.count >= 20])])


def test_clusters_widen_intervals_on_clustered_data():
    y, s, g = _strong(seed=0)
    p = 1.0 / (1.0 + np.exp(-s))
    rows = _widths(y, s, p, np.arange(len(y)))
    clus = _widths(y, s, p, g)
    # Strong intra-cluster correlation: every interval at least 1.4 times as wide (measured:
    # 1.6 to 2.9).
    assert (clus / rows > 1.4).all(), clus / rows
    # Control: the same rows in random clusters of 10: the widths of independent rows.
    perm = np.random.default_rng(1).permutation(len(y))
    rand = _widths(y, s, p, g[perm])
    assert (np.abs(rand / rows - 1.0) < 0.25).all(), rand / rows


# --- few clusters -------------------------------------------------------------------------

def test_few_clusters_warn():
    g = np.repeat(np.arange(20), 3)
    y = (g < 4).astype(int)  # positives in 4 clusters
    s = np.round(np.random.default_rng(0).normal(size=60) + y, 2)
    p = 1.0 / (1.0 + np.exp(-s))
    calls = [lambda: rw.stats.roc_band(y, s, clusters=g, n_resamples=20),
             lambda: rw.stats.operating_points(y, s, fpr=0.2, clusters=g),
             lambda: rw.stats.calibration(y, p, clusters=g),
             lambda: rw.stats.auc_study_from_pilot(y, s, clusters=g)]
    for call in calls:
        with pytest.warns(rw.stats.FewClustersWarning, match="positives lie in 4 clusters"):
            call()
    # Enough clusters: silent.
    y2 = (g % 2).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", rw.stats.FewClustersWarning)
        rw.stats.roc_band(y2, s, clusters=g, n_resamples=20)
        rw.stats.calibration(y2, p, clusters=g)
    # One class only (the Brier score is defined): the clusters of the rows count.
    with pytest.warns(rw.stats.FewClustersWarning, match="rows lie in 5 clusters"):
        rw.stats.calibration(np.zeros(15, dtype=int), np.linspace(0, 1, 15), clusters=np.repeat(np.arange(5), 3))
