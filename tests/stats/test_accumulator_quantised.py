"""``RankAccumulator(resolution=..., max_levels=...)``: masses per grid cell, the AUC with
a certified bound. Checked against direct definitions written here: the cells
``floor(s / resolution)`` of the final grid, the AUC of the cells and the bound
``h = sum_c a_c b_c / (2 n+ n-)`` as exact fractions, and the exact AUC of the raw scores
by the literal O(n^2) pair count. The exact AUC always lies in the bound; the bound is
attained when every within-cell pair is ordered one way."""

from __future__ import annotations

import hashlib
import json
import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support.strategies import samples
from rankwise.stats import RankAccumulator


# --- direct definitions ----------------------------------------------------------------------------

def exact_auc(y, s, w=None):
    """The AUC of the raw scores as a fraction: sum over (pos, neg) pairs of
    w_i w_j (1{s_i > s_j} + 1/2 1{s_i = s_j}) / (W+ W-)."""
    w = [1] * len(y) if w is None else [Fraction(x) for x in w]
    num = Fraction(0)
    for i in range(len(y)):
        for j in range(len(y)):
            if y[i] and not y[j]:
                num += w[i] * w[j] * (1 if s[i] > s[j] else Fraction(1, 2) if s[i] == s[j] else 0)
    P = sum(w[i] for i in range(len(y)) if y[i])
    N = sum(w[i] for i in range(len(y)) if not y[i])
    return num / (P * N)


def cells(s, resolution):
    return [math.floor(v / resolution) for v in s]


def bound_by_definition(y, s, resolution, w=None):
    """``(A_q - h, A_q, A_q + h)`` as fractions: the AUC of the cells (within-cell pairs
    count 1/2) and half the within-cell pairs' share."""
    c = cells(s, resolution)
    aq = exact_auc(y, c, w)
    w = [1] * len(y) if w is None else [Fraction(x) for x in w]
    P = sum(w[i] for i in range(len(y)) if y[i])
    N = sum(w[i] for i in range(len(y)) if not y[i])
    within = sum(w[i] * w[j] for i in range(len(y)) for j in range(len(y)) if y[i] and not y[j] and c[i] == c[j])
    h = Fraction(within, 2) / (P * N)
    return aq - h, aq, aq + h


def coarsest_needed(s, base, max_levels):
    """The width ``base * 2^k`` with the smallest k whose grid has at most ``max_levels``
    occupied cells (the grid a max_levels accumulator ends on)."""
    k = 0
    while len(set(cells(s, math.ldexp(base, k)))) > max_levels:
        k += 1
    return math.ldexp(base, k)


def fill(y, s, w, cuts, **kw):
    idx = np.split(np.arange(len(y)), sorted(cuts))
    return [RankAccumulator(**kw).update(np.asarray(y)[i], np.asarray(s)[i], None if w is None else np.asarray(w)[i])
            for i in idx]


def merged(accs, picks):
    accs = list(accs)
    picks = iter(picks)
    while len(accs) > 1:
        a = accs.pop(next(picks, 0) % len(accs))
        j = next(picks, 0) % len(accs)
        accs[j] = accs[j].merge(a) if next(picks, 0) % 2 else a.merge(accs[j])
    return accs[0]


@st.composite
def quantised_cases(draw, weights=False):
    y, s, w = draw(samples(weights=weights, integer_weights=True, max_n=18))
    n = len(y)
    resolution = draw(st.sampled_from([0.5, 1.0, 3.0, 0.1, 37.5]))
    max_levels = draw(st.sampled_from([None, 2, 3, 5]))
    cuts = draw(st.lists(st.integers(0, n), max_size=4))
    picks = draw(st.lists(st.integers(0, 9), min_size=15, max_size=15))
    return y, s, w, resolution, max_levels, cuts, picks


# --- the bound --------------------------------------------------------------------------------------

@settings(max_examples=50)
@given(case=quantised_cases())
def test_the_exact_auc_lies_in_the_bound_which_is_the_definitions(case):
    y, s, w, resolution, max_levels, cuts, picks = case
    acc = merged(fill(y, s, w, cuts, resolution=resolution, max_levels=max_levels), picks)
    final = resolution if max_levels is None else coarsest_needed(s, resolution, max_levels)
    assert acc.resolution == final
    assert acc.n_levels == len(set(cells(s, final))) and (max_levels is None or acc.n_levels <= max_levels)
    lo, value, hi = acc.auc_bounds()
    lo_d, value_d, hi_d = bound_by_definition(y, s, final)
    # correctly rounded ratios of exact integers
    assert (lo, value, hi) == (float(lo_d), float(value_d), float(hi_d))
    exact = exact_auc(y, s)
    assert lo_d <= exact <= hi_d and lo <= float(exact) <= hi
    assert value == pytest.approx(rw.auc(y, np.floor(np.asarray(s) / final)), rel=1e-15, abs=0)


@settings(max_examples=30)
@given(case=quantised_cases(weights=True))
def test_weighted_bounds_hold_to_rounding(case):
    y, s, w, resolution, max_levels, cuts, picks = case
    acc = merged(fill(y, s, w, cuts, resolution=resolution, max_levels=max_levels), picks)
    final = resolution if max_levels is None else coarsest_needed(s, resolution, max_levels)
    lo, value, hi = acc.auc_bounds()
    lo_d, value_d, hi_d = bound_by_definition(y, s, final, w)
    assert [lo, value, hi] == pytest.approx([float(lo_d), float(value_d), float(hi_d)], rel=1e-12, abs=1e-15)
    exact = float(exact_auc(y, s, w))
    assert lo - 1e-12 <= exact <= hi + 1e-12


@pytest.mark.parametrize("direction", ["up", "down"])
def test_the_bound_is_attained_when_every_within_cell_pair_is_ordered_one_way(direction):
    # Cells of width 1; in each cell every positive scores above (or below) every negative,
    # so the exact AUC is A_q + h (or A_q - h).
    rng = np.random.default_rng(0)
    y, s = [], []
    for cell in range(6):
        n_pos, n_neg = rng.integers(1, 4, 2)
        hi_pos = direction == "up"
        y += [1] * n_pos + [0] * n_neg
        s += [cell + (0.75 if hi_pos else 0.25)] * n_pos + [cell + (0.25 if hi_pos else 0.75)] * n_neg
    perm = rng.permutation(len(y))
    y, s = list(np.array(y)[perm]), list(np.array(s)[perm])
    acc = RankAccumulator(resolution=1.0).update(y[:7], s[:7]).update(y[7:], s[7:])
    lo, value, hi = acc.auc_bounds()
    exact = exact_auc(y, s)
    lo_d, _, hi_d = bound_by_definition(y, s, 1.0)
    assert exact == (hi_d if direction == "up" else lo_d)
    assert float(exact) == (hi if direction == "up" else lo)
    assert hi > lo


def test_the_exact_accumulator_gives_a_bound_of_width_zero():
    acc = RankAccumulator().update([0, 1, 1, 0], [0.1, 0.5, 0.5, 0.5])
    assert acc.auc_bounds() == (0.75, 0.75, 0.75)  # each positive: 1 + 1/2 of 2 negatives


def test_a_tiny_example_by_hand():
    # cells of 0.25: negatives 0.1 -> 0, 0.4 -> 1, 0.9 -> 3; positives 0.35 -> 1, 0.8 -> 3.
    # A_q = (1 + 1/2 + 2 + 1/2) / 6 = 2/3, h = (1 + 1) / (2 * 6) = 1/6; the exact AUC is 1/2.
    acc = RankAccumulator(resolution=0.25).update([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9])
    assert acc.auc_bounds() == (0.5, 2 / 3, 5 / 6)
    assert rw.auc([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9]) == 0.5
    assert acc.n_levels == 3 and acc.quantised and "resolution=0.25" in repr(acc)


# --- coarsening and merging ------------------------------------------------------------------------

@settings(max_examples=25)
@given(case=quantised_cases(), order=st.randoms(use_true_random=False))
def test_the_state_does_not_depend_on_batch_order_or_merge_tree(case, order):
    y, s, w, resolution, max_levels, cuts, picks = case
    parts = fill(y, s, None, cuts, resolution=resolution, max_levels=max_levels)
    one = merged([p.copy() for p in parts], [0] * 50)
    order.shuffle(parts)
    assert merged(parts, picks).to_bytes() == one.to_bytes()


def test_max_levels_alone_starts_on_a_power_of_two_grid_and_coarsens():
    rng = np.random.default_rng(1)
    y = rng.random(5000) < 0.3
    s = rng.random(5000) + 0.2 * y
    acc = RankAccumulator(max_levels=100)
    for i in range(0, 5000, 500):
        acc.update(y[i:i + 500], s[i:i + 500])
    assert acc.n_levels <= 100 and acc.resolution == coarsest_needed(s, 2.0 ** -32, 100)
    assert math.frexp(acc.resolution)[0] == 0.5  # a power of two
    lo, value, hi = acc.auc_bounds()
    assert lo <= rw.auc(y, s) <= hi and hi - lo < 0.05
    assert acc.nbytes <= 3 * 100 * 8


def test_grids_a_power_of_two_apart_merge_on_the_coarser():
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.5
    s = rng.normal(size=200)
    fine = RankAccumulator(resolution=0.1).update(y[:120], s[:120])
    coarse = RankAccumulator(resolution=0.4).update(y[120:], s[120:])
    both = RankAccumulator(resolution=0.4).update(y[:120], s[:120]).update(y[120:], s[120:])
    assert fine.copy().merge(coarse).to_bytes() == both.to_bytes()
    assert coarse.copy().merge(fine).auc_bounds() == both.auc_bounds()
    assert fine.resolution == 0.1  # the other is unchanged
    with pytest.raises(ValueError, match="cannot be aligned"):
        fine.merge(RankAccumulator(resolution=0.3).update(y, s))
    with pytest.raises(ValueError, match="max_levels"):
        RankAccumulator(max_levels=10).merge(RankAccumulator(max_levels=20))
    with pytest.raises(ValueError, match="quantised"):
        fine.merge(RankAccumulator().update(y, s))


def test_other_results_are_refused_in_the_quantised_mode():
    acc = RankAccumulator(resolution=0.5).update([0, 1, 0], [0.1, 0.7, 1.3])
    for call in (lambda: acc.evaluate(), lambda: acc.compute("auc"), lambda: acc.estimate(),
                 lambda: acc.roc_curve(), lambda: acc.precision_recall_curve(),
                 lambda: acc.operating_points(fpr=0.1)):
        with pytest.raises(ValueError, match="quantised.*auc_bounds"):
            call()


def test_parameters_and_scores_beyond_the_grid_are_refused():
    for kw in ({"resolution": 0}, {"resolution": -1.0}, {"resolution": float("nan")}, {"resolution": float("inf")},
               {"max_levels": 1}, {"max_levels": 2.5}, {"resolution": 1e300}):
        with pytest.raises((ValueError, TypeError), match="resolution|max_levels"):
            RankAccumulator(**kw)
    with pytest.raises(TypeError):
        RankAccumulator(resolution="0.1")
    acc = RankAccumulator(resolution=1e-10).update([0, 1], [0.0, 1.0])
    before = acc.to_bytes()
    with pytest.raises(ValueError, match="batch 2 .*2\\^62 cells"):
        acc.update([0, 1], [1e12, 0.0])
    assert acc.to_bytes() == before
    with pytest.raises(ValueError, match="batch 1 .*up to 2\\^900"):
        RankAccumulator(max_levels=2).update([0, 1], [1e300, -1e300])
    wide = RankAccumulator(max_levels=2).update([0, 1, 0], [2.0 ** 900, -2.0 ** 900, 0.0])
    assert wide.n_levels == 2 and wide.resolution < 2.0 ** 902
    assert RankAccumulator.from_bytes(wide.to_bytes()).auc_bounds() == wide.auc_bounds()


def test_weighted_quantised_batches_and_zero_weights():
    y, s, w = [0, 1, 1, 0, 1], [0.1, 0.2, 0.6, 0.7, 0.65], [1.0, 2.0, 0.0, 3.0, 0.5]
    acc = RankAccumulator(resolution=0.5).update(y[:2], s[:2]).update(y[2:], s[2:], w[2:])
    lo, value, hi = acc.auc_bounds()
    lo_d, value_d, hi_d = bound_by_definition(y, s, 0.5, [1.0, 1.0] + w[2:])
    assert [lo, value, hi] == pytest.approx([float(lo_d), float(value_d), float(hi_d)], rel=1e-12)
    assert acc.weighted and acc.n_levels == 2


# --- the file ------------------------------------------------------------------------------------------

def test_quantised_round_trip_and_malformed_files():
    acc = RankAccumulator(resolution=0.25, max_levels=4).update([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9])
    data = acc.to_bytes()
    back = RankAccumulator.from_bytes(data)
    assert back.to_bytes() == data and back.auc_bounds() == acc.auc_bounds()
    assert (back.resolution, back.max_levels) == (0.25, 4)
    (hlen,) = struct.unpack("<I", data[8:12])
    header = json.loads(data[12:12 + hlen])
    assert header["quantised"] == {"resolution": 0.25, "max_levels": 4}
    arrays, at = {}, 12 + hlen
    for a in header["arrays"]:
        arrays[a["name"]] = np.frombuffer(data, dtype=a["dtype"], count=a["length"], offset=at)
        at += 8 * a["length"]

    def pack(h, a):
        h = dict(h, arrays=[{"name": k, "dtype": v.dtype.str, "length": len(v)} for k, v in a.items()])
        head = json.dumps(h).encode()
        body = b"RWACCUM\x00" + struct.pack("<I", len(head)) + head + b"".join(v.tobytes() for v in a.values())
        return body + hashlib.sha256(body).digest()

    assert RankAccumulator.from_bytes(pack(header, arrays)).to_bytes() == data
    c, p, n = arrays["cells"], arrays["pos"], arrays["neg"]
    bad = {
        "not strictly increasing": (header, {"cells": c[::-1].copy(), "pos": p, "neg": n}),
        "no mass": (header, {"cells": c, "pos": np.zeros_like(p), "neg": np.r_[n[:-1], 0]}),
        "more than max_levels": (dict(header, quantised={"resolution": 0.25, "max_levels": 2}), arrays),
        "expected <i8": (header, {"cells": c.astype("<f8"), "pos": p, "neg": n}),
        "beyond 2^62": (header, {"cells": np.r_[c[:-1], 2 ** 62], "pos": p, "neg": n}),
        "different lengths": (header, {"cells": c, "pos": p[:-1], "neg": n}),
        "positive finite float": (dict(header, quantised={"resolution": -0.25, "max_levels": 4}), arrays),
        "holds the arrays cells": (header, {"cells": c, "pos": p}),
    }
    for msg, (h, a) in bad.items():
        with pytest.raises(ValueError, match="not a valid rankwise accumulator") as info:
            RankAccumulator.from_bytes(pack(h, a))
        assert msg in str(info.value), (msg, str(info.value))
