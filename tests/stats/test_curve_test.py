"""rankwise.stats.curve_test / curve_test_unpaired: Venkatraman's tests of equal ROC curves.

* the statistic equals pROC's ``roc.test(method="venkatraman")`` to 1e-9 on the golden
  datasets (tests/golden/proc_venkatraman.json, from make_proc_venkatraman.R), and the
  literal O(n^2) definition (tests/_support/reference_curve_test.py) on generated samples
  with ties and tiny sizes;
* each permutation equals the literal permuted statistic built from the same random
  choices (recorded from the generator), and the permutation p-value agrees with pROC's
  within Monte Carlo error;
* bad input, immutability of the input, reproducibility, the result's text.
"""

from __future__ import annotations

import doctest
import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_curve_test as ref
from _support.paths import ROOT

GOLDEN = json.load(open(os.path.join(ROOT, "tests", "golden", "proc_venkatraman.json"), encoding="utf-8"))
PAGE = os.path.join(ROOT, "docs", "curve_test.md")


def _f(v):
    return float(v)


def _mc_close(p_ours, p_theirs, n_perm, n_theirs, k=4.5):
    """Two permutation p-values from independent draws agree within k standard errors."""
    pbar = (p_ours * n_perm + p_theirs * n_theirs) / (n_perm + n_theirs)
    se = math.sqrt(max(pbar * (1 - pbar), 1.0 / n_perm) * (1.0 / n_perm + 1.0 / n_theirs))
    return abs(p_ours - p_theirs) <= k * se


# --- golden values from pROC ---------------------------------------------------------------


@pytest.mark.parametrize("case", GOLDEN["paired"], ids=lambda c: c["name"])
def test_paired_statistic_and_p_value_match_proc(case):
    y = np.array(case["y"])
    a = np.array([_f(v) for v in case["a"]])
    b = np.array([_f(v) for v in case["b"]])
    t = rw.stats.curve_test(y, a, b, n_permutations=2000, random_state=0)
    assert abs(t.statistic - _f(case["E"])) <= 1e-9
    assert _mc_close(t.p_value, _f(case["p_value"]), 2000, GOLDEN["boot_n"])
    # the permutation law: mean within 4.5 standard errors of pROC's
    null = t.permutation_statistics
    sd = _f(case["perm"]["sd"])
    assert abs(null.mean() - _f(case["perm"]["mean"])) <= 4.5 * sd * math.sqrt(2.0 / 2000)


@pytest.mark.parametrize("case", GOLDEN["unpaired"], ids=lambda c: c["name"])
def test_unpaired_statistic_and_p_value_match_proc(case):
    ya, yb = np.array(case["y_a"]), np.array(case["y_b"])
    a = np.array([_f(v) for v in case["a"]])
    b = np.array([_f(v) for v in case["b"]])
    t = rw.stats.curve_test_unpaired(ya, a, yb, b, n_permutations=2000, random_state=0, mixing="proc")
    assert t.mixing == pytest.approx(_f(case["mp"]), abs=1e-15)
    assert abs(t.statistic - _f(case["E"])) <= 1e-9
    assert _mc_close(t.p_value, _f(case["p_value"]), 2000, GOLDEN["boot_n"])
    null = t.permutation_statistics
    sd = _f(case["perm"]["sd"])
    assert abs(null.mean() - _f(case["perm"]["mean"])) <= 4.5 * sd * math.sqrt(2.0 / 2000)
    if len(ya) == len(yb):  # the two mixings agree on samples of one size
        t2 = rw.stats.curve_test_unpaired(ya, a, yb, b, n_permutations=1, random_state=0)
        assert t2.statistic == t.statistic


def test_golden_crossing_curves_have_close_aucs_and_differ():
    case = next(c for c in GOLDEN["paired"] if "crossing" in c["name"])
    assert _f(case["delong_p"]) > 0.05  # pROC's DeLong test of the AUCs does not reject
    assert _f(case["p_value"]) < 0.05  # Venkatraman's test of the curves does


# --- the literal definition -------------------------------------------------------------


def _paired_data(draw, n_max=14):
    n = draw(st.integers(2, n_max))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    y[0], y[1] = False, True
    lv = draw(st.integers(1, 6))
    a = draw(st.lists(st.integers(0, lv), min_size=n, max_size=n))
    b = draw(st.lists(st.integers(0, lv), min_size=n, max_size=n))
    return y, [x / 2 for x in a], [x / 3 for x in b]


@settings(max_examples=40)
@given(st.data())
def test_paired_statistic_is_the_literal_definition(data):
    y, a, b = _paired_data(data.draw)
    t = rw.stats.curve_test(np.array(y), a, b, n_permutations=1, random_state=0)
    assert t.statistic == ref.paired_stat(y, a, b)
    assert rw.stats.curve_test(np.array(y), b, a, n_permutations=1).statistic == t.statistic


@settings(max_examples=40)
@given(st.data(), st.sampled_from(["pooled", "proc"]))
def test_unpaired_statistic_is_the_literal_definition(data, how):
    ya, a, _ = _paired_data(data.draw, 10)
    yb, b, _ = _paired_data(data.draw, 16)
    t = rw.stats.curve_test_unpaired(np.array(ya), a, np.array(yb), b, n_permutations=1, random_state=0,
                                     mixing=how)
    assert t.statistic == pytest.approx(ref.unpaired_stat(ya, a, yb, b, how), abs=1e-12)


class _Recorder:
    """A numpy Generator that records what it draws."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.calls = []

    def integers(self, *args, **kwargs):
        out = self.rng.integers(*args, **kwargs)
        self.calls.append(("integers", out))
        return out

    def permutation(self, *args, **kwargs):
        out = self.rng.permutation(*args, **kwargs)
        self.calls.append(("permutation", out))
        return out


@pytest.mark.parametrize("seed", range(4))
def test_each_paired_permutation_is_the_literal_swap(seed):
    from rankwise.stats import _curve_test as ct

    rng = np.random.default_rng(100 + seed)
    n = 15
    y = rng.integers(0, 2, n).astype(bool)
    y[:2] = [False, True]
    a = rng.integers(0, 4, n) / 2.0
    b = rng.integers(0, 5, n) / 2.0
    rec = _Recorder(seed)
    ra, rb = ct._ranks(a)[0], ct._ranks(b)[0]
    null = ct._paired_permutations(ra, rb, np.where(y, 1, -1).astype(np.int8), 6, rec)
    (kind, bits), = rec.calls
    assert kind == "integers" and bits.shape == (6, n)
    for t in range(6):
        want = ref.paired_permuted_stat(list(y), list(a), list(b), bits[t] & 1, (bits[t] >> 1) & 1, bits[t] >> 2)
        assert null[t] == want


@pytest.mark.parametrize("seed", range(4))
def test_each_unpaired_permutation_is_the_literal_deal(seed):
    from rankwise.stats import _curve_test as ct

    rng = np.random.default_rng(200 + seed)
    na, nb = 9, 13
    ya = rng.integers(0, 2, na).astype(bool)
    yb = rng.integers(0, 2, nb).astype(bool)
    ya[:2] = yb[:2] = [False, True]
    a = rng.integers(0, 4, na) / 2.0
    b = rng.integers(0, 6, nb) / 2.0
    mp = ref.mixing(list(ya), list(yb))
    rec = _Recorder(seed)
    null = ct._unpaired_permutations(ct._ranks(a)[0], ya, ct._ranks(b)[0], yb, mp, 5, rec)
    (_, coin), *deals = rec.calls
    deal_neg = [d for _, d in deals[:5]]
    deal_pos = [d for _, d in deals[5:]]
    assert len(deal_pos) == 5
    for t in range(5):
        want = ref.unpaired_permuted_stat(list(ya), list(a), list(yb), list(b), list(coin[t]), list(deal_neg[t]),
                                          list(deal_pos[t]))
        assert null[t] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_each_mixture_permutation_is_the_literal_deal(seed):
    from rankwise.stats import _curve_test as ct

    rng = np.random.default_rng(300 + seed)
    na, nb = 8, 16  # the same shares in both samples half of the time: shared positions
    ya = np.tile([False, True], na // 2)
    yb = np.tile([False, True], nb // 2) if seed % 2 == 0 else rng.integers(0, 2, nb).astype(bool)
    yb[:2] = [False, True]
    a = rng.integers(0, 4, na) / 2.0
    b = rng.normal(size=nb)
    ra, oa = ct._ranks(a)
    rb, ob = ct._ranks(b)
    levels = ct._mixture_levels(ct._signs(oa, ya), ra, ct._signs(ob, yb), rb)
    want_levels = ref.mixture_levels(list(ya), list(a), list(yb), list(b))
    assert levels.tolist() == want_levels
    if seed % 2 == 0:
        assert len(set(want_levels)) < na + nb  # equal positions across the samples occur
    mp = ref.mixing(list(ya), list(yb))
    rec = _Recorder(seed)
    null = ct._unpaired_permutations(ra, ya, rb, yb, mp, 5, rec, levels)
    (_, coin), *deals = rec.calls
    for t in range(5):
        want = ref.unpaired_permuted_stat(list(ya), list(a), list(yb), list(b), list(coin[t]),
                                          list(deals[t][1]), list(deals[5 + t][1]), levels=want_levels)
        assert null[t] == pytest.approx(want, abs=1e-12)
    t = rw.stats.curve_test_unpaired(ya, a, yb, b, n_permutations=50, random_state=0, permutation="mixture")
    assert t.statistic == rw.stats.curve_test_unpaired(ya, a, yb, b, n_permutations=1).statistic
    assert t.permutation == "mixture" and "mixture axis" in t.summary()


def test_batches_are_stitched_in_order(monkeypatch):
    # 7 permutations in batches of 3, 3 and 1: each is still the literal permuted statistic
    from rankwise.stats import _curve_test as ct

    rng = np.random.default_rng(5)
    n = 12
    y = rng.integers(0, 2, n).astype(bool)
    y[:2] = [False, True]
    a, b = rng.integers(0, 5, n) / 2.0, rng.normal(size=n)
    monkeypatch.setattr(ct, "_BATCH_CELLS", 3 * n)
    rec = _Recorder(9)
    null = ct._paired_permutations(ct._ranks(a)[0], ct._ranks(b)[0], np.where(y, 1, -1).astype(np.int8), 7, rec)
    assert [c[1].shape[0] for c in rec.calls] == [3, 3, 1]
    bits = np.concatenate([c[1] for c in rec.calls])
    want = [ref.paired_permuted_stat(list(y), list(a), list(b), r & 1, (r >> 1) & 1, r >> 2) for r in bits]
    assert null.tolist() == want
    yb = rng.integers(0, 2, 2 * n).astype(bool)
    yb[:2] = [False, True]
    bb = rng.integers(0, 6, 2 * n) / 2.0
    rec = _Recorder(10)
    mp = ref.mixing(list(y), list(yb))
    null = ct._unpaired_permutations(ct._ranks(a)[0], y, ct._ranks(bb)[0], yb, mp, 4, rec)
    coins = [c[1] for c in rec.calls if c[0] == "integers"]
    deals = [c[1] for c in rec.calls if c[0] == "permutation"]
    assert [c.shape[0] for c in coins] == [1, 1, 1, 1]  # 3 n cells hold less than one pooled sample
    for t in range(4):
        want = ref.unpaired_permuted_stat(list(y), list(a), list(yb), list(bb), list(coins[t][0]), list(deals[2 * t]),
                                          list(deals[2 * t + 1]))
        assert null[t] == pytest.approx(want, abs=1e-12)


# --- the permutation law -----------------------------------------------------------------


def test_identical_scorers_give_zero_and_p_one():
    y = [0, 1, 0, 1, 1, 0, 0, 1]
    s = [0.1, 0.7, 0.3, 0.2, 0.9, 0.5, 0.5, 0.8]
    t = rw.stats.curve_test(y, s, s, n_permutations=50, random_state=0)
    assert t.statistic == 0.0 and t.p_value == 1.0
    u = rw.stats.curve_test_unpaired(y, s, y, s, n_permutations=50, random_state=0)
    assert u.statistic == 0.0 and u.p_value == 1.0


def test_p_value_is_the_share_at_or_above_the_statistic():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 40)
    a, b = rng.normal(size=40) + y, rng.normal(size=40)
    t = rw.stats.curve_test(y, a, b, n_permutations=300, random_state=2)
    assert t.p_value == ref.p_value(t.statistic, t.permutation_statistics)
    u = rw.stats.curve_test_unpaired(y, a, y[::-1], b, n_permutations=300, random_state=2)
    assert u.p_value == ref.p_value(u.statistic, u.permutation_statistics, 1e-12)


def test_same_seed_same_numbers_and_monotone_invariance():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    a, b = rng.normal(size=60) + y, rng.normal(size=60) + 0.5 * y
    t1 = rw.stats.curve_test(y, a, b, n_permutations=200, random_state=7)
    t2 = rw.stats.curve_test(y, np.exp(a), 3 * b - 1, n_permutations=200, random_state=np.random.default_rng(7))
    assert t1.statistic == t2.statistic and t1.p_value == t2.p_value
    np.testing.assert_array_equal(t1.permutation_statistics, t2.permutation_statistics)
    u1 = rw.stats.curve_test_unpaired(y, a, y, b, n_permutations=100, random_state=7)
    u2 = rw.stats.curve_test_unpaired(y, a, y, b, n_permutations=100, random_state=7)
    np.testing.assert_array_equal(u1.permutation_statistics, u2.permutation_statistics)


# --- input --------------------------------------------------------------------------------


def test_bad_input_names_the_argument():
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    ct, cu = rw.stats.curve_test, rw.stats.curve_test_unpaired
    with pytest.raises(ValueError, match="y_score_b"):
        ct(y, s, s[:3])
    with pytest.raises(ValueError, match="y_true"):
        ct([1, 1, 1, 1], s, s)
    with pytest.raises(ValueError, match="y_score_a"):
        ct(y, [0.1, np.nan, 0.3, 0.4], s)
    with pytest.raises(ValueError, match="y_score_b"):
        ct(y, s, [0.1, np.nan, 0.3, 0.4])
    for bad in (0, -3):
        with pytest.raises(ValueError, match="n_permutations"):
            ct(y, s, s, n_permutations=bad)
    with pytest.raises(ValueError, match="n_permutations"):
        ct(y, s, s, n_permutations=2.5)
    with pytest.raises(TypeError, match="n_permutations"):
        ct(y, s, s, n_permutations=True)
    with pytest.raises(TypeError, match="random_state"):
        ct(y, s, s, random_state="seed")
    with pytest.raises(ValueError, match="names"):
        ct(y, s, s, names=("a", "a"))
    with pytest.raises(ValueError, match="y_true_a"):
        cu([0, 0], [1, 2], y, s)
    with pytest.raises(ValueError, match="y_true_b"):
        cu(y, s, [1], [2])
    with pytest.raises(ValueError, match="y_score_b"):
        cu(y, s, y, s[:3])
    with pytest.raises(ValueError, match="mixing"):
        cu(y, s, y, s, mixing="mean")
    with pytest.raises(ValueError, match="permutation"):
        cu(y, s, y, s, permutation="rows")
    with pytest.raises(ValueError, match="n_permutations"):
        cu(y, s, y, s, n_permutations=0)


def test_input_is_not_modified():
    y = np.array([0, 1, 0, 1, 1, 0])
    a = np.array([0.3, 0.1, 0.2, 0.9, 0.2, 0.5])
    b = a[::-1].copy()
    copies = [y.copy(), a.copy(), b.copy()]
    rw.stats.curve_test(y, a, b, n_permutations=20, random_state=0)
    rw.stats.curve_test_unpaired(y, a, y, b, n_permutations=20, random_state=0)
    for x, c in zip((y, a, b), copies):
        np.testing.assert_array_equal(x, c)


def test_pos_label_and_string_labels():
    y = np.array(["no", "yes", "no", "yes", "yes", "no"])
    a = [0.3, 0.1, 0.2, 0.9, 0.2, 0.5]
    b = [0.1, 0.4, 0.2, 0.3, 0.8, 0.6]
    t = rw.stats.curve_test(y, a, b, pos_label="yes", n_permutations=10, random_state=0)
    assert t.statistic == ref.paired_stat(list(y == "yes"), a, b)


# --- the result ---------------------------------------------------------------------------


def test_result_says_what_it_tests():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 30)
    t = rw.stats.curve_test(y, rng.normal(size=30), rng.normal(size=30), n_permutations=20, random_state=0,
                            names=("old", "new"))
    text = t.summary()
    assert "ROC curves of 'old' and 'new' are equal at every operating point" in text
    assert "not of the AUCs" in text and str(t) == text
    assert "not of the AUCs" in t._repr_html_() and "<table>" in t._repr_html_()
    with pytest.raises(Exception):
        t.p_value = 0.5
    with pytest.raises(ValueError):
        t.permutation_statistics[0] = 1.0
    u = rw.stats.curve_test_unpaired(y, rng.normal(size=30), y, rng.normal(size=30), n_permutations=5)
    assert "unpaired" in u.summary() and "mixing" in u.summary()
    zero = rw.stats.curve_test([0, 1, 0, 1], [1, 2, 3, 4], [4, 3, 2, 1], n_permutations=4, random_state=0)
    assert zero.p_value > 0 or "< 0.25" in zero.summary()


def test_page_examples_run():
    if not os.path.exists(PAGE):
        pytest.skip("docs/curve_test.md not written")
    res = doctest.testfile(PAGE, module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
                           globs={}, verbose=False)
    assert res.failed == 0 and res.attempted > 0


def test_docstring_examples_run():
    from rankwise.stats import _curve_test

    res = doctest.testmod(_curve_test, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted >= 2
