"""The Dask buckets as accumulators: the range methods of rw.stats.RankAccumulator
(shifted, range_sums, range_round1, combine_ranges, range_moments, range_terms,
range_roc) on a sample cut into score ranges, against the literal definitions
(tests/_support/reference.py) and the whole-sample functions; and the buckets that
rankwise/distributed/_partition.py builds. No Dask needed: the bucket code is plain numpy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from rankwise import criteria
from rankwise._kernels import ShiftedTable, build_rank_table, table_with_rows
from rankwise.distributed import _partition as _p
from rankwise.stats import RankAccumulator, variance_of_moments
from _support import reference as ref

SPECS = ["auc", "partial_auc:max_fpr=0.4", "local_auc:top=0.3", "pnorm_push:p=3", "ndcg:k=5",
         "average_precision", "rank_statistic:phi=dcg"]


def _sample(seed: int, n: int, ties: bool, weighted: bool):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, 6, n).astype(float) if ties else np.round(rng.normal(size=n) + y, 3)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    return y, s, w


def _buckets(y, s, w, cuts):
    """The sample cut at ``cuts`` (a score goes to ``searchsorted(cuts, s, "right")``, as
    the Dask split does): one accumulator per range, with the offsets of each."""
    b = np.searchsorted(np.asarray(cuts, dtype=float), s, side="right")
    accs = []
    for k in range(len(cuts) + 1):
        m = b == k
        accs.append(RankAccumulator().update(y[m] == 1, s[m], None if w is None else w[m]))
    ww = np.ones_like(s) if w is None else w
    P, M = float(ww[y == 1].sum()), float(ww[y == 0].sum())
    offs, cp, cn = [], 0.0, 0.0
    for a in accs:
        offs.append((cp, cn, P, M))
        cp += a.rank_table().n_pos
        cn += a.rank_table().n_neg
    return accs, offs, P, M


def _whole(y, s, w):
    return build_rank_table(y == 1, s, w)


# --- the range sums add up to the whole sample's -------------------------------------------------

@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 40), ties=st.booleans(), weighted=st.booleans(),
       n_cuts=st.integers(0, 4))
def test_range_sums_merge_to_the_whole_and_the_literal_auc(seed, n, ties, weighted, n_cuts):
    y, s, w = _sample(seed, n, ties, weighted)
    cuts = np.sort(np.random.default_rng(seed + 1).choice(s, size=n_cuts)) if n_cuts else []
    accs, offs, P, M = _buckets(y, s, w, cuts)
    units = [criteria.get(c) for c in SPECS]
    parts = [a.range_sums(units, o) for a, o in zip(accs, offs)]
    for i, (spec, unit) in enumerate(zip(SPECS, units)):
        merged = unit.merge([p[i] for p in parts if p is not None])
        want = rw.evaluate(y, s, [spec], sample_weight=w)[spec]
        assert unit.finish(merged, P, M) == pytest.approx(want, rel=1e-12, abs=1e-12), spec
    # the AUC by its definition: pairs won, ties 1/2, over all positive-negative pairs
    auc = criteria.get("auc")
    got = auc.finish(auc.merge([p[0] for p in parts if p is not None]), P, M)
    assert got == pytest.approx(ref.auc(y, s, w), rel=1e-12)


def test_range_methods_are_the_shifted_table_computations():
    y, s, w = _sample(3, 60, True, False)
    accs, offs, P, M = _buckets(y, s, w, [1.0, 3.0])
    units = [criteria.get(c) for c in SPECS]
    for a, o in zip(accs, offs):
        m = np.isin(s, a.rank_table().levels)
        stt = ShiftedTable(build_rank_table(y[m] == 1, s[m]), *o)
        assert a.range_sums(units, o) == [u.sums(stt) for u in units]
        sh = a.shifted(o)
        np.testing.assert_array_equal(sh.pos_below, stt.pos_below)
        np.testing.assert_array_equal(sh.neg_below, stt.neg_below)
        assert (sh.n_pos, sh.n_neg) == (P, M)


def test_without_offsets_an_accumulator_is_the_whole_sample():
    # the example of docs/accumulator.md: 3 of the 6 pairs won, by hand
    auc = criteria.get("auc")
    acc = RankAccumulator().update([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9])
    assert acc.range_sums([auc]) == [(3.0,)]
    lo = RankAccumulator().update([0, 1, 0], [0.1, 0.35, 0.4])
    hi = RankAccumulator().update([1, 0], [0.8, 0.9])
    assert lo.range_sums([auc], (0, 0, 2, 3)) == [(1.0,)]
    assert hi.range_sums([auc], (1, 2, 2, 3)) == [(2.0,)]


# --- the two rounds: value and standard error of the whole sample ----------------------------------

@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("spec", ["auc", "local_auc:top=0.3", "pnorm_push:p=3", "partial_auc:max_fpr=0.4",
                                  "gini"])
def test_two_rounds_give_the_estimate_of_the_whole_sample(spec, weighted):
    y, s, w = _sample(11, 80, True, weighted)
    accs, offs, P, M = _buckets(y, s, w, [0.5, 2.0, 4.0])
    unit = criteria.get(spec)
    want = rw.stats.estimate(y, s, spec, sample_weight=w)
    bw = unit.bandwidth(P + M, None) if unit.has_projection else None
    res = [a.range_round1(unit, bw, o) for a, o in zip(accs, offs)]
    value, gs, f, bounds = RankAccumulator.combine_ranges(unit, res, P, M)
    assert value == pytest.approx(want.value, rel=1e-12)
    mom = [a.range_moments(unit, bw, gs[b], f, o) for b, (a, o) in enumerate(zip(accs, offs))]
    se = float(np.sqrt(variance_of_moments(mom, P, M)))
    assert se == pytest.approx(want.std_error, rel=1e-10)
    if spec == "auc" and not weighted:  # DeLong's variance, literally
        assert se ** 2 == pytest.approx(ref.delong_var(y, s), rel=1e-10)


def test_range_terms_are_the_whole_sample_terms_at_the_range_levels():
    y, s, _ = _sample(5, 70, True, False)
    accs, offs, P, M = _buckets(y, s, None, [1.0, 3.0])
    unit = criteria.get("local_auc:top=0.3")
    bw = unit.bandwidth(P + M, None)
    res = [a.range_round1(unit, bw, o) for a, o in zip(accs, offs)]
    _, gs, f, _ = RankAccumulator.combine_ranges(unit, res, P, M)
    whole = _whole(y, s, None)
    from rankwise._kernels import dense

    d = dense(whole)
    g = unit.combine([unit.summary(d, bw)], P, M)[0]
    hp, hn = unit.projection(d, bw, g)
    for b, (a, o) in enumerate(zip(accs, offs)):
        _, hpb, hnb = a.range_terms(unit, bw, gs[b], f, o)
        at = np.searchsorted(whole.levels, a.rank_table().levels)
        np.testing.assert_allclose(hpb, f * hp[at], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(hnb, f * hn[at], rtol=1e-12, atol=1e-14)


def test_range_roc_joins_into_the_roc_curve():
    y, s, w = _sample(8, 50, True, True)
    accs, offs, P, M = _buckets(y, s, w, [1.0, 1.0, 4.0])  # a duplicated cut: an empty range
    pts = [a.range_roc(o) for a, o in zip(accs, offs)][::-1]
    fps = np.concatenate([[0.0]] + [p[0] for p in pts])
    tps = np.concatenate([[0.0]] + [p[1] for p in pts])
    thr = np.concatenate([[np.inf]] + [p[2] for p in pts])
    want = rw.roc_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(fps / M, want.fpr, rtol=1e-12)
    np.testing.assert_allclose(tps / P, want.tpr, rtol=1e-12)
    np.testing.assert_array_equal(thr, want.thresholds)
    # a quota keeps the range's highest and lowest levels
    f2, t2, l2 = accs[-1].range_roc(offs[-1], 2)
    lv = accs[-1].rank_table().levels
    assert list(l2) == [lv[-1], lv[0]]


def test_empty_range_and_bad_offsets():
    auc = criteria.get("auc")
    empty = RankAccumulator()
    assert empty.range_sums([auc], (0, 0, 1, 1)) is None
    assert empty.range_round1(auc, None, (0, 0, 1, 1)) is None
    assert empty.range_moments(auc, None, {}, 1.0, (0, 0, 1, 1)) is None
    assert empty.range_terms(auc, None, {}, 1.0, (0, 0, 1, 1)) is None
    assert [x.shape[0] for x in empty.range_roc((0, 0, 1, 1))] == [0, 0, 0]
    acc = RankAccumulator().update([0, 1], [0.2, 0.7])
    for bad in [(1, 2), (0, 0, 1, float("nan")), "abcd", 3]:
        with pytest.raises(ValueError, match="'offsets'"):
            acc.range_sums([auc], bad)
    with pytest.raises(ValueError, match="quantised"):
        RankAccumulator(resolution=0.5).update([0, 1], [0.2, 0.7]).range_sums([auc])


# --- the buckets of the partition --------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", [False, True])
def test_a_bucket_with_rows_holds_the_table_of_its_rows(weighted, ties):
    y, s, w = _sample(2, 40, ties, weighted)
    if weighted:
        w[3] = 0.0  # a row of zero weight: no mass, its level points at 0
    lab = y == 1
    pieces = [(s[:15], lab[:15], None if w is None else w[:15]), (s[15:], lab[15:], None if w is None else w[15:])]
    acc, inv, lab2, lengths = _p._merge_rows(*pieces)
    want, want_inv = table_with_rows(lab, s, w)
    t = acc.rank_table()
    assert isinstance(acc, RankAccumulator) and t.weighted == weighted
    np.testing.assert_array_equal(t.levels, want.levels)
    np.testing.assert_array_equal(t.pos, want.pos)  # bit for bit: the masses as summed there
    np.testing.assert_array_equal(t.neg, want.neg)
    assert (t.n_pos, t.n_neg) == (want.n_pos, want.n_neg)
    np.testing.assert_array_equal(inv, want_inv)
    fresh = RankAccumulator().update(lab, s, w).rank_table()  # the same masses, fed as rows
    np.testing.assert_allclose(acc.copy().rank_table().pos, fresh.pos, rtol=1e-14)  # weights: summed in another order
    with pytest.raises(TypeError, match="RankTable"):
        RankAccumulator.from_rank_table(acc)
    assert list(lengths) == [15, 25] and lab2.tolist() == lab.tolist()
    empty = _p._merge_rows((s[:0], lab[:0], None))
    assert empty[0].rank_table().size == 0 and empty[1].shape == (0,)


def test_a_bucket_is_an_accumulator_with_its_heavy_values():
    s = np.array([0.1, 0.5, 0.5, 0.9])
    lab = np.array([False, True, False, True])
    heavy = np.array([0.3])
    piece = (s, lab, None, heavy, np.array([2.0]), np.array([1.0]))
    acc = _p._merge_bucket(False, piece, (s[:0], lab[:0], None, heavy, np.array([1.0]), np.array([0.0])))
    assert isinstance(acc, RankAccumulator) and not acc.weighted
    t = _p.bucket_table(acc)
    assert t.levels.tolist() == [0.1, 0.3, 0.5, 0.9]
    assert t.pos.tolist() == [0.0, 3.0, 1.0, 1.0] and t.neg.tolist() == [1.0, 1.0, 1.0, 0.0]
    assert _p.bucket_of((acc, None)) is acc
    assert _p._summary(acc) == (4, 5.0, 3.0)
    assert _p.bucket_table(_p._merge_bucket(True, (s[:0], lab[:0], np.empty(0), heavy[:0], heavy[:0],
                                                   heavy[:0]))).size == 0
