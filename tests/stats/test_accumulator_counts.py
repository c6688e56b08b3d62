"""RankAccumulator.update(counts=...) and RankAccumulator.rank_table(): counted rows are the
rows repeated (the literal definition: np.repeat), bit for bit; the table is the one
build_rank_table makes from the concatenated rows; quantised batches are counted the same
whether their cells are counted densely or through a sort."""

import numpy as np
import pytest

import rankwise as rw
from rankwise._kernels import build_rank_table
from rankwise.stats import RankAccumulator
from rankwise.stats import _accumulator as _acc


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
    c = rng.integers(0, 4, size=n)
    c[0] = max(c[0], 1)
    return y, s, c


@pytest.mark.parametrize("seed", range(30))
def test_counts_are_repeated_rows(seed):
    y, s, c = _case(seed)
    h = y.shape[0] // 2
    a = RankAccumulator().update(y[:h], s[:h], counts=c[:h]).update(y[h:], s[h:], counts=c[h:])
    ys, ss = np.repeat(y, c), np.repeat(s, c)
    k = int(c[:h].sum())
    b = RankAccumulator().update(ys[:k], ss[:k]).update(ys[k:], ss[k:])
    assert a.to_bytes() == b.to_bytes() and not a.weighted
    t, u = a.rank_table(), build_rank_table(ys, ss)
    assert np.array_equal(t.levels, u.levels) and np.array_equal(t.pos, u.pos) and np.array_equal(t.neg, u.neg)
    assert (t.n_pos, t.n_neg) == (u.n_pos, u.n_neg)
    if ys.any() and not ys.all():
        ea, eb = a.estimate("auc"), rw.stats.estimate(ys, ss, "auc")
        np.testing.assert_array_equal([ea.value, ea.std_error], [eb.value, eb.std_error])
    q = RankAccumulator(resolution=0.25).update(y[:h], s[:h], counts=c[:h]).update(y[h:], s[h:], counts=c[h:])
    r = RankAccumulator(resolution=0.25).update(ys[:k], ss[:k]).update(ys[k:], ss[k:])
    assert q.to_bytes() == r.to_bytes()


def test_counts_in_a_weighted_accumulator_are_unit_weights():
    y, s, c = _case(3)
    w = np.linspace(0.5, 2.0, y.shape[0])
    a = RankAccumulator().update(y, s, sample_weight=w).update(y, s, counts=c)
    b = RankAccumulator().update(y, s, sample_weight=w).update(np.repeat(y, c), np.repeat(s, c))
    np.testing.assert_allclose(a.rank_table().pos, b.rank_table().pos, rtol=1e-15)
    np.testing.assert_allclose(a.rank_table().neg, b.rank_table().neg, rtol=1e-15)
    assert a.n_rows == b.n_rows


@pytest.mark.parametrize("counts,kind,match", [
    ([1.5, 1], ValueError, "non-negative integers"),
    ([-1, 1], ValueError, "non-negative integers"),
    ([True, True], TypeError, "integers"),
    ([1], ValueError, "same length"),
    (["a", "b"], TypeError, "integers"),
])
def test_bad_counts(counts, kind, match):
    acc = RankAccumulator().update([0, 1], [0.1, 0.2])
    before = acc.to_bytes()
    with pytest.raises(kind, match=match):
        acc.update([0, 1], [0.3, 0.4], counts=counts)
    assert acc.to_bytes() == before  # a refused batch changes nothing
    with pytest.raises(ValueError, match="not both"):
        acc.update([0, 1], [0.3, 0.4], sample_weight=[1.0, 1.0], counts=[1, 1])


def test_zero_counts_and_empty_table():
    acc = RankAccumulator().update([0, 1], [0.3, 0.5], counts=[0, 0])
    assert acc.n_rows == 0 and acc.n_batches == 1 and acc.labels == ()
    t = acc.rank_table()
    assert t.size == 0 and (t.n_pos, t.n_neg) == (0.0, 0.0)
    with pytest.raises(ValueError, match="quantised"):
        RankAccumulator(resolution=0.5).update([0, 1], [0.1, 0.9]).rank_table()


@pytest.mark.parametrize("weighted", [False, True])
def test_quantised_dense_and_sorted_cell_tables_agree(monkeypatch, weighted):
    """A batch's cell table counted into a dense array and through a sort: the same arrays."""
    rng = np.random.default_rng(7)
    y = rng.random(500) < 0.3
    s = rng.normal(size=500) * 3 + y  # cells spanning more than twice the rows
    w = rng.random(500) if weighted else None
    store = RankAccumulator(resolution=2.0 ** -8)._store
    cells, res = store.cells_of(s)
    assert int(cells.max() - cells.min()) + 1 > 2 * cells.shape[0]
    tables = []
    for span in (1 << 30, 0):
        monkeypatch.setattr(_acc, "_DENSE_SPAN", span)
        tables.append(store.table_of(cells, res, y, w))
        tables.append(store.table_of(cells, res, y, np.ones(500), counted=True))
    for a, b in ((tables[0], tables[2]), (tables[1], tables[3])):
        assert a[3] == b[3]
        for x, z in zip(a[:3], b[:3]):
            assert x.dtype == z.dtype and np.array_equal(x, z)
    assert tables[1][1].dtype == np.int64
