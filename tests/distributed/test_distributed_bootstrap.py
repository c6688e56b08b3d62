"""The stratified bootstrap of rankwise.distributed.estimate (rankwise/distributed/_bootstrap.py).

Its random stream cannot be the single-machine one, so the tests check: reproducibility,
the distribution against rankwise.stats' bootstrap (Monte Carlo tolerance), one resample
materialised and recomputed on one machine (to 1e-12), the BCa acceleration against the
single-machine one, the intervals, and the refusal of weighted data.
"""

import numpy as np
import pytest

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")

import dask.array as da  # noqa: E402

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise.distributed._bootstrap import _materialise  # noqa: E402

# With the command line's Dask tests on one xdist worker under `--dist loadgroup` (`make
# test`): the cluster they share (tests/conftest.py) starts once per run.
pytestmark = pytest.mark.xdist_group("dask")

CRITERIA = [
    "auc",
    "local_auc:top=0.2",
    "pnorm_push:p=4",
    "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
    "partial_auc:max_fpr=0.3,standardize=mcclish",
    "dcg:k=20",
    "ndcg:k=50",
]
MORE = [
    "partial_auc:max_fpr=0.2",
    "pnorm_push:p=2,normalize=False",
    "rank_statistic:phi=local_auc,u0=0.8",
    "rank_statistic:scale=mean",
]
# Duplicate splitters (an empty bucket), and a bucket above every score.
SPLITTERS = [-1.0, 0.0, 0.0, 0.5, 5.0, 90.0]


@pytest.fixture(scope="module")
def client(dask_cluster):
    """A client on the suite's shared cluster (tests/conftest.py): 3 worker processes."""
    c = distributed.Client(dask_cluster)
    yield c
    c.close()


def make(seed, n=300, step=0.1, weights=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    s = np.round((rng.normal(size=n) + y) / step) * step  # ties
    w = rng.integers(1, 4, size=n).astype(float) if weights else None
    return y, s, w


def dist(y, s, criterion, client, w=None, **kw):
    kw.setdefault("splitters", SPLITTERS)
    return rwd.estimate(da.from_array(y, chunks=100), da.from_array(s, chunks=100), criterion,
                        sample_weight=None if w is None else da.from_array(w, chunks=100), client=client, **kw)


def test_reproducible(client):
    y, s, _ = make(1, n=600)
    a = dist(y, s, "auc", client, n_partitions=3, splitters=None).bootstrap_distribution(300, 11)
    b = dist(y, s, "auc", client, n_partitions=3, splitters=None).bootstrap_distribution(300, 11)
    c = dist(y, s, "auc", client, n_partitions=3, splitters=None).bootstrap_distribution(300, 12)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    e = dist(y, s, "auc", client)
    g1 = e.bootstrap_distribution(50, np.random.default_rng(5))
    g2 = e.bootstrap_distribution(50, np.random.default_rng(5))
    np.testing.assert_array_equal(g1, g2)
    assert np.isfinite(a).all() and a.std() > 0


@pytest.mark.parametrize("criterion, step", [(c, 0.1) for c in CRITERIA] + [("auc", 1.0), ("dcg:k=20", 1.0)])
def test_distribution_matches_single_machine(client, criterion, step):
    y, s, _ = make(2, step=step)
    R = 2000
    got = dist(y, s, criterion, client).bootstrap_distribution(R, 21)
    want = rw.stats.estimate(y, s, criterion).bootstrap_distribution(R, 22)
    se = np.sqrt((got.var(ddof=1) + want.var(ddof=1)) / R)
    assert abs(got.mean() - want.mean()) <= 4.0 * se, (got.mean(), want.mean(), se)
    assert abs(got.std(ddof=1) / want.std(ddof=1) - 1.0) <= 0.10, (got.std(ddof=1), want.std(ddof=1))


@pytest.mark.parametrize("step", [0.1, 1.0])  # sparse levels (row draws) and dense ones (multinomial)
def test_one_resample_exact(client, step):
    y, s, _ = make(3, step=step)
    for criterion in CRITERIA + MORE:
        e = dist(y, s, criterion, client)
        reps, info = e._inference.resample.draw(5, 31, debug=True)
        y0, s0 = _materialise(info)
        assert y0.sum() == y.sum() and y0.shape[0] == y.shape[0]  # class sizes kept
        want = rw.stats.estimate(y0, s0, criterion).value
        assert abs(reps[0] - want) <= 1e-12 * max(1.0, abs(want)), (criterion, reps[0], want)


def test_intervals(client):
    y, s, _ = make(4, n=400)
    for criterion in ("auc", "pnorm_push:p=4", "ndcg:k=50"):
        e = dist(y, s, criterion, client)
        ref = rw.stats.estimate(y, s, criterion)
        # The BCa acceleration is exact (projection terms from the bucket tables).
        assert abs(e._acceleration() - ref._acceleration()) <= 1e-12
        for kind in ("bca", "percentile"):
            ci = e.confidence_interval(0.95, "bootstrap", kind=kind, n_resamples=500, random_state=0)
            assert ci.method == "bootstrap" and ci.n_resamples == 500
            assert ci.low < e.value < ci.high, (criterion, kind, tuple(ci))
            assert ci.std_error == pytest.approx(e.std_error, rel=0.25)
        assert "bootstrap" in e.summary()


def test_weighted_refused(client):
    y, s, w = make(5, weights=True)
    e = dist(y, s, "auc", client, w=w)
    assert e.value == pytest.approx(rw.stats.estimate(y, s, "auc", sample_weight=w).value, rel=1e-12)
    with pytest.raises(NotImplementedError, match="sample_weight"):
        e.confidence_interval(method="bootstrap")
    with pytest.raises(NotImplementedError, match="sample_weight"):
        e.bootstrap_distribution(10, 0)
    e.confidence_interval()  # analytic intervals still available
