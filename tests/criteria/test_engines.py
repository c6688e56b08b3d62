"""The two engines of the rank table's split and merge count (numpy, the reference; numba,
compiled) against literal definitions and against each other: identical arrays, and
identical criteria, on generated samples with ties, tiny and single-class samples,
float32, integer and huge scores."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from rankwise._kernels import _merge, _ranktable
from rankwise._kernels._merge import class_orders, level_counts, merge_below, split_classes, terms_at, use_engine

ENGINES = ["numpy"] + (["numba"] if _merge.engine() == "numba" else [])
needs_numba = pytest.mark.skipif("numba" not in ENGINES, reason="numba is not installed")

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint64]


@st.composite
def samples(draw, max_n=60):
    n = draw(st.integers(1, max_n))
    dtype = draw(st.sampled_from(DTYPES))
    levels = draw(st.integers(1, 2 * n))  # few levels: heavy ties; many: mostly untied
    base = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)))
    scale = draw(st.sampled_from(["unit", "huge", "tiny"]))
    if np.dtype(dtype).kind == "f":
        s = base.astype(np.float64)
        if scale == "huge":
            s = s * 1e300 if dtype is np.float64 else s * 1e35
        elif scale == "tiny":
            s = s * 5e-324 if dtype is np.float64 else s * 1e-45
        s = (s - (s.max() / 2 if scale == "unit" else 0)).astype(dtype)
    elif dtype is np.uint64:
        s = (base.astype(np.uint64) * np.uint64(2 ** 58 // (levels + 1))) if scale == "huge" else base.astype(np.uint64)
    else:
        info = np.iinfo(dtype)
        s = (base - levels // 2).astype(dtype)
        if scale == "huge":
            s = np.where(base % 2 == 0, info.max - base, info.min + base).astype(dtype)
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    return y, s


def _literal_table(y, s):
    """The dense rank table by its definition: distinct levels, class counts there."""
    levels, inv = np.unique(s, return_inverse=True)
    pos = np.bincount(inv.ravel(), weights=y.astype(float), minlength=levels.shape[0])
    neg = np.bincount(inv.ravel(), weights=(~y).astype(float), minlength=levels.shape[0])
    return levels, pos, neg


def _sides_literal(levels, pos, neg):
    out = []
    for mine, theirs in ((pos, neg), (neg, pos)):
        sel = mine > 0
        own = np.concatenate(([0.0], np.cumsum(mine)[:-1]))
        other = np.concatenate(([0.0], np.cumsum(theirs)[:-1]))
        out.append((mine[sel], own[sel], other[sel], theirs[sel]))
    return out


def _side_arrays(side):
    return [np.broadcast_to(np.asarray(a), side.mass.shape) for a in (side.mass, side.own_below, side.other_below,
                                                                     side.other_tied)]


@pytest.mark.parametrize("eng", ENGINES)
@given(samples())
def test_rank_table_equals_its_definition(eng, sample):
    y, s = sample
    levels, pos, neg = _literal_table(y, s)
    with use_engine(eng):
        t = _ranktable.build_rank_table(y, s)
        # The per-class sides first (the table makes its dense form only when asked).
        sides = [t.pos_side, t.neg_side]
        assert t.n_pos == y.sum() and t.n_neg == (~y).sum()
        for side, ref in zip(sides, _sides_literal(levels, pos, neg)):
            for got, want in zip(_side_arrays(side), ref):
                np.testing.assert_array_equal(got, want)
        assert t.levels.dtype == s.dtype
        np.testing.assert_array_equal(t.levels, levels)
        np.testing.assert_array_equal(t.pos, pos)
        np.testing.assert_array_equal(t.neg, neg)
        assert t.size == levels.shape[0]


@needs_numba
@given(samples(max_n=200))
def test_engines_agree_exactly(sample):
    y, s = sample
    out = {}
    for eng in ENGINES:
        with use_engine(eng):
            p, q = split_classes(y, s)
            p, q = np.sort(p), np.sort(q)
            res = [p, q]
            for x in (p, q):
                other = q if x is p else p
                lev = np.unique(x)
                res.extend(level_counts(lev, other))
            if not (np.diff(p) == 0).any() and not (np.diff(q) == 0).any():
                bp, bq, tied = merge_below(p, q)
                res.append(np.array([tied]))
                if not tied:
                    res += [bp, bq]
            t = _ranktable.build_rank_table(y, s)
            res += [*_side_arrays(t.pos_side), *_side_arrays(t.neg_side), t.levels, t.pos, t.neg]
            if y.any() and not y.all():
                res.append(np.array(list(rw.evaluate(y, s).values())))
            out[eng] = res
    for a, b in zip(out["numpy"], out["numba"], strict=True):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("eng", ENGINES)
@given(samples(max_n=200))
def test_merge_counts_equal_bisection(eng, sample):
    y, s = sample
    with use_engine(eng):
        p, q = (np.sort(x) for x in split_classes(y, s))
        np.testing.assert_array_equal(np.sort(np.concatenate((p, q))), np.sort(s))
        assert p.shape[0] == y.sum()
        for x, other in ((p, q), (q, p)):
            lev = np.unique(x)
            left, right = level_counts(lev, other)
            np.testing.assert_array_equal(left, np.searchsorted(other, lev, "left"))
            np.testing.assert_array_equal(right, np.searchsorted(other, lev, "right"))
        p, q = np.unique(p), np.unique(q)
        bp, bq, tied = merge_below(p, q)
        assert tied == bool(np.intersect1d(p, q).size)
        if not tied:
            np.testing.assert_array_equal(bp, np.searchsorted(q, p, "left"))
            np.testing.assert_array_equal(bq, np.searchsorted(p, q, "left"))


@pytest.mark.parametrize("eng", ENGINES)
@given(samples(max_n=200))
def test_terms_at_reads_each_rows_level(eng, sample):
    y, s = sample
    levels = np.unique(s)
    h = np.arange(levels.shape[0], dtype=np.float64) * 0.5 - 3.0
    with use_engine(eng):
        out = terms_at(levels, h, s, np.empty(s.shape[0]))
    np.testing.assert_array_equal(out, h[np.searchsorted(levels, s)])


def _stable_class_orders(y, s):
    out = []
    for x in (s[y], s[~y]):
        o = np.argsort(x, kind="stable")
        out.append((x[o], o))
    return out


def _assert_orders(got, want, eng="numba", y=None, s=None):
    """Runs equal to the stable argsort's; the permutation equal to it on the numba engine
    (ties in row order), and on numpy a permutation of the class's rows that sorts them."""
    for c, ((runs, order), (runs_w, order_w)) in enumerate(zip(got, want)):
        assert runs.dtype == runs_w.dtype
        np.testing.assert_array_equal(runs, runs_w)
        if eng == "numba":
            np.testing.assert_array_equal(order, order_w)
        else:
            x = s[y] if c == 0 else s[~y]
            np.testing.assert_array_equal(np.sort(order), np.arange(x.shape[0]))
            np.testing.assert_array_equal(x[order], runs_w)


@pytest.mark.parametrize("eng", ENGINES)
@given(samples(max_n=300))
def test_class_orders_is_a_stable_sort_of_each_class(eng, sample):
    """Each class's runs are those of a stable argsort, and so is the permutation on the
    compiled engine (ties in row order); reused buffers (``work``) give the same arrays."""
    y, s = sample
    with use_engine(eng):
        _assert_orders(class_orders(y, s), _stable_class_orders(y, s), eng, y, s)
        work = {}
        class_orders(y, s[::-1].copy(), work)
        _assert_orders(class_orders(y, s, work), _stable_class_orders(y, s), eng, y, s)


@pytest.mark.parametrize("eng", ENGINES)
def test_class_orders_sorts_scores_that_agree_above_the_low_bits(eng):
    """The compiled engine keeps a class rank in the low bits of each key, so scores that
    differ only there come out in class order first and are sorted afterwards: small
    groups in place, groups of more than 32 by argsort, more than 64 such groups in
    several rounds. Signed zeros count as one value; float32 and integers too."""
    rng = np.random.default_rng(11)
    ulp = 2.0 ** -52
    # 100 clusters of 100 values a few ulps apart (about 50 per class: more than 64 groups
    # of more than 32), 300 pairs (small groups),
    # signed zeros, and ordinary values.
    s = np.concatenate([
        ((1.0 + rng.integers(0, 80, size=(100, 100)) * ulp) * (1.0 + np.arange(100)[:, None])).ravel(),
        np.repeat(rng.normal(size=300), 2) * (1.0 + rng.integers(0, 3, size=600) * ulp),
        np.array([0.0, -0.0] * 50),
        rng.normal(size=2000),
    ]).ravel()
    for x in (s, -s, s.astype(np.float32), (s * 2 ** 40).astype(np.int64), (s * 2 ** 40).astype(np.int64) - 2 ** 62):
        perm = rng.permutation(x.shape[0])
        x = x[perm]
        y = rng.random(x.shape[0]) < 0.5
        with use_engine(eng):
            _assert_orders(class_orders(y, x), _stable_class_orders(y, x), eng, y, x)
            y1 = np.ones(x.shape[0], dtype=bool)  # one class: the other is empty
            _assert_orders(class_orders(y1, x), _stable_class_orders(y1, x), eng, y1, x)


@needs_numba
@pytest.mark.parametrize("ties", [False, True])
def test_compare_is_the_same_on_both_engines(ties):
    """The engines' permutations may differ among tied scores; the terms are read by
    value, so the comparison is the same to the bit (values and covariance)."""
    rng = np.random.default_rng(8)
    n = 1 << 18  # the compiled engine's threshold: both engines really run
    y = rng.random(n) < 0.3
    sc = [rng.standard_normal(n) + y * k / 3 for k in range(3)]
    if ties:
        sc = [np.round(x, 1) for x in sc]
    with use_engine("numba"):
        fast = rw.stats.compare(y, sc)
    with use_engine("numpy"):
        ref = rw.stats.compare(y, sc)
    np.testing.assert_array_equal(fast.values, ref.values)
    np.testing.assert_array_equal(fast.cov, ref.cov)


@pytest.mark.parametrize("ties", [False, True])
def test_compare_rows_by_value_equal_rows_by_argsort(ties):
    # Unweighted AUC comparisons read each row's placement off its class's levels by value;
    # unit weights take the argsort path (table_with_rows): the same terms, the same numbers.
    rng = np.random.default_rng(5)
    n = 3000
    y = rng.random(n) < 0.4
    sc = [rng.standard_normal(n) + y * k / 2 for k in range(4)]
    if ties:
        sc = [np.round(x, 1) for x in sc]
    for eng in ENGINES:
        with use_engine(eng):
            fast = rw.stats.compare(y, sc)
        ref = rw.stats.compare(y, sc, sample_weight=np.ones(n))
        np.testing.assert_array_equal(fast.values, ref.values)
        np.testing.assert_allclose(fast.cov, ref.cov, rtol=1e-12, atol=0)


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("ties", [False, True])
def test_large_sample_by_ranges_matches_reference(eng, ties, monkeypatch):
    # Above 2 * RANGE_ROWS rows the criteria read the table range by range; every range
    # is built by the same split and merge count (lanes of the compiled merge included).
    rng = np.random.default_rng(3)
    n = 40_000
    y = rng.random(n) < 0.3
    s = rng.standard_normal(n) + y
    if ties:
        s = np.round(s, 1)
    with use_engine("numpy"):
        whole = rw.evaluate(y, s)
        monkeypatch.setattr(_ranktable, "RANGE_ROWS", 4096)
        ref = rw.evaluate(y, s)
    with use_engine(eng):
        got = rw.evaluate(y, s)
        est = rw.stats.estimate(y, s)
    assert got == ref  # the same ranges, the same sums
    assert got == pytest.approx(whole, rel=1e-13)  # the whole table: sums in another order
    assert est.value == ref["auc"]


def test_unknown_engine():
    with pytest.raises(ValueError, match="Unknown engine"):
        with use_engine("fortran"):
            pass


@needs_numba
@settings(max_examples=30)
@given(samples(max_n=120))
def test_engines_agree_on_big_endian_scores(sample):
    # Scores read from HDF5 or FITS come big-endian: the public functions give on both
    # engines what the native array gives (the numba engine raised a TypingError).
    y, s = sample
    swapped = s.astype(s.dtype.newbyteorder(">" if s.dtype.byteorder != ">" else "<"))
    if not (y.any() and not y.all()):
        return
    out = {}
    for eng in ENGINES:
        with use_engine(eng):
            out[eng] = [np.array(list(rw.evaluate(y, x, ["auc", "pnorm_push:p=2", "dcg"]).values()))
                        for x in (s, swapped)]
            out[eng].append(rw.operating_points(y, swapped, fpr=[0.1, 0.5]).tpr)
    np.testing.assert_array_equal(out["numpy"][0], out["numpy"][1])
    for a, b in zip(out["numpy"], out["numba"], strict=True):
        np.testing.assert_array_equal(a, b)
