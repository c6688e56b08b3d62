"""rw.stats.cross_validated / cross_validate: the fold-averaged criterion with LeDell,
Petersen & van der Laan's (2015) influence-curve interval.

* Golden values: ``tests/golden/make_cvauc_golden.R`` draws eight datasets and stores R
  cvAUC's ``ci.cvAUC`` and ``ci.pooled.cvAUC`` (cvAUC 1.1.4, versions in the JSON). Without
  ties rankwise matches them to 1e-10; with ties the fold values still match, and cvAUC's
  standard error (placements counting a tied pair 0) is matched by its literal
  re-implementation, while rankwise's (ties 1/2) equals the literal reference.
* Literal references (``tests/_support/reference_cvauc.py``): fold values, influence
  values and standard errors pair by pair, for the AUC, the p-norm push and the partial AUC,
  with weights, pooled units nested in folds or spread across them, on generated inputs
  with ties (hypothesis, derandomised).
* Invariances, the pairs form, the intervals, the mean ROC curve, bad input, and
  cross_validate against a hand-written fold loop.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import rankwise as rw
from _support import reference_cvauc as ref
from _support.paths import GOLDEN
from _support.strategies import samples

with open(os.path.join(GOLDEN, "cvauc_golden.json")) as fh:
    GOLD = json.load(fh)
CASES = GOLD["cases"]


def _close(a, b, rtol=1e-10, atol=1e-14):
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


# --- golden: R cvAUC -------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_cvauc(case):
    y, s, fold = case["y"], case["s"], case["fold"]
    r = rw.stats.cross_validated(y, s, fold)
    _close(r.value, case["cvauc"])
    by_fold = dict(zip(case["fold_order"], case["fold_auc"]))
    _close(r.fold_values, [by_fold[f] for f in r.fold_ids.tolist()])
    assert r.fold_ids.tolist() == sorted(set(fold))
    want_se = ref.cvauc_convention_se(y, s, fold)
    _close(want_se, case["se"])  # the literal re-implementation of cvAUC's convention
    if not case["ties"]:
        _close(r.std_error, case["se"])
        ci = r.confidence_interval(case["level"])
        _close([ci.low, ci.high], case["ci"])
        assert ci.method == "influence" and ci.std_error == r.std_error
    else:
        _close(r.std_error, ref.cross_validated(y, s, fold)[1])
        assert abs(r.std_error - case["se"]) > 1e-6  # ties: the two conventions differ
    if "id" in case:
        p = rw.stats.cross_validated(y, s, fold, pooled=True, ids=case["id"])
        _close(ref.cvauc_convention_se(y, s, fold, case["id"]), case["pooled_se"])
        assert p.pooled and p.n_units == len(set(case["id"]))
        _close(p.value, case["cvauc"])
        if not case["ties"]:
            _close(p.std_error, case["pooled_se"])
            ci = p.confidence_interval(case["level"])
            _close([ci.low, ci.high], case["pooled_ci"])
        else:
            _close(p.std_error, ref.cross_validated_pooled(y, s, fold, case["id"])[1])


def test_golden_file_records_its_sources():
    assert GOLD["cvAUC_version"] == "1.1.4" and GOLD["script"] == "tests/golden/make_cvauc_golden.R"
    assert sum(not c["ties"] for c in CASES) >= 5 and sum("id" in c for c in CASES) >= 3
    # the truncated case: the upper end is clipped at 1 as cvAUC clips it
    sep = next(c for c in CASES if c["name"] == "separated_v3")
    assert sep["ci"][1] == 1.0 and sep["cvauc"] + 1.96 * sep["se"] > 1


# --- literal references on generated inputs ----------------------------------------------------

@st.composite
def fold_samples(draw, weights=False, max_folds=4):
    V = draw(st.integers(2, max_folds))
    Y, S, W, F = [], [], [], []
    for v in range(V):
        y, s, w = draw(samples(min_n=2, max_n=7, weights=weights))
        Y += y
        S += s
        F += [v] * len(y)
        W += w if w is not None else []
    return Y, S, F, (W if weights else None)


def _quiet(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*a, **k)


@settings(max_examples=40)
@given(fold_samples(weights=False) | fold_samples(weights=True))
def test_auc_matches_literal(sample):
    y, s, f, w = sample
    r = rw.stats.cross_validated(y, s, f, sample_weight=w)
    v, se, vals = ref.cross_validated(y, s, f, w)
    _close(r.fold_values, vals, atol=1e-12)
    _close(r.value, v, atol=1e-12)
    _close(r.std_error, se, rtol=1e-9, atol=1e-12)
    _close(r.naive_std_error, np.std(vals, ddof=1) / math.sqrt(len(vals)), atol=1e-12)


@settings(max_examples=25)
@given(fold_samples(weights=False) | fold_samples(weights=True), st.integers(0, 2 ** 32 - 1))
def test_pooled_matches_literal(sample, seed):
    y, s, f, w = sample
    rng = np.random.default_rng(seed)
    # units spread across folds (repeated measures scattered, or repeated CV)
    ids = rng.integers(0, max(2, len(y) // 2), len(y)).tolist()
    r = rw.stats.cross_validated(y, s, f, sample_weight=w, pooled=True, ids=ids)
    v, se = ref.cross_validated_pooled(y, s, f, ids, w)
    _close(r.value, v, atol=1e-12)
    _close(r.std_error, se, rtol=1e-9, atol=1e-12)
    assert r.n_units == len(set(ids))


@settings(max_examples=25)
@given(fold_samples(weights=False) | fold_samples(weights=True),
       st.sampled_from([("pnorm_push", {"p": 4.0}, partial(ref.pnorm_push_terms, p=4.0)),
                        ("pnorm_push", {"p": 1.5}, partial(ref.pnorm_push_terms, p=1.5)),
                        ("partial_auc", {"max_fpr": 0.3}, partial(ref.partial_auc_terms, max_fpr=0.3)),
                        ("partial_auc", {"max_fpr": 0.75}, partial(ref.partial_auc_terms, max_fpr=0.75))]))
def test_other_criteria_match_literal(sample, spec):
    y, s, f, w = sample
    name, kw, terms = spec
    r = _quiet(rw.stats.cross_validated, y, s, f, criterion=name, sample_weight=w, **kw)
    v, se, vals = ref.cross_validated(y, s, f, w, terms)
    _close(r.fold_values, vals, atol=1e-12)
    _close(r.std_error, se, rtol=1e-8, atol=1e-12)
    assert r.criterion == name and r.params == kw


def test_nested_units_of_one_row_are_the_rows():
    rng = np.random.default_rng(3)
    y = rng.random(60) < 0.3
    s = np.round(rng.normal(size=60) + y, 1)
    f = rng.integers(0, 4, 60)
    a = rw.stats.cross_validated(y, s, f)
    b = rw.stats.cross_validated(y, s, f, pooled=True, ids=np.arange(60)[::-1])
    _close(b.std_error, a.std_error, rtol=1e-13)
    assert b.n_units == a.n_units == 60 and b.pooled and not a.pooled


def test_frequency_weights_are_copies():
    rng = np.random.default_rng(4)
    n = 50
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n) + y, 1)
    f = rng.integers(0, 3, n)
    w = rng.integers(1, 4, n)
    a = rw.stats.cross_validated(y, s, f, sample_weight=w)
    rep = np.repeat(np.arange(n), w)
    b = rw.stats.cross_validated(y[rep], s[rep], f[rep])
    _close(a.std_error, b.std_error, rtol=1e-12)
    _close(a.fold_values, b.fold_values)
    _close(a.fold_n_pos, b.fold_n_pos)
    assert a.weighted and a.n_pos == b.n_pos and a.n_neg == b.n_neg
    # pooled: a unit's rows copied keep it one unit
    p = rw.stats.cross_validated(y[rep], s[rep], f[rep], pooled=True, ids=rep)
    _close(p.value, a.value)
    assert p.n_units == n


def test_gini_is_the_auc_scaled_and_one_fold_is_delong_with_n():
    rng = np.random.default_rng(5)
    y = rng.random(80) < 0.5
    s = rng.normal(size=80) + y
    f = rng.integers(0, 5, 80)
    a = rw.stats.cross_validated(y, s, f)
    g = rw.stats.cross_validated(y, s, f, criterion="gini")
    _close(g.value, 2 * a.value - 1)
    _close(g.std_error, 2 * a.std_error)
    assert g.bounds == (-1.0, 1.0)
    # each fold's variance is DeLong's with denominators n+ and n- (not n+ - 1) when the
    # whole sample's class shares equal the fold's: two copies of one sample
    y2, s2, f2 = np.concatenate([y, y]), np.concatenate([s, s]), np.repeat([0, 1], 80)
    c = rw.stats.cross_validated(y2, s2, f2)
    pos, neg, v10, v01 = _placements(y, s)
    delong0 = np.var(v10) / len(pos) + np.var(v01) / len(neg)
    _close(c.std_error ** 2, delong0 / 2, rtol=1e-12)


def _placements(y, s):
    pos, neg = s[y], s[~y]
    v10 = np.array([(np.sum(p > neg) + 0.5 * np.sum(p == neg)) / neg.size for p in pos])
    v01 = np.array([(np.sum(pos > q) + 0.5 * np.sum(pos == q)) / pos.size for q in neg])
    return pos, neg, v10, v01


def test_fold_names_order_and_types():
    y = [0, 1, 0, 1, 0, 1, 1, 0, 0, 1]
    s = [0.1, 0.8, 0.3, 0.4, 0.5, 0.9, 0.2, 0.7, 0.6, 0.65]
    names = ["b", "b", "b", "b", "a", "a", "a", "c", "c", "c"]
    r = rw.stats.cross_validated(y, s, names)
    assert r.fold_ids.tolist() == ["a", "b", "c"] and r.n_folds == 3
    codes = {"a": 2, "b": 0, "c": 1}
    q = rw.stats.cross_validated(y, s, [codes[x] for x in names])
    assert q.fold_ids.tolist() == [0, 1, 2]
    _close(np.sort(q.fold_values), np.sort(r.fold_values))
    _close(q.std_error, r.std_error, rtol=1e-14)
    perm = np.random.default_rng(0).permutation(10)
    p = rw.stats.cross_validated(np.asarray(y)[perm], np.asarray(s)[perm], np.asarray(names)[perm])
    _close(p.std_error, r.std_error, rtol=1e-14)
    _close(p.fold_values, r.fold_values)
    assert r.fold_n_pos.tolist() == [2, 2, 1] and r.fold_n_neg.tolist() == [1, 2, 2]


def test_pairs_form_equals_flat_form_and_inputs_untouched():
    rng = np.random.default_rng(6)
    pairs = [(rng.random(12) < 0.5, rng.normal(size=12)) for _ in range(3)]
    for y, _ in pairs:
        y[:2] = [True, False]
    before = [(y.copy(), s.copy()) for y, s in pairs]
    r = rw.stats.cross_validated(None, None, folds=pairs)
    flat = rw.stats.cross_validated(np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs]),
                                    np.repeat([0, 1, 2], 12))
    assert r.fold_ids.tolist() == [0, 1, 2]
    _close(r.std_error, flat.std_error, rtol=1e-14)
    _close(r.fold_values, flat.fold_values)
    for (y, s), (y0, s0) in zip(pairs, before):
        assert np.array_equal(y, y0) and np.array_equal(s, s0)
    ids = np.arange(36) % 12
    rp = rw.stats.cross_validated(None, None, pairs, pooled=True, ids=ids)
    assert rp.n_units == 12


def test_pos_label_and_strings():
    y = np.array(["no", "yes", "no", "yes", "no", "yes", "yes", "no"])
    s = np.array([0.1, 0.6, 0.4, 0.9, 0.2, 0.3, 0.5, 0.8])
    f = [0, 0, 0, 0, 1, 1, 1, 1]
    with pytest.raises(ValueError, match="pos_label"):
        rw.stats.cross_validated(y, s, f)  # string labels: say which is positive
    a = rw.stats.cross_validated(y, s, f, pos_label="yes")
    b = rw.stats.cross_validated(y == "yes", s, f)
    _close(a.std_error, b.std_error)
    c = rw.stats.cross_validated(y, -s, f, pos_label="no")
    _close(c.fold_values, b.fold_values)
    _close(c.std_error, b.std_error, rtol=1e-14)


# --- intervals, display -----------------------------------------------------------------------

def test_intervals():
    rng = np.random.default_rng(7)
    y = rng.random(120) < 0.4
    s = rng.normal(size=120) + y
    f = rng.integers(0, 6, 120)
    r = rw.stats.cross_validated(y, s, f, confidence_level=0.9)
    ci = r.confidence_interval()
    z = sps.norm.ppf(0.95)
    _close([ci.low, ci.high], [r.value - z * r.std_error, r.value + z * r.std_error])
    assert ci.confidence_level == 0.9 and ci.kind == "wald"
    ci95 = r.confidence_interval(0.95)
    assert ci95.low < ci.low and ci95.high > ci.high
    nv = r.confidence_interval(0.95, method="naive")
    t = sps.t.ppf(0.975, 5)
    _close([nv.low, nv.high], [r.value - t * r.naive_std_error, r.value + t * r.naive_std_error])
    assert nv.method == "naive" and nv.kind == "t" and nv.std_error == r.naive_std_error
    with pytest.raises(ValueError, match="method"):
        r.confidence_interval(0.95, method="delong")
    with pytest.raises(ValueError, match="confidence_level"):
        r.confidence_interval(1.5)


def test_degenerate_interval_warns():
    y = [0, 0, 1, 1] * 3
    s = [0.1, 0.2, 0.8, 0.9] * 3
    r = rw.stats.cross_validated(y, s, np.repeat([0, 1, 2], 4))
    assert r.value == 1.0 and r.std_error == 0.0
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="standard error is 0"):
        ci = r.confidence_interval()
    assert (ci.low, ci.high) == (1.0, 1.0)


def test_summary_and_html():
    rng = np.random.default_rng(8)
    y = rng.random(90) < 0.4
    s = rng.normal(size=90) + y
    r = rw.stats.cross_validated(y, s, rng.integers(0, 3, 90), criterion="pnorm_push", p=4)
    text = r.summary()
    assert text == str(r)
    assert text.startswith("pnorm_push(p=4), cross-validated over 3 folds")
    assert "influence curve" in text and "fold SD (naive)" in text and "LeDell" in text
    assert f"{r.value:.4f}" in text and f"{r.std_error:.4f}" in text
    assert "<table>" in r._repr_html_() and "folds" in r._repr_html_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the summary shows the intervals without warning
        str(r)


# --- the mean ROC curve -----------------------------------------------------------------------

@settings(max_examples=25)
@given(fold_samples(weights=False) | fold_samples(weights=True))
def test_mean_roc_matches_literal(sample):
    y, s, f, w = sample
    r = rw.stats.cross_validated(y, s, f, sample_weight=w)
    m = r.roc_curve(n_points=11, confidence_level=0.9)
    grid = np.linspace(0, 1, 11)
    fold_curves = []
    for v in sorted(set(f)):
        rows = [i for i in range(len(y)) if f[i] == v]
        fold_curves.append([ref.roc_at([y[i] for i in rows], [s[i] for i in rows], x,
                                       None if w is None else [w[i] for i in rows]) for x in grid])
    fold_curves = np.array(fold_curves)
    _close(m.fold_tpr, fold_curves, atol=1e-12)
    _close(m.tpr, fold_curves.mean(axis=0), atol=1e-12)
    V = fold_curves.shape[0]
    half = sps.t.ppf(0.95, V - 1) * fold_curves.std(axis=0, ddof=1) / math.sqrt(V)
    _close(m.lower, np.clip(fold_curves.mean(axis=0) - half, 0, 1), atol=1e-12)
    _close(m.upper, np.clip(fold_curves.mean(axis=0) + half, 0, 1), atol=1e-12)
    assert m.n_folds == V and m.confidence_level == 0.9 and m.fpr.tolist() == grid.tolist()


def test_mean_roc_display_and_checks():
    r = rw.stats.cross_validated([0, 1, 0, 1, 1, 0], [0.2, 0.7, 0.4, 0.3, 0.9, 0.1], [0, 0, 0, 1, 1, 1])
    m = r.roc_curve()
    assert m.fpr.shape == (101,) and m.fold_tpr.shape == (2, 101)
    assert "vertical average" in str(m) and "<table>" in m._repr_html_()
    with pytest.raises(ValueError, match="n_points"):
        r.roc_curve(n_points=1)


# --- bad input ----------------------------------------------------------------------------------

def test_bad_input():
    y = [0, 1, 0, 1, 0, 1]
    s = [0.1, 0.9, 0.3, 0.5, 0.2, 0.6]
    f = [0, 0, 1, 1, 2, 2]
    cv = rw.stats.cross_validated
    with pytest.raises(ValueError, match="Fold 'b' has no positives"):
        cv([0, 1, 0, 0], [0.1, 0.2, 0.3, 0.4], ["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="Fold 3 has no negatives"):
        cv([0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4], [1, 1, 3, 3])
    with pytest.raises(ValueError, match="'folds'.*6 rows"):
        cv(y, s, f[:-1])
    with pytest.raises(ValueError, match="at least 2 folds"):
        cv(y, s, [0] * 6)
    with pytest.raises(ValueError, match="y_score"):
        cv(y, [0.1, np.nan, 0.3, 0.5, 0.2, 0.6], f)
    with pytest.raises(ValueError, match="missing"):
        cv(y, s, [0, 0, None, 1, 2, 2])
    with pytest.raises(ValueError, match="needs the 'ids'"):
        cv(y, s, f, pooled=True)
    with pytest.raises(ValueError, match="'ids'.*pooled=True"):
        cv(y, s, f, ids=[0, 0, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="'ids'.*6 rows"):
        cv(y, s, f, pooled=True, ids=[0, 1])
    with pytest.raises(TypeError, match="pooled"):
        cv(y, s, f, pooled="yes")
    with pytest.raises(ValueError, match="ks_statistic.*no projection"):
        cv(y, s, f, criterion="ks_statistic")
    with pytest.raises(ValueError, match="ranking_risk.*real"):
        cv(y, s, f, criterion="ranking_risk")
    with pytest.raises(ValueError, match="confidence_level"):
        cv(y, s, f, confidence_level=1.0)
    with pytest.raises(TypeError, match="both y_true and y_score"):
        cv(y, None, f)
    with pytest.raises(TypeError, match=r"item 1 must be a \(y_true, y_score\) pair. Got a tuple of length 1"):
        cv(None, None, [([0, 1], [0.1, 0.2]), ([0, 1],)])
    with pytest.raises(TypeError, match="list of .* pairs"):
        cv(None, None, np.array([0, 1]))
    with pytest.raises(ValueError, match="fold 1 has 2 labels and 3 scores"):
        cv(None, None, [([0, 1], [0.1, 0.2]), ([0, 1], [0.1, 0.2, 0.3])])
    with pytest.raises(TypeError, match="y_true=None"):
        cv(y, s, [([0, 1], [0.1, 0.2]), ([0, 1], [0.1, 0.2])])
    with pytest.raises(TypeError, match="unexpected keyword"):
        cv(y, s, f, top=0.1)  # not a parameter of the AUC
    with pytest.raises(ValueError, match="sample_weight|negative"):
        cv(y, s, f, sample_weight=[1, 1, -1, 1, 1, 1])


# --- cross_validate ------------------------------------------------------------------------------

def _data(n=160, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] + rng.normal(size=n) > 0).astype(int)
    return X, y


def test_cross_validate_equals_a_fold_loop():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    X, y = _data()
    r = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, random_state=1)
    S, Y, F = [], [], []
    for k, (tr, te) in enumerate(StratifiedKFold(4, shuffle=True, random_state=1).split(X, y)):
        m = LogisticRegression().fit(X[tr], y[tr])
        S.append(m.decision_function(X[te]))
        Y.append(y[te])
        F.append(np.full(te.size, k))
    want = rw.stats.cross_validated(np.concatenate(Y), np.concatenate(S), np.concatenate(F))
    _close(r.fold_values, want.fold_values)
    _close(r.std_error, want.std_error, rtol=1e-13)
    assert not r.pooled and r.n_units == 160 and r.fold_ids.tolist() == [0, 1, 2, 3]
    # predict_proba ranks the rows as decision_function does
    p = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, random_state=1, method="predict_proba")
    _close(p.fold_values, r.fold_values, rtol=1e-12)


def test_cross_validate_labels_repeats_groups_and_rankers():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold

    X, y = _data(120, 2)
    base = rw.stats.cross_validate(LogisticRegression(), X, y, cv=3, random_state=0)
    lab = np.where(y == 1, "case", "ctrl")
    # "ctrl" sorts last, but the positive asked for is "case" (classes_[0]): scores negated
    a = rw.stats.cross_validate(LogisticRegression(), X, lab, cv=3, random_state=0, pos_label="case")
    _close(a.fold_values, base.fold_values, rtol=1e-12)
    rep = rw.stats.cross_validate(LogisticRegression(), X, y,
                                  cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0))
    assert rep.pooled and rep.n_folds == 6 and rep.n_units == 120 and rep.n_pos == 2 * y.sum()
    groups = np.arange(120) // 3
    g = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, groups=groups, random_state=0)
    assert g.pooled and g.n_units == 40
    rk = rw.stats.cross_validate(rw.learners.PairwiseRanker(), X, y, cv=3, random_state=0)
    assert rk.n_folds == 3 and 0.6 < rk.value <= 1.0
    with pytest.raises(ValueError, match="method"):
        rw.stats.cross_validate(LogisticRegression(), X, y, method="predict")
    with pytest.raises(ValueError, match="'cv'"):
        rw.stats.cross_validate(LogisticRegression(), X, y, cv=1)


# --- docs/crossval.md -----------------------------------------------------------------------------

def test_every_example_of_the_page_runs_as_printed():
    import doctest

    from _support.paths import ROOT

    page = os.path.join(ROOT, "docs", "crossval.md")
    text = open(page, encoding="utf-8").read()
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/crossval.md", page, 0)
    assert len(test.examples) >= 20
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of docs/crossval.md print something else"
    for cite in ("LeDell, M. Petersen and M. van der Laan (2015)", "Bengio and Y. Grandvalet (2004)",
                 "Fawcett (2006)", "DeLong, D. M. DeLong and D. L. Clarke-Pearson (1988)"):
        assert cite in text


# --- variance="unbiased": class variances over n - 1 -------------------------------------------

def _class_masses(y, f, w):
    w = [1.0] * len(y) if w is None else w
    return [sum(w[i] for i in range(len(y)) if f[i] == v and bool(y[i]) == c) for v in set(f) for c in (True, False)]


@settings(max_examples=40)
@given(fold_samples(weights=False) | fold_samples(weights=True),
       st.sampled_from([("auc", {}, ref.auc_terms),
                        ("pnorm_push", {"p": 4.0}, partial(ref.pnorm_push_terms, p=4.0)),
                        ("partial_auc", {"max_fpr": 0.3}, partial(ref.partial_auc_terms, max_fpr=0.3))]))
def test_unbiased_matches_literal(sample, spec):
    y, s, f, w = sample
    name, kw, terms = spec
    if min(_class_masses(y, f, w)) <= 1.0:
        with pytest.raises(ValueError, match="variance='unbiased'.*more than one of each class"):
            _quiet(rw.stats.cross_validated, y, s, f, criterion=name, sample_weight=w, variance="unbiased", **kw)
        return
    r = _quiet(rw.stats.cross_validated, y, s, f, criterion=name, sample_weight=w, variance="unbiased", **kw)
    v, se, vals = ref.cross_validated_unbiased(y, s, f, w, terms)
    _close(r.fold_values, vals, atol=1e-12)
    _close(r.value, v, atol=1e-12)
    _close(r.std_error, se, rtol=1e-8, atol=1e-12)
    assert r.variance == "unbiased" and r.method == "influence"
    base = _quiet(rw.stats.cross_validated, y, s, f, criterion=name, sample_weight=w, **kw)
    assert base.variance == "influence" and r.std_error >= base.std_error * (1 - 1e-12)


@settings(max_examples=25)
@given(fold_samples(weights=False) | fold_samples(weights=True), st.integers(0, 2 ** 32 - 1))
def test_unbiased_pooled_nested_matches_literal(sample, seed):
    y, s, f, w = sample
    rng = np.random.default_rng(seed)
    ids = [f"{v}-{k}" for v, k in zip(f, rng.integers(0, 3, len(y)))]  # units nested in folds
    units = {}
    for i, g in enumerate(ids):
        units.setdefault((f[i], bool(y[i])), set()).add(g)
    if min(len(units.get((v, c), ())) for v in set(f) for c in (True, False)) < 2:
        with pytest.raises(ValueError, match="at least 2 units with (positive|negative) rows"):
            rw.stats.cross_validated(y, s, f, sample_weight=w, pooled=True, ids=ids, variance="unbiased")
        return
    r = rw.stats.cross_validated(y, s, f, sample_weight=w, pooled=True, ids=ids, variance="unbiased")
    v, se = ref.cross_validated_pooled_unbiased(y, s, f, ids, w)
    _close(r.value, v, atol=1e-12)
    _close(r.std_error, se, rtol=1e-9, atol=1e-12)
    assert r.pooled and r.variance == "unbiased"


def test_unbiased_one_fold_twice_is_delong():
    rng = np.random.default_rng(5)
    y = rng.random(80) < 0.5
    s = np.round(rng.normal(size=80) + y, 1)
    y2, s2, f2 = np.concatenate([y, y]), np.concatenate([s, s]), np.repeat([0, 1], 80)
    c = rw.stats.cross_validated(y2, s2, f2, variance="unbiased")
    pos, neg, v10, v01 = _placements(y, s)
    delong = np.var(v10, ddof=1) / len(pos) + np.var(v01, ddof=1) / len(neg)  # DeLong et al. (1988)
    _close(c.std_error ** 2, delong / 2, rtol=1e-12)
    # pooled with one row per unit is the same; units of two rows of one class change nothing either
    p = rw.stats.cross_validated(y2, s2, f2, pooled=True, ids=np.arange(160)[::-1], variance="unbiased")
    _close(p.std_error, c.std_error, rtol=1e-13)
    g = rw.stats.cross_validated(y2, s2, f2, criterion="gini", variance="unbiased")
    _close(g.std_error, 2 * c.std_error, rtol=1e-13)


def test_unbiased_factor_with_equal_classes_and_copies():
    rng = np.random.default_rng(9)
    n = 60
    y = np.tile([True, False], n // 2)
    s = np.round(rng.normal(size=n) + y, 1)
    f = np.repeat(np.arange(4), n // 4)  # every fold: 15 rows, class sizes 8/7 or 7/8
    a = rw.stats.cross_validated(y, s, f)
    b = rw.stats.cross_validated(y, s, f, variance="influence")
    assert a.std_error == b.std_error and a.variance == "influence"
    u = rw.stats.cross_validated(y, s, f, variance="unbiased")
    assert u.std_error > a.std_error and u.value == a.value and u.naive_std_error == a.naive_std_error
    # frequency weights are copies for the class sizes n_vc - 1 too
    w = rng.integers(1, 4, n)
    rep = np.repeat(np.arange(n), w)
    _close(rw.stats.cross_validated(y, s, f, sample_weight=w, variance="unbiased").std_error,
           rw.stats.cross_validated(y[rep], s[rep], f[rep], variance="unbiased").std_error, rtol=1e-12)


def test_unbiased_example_by_hand_and_summary():
    y = [0, 0, 1, 1, 0, 0, 1, 1]
    s = [0.1, 0.6, 0.4, 0.9, 0.2, 0.3, 0.5, 0.8]
    r = rw.stats.cross_validated(y, s, [0, 0, 0, 0, 1, 1, 1, 1], variance="unbiased")
    # two rows per class and fold: every class sum of squares doubles, so se = sqrt(2) / 8
    _close(r.std_error, math.sqrt(2) / 8, rtol=1e-14)
    text = r.summary()
    assert "influence curve (unbiased)" in text and "variance 'unbiased'" in text and "n - 1" in text
    assert "variance 'influence'" in rw.stats.cross_validated(y, s, [0, 0, 0, 0, 1, 1, 1, 1]).summary()


def test_unbiased_bad_values():
    y = [0, 1, 1, 0, 1, 0, 1, 0]
    s = [0.1, 0.9, 0.3, 0.5, 0.2, 0.6, 0.7, 0.4]
    f = [0, 0, 0, 0, 1, 1, 1, 1]
    cv = rw.stats.cross_validated
    for bad in ("delong", None, 1, "Unbiased"):
        with pytest.raises(ValueError, match="'variance' parameter of cross_validated"):
            cv(y, s, f, variance=bad)
    with pytest.raises(ValueError, match="fold 'b' has 1 positives"):
        cv([0, 1, 1, 0, 0, 1, 0], [0.1, 0.9, 0.3, 0.5, 0.2, 0.6, 0.4], ["a"] * 4 + ["b"] * 3, variance="unbiased")
    # weights: a class of mass 1 is refused, a row of weight 2 counts twice
    with pytest.raises(ValueError, match="fold 1 has 0.5(000)? negatives"):
        cv(y, s, f, sample_weight=[1, 1, 1, 1, 1, 0.25, 1, 0.25], variance="unbiased")
    cv([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.5], [0, 0, 1, 1], sample_weight=[2, 2, 2, 2], variance="unbiased")
    with pytest.raises(ValueError, match="every unit .*inside one fold.*variance='influence'"):
        cv(y, s, f, pooled=True, ids=[0, 1, 2, 3, 0, 1, 2, 3], variance="unbiased")
    with pytest.raises(ValueError, match="at least 2 units with positive rows; fold 0 has 1"):
        cv(y, s, f, pooled=True, ids=[0, 0, 0, 1, 2, 3, 4, 5], variance="unbiased")
    yy, ss, ff = list(y), list(s), list(f)
    cv(yy, ss, ff, variance="unbiased")
    assert (yy, ss, ff) == (y, s, f)


def test_cross_validate_passes_variance():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold

    X, y = _data(120, 3)
    r = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, random_state=1, variance="unbiased")
    b = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, random_state=1)
    assert r.variance == "unbiased" and b.variance == "influence" and r.std_error > b.std_error
    groups = np.arange(120) // 3
    g = rw.stats.cross_validate(LogisticRegression(), X, y, cv=4, groups=groups, random_state=0, variance="unbiased")
    assert g.pooled and g.variance == "unbiased"
    with pytest.raises(ValueError, match="'variance' parameter of cross_validate"):
        rw.stats.cross_validate(LogisticRegression(), X, y, variance="t")
    with pytest.raises(ValueError, match="inside one fold"):
        rw.stats.cross_validate(LogisticRegression(), X, y, variance="unbiased",
                                cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0))
