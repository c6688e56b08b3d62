"""``rankwise.distributed.by_group`` against single-machine ``rankwise.stats.by_group`` on the
concatenated data: each bucket's cells' placement moments, placed with the masses of the
buckets below and merged on the client, give every value, interval and test (the AUC by
group, the rest, the bias AUCs). The groups' rows are spread over chunks and buckets, the
scores tied, so a wrong offset or merge would show."""

import warnings

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
da = pytest.importorskip("dask.array")

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise.stats import OneClassGroupWarning  # noqa: E402


def numbers(res):
    """Every float of the result's tables, in order."""
    return np.array([v for t in (res.overall, res.rows, res.differences, res.global_tests, res.bias)
                     for r in t for v in r if isinstance(v, float)])


def close(a, b, rel=1e-11):
    a, b = numbers(a), numbers(b)
    assert a.shape == b.shape
    ok = (np.isnan(a) & np.isnan(b)) | (np.abs(a - b) <= rel * np.maximum(1.0, np.abs(b)))
    assert ok.all(), (a[~ok], b[~ok])


def make(seed, n=2400, weights=False, ids="str"):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, 4, size=n)
    y = rng.random(n) < 0.25 + 0.1 * g
    s = np.round(rng.normal(size=n) + y * (0.3 + 0.3 * (g == 1)), 1)
    w = rng.integers(0, 4, size=n).astype(float) if weights else None
    groups = np.array(["north", "south", "east", "west"])[g] if ids == "str" else g * 10 - 5
    return y, s, groups, w


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("reference", [None, "south"])
def test_arrays_equal_single_machine(weights, reference):
    y, s, g, w = make(1, weights=weights)
    one = rw.stats.by_group(y, s, g, sample_weight=w, reference=reference)
    chunks = 500
    dist = rwd.by_group(da.from_array(y, chunks=chunks), da.from_array(s, chunks=chunks), da.from_array(g, chunks=chunks),
                        sample_weight=None if w is None else da.from_array(w, chunks=chunks), reference=reference,
                        n_partitions=6)
    assert dist.groups == one.groups and dist.reference == one.reference and dist.family == one.family
    close(dist, one)
    assert [(r.group, r.n_rows) for r in dist.rows] == [(r.group, r.n_rows) for r in one.rows]


def test_dataframe_columns_and_integer_ids():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    y, s, g, _ = make(2, ids="int")
    frame = dd.from_pandas(pd.DataFrame({"y": y.astype(int), "s": s, "region": g}), npartitions=4)
    dist = rwd.by_group(frame, label="y", score="s", groups="region", bias=False, n_partitions=3)
    one = rw.stats.by_group(y.astype(int), s, g, bias=False)
    assert dist.groups == one.groups == (-5, 5, 15, 25)
    close(dist, one)


def test_one_class_group_and_bad_ids():
    y, s, g, _ = make(3)
    y = y.copy()
    y[g == "east"] = False
    with pytest.warns(OneClassGroupWarning):
        dist = rwd.by_group(da.from_array(y, chunks=600), da.from_array(s, chunks=600), da.from_array(g, chunks=600))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = rw.stats.by_group(y, s, g)
    close(dist, one)
    assert dist.one_class == ("east",)
    bad = g.astype(object)
    bad[7] = None
    with pytest.raises(ValueError, match="'groups' parameter of by_group has missing ids .* rows 7"):
        rwd.by_group(da.from_array(y, chunks=600), da.from_array(s, chunks=600), da.from_array(bad, chunks=600))
    with pytest.raises(ValueError, match="'groups' argument has 10 ids"):
        rwd.by_group(da.from_array(y, chunks=600), da.from_array(s, chunks=600), g[:10])
    with pytest.raises(TypeError, match="'groups' parameter of by_group is required"):
        rwd.by_group(da.from_array(y, chunks=600), da.from_array(s, chunks=600))
    with pytest.raises(ValueError, match="'reference' parameter of by_group must be one of the groups"):
        rwd.by_group(da.from_array(y, chunks=600), da.from_array(s, chunks=600), da.from_array(g, chunks=600),
                     reference="mars")
