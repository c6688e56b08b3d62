"""How often ``rankwise.distributed.compare`` reads its data (issue 16, item 4): once,
whatever the number K of scorers (it read them 1 + K times: one inspection pass, then one
partition pass per scorer). Reads are counted where they happen: a dask array whose
chunks come from a loader that records each call, and the Parquet path's per-partition
loader. Dask's threaded scheduler runs the loaders in this process, so the counts are
plain Python lists; the results are checked against single-machine ``stats.compare``."""

import numpy as np
import pytest

dask = pytest.importorskip("dask", reason="rankwise.distributed needs dask: pip install 'rankwise[dask]'")
da = pytest.importorskip("dask.array")

import rankwise as rw  # noqa: E402
import rankwise.distributed as rwd  # noqa: E402
from rankwise.distributed import _partition  # noqa: E402

REL = 1e-12


def _data(seed=7, n=2400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = {"a": np.round(rng.normal(size=n) + y, 1), "b": rng.normal(size=n) + 0.5 * y,
         "c": np.round(rng.normal(size=n), 0) + 0.2 * y, "d": rng.normal(size=n)}
    return y, s


def _counted(x: np.ndarray, chunk: int, reads: list, name: str):
    """``x`` as a dask array whose chunk ``i`` is produced by a call that appends
    ``(name, i)`` to ``reads``: a source that knows how often it is read."""
    def load(i):
        reads.append((name, i))
        return x[i * chunk:(i + 1) * chunk].copy()

    n_chunks = -(-x.shape[0] // chunk)
    parts = [da.from_delayed(dask.delayed(load, pure=False)(i), shape=(min(chunk, x.shape[0] - i * chunk),),
                             dtype=x.dtype) for i in range(n_chunks)]
    return da.concatenate(parts)


@pytest.mark.parametrize("K", [2, 4])
def test_compare_reads_each_chunk_once(K):
    y, s = _data()
    names = list(s)[:K]
    reads: list = []
    with dask.config.set(scheduler="threads"):
        got = rwd.compare(_counted(y, 600, reads, "y"), {k: _counted(s[k], 600, reads, k) for k in names}, "auc",
                          n_partitions=3)
    # 4 chunks of the label and of each score column, each read once (it was 1 + K times)
    assert sorted(reads) == sorted((name, i) for name in ["y", *names] for i in range(4))
    want = rw.stats.compare(y, {k: s[k] for k in names}, "auc")
    np.testing.assert_allclose(got.values, want.values, rtol=REL)
    np.testing.assert_allclose(got.cov, want.cov, rtol=REL, atol=REL * np.abs(want.cov).max())


def test_compare_reads_each_parquet_partition_once(tmp_path, monkeypatch):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    pytest.importorskip("dask.dataframe")
    y, s = _data(11, n=3000)
    folder = tmp_path / "scores"
    folder.mkdir()
    frame = pd.DataFrame({"label": y.astype(int), **s, "unused": np.arange(y.shape[0])})
    for i in range(3):  # three files: three partitions
        frame.iloc[i * 1000:(i + 1) * 1000].to_parquet(folder / f"part{i}.parquet")
    loaded: list = []
    original = _partition._load_frame

    def counting(part, *args):
        loaded.append(len(part))
        return original(part, *args)

    monkeypatch.setattr(_partition, "_load_frame", counting)
    with dask.config.set(scheduler="threads"):
        got = rwd.compare(str(folder), ["a", "b", "c"], "pnorm_push", label="label", p=2, n_partitions=2)
    assert loaded == [1000, 1000, 1000]  # one load per partition (it was 1 + 3 per partition)
    want = rw.stats.compare(y, {k: s[k] for k in "abc"}, "pnorm_push", p=2)
    np.testing.assert_allclose(got.values, want.values, rtol=REL)
    np.testing.assert_allclose(got.cov, want.cov, rtol=REL, atol=REL * np.abs(want.cov).max())
