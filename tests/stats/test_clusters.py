"""Cluster-robust inference (``clusters=``): rankwise against Obuchowski's (1997) variance
and R survival's grouped infinitesimal jackknife.

* Golden values: ``tests/golden/make_cluster_golden.R`` draws six datasets (n = 30 to
  2000, ties, clusters of unequal size, single-row clusters, clusters of one class, string
  ids, frequency weights) and writes them with Obuchowski's variance and covariance written
  out literally in R, ``survival::concordance(y ~ x, cluster = id)`` (R 4.2.2, survival
  3.5-3; the calls and versions are in ``cluster_golden.json``) and DeLong's variance over
  independent rows.
* Literal references (``tests/_support/reference_clusters.py``): Obuchowski's form pair by
  pair and cluster by cluster, with weights and K scorers, and survival's form with the
  derivative of the AUC in each weight by a complex step.
* Generated inputs (hypothesis, derandomised), the reduction to independent rows
  (``clusters=np.arange(n)``) for several criteria, invariances, bad input, the number of
  clusters and :class:`rankwise.stats.FewClustersWarning`.
"""

import json
import os
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_clusters as rc
from _support.paths import GOLDEN

with open(os.path.join(GOLDEN, "cluster_golden.json")) as fh:
    GOLD = json.load(fh)
CASES = GOLD["cases"]
IDS = [c["name"] for c in CASES]

FEW = "ignore::rankwise.stats.FewClustersWarning"


def _data(case):
    y = np.asarray(case["y"])
    return y, np.asarray(case["x1"]), np.asarray(case["x2"]), case["clusters"], case["weights"]


def _close(actual, expected, rtol=1e-10, atol=1e-15):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def test_golden_provenance():
    assert GOLD["R_version"].startswith("R version 4.2.2")
    assert GOLD["survival_version"] == "3.5.3"
    names = set(IDS)
    assert {"tiny_ties", "one_class_clusters", "weighted_60", "singletons_300", "big_2000"} <= names
    big = CASES[IDS.index("big_2000")]
    assert big["n"] == 2000 and big["n_clusters"] == 400
    # The datasets hold what they are meant to: single-row clusters, clusters of one
    # class only, string ids.
    for case in CASES:
        y, _, _, cl, _ = _data(case)
        ids, counts = np.unique(np.asarray(cl), return_counts=True)
        assert len(ids) == case["n_clusters"]
        if case["name"] in ("tiny_ties", "singletons_300", "weighted_60"):
            assert (counts == 1).any()
    y, _, _, cl, _ = _data(CASES[IDS.index("one_class_clusters")])
    assert isinstance(cl[0], str)
    one_class = [g for g in set(cl) if len({int(v) for v, c in zip(y, cl) if c == g}) == 1]
    assert len(one_class) >= 20


# --- (a) golden values ------------------------------------------------------------------

@pytest.mark.filterwarnings(FEW)
@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("k", [1, 2])
def test_estimate_equals_obuchowski(case, k):
    y, x1, x2, cl, w = _data(case)
    x = x1 if k == 1 else x2
    gold = case[f"x{k}_stats"]
    e = rw.stats.estimate(y, x, clusters=cl, sample_weight=w)
    _close(e.value, gold["auc"], rtol=1e-13)
    _close(e.value, gold["survival_concordance"], rtol=1e-13)
    _close(e.std_error ** 2, gold["obuchowski_var"])
    assert e.n_clusters == case["n_clusters"]
    # The same sample without clusters: DeLong's variance (R, literal).
    e0 = rw.stats.estimate(y, x, sample_weight=w)
    _close(e0.std_error ** 2, gold["delong_var"])
    assert e0.n_clusters is None


@pytest.mark.filterwarnings(FEW)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_compare_equals_obuchowski_covariance(case):
    y, x1, x2, cl, w = _data(case)
    c = rw.stats.compare(y, [x1, x2], clusters=cl, sample_weight=w)
    expected = np.array([[case["x1_stats"]["obuchowski_var"], case["obuchowski_cov"]],
                         [case["obuchowski_cov"], case["x2_stats"]["obuchowski_var"]]])
    _close(c.cov, expected)
    _close(c.values, [case["x1_stats"]["auc"], case["x2_stats"]["auc"]], rtol=1e-13)
    assert c.n_clusters == case["n_clusters"]
    c0 = rw.stats.compare(y, [x1, x2], sample_weight=w)
    expected0 = np.array([[case["x1_stats"]["delong_var"], case["delong_cov"]],
                          [case["delong_cov"], case["x2_stats"]["delong_var"]]])
    _close(c0.cov, expected0)
    assert c0.n_clusters is None


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reference_obuchowski_equals_r(case):
    y, x1, x2, cl, w = _data(case)
    cov = rc.obuchowski_cov(y, [x1, x2], cl, w)
    _close(cov[0, 0], case["x1_stats"]["obuchowski_var"])
    _close(cov[1, 1], case["x2_stats"]["obuchowski_var"])
    _close(cov[0, 1], case["obuchowski_cov"])
    _close(cov[1, 0], case["obuchowski_cov"])
    _close(rc.auc(y, x1, w), case["x1_stats"]["auc"], rtol=1e-13)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reference_survival_ij_equals_r(case):
    y, x1, x2, cl, w = _data(case)
    ij = rc.survival_ij_cov(y, [x1, x2], cl, w)
    _close(ij[0, 0], case["x1_stats"]["survival_var"])
    _close(ij[1, 1], case["x2_stats"]["survival_var"])
    if "survival_two_var" in case:  # survival's two-predictor call (unweighted only)
        _close(ij, np.asarray(case["survival_two_var"]))
    # Every row its own cluster.
    _close(rc.survival_ij_var(y, x1, list(range(len(y))), w), case["x1_stats"]["survival_var_rows"])
    # Obuchowski's form is survival's with the small-sample factors, which make it larger.
    assert case["x1_stats"]["obuchowski_var"] > case["x1_stats"]["survival_var"]


@pytest.mark.parametrize("case", [c for c in CASES if c["n"] <= 300], ids=[c["name"] for c in CASES if c["n"] <= 300])
def test_reference_delong_equals_r(case):
    y, x1, x2, _, w = _data(case)
    cov = rc.delong_cov(y, [x1, x2], w)
    _close(cov[0, 0], case["x1_stats"]["delong_var"])
    _close(cov[0, 1], case["delong_cov"])


def test_big_case_numbers():
    """The n = 2000 case in 400 clusters of 5 (intra-cluster correlation 0.5 of the
    scores): the clustered standard error exceeds the independent-rows one."""
    case = CASES[IDS.index("big_2000")]
    g = case["x1_stats"]
    assert g["obuchowski_se"] > g["delong_se"] * 1.05
    y, x1, _, cl, _ = _data(case)
    e = rw.stats.estimate(y, x1, clusters=cl)
    _close(e.std_error, g["obuchowski_se"], rtol=1e-10)
    # The cluster bootstrap's spread is the clustered one (B = 1000: Monte Carlo error about
    # 2.2% of the SD; survival's IJ is the plug-in scale, a few per mille below).
    boot = e.bootstrap_distribution(1000, random_state=0)
    sd = float(np.std(boot[np.isfinite(boot)], ddof=1))
    assert 0.93 < sd / g["survival_se"] < 1.07
    assert sd > g["delong_se"] * 0.99


# --- (b) generated inputs against the literal references ---------------------------------

@st.composite
def clustered_samples(draw, max_n=24, weights=True, two=False):
    n = draw(st.integers(4, max_n))
    n_groups = draw(st.integers(1, n))
    ids = draw(st.lists(st.integers(0, n_groups - 1), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[1] = 1, 0

    def scores():
        if draw(st.booleans()):
            return [float(v) for v in draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))]
        return draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False, width=64), min_size=n, max_size=n))

    s1 = scores()
    s2 = scores() if two else None
    w = None
    if weights and draw(st.booleans()):
        w = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 0.3]), min_size=n, max_size=n))
        w[0] = w[1] = 1.0
    return y, s1, s2, ids, w


def _class_clusters(y, ids, w):
    wv = [1.0] * len(y) if w is None else w
    pos = {g for g, v, m in zip(ids, y, wv) if v == 1 and m > 0}
    neg = {g for g, v, m in zip(ids, y, wv) if v == 0 and m > 0}
    return len(pos), len(neg)


@pytest.mark.filterwarnings(FEW)
@settings(max_examples=50)
@given(clustered_samples())
def test_estimate_against_reference(sample):
    y, s, _, ids, w = sample
    e = rw.stats.estimate(y, s, clusters=ids, sample_weight=w)
    assert e.value == pytest.approx(rc.auc(y, s, w), rel=1e-12, abs=1e-15)
    assert e.n_clusters == len(set(ids))
    i10, i01 = _class_clusters(y, ids, w)
    if i10 < 2 or i01 < 2:
        assert np.isnan(e.std_error)
        return
    _close(e.std_error ** 2, rc.obuchowski_var(y, s, ids, w), rtol=1e-9, atol=1e-15)


@pytest.mark.filterwarnings(FEW)
@pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")
@settings(max_examples=50)
@given(clustered_samples(two=True))
def test_compare_against_reference(sample):
    y, s1, s2, ids, w = sample
    i10, i01 = _class_clusters(y, ids, w)
    c = rw.stats.compare(y, [s1, s2], clusters=ids, sample_weight=w)
    if i10 < 2 or i01 < 2:
        assert np.isnan(c.cov).all()
        return
    _close(c.cov, rc.obuchowski_cov(y, [s1, s2], ids, w), rtol=1e-9, atol=1e-15)


@settings(max_examples=30)
@given(clustered_samples(max_n=16, weights=False, two=True))
def test_reference_routes_agree(sample):
    """The literal references against each other: with one row per cluster Obuchowski's
    form is DeLong's; and survival's IJ never exceeds Obuchowski's variance (the factors
    satisfy I/(I-1) <= I_c/(I_c-1), and the cross term is at most the sum of the squares by
    Cauchy-Schwarz)."""
    y, s1, s2, ids, _ = sample
    assume(sum(y) >= 2 and len(y) - sum(y) >= 2)
    rows = list(range(len(y)))
    _close(rc.obuchowski_cov(y, [s1, s2], rows), rc.delong_cov(y, [s1, s2]), rtol=1e-10, atol=1e-15)
    i10, i01 = _class_clusters(y, ids, None)
    if i10 >= 2 and i01 >= 2 and len(set(ids)) >= 2:
        assert rc.survival_ij_var(y, s1, ids) <= rc.obuchowski_var(y, s1, ids) * (1 + 1e-12) + 1e-15


# --- (c) one row per cluster is the independent-rows computation ---------------------------

SPECS = ["auc", "local_auc:top=0.2", "pnorm_push:p=4", "partial_auc:max_fpr=0.3", "dcg", "dcg:k=15", "ndcg",
         "rank_statistic"]


@pytest.fixture(scope="module")
def rows_sample():
    rng = np.random.default_rng(2028)
    n = 150
    y = rng.integers(0, 2, n)
    s = np.round(0.8 * y + rng.normal(size=n), 1)  # ties
    return y, s


@pytest.mark.parametrize("spec", SPECS)
def test_one_row_per_cluster_is_unclustered(rows_sample, spec):
    y, s = rows_sample
    n = len(y)
    a = rw.stats.estimate(y, s, spec)
    b = rw.stats.estimate(y, s, spec, clusters=np.arange(n))
    assert b.value == a.value
    assert b.method == a.method
    assert np.isfinite(a.std_error) and a.std_error > 0
    assert b.std_error == pytest.approx(a.std_error, rel=1e-12)
    # Ids as shuffled strings: the same numbers.
    perm = np.random.default_rng(1).permutation(n)
    c = rw.stats.estimate(y, s, spec, clusters=[f"u{v}" for v in perm])
    assert c.std_error == pytest.approx(a.std_error, rel=1e-12)
    assert (b.n_clusters, c.n_clusters, a.n_clusters) == (n, n, None)


def test_one_row_per_cluster_ranking_risk():
    rng = np.random.default_rng(7)
    n = 120
    y = np.round(rng.normal(size=n), 1)
    s = np.round(y + rng.normal(size=n), 1)
    a = rw.stats.estimate(y, s, "ranking_risk", method="hajek")
    b = rw.stats.estimate(y, s, "ranking_risk", clusters=np.arange(n))
    assert b.method == "hajek"
    assert b.value == a.value
    assert b.std_error == pytest.approx(a.std_error, rel=1e-12)


def test_one_row_per_cluster_compare(rows_sample):
    y, s = rows_sample
    s2 = np.round(s + np.random.default_rng(3).normal(size=len(y)), 1)
    a = rw.stats.compare(y, [s, s2])
    b = rw.stats.compare(y, [s, s2], clusters=np.arange(len(y)))
    np.testing.assert_allclose(b.cov, a.cov, rtol=1e-12)
    u0 = rw.stats.compare_unpaired(y, s, y, s2)
    u1 = rw.stats.compare_unpaired(y, s, y, s2, clusters_a=np.arange(len(y)), clusters_b=np.arange(len(y)))
    np.testing.assert_allclose(u1.cov, u0.cov, rtol=1e-12)
    assert u1.n_clusters == (len(y), len(y))


def test_weighted_one_row_per_cluster_is_obuchowski_not_delong(rows_sample):
    """With weights, each row its own cluster is Obuchowski's form (factors I_c/(I_c-1) by
    cluster counts), not DeLong's with frequency weights (denominators N_c - 1): they differ
    unless every weight is 1."""
    y, s = rows_sample
    w = np.where(np.arange(len(y)) % 3 == 0, 3.0, 1.0)
    e = rw.stats.estimate(y, s, sample_weight=w, clusters=np.arange(len(y)))
    _close(e.std_error ** 2, rc.obuchowski_var(y, s, list(range(len(y))), w), rtol=1e-10)
    d = rw.stats.estimate(y, s, sample_weight=w)
    _close(d.std_error ** 2, rc.delong_cov(y, [s], w)[0, 0], rtol=1e-10)
    assert abs(e.std_error / d.std_error - 1) > 1e-3


def test_copies_within_a_cluster_add_nothing(rows_sample):
    """m copies of each row inside one cluster per row: the same AUC, the same clustered
    variance as the original rows (Obuchowski's terms are per-cluster means), the same
    cluster bootstrap; and the same as frequency weights m."""
    y, s = rows_sample
    n, m = len(y), 3
    yr, sr, idr = np.repeat(y, m), np.repeat(s, m), np.repeat(np.arange(n), m)
    a = rw.stats.estimate(y, s, clusters=np.arange(n))
    b = rw.stats.estimate(yr, sr, clusters=idr)
    c = rw.stats.estimate(y, s, clusters=np.arange(n), sample_weight=np.full(n, float(m)))
    assert b.value == pytest.approx(a.value, rel=1e-14)
    assert b.std_error == pytest.approx(a.std_error, rel=1e-12)
    assert c.std_error == pytest.approx(a.std_error, rel=1e-12)
    # Without clusters the copies look like 3n independent rows: the SE shrinks by ~sqrt(3).
    naive = rw.stats.estimate(yr, sr)
    assert naive.std_error < a.std_error / 1.6
    ba = a.bootstrap_distribution(200, random_state=5)
    bb = b.bootstrap_distribution(200, random_state=5)
    np.testing.assert_allclose(bb, ba, rtol=1e-12)


def test_cluster_ids_relabelled(rows_sample):
    y, s = rows_sample
    rng = np.random.default_rng(11)
    ids = rng.integers(0, 30, len(y))
    a = rw.stats.estimate(y, s, clusters=ids)
    b = rw.stats.estimate(y, s, clusters=[f"patient-{v:03d}" for v in 1000 - ids])
    c = rw.stats.estimate(y, s, clusters=ids.astype(float) * 0.5)
    tuples = np.empty(len(ids), dtype=object)  # one tuple id per row (a 1-D object array)
    for i, v in enumerate(ids):
        tuples[i] = ("x", int(v))
    d = rw.stats.estimate(y, s, clusters=tuples)
    for e in (b, c, d):
        assert e.std_error == pytest.approx(a.std_error, rel=1e-12)
        assert e.n_clusters == a.n_clusters == len(np.unique(ids))
    _close(a.std_error ** 2, rc.obuchowski_var(y, s, list(ids)), rtol=1e-10)


# --- (d) bad input -----------------------------------------------------------------------

BAD_VALUE = [
    ("short", lambda n: np.arange(n - 1)),
    ("long", lambda n: np.arange(n + 1)),
    ("none_id", lambda n: [None] + list(range(n - 1))),
    ("nan_id", lambda n: [float("nan")] + [float(i) for i in range(n - 1)]),
    ("inf_id", lambda n: [float("inf")] + [float(i) for i in range(n - 1)]),
    ("nan_object", lambda n: np.array(["a", float("nan")] + ["b"] * (n - 2), dtype=object)),
    ("two_d", lambda n: np.zeros((n, 2))),
]


@pytest.mark.parametrize("make", [b[1] for b in BAD_VALUE], ids=[b[0] for b in BAD_VALUE])
def test_bad_clusters_value_error(make):
    y = [0, 1, 0, 1, 1, 0]
    s = [0.1, 0.9, 0.3, 0.2, 0.8, 0.5]
    n = len(y)
    with pytest.raises(ValueError, match="clusters"):
        rw.stats.estimate(y, s, clusters=make(n))
    with pytest.raises(ValueError, match="clusters"):
        rw.stats.compare(y, [s, s[::-1]], clusters=make(n))
    with pytest.raises(ValueError, match="clusters"):
        rw.stats.compare_unpaired(y, s, y, s, clusters_a=make(n))
    with pytest.raises(ValueError, match="clusters"):
        rw.stats.compare_unpaired(y, s, y, s, clusters_b=make(n))


@pytest.mark.parametrize("bad", ["abc", 3, 2.5])
def test_bad_clusters_scalar_type_error(bad):
    with pytest.raises(TypeError, match="clusters"):
        rw.stats.estimate([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.2], clusters=bad)


@pytest.mark.filterwarnings(FEW)
def test_pandas_missing_ids():
    pd = pytest.importorskip("pandas")
    ids = pd.Series(["a", "b", None, "c"])
    with pytest.raises(ValueError, match="clusters"):
        rw.stats.estimate([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.2], clusters=ids)
    ok = rw.stats.estimate([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.2], clusters=pd.Series(["a", "b", "a", "c"]))
    assert ok.n_clusters == 3


@pytest.mark.filterwarnings(FEW)
def test_string_ids_work():
    y = [0, 1, 0, 1, 1, 0, 0, 1]
    s = [0.1, 0.9, 0.3, 0.2, 0.8, 0.5, 0.4, 0.6]
    ids = ["a", "a", "b", "b", "c", "c", "d", "e"]
    e = rw.stats.estimate(y, s, clusters=ids)
    assert e.n_clusters == 5
    _close(e.std_error ** 2, rc.obuchowski_var(y, s, ids), rtol=1e-12)


# --- (e) the number of clusters and the warning -------------------------------------------

def _many_clusters(n_pos_clusters, rng):
    """Positives in ``n_pos_clusters`` clusters, negatives in 12 others."""
    y = np.r_[np.ones(2 * n_pos_clusters, int), np.zeros(36, int)]
    ids = np.r_[np.repeat(np.arange(n_pos_clusters), 2), 100 + np.repeat(np.arange(12), 3)]
    s = np.round(y + rng.normal(size=len(y)), 2)
    return y, s, ids


def test_few_clusters_warning():
    rng = np.random.default_rng(4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y, s, ids = _many_clusters(10, rng)
        e = rw.stats.estimate(y, s, clusters=ids)  # 10 and 12 clusters: no warning
        assert e.n_clusters == 22 and np.isfinite(e.std_error)
    y, s, ids = _many_clusters(4, rng)
    with pytest.warns(rw.stats.FewClustersWarning, match="positives"):
        e = rw.stats.estimate(y, s, clusters=ids)
    assert np.isfinite(e.std_error) and e.n_clusters == 16
    with pytest.warns(rw.stats.FewClustersWarning, match="positives"):
        c = rw.stats.compare(y, [s, -s], clusters=ids)
    assert c.n_clusters == 16
    # One cluster of positives: no cluster-robust variance at all.
    y, s, ids = _many_clusters(1, rng)
    with pytest.warns(rw.stats.FewClustersWarning):
        e = rw.stats.estimate(y, s, clusters=ids)
    assert np.isnan(e.std_error)
    assert e.value == pytest.approx(rc.auc(y, s))
    assert issubclass(rw.stats.FewClustersWarning, UserWarning)
