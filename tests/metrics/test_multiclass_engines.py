"""The two engines of rankwise._kernels._multiclass (issue 31, speed): the compiled one
(radix sorts of the scores' ordered keys on their top 32 bits, the groups left out of order
sorted after, then one counting pass) and the numpy one give the same multiclass AUCs, VUS
and sorted levels as each other and as the literal loops of tests/_support, on generated
samples with ties within and across classes, absent classes, a class of one, integer
scores beyond 2^53, signed zeros, and spans that leave many keys agreeing on their top 32
bits (the fix-up, by insertion and by a radix sort of the low bits)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _support.reference_multiclass import multiclass_reference
from _support.reference_vus import vus_reference
from rankwise._kernels._merge import use_engine
from rankwise._kernels import class_pair_counts, class_terms, pooled_pair_count, score_levels
from rankwise.metrics._multiclass import PairwiseAUCs, multiclass_auc
from rankwise.metrics._vus import vus

pytest.importorskip("numba")

COMBOS = [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovr", None), ("ovo", "macro"),
          ("ovo", "weighted"), ("ovo", None)]


def _both(f):
    """``f()`` on the numpy engine and on the compiled one."""
    with use_engine("numpy"):
        a = f()
    with use_engine("numba"):
        b = f()
    return a, b


def _same(a, b, tol=0.0):
    if isinstance(a, PairwiseAUCs):
        return all(_same(x, y, tol) for x, y in zip(a[:2], b[:2]))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    nan = np.isnan(a) & np.isnan(b)
    return a.shape == b.shape and bool(np.all(nan | (np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b)))))


@st.composite
def prob_samples(draw, max_n=16):
    """Labels in 0..K-1 (some classes possibly absent, some of one row) and rows of
    probabilities from small integer counts: ties within and across classes."""
    K = draw(st.integers(2, 5))
    n = draw(st.integers(2, max_n))
    y = np.array(draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n)))
    top = draw(st.sampled_from([1, 3, 50, 10 ** 6]))
    C = np.array(draw(st.lists(st.lists(st.integers(0, top), min_size=K, max_size=K), min_size=n, max_size=n)),
                 dtype=float)
    C[C.sum(axis=1) == 0, 0] = 1.0
    S = C / C.sum(axis=1, keepdims=True)
    return y, S, K


@settings(max_examples=40)
@given(prob_samples())
def test_multiclass_engines_agree_with_each_other_and_the_pair_loops(sample):
    y, S, K = sample
    if np.unique(y).size < 2:
        return
    labels = np.arange(K)  # classes without rows stay as columns
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an absent class warns (and gives nan) on both engines
        for mc, av in COMBOS:
            a, b = _both(lambda: multiclass_auc(y, S, multi_class=mc, average=av, labels=labels))
            assert _same(a, b), (mc, av, a, b)  # integer counts halved: the same floats
            if av is not None:
                ref = multiclass_reference(y, S, labels, mc, av)
                assert _same(b, ref, 1e-12), (mc, av, b, ref)


@settings(max_examples=40)
@given(prob_samples())
def test_pair_and_micro_counts_are_the_pair_loops(sample):
    y, S, K = sample
    num_np, num_nb = _both(lambda: class_pair_counts(S, y, K))
    ref = np.zeros((K, K))
    for i in range(K):
        for j in range(K):
            if i != j:
                a, b = S[y == i, i], S[y == j, i]
                ref[i, j] = (a[:, None] > b[None, :]).sum() + 0.5 * (a[:, None] == b[None, :]).sum()
    assert np.array_equal(num_np, ref) and np.array_equal(num_nb, ref)
    own = np.zeros(S.shape, dtype=bool)
    own[np.arange(y.size), y] = True
    pos, neg = S[own], S[~own]
    want = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert _both(lambda: pooled_pair_count(S, y)) == (want, want)


@st.composite
def ordinal_samples(draw, max_n=16):
    k = draw(st.integers(2, 5))
    n = draw(st.integers(k, max_n))
    y = draw(st.permutations(list(range(k)) + draw(st.lists(st.integers(0, k - 1), min_size=n - k,
                                                            max_size=n - k))))
    kind = draw(st.sampled_from(["few", "float", "big int", "zeros"]))
    if kind == "few":
        s = np.array(draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n)), dtype=float)
    elif kind == "float":
        s = np.array(draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=n, max_size=n)))
    elif kind == "big int":  # distinct integers float64 cannot tell apart: ordered exactly
        s = 2 ** 60 + np.array(draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n)), dtype=np.int64)
    else:  # -0.0 and +0.0 are one score
        s = np.array(draw(st.lists(st.sampled_from([-0.0, 0.0, 1.0, -1.0]), min_size=n, max_size=n)))
    return np.array(y), s, k


@settings(max_examples=50)
@given(ordinal_samples())
def test_vus_engines_agree_with_the_chain_loop(sample):
    y, s, k = sample
    a, b = _both(lambda: vus(y, s, labels=list(range(k))))
    # The reference reads floats: big integers shifted to small ones (the same order) for it.
    ref = vus_reference(list(y), s - 2 ** 60 if s.dtype.kind == "i" else s, list(range(k)))
    assert abs(a - b) <= 1e-13 and abs(b - ref) <= 1e-12, (a, b, ref)


def _adversarial(rng, n):
    """Scores whose keys span most of 64 bits, with clusters that agree on the top 32 bits of
    the span: groups of every size (by insertion below 48 keys, by a radix sort above)."""
    wide = rng.normal(size=n // 2) * 10.0 ** rng.integers(-300, 300, n // 2)
    parts = [wide]
    for size in (2, 5, 47, 48, 300, 5000):
        base = rng.normal()
        parts.append(base + np.arange(size) * np.spacing(base) * rng.integers(1, 4))
    parts.append(np.repeat(rng.normal(size=7), 40))  # heavy ties
    parts.append(np.array([0.0, -0.0, 5e-324, -5e-324, np.finfo(float).max, -np.finfo(float).max]))
    x = np.concatenate(parts)
    rng.shuffle(x)
    return x


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sorted_levels_on_hostile_spans(seed):
    rng = np.random.default_rng(seed)
    x = _adversarial(rng, 20_000)
    (o1, l1, L1), (o2, l2, L2) = _both(lambda: score_levels(x))
    u = np.unique(x)
    for o, lev, L in ((o1, l1, L1), (o2, l2, L2)):
        assert np.array_equal(np.sort(o), np.arange(x.size))
        assert L == u.size and np.array_equal(u[lev], x[o])
        assert lev.dtype == np.intp and np.all(np.diff(lev) >= 0)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.int64, np.uint64, np.bool_])
def test_sorted_levels_other_dtypes(dtype):
    rng = np.random.default_rng(4)
    if dtype == np.bool_:
        x = rng.random(3000) < 0.3
    elif dtype == np.uint64:
        x = (np.uint64(2 ** 63) + rng.integers(0, 50, 3000).astype(np.uint64)) * np.uint64(1)
    elif dtype == np.int64:
        x = rng.integers(-(2 ** 62), 2 ** 62, 3000)
        x[:100] = 2 ** 53 + rng.integers(0, 3, 100)  # float64 would merge these
    else:
        x = (rng.normal(size=3000) * 40).astype(dtype)
    (o1, l1, L1), (o2, l2, L2) = _both(lambda: score_levels(x))
    u = np.unique(x)
    for o, lev, L in ((o1, l1, L1), (o2, l2, L2)):
        assert L == u.size and np.array_equal(u[lev], x[o])


def test_sort_fixup_groups_directly():
    from rankwise._kernels import _numba_multiclass as fast

    rng = np.random.default_rng(7)
    x = _adversarial(rng, 4000)
    keys = np.empty(x.size, dtype=np.uint64)
    perm = np.empty(x.size, dtype=np.intp)
    L = fast.sorted_levels_into(x.view(np.uint64), 0, keys, perm, np.empty_like(keys), np.empty_like(perm))
    assert np.all(np.diff(x[perm]) >= 0) and L == np.unique(x).size


@pytest.mark.parametrize("ties", [False, True])
def test_larger_samples_agree_with_sklearn_on_both_engines(ties):
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(5 + ties)
    n, K = 6000, 4
    y = rng.integers(0, K, n)
    Z = rng.normal(size=(n, K)) + np.eye(K)[y]
    S = np.exp(np.round(Z, 1) if ties else Z)
    S /= S.sum(axis=1, keepdims=True)
    S = np.asfortranarray(S) if ties else S  # both memory layouts
    for mc, av in [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"), ("ovo", "weighted")]:
        want = roc_auc_score(y, S, multi_class=mc, average=av)
        a, b = _both(lambda: multiclass_auc(y, S, multi_class=mc, average=av))
        assert math.isclose(a, want, rel_tol=1e-12) and math.isclose(b, want, rel_tol=1e-12), (mc, av)
    s = S[:, 0]
    a, b = _both(lambda: vus(y % 3, s, labels=[0, 1, 2]))
    assert abs(a - b) <= 1e-12


@settings(max_examples=40)
@given(prob_samples(max_n=30), st.booleans(), st.booleans())
def test_class_terms_are_the_placements_of_every_row(sample, weighted, ovo):
    """The compiled standard-error terms (rankwise._kernels.class_terms) against their
    literal definitions: pair loops over the rows with ties 1/2, weights, absent classes."""
    y, S, K = sample
    rng = np.random.default_rng(len(y))
    w = rng.integers(0, 4, y.size) * 0.5 if weighted else None
    ww = np.ones(y.size) if w is None else w
    mass = np.bincount(y, weights=ww, minlength=K).astype(float)
    with use_engine("numba"):
        got = class_terms(S, y, K, w, mass, ovo)
    assert got is not None
    H, num, pairs, off, order = got
    assert np.array_equal(order, np.argsort(y, kind="stable"))
    assert np.array_equal(off, np.concatenate(([0], np.cumsum(np.bincount(y, minlength=K)))))

    def psi(a, b):  # a above b: 1, tied: 1/2
        return (a > b) + 0.5 * (a == b)

    n = y.size
    want_num = np.array([[sum(ww[i] * ww[l] * psi(S[i, k], S[l, k]) for i in range(n) if y[i] == k
                              for l in range(n) if y[l] == j) for j in range(K)] for k in range(K)])
    if ovo:
        np.testing.assert_allclose(num, want_num, rtol=1e-13, atol=1e-13)
    else:
        np.testing.assert_allclose(pairs, want_num.sum(axis=1) - np.diag(want_num), rtol=1e-13, atol=1e-13)
    rest = mass.sum() - mass

    def share(j, k, i, above):  # the weighted share of class j's rows above (or below) row i on column k
        tot = sum(ww[l] * (psi(S[l, k], S[i, k]) if above else psi(S[i, k], S[l, k])) for l in range(n) if y[l] == j)
        return tot / mass[j] if mass[j] > 0 else float("nan")

    with np.errstate(invalid="ignore", divide="ignore"):  # a class with no rows (or no rest): nan
        for p_, i in enumerate(order):
            c = y[i]
            if ovo:
                want = [0.5 * (share(d, c, i, False) + share(d, d, i, True)) for d in range(K) if d != c]
            else:
                want = []
                for k in range(K):
                    if k == c:
                        want.append(sum(ww[l] * psi(S[i, k], S[l, k]) for l in range(n) if y[l] != k) / rest[k])
                    else:
                        want.append(mass[c] / rest[k] * share(k, k, i, True))
            np.testing.assert_allclose(H[:, p_], want, rtol=1e-12, atol=1e-12)


def test_class_terms_full_directed_counts_one_vs_rest():
    """One-vs-rest with ``full`` (the weighted average's prevalence gradient) fills the
    directed counts too; without it they are left at 0."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 200)
    S = rng.dirichlet(np.ones(4), 200).round(2)
    S[:, 0] = 1.0 - S[:, 1:].sum(axis=1)
    mass = np.bincount(y, minlength=4).astype(float)
    with use_engine("numba"):
        _, num_full, pairs_full, _, _ = class_terms(S, y, 4, None, mass, False, full=True)
        _, num_part, pairs_part, _, _ = class_terms(S, y, 4, None, mass, False, full=False)
        _, num_ovo, _, _, _ = class_terms(S, y, 4, None, mass, True)
    assert np.array_equal(num_full, num_ovo) and not num_part.any()
    assert np.array_equal(pairs_full, pairs_part)
    assert np.array_equal(pairs_full, num_full.sum(axis=1) - np.diag(num_full))


def test_class_terms_is_compiled_only():
    """The numpy engine has no such kernel: the estimate builds its terms itself."""
    y = np.array([0, 1, 2, 0, 1, 2])
    S = np.full((6, 3), 1 / 3)
    with use_engine("numpy"):
        assert class_terms(S, y, 3, None, np.array([2.0, 2, 2]), False) is None
