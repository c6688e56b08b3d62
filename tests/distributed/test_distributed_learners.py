"""rankwise.distributed learners: the single-machine estimators fitted on a Dask cluster
(3 worker processes on 127.0.0.1) must equal the single-machine fits."""

import os
import signal
import sys
import threading
import time
import types

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
distributed = pytest.importorskip("distributed", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
import cloudpickle  # noqa: E402  (comes with dask)
import dask.array as da  # noqa: E402

import rankwise as rw  # noqa: E402
from rankwise.distributed import _learners as dl  # noqa: E402
from rankwise.learners._base import threshold_offset  # noqa: E402
from rankwise.losses import pairwise  # noqa: E402

# The module's tests run on one xdist worker under `--dist loadgroup` (`make test`), so its
# cluster (the fixture below: workers are killed here) starts once per run.
pytestmark = pytest.mark.xdist_group("dask_learners")

# The helpers below run on the workers: ship them by value (the workers need not import
# this test module).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=":0")
    cl = distributed.Client(cluster)
    try:
        yield cl
    finally:
        cl.close()
        cluster.close()


def make(n=1200, d=4, seed=0, share=0.3, ties=False, sort_by_label=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None] * np.linspace(1, 0.2, d)
    if ties:
        X = X.round(1)
    if sort_by_label:  # the first chunks hold negatives only
        order = np.argsort(y, kind="stable")
        X, y = X[order], y[order]
    return X, y


def close(a, b, rtol):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    scale = max(1.0, float(np.abs(b).max()))
    assert np.abs(a - b).max() <= rtol * scale, (np.abs(a - b).max(), rtol * scale)


def same_fit(dist, single, X, rtol):
    close(dist.coef_, single.coef_, rtol)
    close(dist.intercept_, single.intercept_, rtol)
    close(dist.decision_function(X), single.decision_function(X), rtol)
    np.testing.assert_array_equal(dist.classes_, single.classes_)
    assert dist.n_features_in_ == single.n_features_in_


# 1200 rows: a plain chunking, tiny and empty chunks, and (sorted by label) single-class chunks.
CHUNKINGS = [(400, 400, 400), (1, 2, 3, 0, 194, 500, 500), (100, 250, 250, 600)]


# --- BBR -----------------------------------------------------------------------------------

@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize("weighted", [False, True])
def test_bbr_equals_single_machine(client, chunks, weighted):
    X, y = make(sort_by_label=True, ties=weighted)
    sw = np.random.default_rng(1).integers(0, 4, X.shape[0]).astype(float) if weighted else None
    for est in (rw.BBRRanker(), rw.BBRRanker(radius=0.3, alpha=0.0)):
        single = rw.BBRRanker(**est.get_params()).fit(X, y, sample_weight=sw)
        Xd = da.from_array(X, chunks=(chunks, 2))  # two column blocks: rechunked to one
        yd = da.from_array(y, chunks=chunks)
        dist = dl.fit_bbr(est, Xd, yd, None if sw is None else da.from_array(sw, chunks=chunks), client=client)
        assert dist is est
        same_fit(dist, single, X, 1e-10)
        close(dist.pair_covariance_, single.pair_covariance_, 1e-12)
        close(dist.pair_mean_, single.pair_mean_, 1e-12)
        close(dist.multiplier_, single.multiplier_, 1e-8)


def test_bbr_numpy_and_pandas_inputs_and_save_load(client, tmp_path):
    pd = pytest.importorskip("pandas")
    X, y = make(n=700, d=3, seed=3)
    single = rw.BBRRanker().fit(X, y)
    dist = dl.fit(rw.BBRRanker(), X, y, client=client, chunk_size=97)
    same_fit(dist, single, X, 1e-10)
    assert not hasattr(dist, "feature_names_in_")
    rw.save_model(dist, tmp_path / "m.rwm")
    loaded = rw.load_model(tmp_path / "m.rwm")
    np.testing.assert_array_equal(loaded.decision_function(X), dist.decision_function(X))
    df = pd.DataFrame(X, columns=["a", "b", "c"]).assign(label=np.where(y == 1, "yes", "no"))
    single = rw.BBRRanker().fit(df[["a", "b", "c"]], df["label"])
    dist = dl.fit_bbr(rw.BBRRanker(), df, label="label", client=client)
    same_fit(dist, single, df[["a", "b", "c"]], 1e-10)
    assert list(dist.feature_names_in_) == ["a", "b", "c"]
    assert list(dist.classes_) == ["no", "yes"]
    dist = dl.fit_bbr(rw.BBRRanker(), df[["a", "b", "c"]], df["label"].to_numpy(), client=client)
    same_fit(dist, single, df[["a", "b", "c"]], 1e-10)
    assert list(dist.feature_names_in_) == ["a", "b", "c"]


def test_dask_dataframe_and_parquet(client, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    import dask.dataframe as dd

    X, y = make(n=900, d=3, seed=4, ties=True)
    w = np.random.default_rng(5).uniform(0.0, 2.0, X.shape[0])
    df = pd.DataFrame(X, columns=["f0", "f1", "f2"]).assign(y=y, w=w, junk=np.arange(X.shape[0]))
    feats = ["f0", "f1", "f2"]
    ddf = dd.from_pandas(df, npartitions=4)
    for est in (rw.BBRRanker(), rw.PairwiseRanker(loss="squared"), rw.ProperLossRanker()):
        single = type(est)(**est.get_params()).fit(df[feats], df["y"], sample_weight=df["w"])
        dist = dl.fit(est, ddf, "y", weight="w", feature_columns=feats, client=client)
        same_fit(dist, single, df[feats], 1e-8)
        assert list(dist.feature_names_in_) == feats
    path = tmp_path / "pq"
    path.mkdir()
    for i, piece in enumerate(np.array_split(np.arange(len(df)), 3)):
        df.iloc[piece].drop(columns="junk").to_parquet(path / f"part.{i}.parquet")
    single = rw.BBRRanker().fit(df[feats], df["y"], sample_weight=df["w"])
    dist = dl.fit_bbr(rw.BBRRanker(), str(path), label="y", sample_weight="w", client=client)
    same_fit(dist, single, df[feats], 1e-10)
    dist = dl.fit_bbr(rw.BBRRanker(), path, label="y", sample_weight="w", client=client, persist=False)
    same_fit(dist, single, df[feats], 1e-10)


# --- the exact threshold --------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_threshold_selection_is_exact_through_range_rounds(client, monkeypatch, weighted):
    rng = np.random.default_rng(7)
    n = 6000
    s = rng.normal(size=n).round(2)
    s[rng.random(n) < 0.9] = 0.25  # 90% of the rows on one value
    y = (rng.random(n) < 0.3).astype(int)
    sw = rng.integers(0, 3, n).astype(float) if weighted else np.ones(n)
    want = threshold_offset(s, y == 1, sw)
    monkeypatch.setattr(dl, "_GATHER_LIMIT", 40)  # force several range-counting rounds
    monkeypatch.setattr(dl, "_SAMPLE", 16)
    est = rw.BBRRanker()
    data = dl._load(client, est, da.from_array(s[:, None], chunks=((1000, 0, 2, 2998, 2000), 1)),
                    da.from_array(y, chunks=((1000, 0, 2, 2998, 2000),)),
                    da.from_array(sw, chunks=((1000, 0, 2, 2998, 2000),)), None, None, None, True)
    S = dl._validate(data, est, moments=False)
    assert dl._threshold_offset(data, np.array([1.0]), S, "test") == want
    # Every value as the cut: top shares from all to one row.
    for k in (1, 2, 3000):
        yy = np.zeros(n, int)
        yy[:k] = 1
        data = dl._load(client, est, da.from_array(s[:, None], chunks=(1500, 1)), da.from_array(yy, chunks=1500),
                        da.from_array(sw, chunks=1500) if weighted else None, None, None, None, True)
        S = dl._validate(data, est, moments=False)
        assert dl._threshold_offset(data, np.array([1.0]), S, "test") == threshold_offset(s, yy == 1, sw)


def test_pair_key_is_the_exact_float_boundary():
    rng = np.random.default_rng(0)
    c_values = [1.0, 0.1, 3.7, 1e-300, 1e10]
    s = np.concatenate([rng.normal(size=300) * 10.0 ** rng.integers(-5, 6, 300), [0.0, -0.0, 1.0, 0.1, 1e20, -1e20,
                                                                                  5e-324, 1e300, -1e300]])
    for c in c_values:
        t = dl._pair_key(np.concatenate([s, [c, -c, 2 * c]]), c)
        ss = np.concatenate([s, [c, -c, 2 * c]])
        assert np.all(ss - t >= c)
        assert np.all(ss - np.nextafter(t, np.inf) < c)


# --- ProperLossRanker -----------------------------------------------------------------------

@pytest.mark.parametrize("loss,balanced,weighted,chunks", [
    ("logistic", False, False, CHUNKINGS[0]),
    ("logistic", True, True, CHUNKINGS[1]),
    ("exponential", False, True, CHUNKINGS[2]),
    ("squared_hinge", True, False, CHUNKINGS[2]),
])
def test_proper_equals_single_machine(client, loss, balanced, weighted, chunks):
    X, y = make(sort_by_label=True)
    sw = np.random.default_rng(2).uniform(0.0, 3.0, X.shape[0]) if weighted else None
    single = rw.ProperLossRanker(loss=loss, balanced=balanced).fit(X, y, sample_weight=sw)
    dist = dl.fit_proper(rw.ProperLossRanker(loss=loss, balanced=balanced), da.from_array(X, chunks=(chunks, 4)),
                         da.from_array(y, chunks=chunks), sw, client=client)
    same_fit(dist, single, X, 1e-8)
    assert dist.n_iter_ == single.n_iter_
    close(dist.predict_proba(X), single.predict_proba(X), 1e-8)


# --- PairwiseRanker -------------------------------------------------------------------------

@pytest.mark.parametrize("loss", ["squared", "exponential", "squared_hinge", "hinge"])
@pytest.mark.parametrize("weighted", [False, True])
def test_pairwise_objective_is_exact(client, loss, weighted):
    """F(w) and X^T dF/ds on the cluster against the single-machine surrogate, at fixed w:
    ties on the 0.1 grid put many pairs at exactly the margin (hinge's kink)."""
    X, y = make(n=900, d=3, seed=11, ties=True)
    sw = np.random.default_rng(3).integers(0, 3, X.shape[0]).astype(float) if weighted else None
    rng = np.random.default_rng(4)
    ws = [np.zeros(3), np.array([1.0, 0.0, 0.0]), np.array([10.0, -3.0, 0.5])]
    ws += [rng.normal(size=3) for _ in range(2)]
    chunks = (1, 300, 0, 250, 349)
    got = dl._evaluate_pairwise(rw.PairwiseRanker(loss=loss), da.from_array(X, chunks=(chunks, 3)),
                                da.from_array(y, chunks=chunks), sw, ws, client=client, n_partitions=3)
    sur = pairwise(loss) if loss == "exponential" else pairwise(loss, margin=1.0)
    for w, (value, grad) in zip(ws, got):
        r = sur.evaluate(y, X @ w, sw)
        close(value, r.value, 1e-12)
        close(grad, X.T @ r.grad, 1e-12)


@pytest.mark.parametrize("loss,weighted,chunks", [
    ("squared", False, CHUNKINGS[1]),
    ("exponential", True, CHUNKINGS[2]),
    ("squared_hinge", False, (50, 150, 0, 400)),
    ("squared_hinge", True, (300, 300)),
])
def test_pairwise_equals_single_machine(client, loss, weighted, chunks):
    """Both runs take the same L-BFGS path (the evaluations agree to ~1e-16), but the last
    step can be decided by rounding: L-BFGS's ftol=1e-15 test (about 4.5 ulps of relative
    decrease) may stop one run an iteration before the other where the objective is flat
    at ~1e-17, so the coefficients agree to ~1e-8 (seen: 4e-9 in the weighted
    squared-hinge case; 1e-16 in the others) and the objectives to ~1e-13."""
    X, y = make(n=sum(chunks), sort_by_label=True, ties=True)
    sw = np.random.default_rng(5).integers(0, 3, X.shape[0]).astype(float) if weighted else None
    single = rw.PairwiseRanker(loss=loss).fit(X, y, sample_weight=sw)
    dist = dl.fit_pairwise(rw.PairwiseRanker(loss=loss), da.from_array(X, chunks=(chunks, 4)),
                           da.from_array(y, chunks=chunks), sw, client=client, n_partitions=2)
    same_fit(dist, single, X, 1e-7)
    close(dist.objective_, single.objective_, 1e-12)
    assert dist.mode_ == "exact"


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_pairwise_hinge_fit(client):
    """The hinge is not differentiable: L-BFGS paths may part at the rounding level after a
    kink; within a fixed iteration budget the fits agree closely."""
    X, y = make(n=600, d=3, seed=8)
    single = rw.PairwiseRanker(loss="hinge", max_iter=8).fit(X, y)
    dist = dl.fit_pairwise(rw.PairwiseRanker(loss="hinge", max_iter=8), da.from_array(X, chunks=(200, 3)),
                           da.from_array(y, chunks=200), client=client, n_partitions=2)
    same_fit(dist, single, X, 1e-7)
    close(dist.objective_, single.objective_, 1e-9)


# --- bad inputs ----------------------------------------------------------------------------

def _same_error(exc_type, single_call, dist_call):
    with pytest.raises(exc_type) as e1:
        single_call()
    with pytest.raises(exc_type) as e2:
        dist_call()
    assert str(e2.value) == str(e1.value)


def test_validation_errors_match_single_machine(client):
    X, y = make(n=300, d=3)
    cases = []
    Xn = X.copy()
    Xn[290, 1] = np.nan
    cases.append((Xn, y, None))
    cases.append((X, np.where(y == 1, 2, y) + (np.arange(300) % 7 == 0), None))  # three classes
    cases.append((X, np.zeros(300, int), None))                                   # one class
    cases.append((X, y + 0.5 * (np.arange(300) % 2), None))                      # continuous labels
    cases.append((X, y, np.where(np.arange(300) == 5, -1.0, 1.0)))               # negative weight
    cases.append((X, y, np.where(y == 1, 0.0, 1.0)))                             # a class with no weight
    cases.append((X, y, np.zeros(300)))                                          # no weight at all
    yn = y.astype(float)
    yn[3] = np.nan
    cases.append((X, yn, None))
    for Xc, yc, sw in cases:
        _same_error(ValueError, lambda: rw.BBRRanker().fit(Xc, yc, sample_weight=sw),
                    lambda: dl.fit_bbr(rw.BBRRanker(), da.from_array(Xc, chunks=(100, 3)), da.from_array(yc, chunks=100),
                                       None if sw is None else da.from_array(sw, chunks=100), client=client))
    _same_error(ValueError, lambda: rw.ProperLossRanker().fit(Xn, y),
                lambda: dl.fit_proper(rw.ProperLossRanker(), Xn, y, client=client))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        dl.fit_bbr(rw.BBRRanker(), da.from_array(X, chunks=(100, 3)), y[:-1], client=client)
    with pytest.raises(ValueError, match="The 'radius' parameter of BBRRanker"):
        dl.fit_bbr(rw.BBRRanker(radius=-1.0), X, y, client=client)


def test_unsupported_estimators_and_losses(client):
    X, y = make(n=200, d=2)
    with pytest.raises(ValueError, match="distributed pairwise 'logistic' loss is not supported.*'hinge'"):
        dl.fit_pairwise(rw.PairwiseRanker(loss="logistic"), X, y, client=client)
    with pytest.raises(ValueError, match="distributed pairwise 'logistic'"):
        dl.fit(rw.PairwiseRanker(loss="logistic"), X, y, client=client)
    for est in (rw.LCBRRanker(), rw.RankBoost(), object()):
        with pytest.raises(TypeError, match="BBRRanker, ProperLossRanker, PairwiseRanker"):
            dl.fit(est, X, y, client=client)
    with pytest.raises(TypeError, match="fit_bbr fits a rankwise.BBRRanker"):
        dl.fit_bbr(rw.LCBRRanker(), X, y, client=client)


def test_dataframe_input_errors(client):
    pd = pytest.importorskip("pandas")
    X, y = make(n=100, d=2)
    df = pd.DataFrame(X, columns=["a", "b"]).assign(y=y)
    with pytest.raises(ValueError, match="name the label column"):
        dl.fit_bbr(rw.BBRRanker(), df, client=client)
    with pytest.raises(KeyError, match="'nope'"):
        dl.fit_bbr(rw.BBRRanker(), df, label="nope", client=client)
    import dask.dataframe as dd

    with pytest.raises(TypeError, match="column name"):  # a dask DataFrame's labels are one of its columns
        dl.fit_bbr(rw.BBRRanker(), dd.from_pandas(df, npartitions=2), y, client=client)
    with pytest.raises(TypeError, match="sample_weight must be a column name"):
        dl.fit_bbr(rw.BBRRanker(), df, "y", np.ones(100), client=client)


def test_killed_worker_becomes_a_clear_error(monkeypatch):
    class FakeClient:
        def gather(self, futures):
            raise distributed.KilledWorker("task-x", types.SimpleNamespace(address="tcp://127.0.0.1:1"), 3)

    with pytest.raises(RuntimeError, match="worker died .* could not recover"):
        dl._gather(FakeClient(), [], "fit_bbr")


# --- fault injection -----------------------------------------------------------------------

def _slow_block(i, rows, d, delay):
    time.sleep(delay)
    rng = np.random.default_rng(1000 + i)
    y = (rng.random(rows) < 0.3).astype(np.int64)
    X = rng.normal(size=(rows, d)) + 0.7 * y[:, None]
    return X, y


def _slow_data(n_blocks, rows, d, delay):
    blocks = [dask.delayed(_slow_block, pure=True)(i, rows, d, delay) for i in range(n_blocks)]
    X = da.concatenate([da.from_delayed(b[0], shape=(rows, d), dtype=float) for b in blocks])
    y = da.concatenate([da.from_delayed(b[1], shape=(rows,), dtype=np.int64) for b in blocks])
    return X, y


def _fit_and_kill(client, X, y):
    """Run fit_bbr in a thread; SIGKILL a worker 0.15 s into its first task. Returns the
    outcome and the killed worker's address."""
    pids = client.run(os.getpid)
    out = {}

    def run():
        try:
            out["model"] = dl.fit_bbr(rw.BBRRanker(), X, y, client=client)
        except Exception as exc:  # noqa: BLE001 - inspected by the caller
            out["error"] = exc

    th = threading.Thread(target=run)
    th.start()
    deadline = time.time() + 20
    victim = None
    while time.time() < deadline and victim is None:
        busy = {w: ts for w, ts in client.processing().items() if ts}
        if busy:
            victim = sorted(busy)[0]
        else:
            time.sleep(0.02)
    assert victim is not None, "the fit never started"
    time.sleep(0.15)
    os.kill(pids[victim], signal.SIGKILL)
    th.join(60)
    assert not th.is_alive()
    assert victim not in client.run(os.getpid)
    return out, victim


def test_worker_killed_during_bbr_fit(client):
    """SIGKILL one worker process while fit_bbr runs: the scheduler recomputes its lost
    parts and the result is bit for bit the undisturbed one (the nanny restarts the worker)."""
    n_blocks, rows, d = 12, 2000, 5
    Xq, yq = _slow_data(n_blocks, rows, d, 0.0)
    X, y = dask.compute(Xq, yq, scheduler="sync")
    single = rw.BBRRanker().fit(X, y)
    calm = dl.fit_bbr(rw.BBRRanker(), Xq, yq, client=client)
    same_fit(calm, single, X, 1e-10)
    client.wait_for_workers(3, timeout=60)
    out, _ = _fit_and_kill(client, *_slow_data(n_blocks, rows, d, 0.3))  # same values, slower
    if "error" in out:  # allowed, but only as a clear error
        assert isinstance(out["error"], RuntimeError) and "worker died" in str(out["error"])
    else:
        m = out["model"]
        np.testing.assert_array_equal(m.coef_, calm.coef_)
        assert m.intercept_ == calm.intercept_
        np.testing.assert_array_equal(m.pair_covariance_, calm.pair_covariance_)
    client.wait_for_workers(3, timeout=60)


def test_unrecoverable_worker_loss_is_a_clear_error(client):
    """With no retries allowed, losing the worker that runs a task ends the fit with a
    RuntimeError naming the cause, not with a model."""
    client.wait_for_workers(3, timeout=60)
    client.run_on_scheduler(lambda dask_scheduler: setattr(dask_scheduler, "allowed_failures", 0))
    try:
        out, _ = _fit_and_kill(client, *_slow_data(6, 500, 3, 1.0))
    finally:
        client.run_on_scheduler(lambda dask_scheduler: setattr(dask_scheduler, "allowed_failures", 3))
    assert "model" not in out
    assert isinstance(out["error"], RuntimeError)
    assert "worker died" in str(out["error"]) and "no result is returned" in str(out["error"])
    client.wait_for_workers(3, timeout=60)
