"""linear_rank_sweep and ExactLinearRankMaximizer (the exact empirical W_n maximiser over 2-D
linear scorers) against the literal definition: W_n by an O(n^2) rank count at one direction,
evaluated at every critical direction, on both sides of it and on a fine grid of angles.

Integer coordinates make the checks exact: a critical direction rot90(x_i - x_j) has integer
components, so the projections tie exactly in floating point, and 1000 c +- rot90(c) is an
integer direction strictly inside the arcs on either side of c (the angle between distinct
critical directions of points with coordinates in [-3, 3] is at least 1/72 rad, more than
atan(1/1000)). The grid makes repeated points, collinear triples and parallel differences common.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
from rankwise.learners._exact import ExactLinearRankMaximizer, linear_rank_sweep

PHIS = ["auc", "pnorm_push:p=8", "local_auc:u0=0.7", "dcg:k=3"]


def literal_wn(X, y, w, phi, ties="average", sw=None):
    """W_n(<w, x>) from the definition: Rank_i = mass of j with s_j < s_i plus, for a tie,
    (c + 1)/2 (average; c the tied mass, i's own included) or c (max)."""
    phi = rw.phi.resolve(phi, "test")
    s = X @ w
    n_rows = len(s)
    sw = np.ones(n_rows) if sw is None else sw
    n = sw.sum()
    total = 0.0
    for i in range(n_rows):
        if not y[i] or sw[i] == 0:
            continue
        below = sum(sw[j] for j in range(n_rows) if s[j] < s[i])
        tied = sum(sw[j] for j in range(n_rows) if s[j] == s[i])
        rank = below + (0.5 * (tied + 1.0) if ties == "average" else tied)
        total += sw[i] * float(phi.at_ranks(np.array([rank]), n)[0])
    return total


def rot(c):
    return np.array([-c[1], c[0]])


def brute_force(X, y, phi, ties, sw, sweep):
    """Literal W_n at every critical direction and just on either side of it."""
    at, around = [], []
    for c in sweep.critical:
        c = np.round(c)  # integer already (integer data); round guards the dtype only
        at.append(literal_wn(X, y, c, phi, ties, sw))
        around += [literal_wn(X, y, 1000 * c + rot(c), phi, ties, sw),
                   literal_wn(X, y, 1000 * c - rot(c), phi, ties, sw)]
    return np.array(at), np.array(around)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(1, 14), st.integers(0, 10**6), st.sampled_from(PHIS), st.sampled_from(["average", "max"]),
       st.sampled_from(["none", "integer", "zeros"]))
def test_sweep_equals_literal_on_grids(n, seed, phi, ties, weights):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 2)).astype(float)
    y = rng.random(n) < rng.uniform(0, 1)  # single-class samples included
    sw = {"none": None, "integer": rng.integers(1, 4, n).astype(float),
          "zeros": rng.integers(0, 3, n).astype(float)}[weights]
    if sw is not None and sw.sum() == 0:
        sw[0] = 1.0
    sweep = linear_rank_sweep(X, y, phi, ties=ties, sample_weight=sw)
    G = sweep.critical.shape[0]
    assert abs(sweep.start_value - literal_wn(X, y, sweep.start, phi, ties, sw)) < 1e-9
    if G == 0:  # fewer than two distinct points (with weight): one ordering
        assert len(np.unique(X[(sw if sw is not None else np.ones(n)) > 0], axis=0)) == 1
        return
    at, around = brute_force(X, y, phi, ties, sw, sweep)
    assert np.allclose(sweep.tie_values, at, atol=1e-9)
    # Just after critical direction g is arc g; just before it, arc g - 1.
    assert np.allclose(sweep.arc_values, around[0::2], atol=1e-9)
    assert np.allclose(np.roll(sweep.arc_values, 1), around[1::2], atol=1e-9)
    for d, v in zip(sweep.arc_directions, sweep.arc_values):
        assert abs(literal_wn(X, y, d, phi, ties, sw) - v) < 1e-9
    # Angles increase and wrap once; critical directions come in opposite pairs.
    assert np.all(np.diff(sweep.angles) > 0) and sweep.angles[-1] - sweep.angles[0] < 2 * math.pi
    assert G % 2 == 0
    value, w, tie = sweep.best()
    assert value == pytest.approx(max(at.max(), around.max()), abs=1e-9)
    assert abs(literal_wn(X, y, w, phi, ties, sw) - value) < 1e-9


def test_points_in_general_position_give_n_times_n_minus_1_orderings():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = rng.random(40) < 0.4
    sweep = linear_rank_sweep(X, y, "pnorm_push:p=8")
    assert sweep.critical.shape[0] == 40 * 39
    # Every open arc: literal W_n at its bisector.
    for d, v in zip(sweep.arc_directions[::7], sweep.arc_values[::7]):
        assert abs(literal_wn(X, y, d, "pnorm_push:p=8") - v) < 1e-9


@pytest.mark.parametrize("phi", ["pnorm_push:p=8", "local_auc:u0=0.8", "dcg:k=5"])
def test_continuous_data_grid_of_angles(phi):
    """Off the integer lattice ties do not survive rounding, so the brute force is a fine grid of
    angles plus both sides of every critical angle: its maximum is the sweep's best arc, and every
    grid angle reads the value of the arc it falls in."""
    rng = np.random.default_rng(7)
    n = 30
    y = rng.random(n) < 0.35
    X = rng.normal(size=(n, 2)) + 0.8 * y[:, None] * np.array([1.0, -0.5])
    sweep = linear_rank_sweep(X, y, phi)
    theta = np.linspace(0, 2 * math.pi, 2000, endpoint=False) + 1e-4
    grid = np.array([rw.rank_statistic(y, X @ np.array([math.cos(t), math.sin(t)]), phi) for t in theta])
    arc = (np.searchsorted(sweep.angles, np.mod(theta - sweep.angles[0], 2 * math.pi) + sweep.angles[0],
                           side="right") - 1) % sweep.angles.shape[0]
    assert np.allclose(grid, sweep.arc_values[arc], atol=1e-9)
    eps = 1e-7
    sides = [rw.rank_statistic(y, X @ np.array([math.cos(a + s), math.sin(a + s)]), phi)
             for a in sweep.angles for s in (-eps, eps)]
    assert max(max(sides), grid.max()) == pytest.approx(sweep.best(include_ties=False)[0], abs=1e-9)


def test_ties_can_be_the_maximum():
    """Two positives tied straddling the cut of local AUC: the mid-rank puts both in the top,
    so the tied ordering beats both strict ones."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    y = np.array([0, 1, 1, 0])
    sweep = linear_rank_sweep(X, y, "local_auc:u0=0.7")
    value, w, tie = sweep.best()
    assert tie and value > sweep.best(include_ties=False)[0]
    assert value == pytest.approx(literal_wn(X, y, w, "local_auc:u0=0.7"))
    m = ExactLinearRankMaximizer(phi="local_auc:u0=0.7").fit(X, y)
    assert m.is_tie_ and m.criterion_ == pytest.approx(value / 2)
    m2 = ExactLinearRankMaximizer(phi="local_auc:u0=0.7", include_ties=False).fit(X, y)
    assert not m2.is_tie_ and m2.criterion_ < m.criterion_


def test_tiny_and_degenerate_samples():
    # One point, all points equal, two points.
    for X, y in [(np.array([[1.0, 2.0]]), np.array([1])), (np.ones((4, 2)), np.array([0, 1, 1, 0])),
                 (np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0, 1]))]:
        sweep = linear_rank_sweep(X, y, "auc")
        assert abs(sweep.best()[0] - max([literal_wn(X, y, w, "auc") for w in
                                          ([1, 0], [0, 1], [-1, 0], [0, -1], [1, -1], [-1, 1])])) < 1e-12
    # Two points: the positive on top (rank 2 of 2) is the best, 2/3.
    assert linear_rank_sweep(np.array([[0.0, 0.0], [1.0, 1.0]]), [0, 1], "auc").best()[0] == pytest.approx(2 / 3)


def test_weights_equal_repetition():
    rng = np.random.default_rng(3)
    X = rng.integers(-4, 5, size=(25, 2)).astype(float)
    y = rng.random(25) < 0.4
    w = rng.integers(1, 4, 25)
    a = linear_rank_sweep(X, y, "pnorm_push:p=4", sample_weight=w.astype(float))
    b = linear_rank_sweep(np.repeat(X, w, axis=0), np.repeat(y, w), "pnorm_push:p=4")
    assert np.allclose(a.arc_values, b.arc_values) and np.allclose(a.tie_values, b.tie_values)


def test_estimator_beats_every_linear_learner_on_train():
    rng = np.random.default_rng(5)
    n = 200
    y = (rng.random(n) < 0.3).astype(int)
    X = rng.normal(size=(n, 2))
    far = (y == 1) & (rng.random(n) < 0.15)
    X[far, 0] += 3.5
    X[(y == 1) & ~far, 1] += 1.0
    for phi in ["pnorm_push:p=8", "local_auc:u0=0.9", "auc"]:
        m = ExactLinearRankMaximizer(phi=phi).fit(X, y)
        assert m.criterion_ == pytest.approx(rw.rank_statistic(y, m.decision_function(X), phi, scale="mean"), abs=1e-12)
        for other in (rw.RankStatisticRanker(phi=phi, n_rounds=3), rw.PairwiseRanker(), rw.ProperLossRanker()):
            s = other.fit(X, y).decision_function(X)
            assert m.criterion_ >= rw.rank_statistic(y, s, phi, scale="mean") - 1e-12


def test_bad_input():
    X, y = np.random.default_rng(0).normal(size=(20, 3)), np.arange(20) % 2
    with pytest.raises(ValueError, match="exactly 2 features"):
        ExactLinearRankMaximizer().fit(X, y)
    with pytest.raises(ValueError, match="2 columns"):
        linear_rank_sweep(X, y)
    with pytest.raises(ValueError, match="two"):
        ExactLinearRankMaximizer().fit(X[:, :2], np.arange(20) % 3)
    with pytest.raises(ValueError, match="ties"):
        ExactLinearRankMaximizer(ties="min").fit(X[:, :2], y)
    with pytest.raises(TypeError, match="include_ties"):
        ExactLinearRankMaximizer(include_ties="yes").fit(X[:, :2], y)
    with pytest.raises(ValueError, match="phi"):
        ExactLinearRankMaximizer(phi="nope").fit(X[:, :2], y)
    import scipy.sparse as sp

    with pytest.raises(TypeError, match="dense"):
        ExactLinearRankMaximizer().fit(sp.csr_matrix(X[:, :2]), y)
    with pytest.raises(ValueError, match="0/1"):
        linear_rank_sweep(X[:, :2], np.arange(20) % 3)
    with pytest.raises(ValueError, match="NaN"):
        linear_rank_sweep(np.full((3, 2), np.nan), [0, 1, 0])
    with pytest.raises(ValueError, match="sample_weight"):
        linear_rank_sweep(X[:, :2], y, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="empty"):
        linear_rank_sweep(X[:, :2], y, sample_weight=np.zeros(20))


def test_save_load_round_trip(tmp_path):
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(50, 2)), (rng.random(50) < 0.4).astype(int)
    m = ExactLinearRankMaximizer(phi="dcg:k=5").fit(X, y)
    rw.save_model(m, tmp_path / "m.rwm")
    back = rw.load_model(tmp_path / "m.rwm")
    assert type(back) is ExactLinearRankMaximizer and back.get_params() == m.get_params()
    assert np.array_equal(back.decision_function(X), m.decision_function(X))
    assert back.criterion_ == m.criterion_ and back.n_orderings_ == m.n_orderings_ == 50 * 49
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rw.ExactLinearRankMaximizer is ExactLinearRankMaximizer


def literal_wn_int(X, y, w, phi):
    """literal_wn with the projections in exact integer arithmetic (integer-valued X and w)."""
    phi = rw.phi.resolve(phi, "test")
    s = [int(a) * int(w[0]) + int(b) * int(w[1]) for a, b in X]
    n = len(s)
    total = 0.0
    for i in range(n):
        if y[i]:
            rank = sum(1 for j in range(n) if s[j] < s[i]) + 0.5 * (sum(1 for j in range(n) if s[j] == s[i]) + 1)
            total += float(phi.at_ranks(np.array([rank]), float(n))[0])
    return total


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(2, 12), st.integers(0, 10**6), st.sampled_from(PHIS))
def test_far_from_the_origin_exact_grouping_decides(n, seed, phi):
    """Points 2^52 from the origin (still exact integers in float64): the angles' rounding
    bounds (about 16 rad / |x_i - x_j|) overlap for every pair of critical directions, so their
    order and grouping come only from the exact rational comparison, and the start order from
    the exact projection. The literal W_n is computed in exact integer arithmetic; critical
    directions of the [-2, 2] grid are at least 1/32 rad apart and 1000 c +- rot90(c) is 0.001
    rad off c."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, 2)).astype(float) + (2.0 ** 52 - 8)
    y = rng.random(n) < 0.5
    sweep = linear_rank_sweep(X, y, phi)
    for c, vt, va, vb in zip(sweep.critical, sweep.tie_values, sweep.arc_values, np.roll(sweep.arc_values, 1)):
        assert abs(literal_wn_int(X, y, c, phi) - vt) < 1e-9
        assert abs(literal_wn_int(X, y, 1000 * c + rot(c), phi) - va) < 1e-9
        assert abs(literal_wn_int(X, y, 1000 * c - rot(c), phi) - vb) < 1e-9


_MORE_THAN_TWO = ("the check fits on more than two features, which the exact sweep refuses with a ValueError "
                  "(it enumerates the orderings of a two-dimensional linear class)")
_FAILS_ON_FEATURES = ["check_dict_unchanged", "check_dont_overwrite_parameters", "check_dtype_object",
                      "check_estimators_dtypes", "check_estimators_nan_inf", "check_estimators_pickle",
                      "check_f_contiguous_array_estimator", "check_fit2d_predict1d", "check_fit_score_takes_y",
                      "check_methods_sample_order_invariance", "check_methods_subset_invariance",
                      "check_n_features_in_after_fitting", "check_pipeline_consistency",
                      "check_positive_only_tag_during_fit", "check_sample_weight_equivalence_on_dense_data",
                      "check_sample_weights_list", "check_supervised_y_2d"]


@parametrize_with_checks([ExactLinearRankMaximizer(phi="auc")],
                         expected_failed_checks=lambda est: {c: _MORE_THAN_TWO for c in _FAILS_ON_FEATURES})
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        check(estimator)
