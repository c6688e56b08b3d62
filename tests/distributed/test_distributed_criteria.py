"""rankwise.distributed against single-machine rankwise, on a local Dask cluster.

The cluster (3 worker processes, 1 thread each) binds to 127.0.0.1 only, with the
dashboard on a free loopback port. Every distributed result must equal the
single-machine one to 1e-12 (relative) on data built to stress the range
partitioning: heavy ties, splitters forced onto tied values, duplicate splitters,
empty buckets, buckets holding one class only, 90% of the rows on one score.
"""

import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
pytest.importorskip("distributed", reason="rankwise.distributed needs distributed: pip install 'rankwise[dask]'")
da = pytest.importorskip("dask.array")

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise import criteria  # noqa: E402

# The module's tests run on one xdist worker under `--dist loadgroup` (`make test`), so its
# cluster (the fixture below: workers are killed here) starts once per run.
pytestmark = pytest.mark.xdist_group("dask_criteria")

REL = 1e-12

CRITERIA = [
    "auc",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
    "rank_statistic:phi=local_auc,u0=0.8,ties=max",
    "rank_statistic:scale=mean",
    "local_auc:top=0.1",
    "local_auc:top=0.6",
    "pnorm_push:p=4",
    "pnorm_push:p=2,normalize=False,ties=max",
    "partial_auc:max_fpr=0.1,standardize=mcclish",
    "partial_auc:max_fpr=0.35",
    "partial_auc:max_fpr=1",
    "dcg:k=20",
    "ndcg:k=100",
    "ndcg",
]
# Hajek/DeLong estimates compared criterion by criterion (a representative subset: every
# projection formula of rankwise.stats._influence appears).
EST_CRITERIA = [
    "auc",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
    "local_auc:top=0.2",
    "pnorm_push:p=4",
    "partial_auc:max_fpr=0.2,standardize=mcclish",
    "ndcg:k=50",
]


@pytest.fixture(scope="module")
def client():
    with rwd.local_cluster(n_workers=3, threads_per_worker=1, processes=True, memory_limit="2GiB") as c:
        yield c


def close(a, b, rel=REL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    scale = np.maximum(np.abs(b), 1e-300)
    ok = both_nan | (np.abs(a - b) <= rel * scale)
    assert ok.all(), (a[~ok], b[~ok])


def make(seed, n=4000, weights=None, skew=False):
    """Labels, scores with heavy ties (rounded to few values) and optional weights.

    ``weights="dyadic"``: multiples of 1/8 (every sum is exact in floating point);
    ``"real"``: uniform reals with 5% zeros."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)
    if skew:
        s[rng.random(n) < 0.9] = 0.5  # 90% of the rows on one value
    w = None
    if weights == "dyadic":
        w = rng.integers(0, 17, size=n) / 8.0
    elif weights == "real":
        w = rng.random(n) * 3.0
        w[rng.random(n) < 0.05] = 0.0
    return y, s, w


def chunked(x, c=700):
    return None if x is None else da.from_array(x, chunks=c)


# --- criteria -----------------------------------------------------------------------------------

SPLITS = {
    "sampled": dict(n_partitions=6),
    "on_ties": dict(splitters=[-0.5, 0.0, 0.0, 0.5, 0.5, 1.0]),  # duplicates, on tied values
    "empty_buckets": dict(splitters=[-50.0, -40.0, 0.5, 40.0, 50.0]),
    "one_bucket": dict(n_partitions=1),
}


@pytest.mark.parametrize("weights", [None, "dyadic", "real"])
@pytest.mark.parametrize("split", list(SPLITS))
def test_evaluate_equals_single_machine(client, weights, split):
    y, s, w = make(11, weights=weights)
    got = rwd.evaluate(chunked(y), chunked(s), CRITERIA, sample_weight=chunked(w), **SPLITS[split])
    want = rw.evaluate(y, s, CRITERIA, sample_weight=w)
    assert list(got) == list(want)
    for key in want:
        # Weighted DCG with real-valued weights reads a cumulative discount at positions in
        # mass units and differences it over each tied block: a rounding change of 1e-16 in a
        # running mass moves it by up to ~1e-11 relative (the single-machine value is no
        # more accurate than that); dyadic weights make every sum exact.
        tol = 1e-10 if (weights == "real" and "dcg" in key) else REL
        close(got[key], want[key], tol)


@pytest.mark.parametrize("seed", range(4))
def test_random_cases(client, seed):
    """Derandomised sweep: sizes, tie levels, class balance, skew, chunking, partitions."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(50, 3000))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[0], y[1] = True, False
    s = np.round(rng.normal(size=n) * rng.uniform(0.1, 3), int(rng.integers(0, 2)))
    if seed % 2:
        s[rng.random(n) < 0.9] = s[0]
    w = rng.integers(0, 9, size=n) / 4.0 if seed >= 2 else None
    if w is not None:
        w[:2] = 1.0
    c = int(rng.integers(20, 900))
    kw = dict(n_partitions=int(rng.integers(1, 12))) if seed != 3 else dict(splitters=np.sort(rng.choice(s, 5)))
    crit = ["auc", "local_auc:top=0.3", "pnorm_push:p=3", "partial_auc:max_fpr=0.25", "ndcg:k=30",
            "rank_statistic:phi=pnorm_push,p=2,scale=minmax"]
    got = rwd.evaluate(chunked(y, c), chunked(s, c), crit, sample_weight=chunked(w, c), **kw)
    want = rw.evaluate(y, s, crit, sample_weight=w)
    for key in want:
        close(got[key], want[key])


def test_single_functions_and_skew(client):
    y, s, w = make(3, skew=True)
    ys, ss, ws = chunked(y), chunked(s), chunked(w)
    kw = dict(splitters=[0.5, 0.5, 0.6])
    close(rwd.auc(ys, ss, **kw), rw.auc(y, s))
    close(rwd.rank_statistic(ys, ss, "pnorm_push", p=3, scale="minmax", **kw),
          rw.rank_statistic(y, s, "pnorm_push", p=3, scale="minmax"))
    close(rwd.local_auc(ys, ss, top=0.05, **kw), rw.local_auc(y, s, top=0.05))
    close(rwd.pnorm_push(ys, ss, p=8, **kw), rw.pnorm_push(y, s, p=8))
    close(rwd.partial_auc(ys, ss, max_fpr=0.05, **kw), rw.partial_auc(y, s, max_fpr=0.05))
    close(rwd.dcg(ys, ss, k=10, **kw), rw.dcg(y, s, k=10))
    close(rwd.ndcg(ys, ss, **kw), rw.ndcg(y, s))


def test_one_class_per_bucket(client):
    """Positives all above the negatives, splitters between and inside the classes."""
    rng = np.random.default_rng(5)
    y = np.r_[np.zeros(500, bool), np.ones(300, bool)]
    s = np.r_[np.round(rng.normal(size=500), 1), 10 + np.round(rng.normal(size=300), 1)]
    perm = rng.permutation(800)
    y, s = y[perm], s[perm]
    spl = [-1.0, 0.0, 5.0, 10.0]
    got = rwd.evaluate(chunked(y, 100), chunked(s, 100), CRITERIA, splitters=spl)
    want = rw.evaluate(y, s, CRITERIA)
    for key in want:
        close(got[key], want[key])
    e1 = rwd.estimate(chunked(y, 100), chunked(s, 100), "local_auc:top=0.2", splitters=spl)
    e2 = rw.stats.estimate(y, s, "local_auc:top=0.2")
    close([e1.value, e1.std_error], [e2.value, e2.std_error])


def test_numpy_and_integer_scores(client):
    y, s, _ = make(8, n=1500)
    si = (s * 10).astype(np.int64)
    got = rwd.evaluate(y, si, ["auc", "ndcg:k=10"], chunk_size=300, n_partitions=4)
    want = rw.evaluate(y, si, ["auc", "ndcg:k=10"])
    for key in want:
        close(got[key], want[key])
    yl = np.where(y, "spam", "ham")
    close(rwd.auc(yl, s, pos_label="spam", chunk_size=400), rw.auc(yl, s, pos_label="spam"))


# --- ROC curve ------------------------------------------------------------------------------------

@pytest.mark.parametrize("weights", [None, "dyadic"])
def test_roc_curve(client, weights):
    y, s, w = make(21, weights=weights)
    want = rw.roc_curve(y, s, sample_weight=w)
    full = rwd.roc_curve(chunked(y), chunked(s), sample_weight=chunked(w), resolution=None,
                         splitters=[0.0, 0.0, 1.0])
    for a, b in zip(full, want):
        np.testing.assert_allclose(a, b, rtol=REL, atol=0)
    thin = rwd.roc_curve(chunked(y), chunked(s), sample_weight=chunked(w), resolution=12, n_partitions=5)
    assert 3 <= thin.fpr.shape[0] <= 12 + 2 * 5
    # every returned point is one of the exact curve's points
    idx = np.searchsorted(-want.thresholds, -thin.thresholds)
    np.testing.assert_array_equal(want.thresholds[idx], thin.thresholds)
    np.testing.assert_allclose(thin.fpr, want.fpr[idx], rtol=REL, atol=0)
    np.testing.assert_allclose(thin.tpr, want.tpr[idx], rtol=REL, atol=0)
    assert thin.fpr[-1] == 1.0 and thin.tpr[-1] == 1.0


# --- inference ------------------------------------------------------------------------------------

def _same_estimate(a, b, rel=REL):
    close([a.value, a.std_error, a.n_pos, a.n_neg], [b.value, b.std_error, b.n_pos, b.n_neg], rel)
    close(a.bounds, b.bounds, rel)
    for level in (0.9, 0.95):
        close(tuple(a.confidence_interval(level)), tuple(b.confidence_interval(level)), rel)
        close(tuple(a.confidence_interval(level, transform="logit")),
              tuple(b.confidence_interval(level, transform="logit")), rel)


@pytest.mark.parametrize("weights", [None, "dyadic"])
@pytest.mark.parametrize("criterion", EST_CRITERIA)
def test_estimate_equals_single_machine(client, criterion, weights):
    y, s, w = make(31, weights=weights, skew=criterion == "pnorm_push:p=4")
    got = rwd.estimate(chunked(y), chunked(s), criterion, sample_weight=chunked(w),
                       splitters=[-1.0, 0.0, 0.0, 0.5, 2.0, 90.0])
    want = rw.stats.estimate(y, s, criterion, sample_weight=w)
    _same_estimate(got, want)


def test_estimate_methods_and_bootstrap(client):
    y, s, _ = make(32)
    for method in ("delong", "hajek"):
        _same_estimate(rwd.estimate(chunked(y), chunked(s), method=method, n_partitions=4),
                       rw.stats.estimate(y, s, method=method))
    e = rwd.estimate(chunked(y), chunked(s), "dcg", k=30, bandwidth=0.05)
    _same_estimate(e, rw.stats.estimate(y, s, "dcg", k=30, bandwidth=0.05))
    # The bootstrap runs on the buckets (tested in test_distributed_bootstrap.py).
    assert e.confidence_interval(method="bootstrap", n_resamples=50, random_state=0).method == "bootstrap"
    with pytest.raises(NotImplementedError, match="ranking_risk"):
        rwd.estimate(chunked(y), chunked(s), "ranking_risk")


@pytest.mark.parametrize("criterion, weights", [
    ("auc", None), ("auc", "dyadic"), ("rank_statistic:phi=local_auc,u0=0.8", None),
    ("partial_auc:max_fpr=0.3", "dyadic"), ("local_auc:top=0.25", None), ("local_auc:top=0.25", "dyadic"),
    ("pnorm_push:p=3", None),
])
def test_compare_equals_single_machine(client, criterion, weights):
    y, s1, w = make(41, n=3000, weights=weights)
    rng = np.random.default_rng(42)
    s2 = np.round(s1 + rng.normal(size=s1.shape[0]), 0)  # few distinct values
    s3 = rng.normal(size=s1.shape[0]) + 0.3 * y  # untied
    got = rwd.compare(chunked(y, 500), {"a": chunked(s1, 500), "b": s2, "c": chunked(s3, 500)}, criterion,
                      sample_weight=chunked(w, 500), n_partitions=5, chunk_size=500)
    want = rw.stats.compare(y, {"a": s1, "b": s2, "c": s3}, criterion, sample_weight=w)
    assert got.names == want.names
    close(got.values, want.values)
    np.testing.assert_allclose(got.cov, want.cov, rtol=REL, atol=REL * np.abs(want.cov).max())
    for p, q in zip(got.pairs, want.pairs):
        assert (p.a, p.b) == (q.a, q.b)
        close([p.difference, p.std_error, p.low, p.high], [q.difference, q.std_error, q.low, q.high])
        close([p.p_value, p.p_adjusted], [q.p_value, q.p_adjusted], 1e-9)
    close([got.global_statistic, got.global_df], [want.global_statistic, want.global_df], 1e-9)



def test_compare_reference_adjust_alternative_equal_single_machine(client):
    y, s1, _ = make(43, n=2000)
    rng = np.random.default_rng(44)
    cols = {"a": s1, "b": s1 + rng.normal(size=s1.shape[0]), "c": rng.normal(size=s1.shape[0]) + 0.3 * y}
    kw = dict(reference="b", adjust="bh", alternative="less")
    got = rwd.compare(chunked(y, 500), {k: chunked(v, 500) for k, v in cols.items()}, "auc", n_partitions=4,
                      chunk_size=500, **kw)
    want = rw.stats.compare(y, cols, "auc", **kw)
    assert got.family == want.family == "each against 'b' (2)" and got.alternative == "less"
    assert [(p.a, p.b) for p in got.pairs] == [(p.a, p.b) for p in want.pairs] == [("a", "b"), ("c", "b")]
    for p, q in zip(got.pairs, want.pairs):
        close([p.difference, p.std_error, p.high], [q.difference, q.std_error, q.high])
        assert p.low == -np.inf
        close([p.p_value, p.p_adjusted], [q.p_value, q.p_adjusted], 1e-9)
    with pytest.raises(ValueError, match="'reference'"):
        rwd.compare(chunked(y, 500), cols, "auc", reference="z")


@pytest.mark.parametrize("alternative, margin", [("noninferiority", 0.02), ("equivalence", 0.03)])
def test_compare_margin_equal_single_machine(client, alternative, margin):
    y, s1, _ = make(45, n=2000)
    rng = np.random.default_rng(46)
    cols = {"a": s1 + 0.3 * rng.normal(size=s1.shape[0]), "b": s1}
    kw = dict(reference="b", alternative=alternative, margin=margin)
    got = rwd.compare(chunked(y, 500), {k: chunked(v, 500) for k, v in cols.items()}, "auc", n_partitions=4,
                      chunk_size=500, **kw)
    want = rw.stats.compare(y, cols, "auc", **kw)
    assert got.alternative == alternative and got.margin == want.margin == margin
    for p, q in zip(got.pairs, want.pairs):
        close([p.difference, p.std_error, p.statistic, p.low], [q.difference, q.std_error, q.statistic, q.low])
        close([p.p_value], [q.p_value], 1e-9)
    with pytest.raises(ValueError, match="'margin'"):
        rwd.compare(chunked(y, 500), cols, "auc", alternative=alternative)

# --- inputs ---------------------------------------------------------------------------------------

def test_parquet_directory_and_dataframe(client, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    dd = pytest.importorskip("dask.dataframe")
    y, s, w = make(51, n=3000, weights="dyadic")
    rng = np.random.default_rng(52)
    s2 = rng.normal(size=3000) + y
    frame = pd.DataFrame({"label": y.astype(int), "score": s, "other": s2, "w": w})
    path = tmp_path / "scores"
    path.mkdir()
    for i, part in enumerate(np.array_split(np.arange(3000), 4)):
        frame.iloc[part].to_parquet(path / f"part-{i}.parquet", index=False)
    crit = ["auc", "pnorm_push:p=4", "ndcg:k=50"]
    got = rwd.evaluate(str(path), criteria=crit, label="label", score="score", weight="w", n_partitions=3)
    want = rw.evaluate(y, s, crit, sample_weight=w)
    for key in want:
        close(got[key], want[key])
    e = rwd.estimate(path, criterion="auc", label="label", score="score")
    _same_estimate(e, rw.stats.estimate(y, s))
    c = rwd.compare(str(path), ["score", "other"], label="label", weight="w")
    c2 = rw.stats.compare(y, {"score": s, "other": s2}, sample_weight=w)
    assert c.names == ("score", "other")
    np.testing.assert_allclose(c.cov, c2.cov, rtol=REL)
    ddf = dd.from_pandas(frame, npartitions=3)
    close(rwd.auc(ddf, label="label", score="other"), rw.auc(y, s2))


def test_bad_inputs(client):
    y, s, w = make(61, n=1000)
    ys = chunked(y, 300)
    bad = s.copy()
    bad[[650, 700]] = np.nan
    with pytest.raises(ValueError, match=r"'y_score' argument contains 2 NaN value\(s\) \(first at index 650\)"):
        rwd.auc(ys, chunked(bad, 300))
    bad[700] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        rwd.evaluate(ys, chunked(bad, 300))
    with pytest.raises(ValueError, match="two distinct label values"):
        rwd.auc(chunked(np.arange(1000) % 3, 300), chunked(s, 300))
    wn = np.ones(1000)
    wn[999] = -1.0
    with pytest.raises(ValueError, match=r"1 negative value\(s\) \(first at index 999\)"):
        rwd.auc(ys, chunked(s, 300), sample_weight=chunked(wn, 300))
    with pytest.raises(ValueError, match="same length"):
        rwd.auc(ys, chunked(s[:900], 300))
    with pytest.raises(ValueError, match="empty"):
        rwd.auc(np.array([]), np.array([]))
    with pytest.raises(ValueError, match="pos_label"):
        rwd.auc(np.where(y, "a", "b"), s)
    with pytest.raises(TypeError, match="real numbers"):
        rwd.auc(y, np.array(["x"] * 1000))
    with pytest.raises(ValueError, match="label="):
        rwd.auc("/nonexistent/dir")
    with pytest.raises(FileNotFoundError):
        rwd.auc("/nonexistent/dir", label="y", score="s")
    with pytest.raises(ValueError, match="Unknown criterion"):
        rwd.evaluate(ys, chunked(s, 300), ["nope"])
    with pytest.raises(ValueError, match="max_fpr"):
        rwd.partial_auc(ys, chunked(s, 300), max_fpr=2.0)
    with pytest.warns(rw.UndefinedMetricWarning):
        assert np.isnan(rwd.auc(np.ones(1000, bool), chunked(s, 300)))
    with pytest.warns(rw.UndefinedMetricWarning):
        out = rwd.evaluate(ys, chunked(s, 300), ["auc", "ndcg"], sample_weight=np.where(y, 0.0, 1.0))
    assert all(np.isnan(v) for v in out.values())


def test_without_dask_the_error_names_the_extra(monkeypatch):
    from rankwise.distributed import _cluster

    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(ImportError, match=r"pip install 'rankwise\[dask\]'"):
        _cluster.require_dask()


def test_cluster_binds_loopback(client):
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    for addr in client.scheduler_info()["workers"]:
        assert addr.startswith("tcp://127.0.0.1:")
    with pytest.raises(ValueError, match="loopback"):
        with rwd.local_cluster(host="0.0.0.0"):
            pass
    assert rwd.get_client() is client or rwd.get_client().scheduler.address == client.scheduler.address


# --- fault tolerance ------------------------------------------------------------------------------

def test_worker_killed_during_evaluate(client):
    """A worker process is killed (SIGKILL) while the buckets are being built: Dask recomputes
    the lost pieces from their lineage and the result is still exactly the single-machine
    one (or the call fails loudly; it never returns a wrong number)."""
    n, chunk = 3_000_000, 100_000
    rs = da.random.RandomState(7)
    y = rs.random_sample(n, chunks=chunk) < 0.3
    s = (rs.random_sample(n, chunks=chunk) * 100).round(2) + y
    crit = ["auc", "local_auc:top=0.1", "pnorm_push:p=4", "ndcg:k=100"]
    yl, sl = dask.compute(y, s, scheduler="threads")
    want = rw.evaluate(yl, sl, crit)

    pids = client.run(os.getpid)  # worker address -> process id (processes this test started)
    out: dict = {}

    def run():
        try:
            out["value"] = rwd.evaluate(y, s, crit, n_partitions=12, client=client)
        except Exception as exc:  # noqa: BLE001 - reported below
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    victim = None
    deadline = time.time() + 60
    while time.time() < deadline and thread.is_alive():
        busy = {w: keys for w, keys in client.processing().items() if any(
            "split" in str(k) or "merge" in str(k) for k in keys)}
        if busy:
            victim = sorted(busy)[0]
            break
        time.sleep(0.02)
    assert victim is not None, "the computation finished before a worker could be killed"
    os.kill(pids[victim], signal.SIGKILL)
    killed_while_running = thread.is_alive()
    thread.join(120)
    assert not thread.is_alive()
    assert killed_while_running
    if "error" in out:
        # Acceptable only as a clear failure, never a silent wrong answer.
        assert "worker" in str(out["error"]).lower() or "killed" in str(out["error"]).lower()
        pytest.fail(f"the cluster did not recover: {out['error']!r}")
    for key in want:
        close(out["value"][key], want[key])
    # The victim really died (its nanny starts a fresh worker on a new port).
    deadline = time.time() + 30
    while victim in client.scheduler_info()["workers"] and time.time() < deadline:
        time.sleep(0.1)
    assert victim not in client.scheduler_info()["workers"]
    client.wait_for_workers(3, timeout=60)


# --- weights at any scale (issue 14) -------------------------------------------------------------

@pytest.mark.parametrize("c", [1e200, 1e-200])
def test_weight_scale_distributed(client, c):
    # Was: nan (products of masses overflow) at 1e200, ZeroDivisionError at 1e-200.
    y, s, w = make(12, weights="dyadic")
    free = [spec for spec in CRITERIA if criteria.get(spec).scale_free]
    got = rwd.evaluate(chunked(y), chunked(s), free, sample_weight=chunked(w * c), n_partitions=4)
    want = rw.evaluate(y, s, free, sample_weight=w)
    for key in free:
        close(got[key], want[key], 1e-9)
    e = rwd.estimate(chunked(y), chunked(s), "auc", sample_weight=chunked(w * c), n_partitions=4)
    e1 = rw.stats.estimate(y, s, "auc", sample_weight=w * c)
    close(e.value, e1.value, 1e-9)
    close([e.std_error, e.n_pos], [e1.std_error, e1.n_pos], 1e-9)  # frequency weights: n+ = c * mass
    s2 = s + np.random.default_rng(0).normal(size=s.shape[0])
    cmp_ = rwd.compare(chunked(y), [chunked(s), chunked(s2)], "auc", sample_weight=chunked(w * c), n_partitions=4)
    cmp1 = rw.stats.compare(y, [s, s2], "auc", sample_weight=w * c)
    close(cmp_.pairs[0].difference, cmp1.pairs[0].difference, 1e-9)
    close(cmp_.pairs[0].std_error, cmp1.pairs[0].std_error, 1e-6)
    # DCG counts positions in units of weight: beyond 2^53 of them it is refused, by name.
    if c > 1:
        with pytest.raises(ValueError, match="2\\^53"):
            rwd.evaluate(chunked(y), chunked(s), ["ndcg:k=50"], sample_weight=chunked(w * c))
