"""``rankwise.distributed.estimate`` / ``compare`` with ``clusters=`` against single-machine
``rankwise.stats`` on the concatenated data (issue 28, item 4).

Each chunk sums its rows' projection terms by cluster id within each class and the
client merges the chunks' sums by id, so the clusters here are built to span chunks,
DataFrame partitions and score buckets (each cluster's rows are scattered over the
sample, and the clusters carry a shared score shift, so the clustered standard error
differs from the row-level one: a Dask path that ignored the clusters, or merged them
wrongly, would fail the equalities). One in-process LocalCluster serves the module.
"""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
pytest.importorskip("distributed", reason="rankwise.distributed needs distributed: pip install 'rankwise[dask]'")
da = pytest.importorskip("dask.array")

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise.stats import FewClustersWarning  # noqa: E402

REL = 1e-12

CRITERIA = [
    "auc",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
    "local_auc:top=0.2",
    "pnorm_push:p=4",
    "partial_auc:max_fpr=0.3,standardize=mcclish",
    "ndcg:k=50",
    "average_precision",
]


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    # In-process workers (threads; in-process comms, no network) as the default client.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0",
                                  memory_limit="2GiB") as cluster, distributed.Client(cluster) as c:
        yield c


def close(a, b, rel=REL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    with np.errstate(invalid="ignore"):  # infinite ends of one-sided intervals: equal or not
        ok = both_nan | (a == b) | (np.abs(a - b) <= rel * np.maximum(np.abs(b), 1e-300))
    assert ok.all(), (a[~ok], b[~ok])


def make(seed, n=3000, n_clusters=120, weights=None):
    """Labels, tied scores with a per-cluster shift, cluster ids scattered over the rows."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, n_clusters, size=n)
    y = rng.random(n) < 0.25 + 0.3 * (g % 3 == 0)
    shift = rng.normal(size=n_clusters)
    s = np.round(rng.normal(size=n) + y + shift[g], 1)
    w = None if weights is None else rng.integers(0, 17, size=n) / 8.0  # dyadic: exact sums
    return y, s, g, w


def chunked(x, c=700):
    return None if x is None else da.from_array(x, chunks=c)


def _same_estimate(a, b, rel=REL):
    close([a.value, a.std_error, a.n_pos, a.n_neg], [b.value, b.std_error, b.n_pos, b.n_neg], rel)
    close(a.bounds, b.bounds, rel)
    assert a.n_clusters == b.n_clusters
    assert a.method == b.method
    for level in (0.9, 0.95):
        close(tuple(a.confidence_interval(level)), tuple(b.confidence_interval(level)), rel)


def _same_comparison(a, b):
    assert a.names == b.names and a.n_clusters == b.n_clusters
    close(a.values, b.values)
    np.testing.assert_allclose(a.cov, b.cov, rtol=REL, atol=REL * np.abs(b.cov).max())
    for p, q in zip(a.pairs, b.pairs):
        assert (p.a, p.b) == (q.a, q.b)
        close([p.difference, p.std_error, p.low, p.high], [q.difference, q.std_error, q.low, q.high])
        close([p.p_value, p.p_adjusted], [q.p_value, q.p_adjusted], 1e-9)
    close([a.global_statistic, a.global_df], [b.global_statistic, b.global_df], 1e-9)


def test_clusters_span_chunks_and_buckets():
    """The data of these tests: clusters cross chunk and bucket boundaries, and the
    clustered standard error is not the row-level one."""
    y, s, g, _ = make(1)
    chunk = np.arange(g.shape[0]) // 700
    bucket = np.searchsorted([-1.0, 0.0, 0.0, 0.5, 2.0], s, side="right")
    spans = [(np.unique(chunk[g == k]).shape[0], np.unique(bucket[g == k]).shape[0]) for k in np.unique(g)]
    assert min(c for c, _ in spans) >= 2 and min(b for _, b in spans) >= 2
    se_rows = rw.stats.estimate(y, s).std_error
    se_clusters = rw.stats.estimate(y, s, clusters=g).std_error
    assert abs(se_clusters / se_rows - 1.0) > 0.1


@pytest.mark.parametrize("weights", [None, "dyadic"])
@pytest.mark.parametrize("criterion", CRITERIA)
def test_estimate_equals_single_machine(client, criterion, weights):
    y, s, g, w = make(11, weights=weights)
    got = rwd.estimate(chunked(y), chunked(s), criterion, sample_weight=chunked(w), clusters=chunked(g, 500),
                       splitters=[-1.0, 0.0, 0.0, 0.5, 2.0])
    want = rw.stats.estimate(y, s, criterion, sample_weight=w, clusters=g)
    assert want.n_clusters == 120
    _same_estimate(got, want)
    # the logit interval too (the same standard error through the transform)
    close(tuple(got.confidence_interval(transform="logit")), tuple(want.confidence_interval(transform="logit")))


@pytest.mark.parametrize("criterion, weights", [
    ("auc", None), ("auc", "dyadic"), ("local_auc:top=0.25", "dyadic"), ("pnorm_push:p=3", None),
    ("partial_auc:max_fpr=0.3", None),
])
def test_compare_equals_single_machine(client, criterion, weights):
    y, s1, g, w = make(21, weights=weights)
    rng = np.random.default_rng(22)
    s2 = np.round(s1 + rng.normal(size=s1.shape[0]), 0)  # few distinct values
    s3 = rng.normal(size=s1.shape[0]) + 0.3 * y  # untied
    ids = np.array([f"patient-{k:03d}" for k in g])  # string ids
    got = rwd.compare(chunked(y, 500), {"a": chunked(s1, 500), "b": s2, "c": chunked(s3, 500)}, criterion,
                      sample_weight=chunked(w, 500), clusters=ids, n_partitions=5, chunk_size=500)
    want = rw.stats.compare(y, {"a": s1, "b": s2, "c": s3}, criterion, sample_weight=w, clusters=ids)
    assert want.n_clusters == 120
    _same_comparison(got, want)
    assert "over 120 clusters" in got.summary()


def test_compare_reference_and_alternative_with_clusters(client):
    y, s1, g, _ = make(23)
    rng = np.random.default_rng(24)
    cols = {"a": s1, "b": s1 + rng.normal(size=s1.shape[0])}
    kw = dict(reference="b", adjust="bh", alternative="less")
    got = rwd.compare(chunked(y, 500), {k: chunked(v, 500) for k, v in cols.items()}, "auc", clusters=chunked(g, 500),
                      n_partitions=4, **kw)
    _same_comparison(got, rw.stats.compare(y, cols, "auc", clusters=g, **kw))


def test_clusters_arange_reproduce_unclustered(client):
    """One row per cluster: Obuchowski's variance is the row-level one (DeLong)."""
    y, s, _, _ = make(31)
    ids = np.arange(y.shape[0])
    for criterion in ("auc", "local_auc:top=0.2"):
        got = rwd.estimate(chunked(y), chunked(s), criterion, clusters=chunked(ids), n_partitions=4)
        rows = rwd.estimate(chunked(y), chunked(s), criterion, n_partitions=4)
        assert got.n_clusters == y.shape[0] and rows.n_clusters is None
        close([got.value, got.std_error], [rows.value, rows.std_error])
        close([got.std_error], [rw.stats.estimate(y, s, criterion).std_error])
    rng = np.random.default_rng(32)
    s2 = rng.normal(size=y.shape[0]) + y
    got = rwd.compare(chunked(y), [chunked(s), chunked(s2)], "auc", clusters=ids, n_partitions=3)
    want = rw.stats.compare(y, [s, s2], "auc")
    np.testing.assert_allclose(got.cov, want.cov, rtol=REL, atol=REL * np.abs(want.cov).max())


def test_mixed_type_ids(client):
    """Ids of mixed types (integers and strings, which do not sort) are numbered by
    value: the integer 3 and the string "3" are two clusters."""
    y, s, g, _ = make(41, n_clusters=60)
    ids = np.array([int(k) if k % 2 else str(k // 2) for k in g], dtype=object)
    got = rwd.estimate(chunked(y), chunked(s), "auc", clusters=chunked(ids), n_partitions=3)
    want = rw.stats.estimate(y, s, "auc", clusters=ids)
    assert want.n_clusters == 60
    _same_estimate(got, want)


def test_dataframe_and_parquet_cluster_column(client, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    dd = pytest.importorskip("dask.dataframe")
    y, s, g, w = make(51, weights="dyadic")
    # Clusters in runs of consecutive rows that cross the partition boundaries.
    runs = np.arange(y.shape[0]) // 45
    ids = np.array([f"site-{k}" for k in runs])
    s2 = np.round(s + np.random.default_rng(52).normal(size=s.shape[0]), 1)
    frame = pd.DataFrame({"label": y.astype(int), "score": s, "other": s2, "w": w, "site": ids})
    ddf = dd.from_pandas(frame, npartitions=4)
    assert ids[749] == ids[750] and ids[999] == ids[1000]  # runs cross the partitions' boundaries
    got = rwd.estimate(ddf, criterion="auc", label="label", score="score", weight="w", clusters="site",
                       n_partitions=3)
    _same_estimate(got, rw.stats.estimate(y, s, "auc", sample_weight=w, clusters=ids))
    got = rwd.compare(ddf, ["score", "other"], "pnorm_push", p=2, label="label", clusters="site", n_partitions=3)
    _same_comparison(got, rw.stats.compare(y, {"score": s, "other": s2}, "pnorm_push", p=2, clusters=ids))
    # a Parquet directory: the id column is read with the others
    folder = tmp_path / "scores"
    folder.mkdir()
    for i, part in enumerate(np.array_split(np.arange(y.shape[0]), 3)):
        frame.iloc[part].to_parquet(folder / f"part-{i}.parquet", index=False)
    got = rwd.estimate(str(folder), criterion="local_auc", top=0.3, label="label", score="score", clusters="site")
    _same_estimate(got, rw.stats.estimate(y, s, "local_auc", top=0.3, clusters=ids))
    # with array inputs, a dask Series of ids
    got = rwd.estimate(chunked(y, 750), chunked(s, 750), "auc", clusters=ddf["site"], n_partitions=2)
    _same_estimate(got, rw.stats.estimate(y, s, "auc", clusters=ids))


def test_missing_ids_are_errors_with_global_rows(client):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    y, s, g, _ = make(61)
    f = g.astype(float)
    f[[1234, 2900]] = np.nan  # in the second and the fifth chunk of 700 rows
    with pytest.raises(ValueError, match=r"'clusters' parameter of estimate has missing or infinite ids at rows "
                                         r"1234, 2900;"):
        rwd.estimate(chunked(y), chunked(s), clusters=chunked(f))
    with pytest.raises(ValueError, match=r"'clusters' parameter of estimate has missing or infinite ids at rows "
                                         r"1234, 2900;"):
        rw.stats.estimate(y, s, clusters=f)  # the single-machine message, the same rows
    o = g.astype(object)
    o[[5, 1500, 1501]] = [None, None, float("nan")]
    with pytest.raises(ValueError, match=r"'clusters' parameter of compare has missing ids \(None/NaN\) at rows "
                                         r"5, 1500, 1501;"):
        rwd.compare(chunked(y), [chunked(s), chunked(s)], clusters=o)
    frame = pd.DataFrame({"label": y.astype(int), "score": s, "site": pd.array(g, dtype="Int64")})
    frame.loc[2222, "site"] = pd.NA
    with pytest.raises(ValueError, match=r"missing ids \(None/NaN\) at rows 2222;"):
        rwd.estimate(dd.from_pandas(frame, npartitions=3), label="label", score="score", clusters="site")


def test_bad_cluster_arguments(client):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    y, s, g, _ = make(71, n=1000)
    with pytest.raises(ValueError, match="'clusters' argument has 999 ids but y_true has 1000"):
        rwd.estimate(chunked(y), chunked(s), clusters=g[:-1])
    with pytest.raises(TypeError, match="'clusters' argument must be an array-like"):
        rwd.estimate(chunked(y), chunked(s), clusters="site")
    with pytest.raises(TypeError, match="'clusters' parameter of estimate must hold ids"):
        rwd.estimate(chunked(y), chunked(s), clusters=np.full(1000, np.timedelta64(1, "s")))
    ddf = dd.from_pandas(pd.DataFrame({"label": y.astype(int), "score": s, "site": g}), npartitions=2)
    with pytest.raises(ValueError, match="name the cluster id column"):
        rwd.estimate(ddf, label="label", score="score", clusters=g)
    with pytest.raises(ValueError, match="no column"):
        rwd.estimate(ddf, label="label", score="score", clusters="patient")
    with pytest.raises(ValueError, match="must be distinct"):
        rwd.estimate(ddf, label="label", score="score", clusters="score")


def test_bootstrap_refused_and_undefined(client):
    y, s, g, _ = make(81)
    e = rwd.estimate(chunked(y), chunked(s), clusters=chunked(g), n_partitions=3)
    with pytest.raises(NotImplementedError, match="clusters= has no bootstrap.*analytic intervals"):
        e.confidence_interval(method="bootstrap", n_resamples=50, random_state=0)
    with pytest.raises(NotImplementedError, match="no bootstrap"):
        e.bootstrap_distribution(50, 0)
    assert "over 120 clusters" in e.summary()
    # one class only: undefined, but the clusters are counted (as on one machine)
    with pytest.warns(rw.UndefinedMetricWarning):
        u = rwd.estimate(chunked(np.zeros(3000, dtype=int)), chunked(s), clusters=chunked(g))
    assert np.isnan(u.value) and u.n_clusters == 120
    with pytest.warns(rw.UndefinedMetricWarning):
        c = rwd.compare(chunked(np.zeros(3000, dtype=int)), [chunked(s), chunked(s)], clusters=g)
    assert c.n_clusters == 120


def test_few_clusters_warn_as_on_one_machine(client):
    y, s, g, _ = make(91, n_clusters=6)
    with pytest.warns(FewClustersWarning) as got:
        a = rwd.estimate(chunked(y), chunked(s), clusters=chunked(g), n_partitions=3)
    with pytest.warns(FewClustersWarning) as want:
        b = rw.stats.estimate(y, s, clusters=g)
    assert [str(x.message) for x in got] == [str(x.message) for x in want]
    _same_estimate(a, b)
    # many clusters: no warning
    y, s, g, _ = make(92)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewClustersWarning)
        rwd.estimate(chunked(y), chunked(s), clusters=chunked(g), n_partitions=3)


def test_no_projection_criterion_has_clusters_and_nan_error(client):
    y, s, g, _ = make(93)
    got = rwd.estimate(chunked(y), chunked(s), "ks_statistic", clusters=chunked(g), n_partitions=3)
    want = rw.stats.estimate(y, s, "ks_statistic", clusters=g)
    close([got.value], [want.value])
    assert np.isnan(got.std_error) and np.isnan(want.std_error) and got.n_clusters == want.n_clusters == 120


def test_huge_weights_terms_scaled_as_on_one_machine(client):
    """Weights of 1e150 on a criterion of absolute masses: terms near 1e153, whose
    weighted sums' squares overflow unless divided by a power of two first (each chunk
    by its own, the client rescales to the whole sample's, as rankwise.stats does)."""
    y, s, g, _ = make(95, n=2000)
    w = np.random.default_rng(96).integers(1, 9, size=2000) * 1e150
    for criterion in ("rank_statistic", "rank_statistic:phi=pnorm_push,p=4"):
        got = rwd.estimate(chunked(y), chunked(s), criterion, sample_weight=chunked(w), clusters=chunked(g),
                           n_partitions=4)
        want = rw.stats.estimate(y, s, criterion, sample_weight=w, clusters=g)
        assert np.isfinite(want.std_error) and want.std_error > 1e150
        close([got.value, got.std_error], [want.value, want.std_error])
