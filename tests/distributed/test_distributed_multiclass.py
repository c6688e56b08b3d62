"""``rankwise.distributed.multiclass_auc`` (issue 31, item 4: Dask for one-vs-rest) against
single-machine ``rw.multiclass_auc`` on the concatenated data, to 1e-12 (relative).

Each class is a binary AUC of ``y == class`` on its column over range-partitioned
buckets, so the data stress the partitioning: probabilities on a grid of tenths (heavy
ties across rows and columns), a score vector held by most rows (a heavy value sent as
masses), splitters on tied values and duplicated, small chunks, weights with zeros, a
class of ``labels`` without rows. One in-process LocalCluster on 127.0.0.1 serves the
module (dashboard on a free port).
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
distributed = pytest.importorskip("distributed", reason="rankwise.distributed needs distributed")
da = pytest.importorskip("dask.array")

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise import UndefinedMetricWarning  # noqa: E402

REL = 1e-12
CLASSES = np.array(["a", "b", "c", "d"])


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, host="127.0.0.1",
                                  protocol="tcp://", dashboard_address=":0", memory_limit="2GiB") as cluster, \
            distributed.Client(cluster) as c:
        yield c


def close(a, b, rel=REL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    ok = both_nan | (np.abs(a - b) <= rel * np.maximum(np.abs(b), 1e-300))
    assert ok.all(), (a, b)


def make(seed, n=3000, K=4, weights=None, heavy=False):
    """String labels of K classes (unequal sizes), probabilities in tenths that lean to
    the row's class (rows sum to 1, many ties), optional weights."""
    rng = np.random.default_rng(seed)
    codes = rng.choice(K, size=n, p=np.arange(1, K + 1) / (K * (K + 1) / 2))
    counts = rng.multinomial(10, np.full(K, 1.0 / K), size=n)
    lean = rng.random(n) < 0.6
    counts[lean] = rng.multinomial(6, np.full(K, 1.0 / K), size=int(lean.sum()))
    counts[lean, codes[lean]] += 4
    if heavy:  # 80% of the rows on one score vector, whatever their class
        counts[rng.random(n) < 0.8] = np.r_[4, 3, 2, 1, [0] * (K - 4)][:K] if K >= 4 else [10] + [0] * (K - 1)
    S = counts / 10.0
    y = CLASSES[:K][codes] if K <= 4 else codes
    w = None
    if weights == "dyadic":
        w = rng.integers(0, 9, size=n) / 8.0
    elif weights == "real":
        w = rng.random(n) * (rng.random(n) > 0.05)
    return y, S, w


AVERAGES = ["macro", "weighted", "micro", None]


def single(y, S, average, w=None, labels=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return rw.multiclass_auc(y, S, average=average, labels=labels, sample_weight=w)


@pytest.mark.parametrize(("weights", "heavy"), [(None, True), ("dyadic", True), ("real", False)])
def test_equals_single_machine_on_chunked_data(client, weights, heavy):
    y, S, w = make(1 + (weights is not None) + 2 * heavy, weights=weights, heavy=heavy)
    for average in AVERAGES:
        got = rwd.multiclass_auc(y, S, average=average, sample_weight=w, chunk_size=377, n_partitions=5)
        close(got, single(y, S, average, w))
        if average is None:  # each class's value is the binary AUC of (y == class) on its column
            for k, c in enumerate(CLASSES):
                close(got[k], rw.auc(y == c, S[:, k], sample_weight=w))


def test_dask_arrays_and_labels_in_any_order(client):
    y, S, w = make(7, weights="real")
    order = [2, 0, 3, 1]
    labels = CLASSES[order]
    dy = da.from_array(y, chunks=500)
    dS = da.from_array(S[:, order], chunks=(500, 2))  # chunked along the columns too
    dw = da.from_array(w, chunks=700)  # other chunks than y's: rechunked
    for average in AVERAGES:
        got = rwd.multiclass_auc(dy, dS, labels=labels, average=average, sample_weight=dw)
        close(got, single(y, S[:, order], average, w, labels))


def test_splitters_on_ties_and_duplicated(client):
    y, S, _ = make(11, heavy=True)
    for spl in ([0.1, 0.1, 0.4, 0.4, 0.4], [0.0], [2.0, 3.0]):
        for average in ("macro", "micro"):
            close(rwd.multiclass_auc(y, S, average=average, splitters=spl, chunk_size=400),
                  single(y, S, average))


def test_data_frames(client, tmp_path):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    y, S, w = make(13, weights="dyadic")
    df = pd.DataFrame({"label": y, "w": w, **{f"p_{c}": S[:, k] for k, c in enumerate(CLASSES)}})
    ddf = dd.from_pandas(df, npartitions=4)
    cols = [f"p_{c}" for c in CLASSES]
    for average in AVERAGES:
        want = single(y, S, average, w)
        close(rwd.multiclass_auc(ddf, label="label", score=cols, weight="w", average=average), want)
    path = tmp_path / "scores.parquet"
    ddf.to_parquet(path)
    close(rwd.multiclass_auc(str(path), label="label", score=cols, weight="w"), single(y, S, "macro", w))
    # a DataFrame of scores is matched to the classes by column name, in any order
    named = pd.DataFrame(S, columns=CLASSES)[["c", "a", "d", "b"]]
    close(rwd.multiclass_auc(y, named, average=None), single(y, S, None))
    close(rwd.multiclass_auc(da.from_array(y, chunks=600), dd.from_pandas(named, npartitions=5), average=None),
          single(y, S, None))


def test_absent_class_and_one_class(client):
    y, S, _ = make(17)
    labels = ["a", "b", "c", "d", "e"]  # 'e' has no row: its column is all zero
    S5 = np.c_[S, np.zeros(S.shape[0])]
    for average in AVERAGES:
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = rwd.multiclass_auc(y, S5, labels=labels, average=average, chunk_size=500)
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = rw.multiclass_auc(y, S5, labels=labels, average=average)
        close(got, want)
        # the same warnings as on one machine (one-vs-rest: the absent class; micro: none)
        assert [str(m.message) for m in got_w] == [str(m.message) for m in want_w]
        assert bool(want_w) == (average != "micro")
    # one class only: undefined, as on one machine
    with pytest.warns(UndefinedMetricWarning, match="fewer than two classes"):
        got = rwd.multiclass_auc(np.array(["a"] * 6), np.full((6, 2), 0.5), labels=["a", "b"])
    assert np.isnan(got)


def test_class_of_one_row_and_weights_of_zero(client):
    y, S, w = make(19, weights="real")
    y = y.copy()
    y[5] = "d"
    y[y == "d"] = "c"
    y[5] = "d"  # class d holds one row
    w[y == "b"] = 0.0  # class b holds weight 0: no mass
    for average in AVERAGES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            got = rwd.multiclass_auc(y, S, average=average, sample_weight=w, chunk_size=250)
        close(got, single(y, S, average, w))


@pytest.mark.parametrize("scale", [1e-250, 1e250])
def test_weights_at_extreme_scales(client, scale):
    y, S, w = make(23, n=800, weights="real")
    for average in ("macro", "weighted", "micro"):
        close(rwd.multiclass_auc(y, S, average=average, sample_weight=w * scale, chunk_size=300),
              single(y, S, average, w))


def test_bad_input_names_the_argument(client):
    y, S, _ = make(29, n=400)
    bad = S.copy()
    bad[123] *= 1.5
    with pytest.raises(ValueError, match=r"'y_score'.*summing to 1.*1 row\(s\) do not \(first at index 123"):
        rwd.multiclass_auc(y, bad, chunk_size=100)
    with pytest.raises(ValueError, match=r"'y_score'.*summing to 1"):
        rw.multiclass_auc(y, bad)  # the same rule on one machine
    nan = S.copy()
    nan[77, 2] = np.nan
    with pytest.raises(ValueError, match=r"'y_score'.*NaN or infinite.*first at row 77"):
        rwd.multiclass_auc(y, nan, chunk_size=100)
    with pytest.raises(ValueError, match=r"'y_score'.*\(400, 4\).*3 score column"):
        rwd.multiclass_auc(y, S[:, :3] / S[:, :3].sum(axis=1, keepdims=True).clip(1e-9))
    with pytest.raises(ValueError, match="'labels'.*every class.*'d'"):
        rwd.multiclass_auc(y, S[:, :3], labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="'labels'.*distinct"):
        rwd.multiclass_auc(y, S, labels=["a", "b", "c", "a"])
    with pytest.raises(NotImplementedError, match="one-vs-one"):
        rwd.multiclass_auc(y, S, multi_class="ovo")
    with pytest.raises(ValueError, match="'average'"):
        rwd.multiclass_auc(y, S, average="samples")
    with pytest.raises(ValueError, match="'sample_weight'.*negative.*first at index 3"):
        rwd.multiclass_auc(y[:12], S[:12], sample_weight=np.r_[1.0, 1.0, 1.0, -1.0, np.ones(8)], chunk_size=2)
    with pytest.raises(ValueError, match="missing"):
        rwd.multiclass_auc(np.r_[np.ones(10), np.nan], np.full((11, 2), 0.5))


@st.composite
def small_samples(draw):
    """K classes (one maybe absent, one maybe of one row), rows of quarters summing to 1
    (heavy ties), dyadic weights with zeros or none, chunks of 1 to 7 rows, splitters drawn
    among the score values."""
    K = draw(st.integers(2, 4))
    n = draw(st.integers(2, 30))
    codes = np.array(draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n)))
    counts = np.zeros((n, K))
    for i in range(n):
        for _ in range(4):
            counts[i, draw(st.integers(0, K - 1))] += 1
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.5]), min_size=n, max_size=n)))
    spl = draw(st.none() | st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), max_size=4))
    return codes, counts / 4.0, w, draw(st.integers(1, 7)), spl


@settings(max_examples=5, deadline=None)  # each example runs dask four times: kept lean for the suite
@given(small_samples())
def test_equals_single_machine_on_generated_samples(sample):
    """Without a client (dask's threads): every average, any chunking and splitters."""
    codes, S, w, size, spl = sample
    labels = list(range(S.shape[1]))
    for average in AVERAGES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            want = rw.multiclass_auc(codes, S, labels=labels, average=average, sample_weight=w)
            got = rwd.multiclass_auc(codes, S, labels=labels, average=average, sample_weight=w, chunk_size=size,
                                     splitters=spl)
        close(got, want)


def test_cluster_binds_loopback(client):
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    for addr in client.scheduler_info()["workers"]:
        assert addr.startswith("tcp://127.0.0.1:")
