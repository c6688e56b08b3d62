"""Score ranges read without their dense view (issue 16): on a range that lies wholly
below a local AUC's cut, past a partial AUC's band or under DCG@k's top positions, a
criterion gives its round-1 summary and its projection terms from the range's class
masses alone (a flat range); the p-norm push reads an untied range's terms off its class
sides (``RankCriterion.range_summary`` / ``range_terms``).

Both are checked against the dense computation they replace, range by range, on samples
with ties and on continuous ones, in both orientations of the partial AUC: the terms bit
for bit, the summaries exactly (the p-norm push's sums to rounding: they skip zeros); the
standard errors with and without the shortcut agree to rounding; and on a sample built
for it every such criterion does use it (so that the checks are not vacuous)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import rankwise as rw
from rankwise import criteria
from rankwise._kernels import class_sorted, dense, range_tables
from rankwise.criteria import RankCriterion
from rankwise.stats import _core
from _support.quiet import quiet as _quiet
from _support.strategies import samples

FLAT = [
    "local_auc:top=0.1", "local_auc:top=0.3", "local_auc:top=0.8",
    "partial_auc:max_fpr=0.1", "partial_auc:min_fpr=0.2,max_fpr=0.5",
    "partial_auc:max_fpr=0.3,standardize=mcclish",
    "partial_auc:min_tpr=0.8", "partial_auc:min_tpr=0.3,max_tpr=0.6",
    "dcg:k=2", "dcg:k=5", "ndcg:k=3", "rank_statistic:phi=dcg,k=3,ties=max,scale=minmax",
]
SIDED = ["pnorm_push:p=4", "pnorm_push:p=1", "pnorm_push:p=2.5,ties=max", "pnorm_push:p=3,normalize=False"]


def _walk(unit, y, s, chunk):
    """Each range of the sample with the unit's window, and its round-1 globals."""
    is_pos = np.asarray(y, dtype=bool)
    pos, neg = class_sorted(is_pos, np.asarray(s, dtype=np.float64))
    P, M = float(pos.shape[0]), float(neg.shape[0])
    bw = unit.bandwidth(P + M, None)
    tables = list(range_tables(pos, neg, chunk))
    summaries = [unit.summary(dense(st), bw) for st in tables]
    return tables, bw, unit.combine(summaries, P, M), summaries


def _check(spec, y, s, chunk):
    unit = criteria.get(spec)
    tables, bw, gs, summaries = _walk(unit, y, s, chunk)
    flat = flat_summaries = 0
    for st, g, want in zip(tables, gs, summaries):
        got = unit.range_summary(st, bw)
        if got is not None:
            if spec in SIDED:  # m and E summed over the negatives only: the same to rounding
                assert got == pytest.approx(want, rel=1e-13, abs=1e-300), (spec, got, want)
            else:
                assert got == want, (spec, got, want)
            flat_summaries += 1
        terms = unit.range_terms(st, bw, g)
        if terms is None:
            continue
        flat += 1
        d = dense(st)
        hp, hn = unit.projection(d, bw, g)
        # Every term at a level of each class is the constant (or the side's term), bit for bit.
        for h, mass, want_h in ((hp, d.a, terms[0]), (hn, d.b, terms[1])):
            at = h[mass > 0]
            assert np.ndim(want_h) == 0 or want_h.shape == at.shape, spec
            assert np.array_equal(at, np.broadcast_to(want_h, at.shape), equal_nan=True), (spec, at, want_h)
    return flat, flat_summaries


@pytest.mark.parametrize("chunk", [1, 2, 5])
@settings(max_examples=40)
@given(sample=samples(weights=False, min_n=4, max_n=25))
def test_flat_summaries_and_terms_equal_the_dense_ones(chunk, sample):
    y, s, _ = sample
    for spec in FLAT + SIDED:
        _quiet(_check, spec, y, s, chunk)


def test_every_flat_criterion_finds_flat_ranges():
    # 600 rows in ranges of about 40: most ranges are far from each criterion's cut.
    rng = np.random.default_rng(3)
    y = rng.random(600) < 0.4
    for s in (rng.normal(size=600) + y, np.round(rng.normal(size=600) + y, 1)):  # continuous, tied
        for spec in FLAT:
            flat, flat_summaries = _check(spec, y, s, 40)
            assert flat >= 3 and flat_summaries >= 3, (spec, flat, flat_summaries)
    # The p-norm push reads every untied range off its sides, and no tied one.
    untied, tied = rng.normal(size=600), np.round(rng.normal(size=600), 1)
    for spec in SIDED:
        ranges = len(_walk(criteria.get(spec), y, untied, 40)[0])
        assert ranges > 10 and _check(spec, y, untied, 40) == (ranges, ranges), spec
        assert _check(spec, y, tied, 40) == (0, 0), spec


def test_only_the_units_that_can_be_flat_say_so():
    # W_phi with a phi varying everywhere reads every level: it keeps the dense defaults.
    # (The partial AUC reads every range's terms off its sides where they are not flat.)
    y = np.arange(200) % 3 == 0
    s = np.sin(np.arange(200.0))
    for spec in ("rank_statistic:phi=pnorm_push,p=2", "rank_statistic:phi=auc"):
        unit = criteria.get(spec)
        tables, bw, gs, _ = _walk(unit, y, s, 10)
        assert all(unit.range_summary(st, bw) is None for st in tables), spec
        assert all(unit.range_terms(st, bw, g) is None for st, g in zip(tables, gs)), spec
    assert RankCriterion.range_terms is criteria.get("auc").range_terms.__func__


@pytest.mark.parametrize("chunk", [1, 7])
@settings(max_examples=25)
@given(sample=samples(weights=False, min_n=16, max_n=25))
def test_standard_errors_with_and_without_flat_ranges_agree(chunk, sample):
    # The range path with the shortcut against the same path reading every range densely.
    y, s, _ = sample
    from rankwise._kernels import _ranktable

    def run():
        return [(e.value, e.std_error) for e in rw.stats.iter_estimates(y, s, FLAT + SIDED)]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", chunk)
        got = _quiet(run)
        from rankwise.criteria._local_auc import LocalAUC
        from rankwise.criteria._partial_auc import PartialAUC
        from rankwise.criteria._pnorm_push import PNormPush
        from rankwise.criteria._rank_statistic import PhiProjection

        for cls in (LocalAUC, PartialAUC, PhiProjection, PNormPush):
            m.setattr(cls, "range_summary", lambda self, st, bw: None)
            m.setattr(cls, "range_terms", lambda self, st, bw, g: None)
        want = _quiet(run)
    for spec, (v, se), (v0, se0) in zip(FLAT + SIDED, got, want):
        assert v == v0, spec
        # Rounding apart: a constant term's spread is 0 here, 1e-18 or so when summed densely.
        assert se == pytest.approx(se0, rel=1e-12, abs=1e-14 * (1.0 + abs(v))) or (np.isnan(se) and np.isnan(se0)), (
            spec, se, se0)


@pytest.mark.parametrize("spec", ["local_auc:top=0.4", "partial_auc:min_fpr=0.2,max_fpr=0.6",
                                  "partial_auc:min_tpr=0.3,max_tpr=0.7", "partial_auc:max_fpr=1"])
def test_ranges_that_are_not_flat_are_read_off_the_sides(spec):
    # Above a local AUC's cut every level is kept, and inside a partial AUC's band the terms
    # vary: they come as arrays over each class's levels (checked against the dense ones
    # by _check), the flat ranges' as constants.
    rng = np.random.default_rng(5)
    y = rng.random(800) < 0.4
    unit = criteria.get(spec)
    for s in (rng.normal(size=800) + y, np.round(rng.normal(size=800) + y, 1)):
        tables, bw, gs, _ = _walk(unit, y, s, 40)
        kinds = [type(t[0]).__name__ for t in (unit.range_terms(st, bw, g) for st, g in zip(tables, gs)) if t]
        assert kinds.count("ndarray") >= 3, kinds
        assert kinds.count("float") >= (0 if spec.endswith("max_fpr=1") else 3), kinds
        assert _check(spec, y, s, 40)[0] == len(kinds)


@pytest.mark.parametrize("spec, args", [("local_auc", {"top": 0.2}), ("dcg", {"k": 5}),
                                        ("partial_auc", {"min_tpr": 0.6}), ("pnorm_push", {"p": 3})])
def test_estimate_takes_the_range_path_with_its_bandwidth(spec, args):
    # rw.stats.estimate reads a large unweighted sample range by range for every binary
    # criterion, with the bandwidth it was given (also in the BCa acceleration, which
    # builds the whole table when asked for): the one table's numbers.
    from rankwise._kernels import _ranktable

    rng = np.random.default_rng(11)
    y = rng.random(300) < 0.35
    s = np.round(rng.normal(size=300) + y, 2)
    one = rw.stats.estimate(y, s, spec, bandwidth=0.15, **args)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", 16)
        ranged = rw.stats.estimate(y, s, spec, bandwidth=0.15, **args)
        assert ranged._inference.path == "ranges"  # the range path ran
        default = rw.stats.estimate(y, s, spec, **args)
        bca = ranged.confidence_interval(method="bootstrap", n_resamples=200, random_state=1)
    assert ranged.value == pytest.approx(one.value, rel=1e-12)
    assert ranged.std_error == pytest.approx(one.std_error, rel=1e-9)
    if spec in ("local_auc", "dcg"):  # those that differentiate over the window: the bandwidth reached the terms
        assert default.std_error != pytest.approx(one.std_error, rel=1e-6)
    want = one.confidence_interval(method="bootstrap", n_resamples=200, random_state=1)
    assert (bca.low, bca.high) == pytest.approx((want.low, want.high), rel=1e-12)


@pytest.mark.parametrize("spec", ["local_auc:top=0.2", "partial_auc:max_fpr=0.3,standardize=mcclish",
                                  "partial_auc:min_tpr=0.7", "pnorm_push:p=3", "ndcg:k=7",
                                  "rank_statistic:phi=dcg,k=4,scale=minmax"])
@pytest.mark.parametrize("tied", [False, True])
def test_compare_reads_large_samples_range_by_range(spec, tied):
    # rw.stats.compare on a large unweighted sample: each scorer's terms come from the
    # ranges (flat ones as one value) and go back to row order; the values and the joint
    # covariance are the one table's.
    from rankwise._kernels import _ranktable
    from rankwise.stats import _core as core

    rng = np.random.default_rng(17)
    n = 320
    y = rng.random(n) < 0.3
    cols = [rng.normal(size=n) + y, 0.5 * rng.normal(size=n) + 0.7 * y, rng.normal(size=n)]
    if tied:
        cols = [np.round(c, 1) for c in cols]
    want = _quiet(rw.stats.compare, y, cols, criterion=spec)
    calls = []
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", 64)  # fine ranges of 8 rows
        m.setattr(core, "side_terms_by_ranges", lambda *a, _f=core.side_terms_by_ranges: calls.append(1) or _f(*a))
        got = _quiet(rw.stats.compare, y, cols, criterion=spec)
    assert len(calls) == 3
    np.testing.assert_allclose(got.values, want.values, rtol=1e-12, atol=0)
    np.testing.assert_allclose(got.cov, want.cov, rtol=1e-9, atol=1e-15 * np.abs(want.cov).max())
