"""Bad input gets a clear error naming the argument, never a wrong number."""

import numpy as np
import pytest

import rankwise as rw

Y = [0, 1, 0, 1]
S = [0.1, 0.9, 0.3, 0.2]


@pytest.mark.parametrize("bad, match", [
    ([0.1, np.nan, 0.3, 0.2], r"'y_score'.*1 NaN value.*index 1"),
    ([0.1, np.inf, -np.inf, 0.2], r"'y_score'.*2 infinite value.*index 1, 2"),
    ([0.1, np.nan, np.inf, 0.2], r"'y_score'.*NaN or infinite"),
])
def test_non_finite_scores(bad, match):
    with pytest.raises(ValueError, match=match):
        rw.auc(Y, bad)


def test_non_numeric_scores():
    with pytest.raises(TypeError, match=r"'y_score' argument must contain real numbers.*'x'"):
        rw.auc(Y, [0.1, "x", 0.2, 0.3])
    with pytest.raises(TypeError, match="dtype complex"):
        rw.auc(Y, np.array([1j, 2, 3, 4]))
    with pytest.raises(TypeError, match="'y_score' argument must be an array-like"):
        rw.auc(Y, None)


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="y_true has 4 values but y_score has 3"):
        rw.auc(Y, S[:3])
    with pytest.raises(ValueError, match="'sample_weight' argument has 2 values but y_true has 4"):
        rw.auc(Y, S, sample_weight=[1, 2])
    with pytest.raises(ValueError, match="y_true has 3 values but y_score has 4"):
        rw.ranking_risk([1, 2, 3], S)


def test_empty_input():
    with pytest.raises(ValueError, match="'y_true' argument is empty"):
        rw.auc([], [])
    with pytest.raises(ValueError, match="empty"):
        rw.ranking_risk([], [])


def test_two_dimensional_input():
    with pytest.raises(ValueError, match="one-dimensional.*shape \\(2, 2\\)"):
        rw.auc(Y, np.ones((2, 2)))


def test_more_than_two_labels():
    with pytest.raises(ValueError, match="two distinct label values.*Got 3 distinct values \\(0, 1, 2\\)"):
        rw.auc([0, 1, 2, 1], S)
    with pytest.raises(ValueError, match="Got 3 distinct values"):
        rw.auc(["a", "b", "c", "a"], S, pos_label="a")


def test_labels_need_pos_label():
    with pytest.raises(ValueError, match="pass pos_label="):
        rw.auc(["good", "bad", "good", "bad"], S)
    with pytest.raises(ValueError, match="'pos_label' parameter must be one of the labels"):
        rw.auc(["good", "bad", "good", "bad"], S, pos_label="ugly")
    assert rw.auc(["good", "bad", "good", "bad"], S, pos_label="bad") == rw.auc(Y, S)


def test_nan_labels():
    with pytest.raises(ValueError, match="'y_true' argument contains 1 NaN"):
        rw.auc([0, np.nan, 1, 1], S)
    with pytest.raises(ValueError, match="'y_true'.*NaN"):
        rw.ranking_risk([0, np.nan, 1, 1], S)


@pytest.mark.parametrize("w, match", [
    ([1, -1, 1, 1], r"'sample_weight'.*1 negative value.*index 1"),
    ([1, np.nan, 1, 1], r"'sample_weight'.*NaN or infinite"),
    ([1, np.inf, 1, 1], r"'sample_weight'.*NaN or infinite"),
])
def test_bad_weights(w, match):
    with pytest.raises(ValueError, match=match):
        rw.auc(Y, S, sample_weight=w)


@pytest.mark.parametrize("call, match", [
    (lambda: rw.local_auc(Y, S, top=0), r"'top' parameter of local_auc must be a float in \(0, 1\]. Got 0 instead"),
    (lambda: rw.local_auc(Y, S, top=1.5), r"'top' parameter of local_auc must be a float in \(0, 1\]. Got 1.5"),
    (lambda: rw.partial_auc(Y, S, max_fpr=1.5), r"'max_fpr' parameter of partial_auc must be a float in \(0, 1\]. Got 1.5 instead."),
    (lambda: rw.partial_auc(Y, S, max_fpr=0), r"'max_fpr'"),
    (lambda: rw.partial_auc(Y, S, max_fpr=0.1, standardize="x"), r"'standardize' parameter.*'mcclish'"),
    (lambda: rw.pnorm_push(Y, S, p=0.5), r"'p' parameter of pnorm_push must be a float in \[1, inf\)"),
    (lambda: rw.pnorm_push(Y, S, p=np.nan), r"'p' parameter"),
    (lambda: rw.pnorm_push(Y, S, p=np.inf), r"'p' parameter"),
    (lambda: rw.dcg(Y, S, k=0), r"'k' parameter of dcg must be an integer in \[1, inf\) or None"),
    (lambda: rw.ndcg(Y, S, k=2.5), r"'k' parameter of ndcg must be an integer"),
    (lambda: rw.phi.local_auc(1.0), r"'u0' parameter of phi.local_auc must be a float in \(0, 1\)"),
    (lambda: rw.phi.pnorm_push(0), r"'p' parameter of phi.pnorm_push"),
    (lambda: rw.rank_statistic(Y, S, "auc", ties="min"), r"'ties' parameter of rank_statistic must be one of 'average', 'max'"),
    (lambda: rw.rank_statistic(Y, S, "auc", scale="z"), r"'scale' parameter"),
    (lambda: rw.ranking_risk(Y, S, pairs="some"), r"'pairs' parameter of ranking_risk"),
])
def test_parameters_out_of_range(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_parameter_types():
    with pytest.raises(TypeError, match="'top' parameter of local_auc must be a float"):
        rw.local_auc(Y, S, top="0.1")
    with pytest.raises(TypeError, match="'top'"):
        rw.local_auc(Y, S, top=True)


def test_phi_checks():
    with pytest.raises(ValueError, match="must be nondecreasing"):
        rw.rank_statistic(Y, S, lambda u: 1 - u)
    with pytest.raises(ValueError, match=r"must map \[0, 1\] into \[0, 1\]"):
        rw.rank_statistic(Y, S, lambda u: 2 * u)
    with pytest.raises(ValueError, match="finite"):
        rw.rank_statistic(Y, S, lambda u: np.log(u))
    with pytest.raises(TypeError, match="must be vectorised"):
        rw.rank_statistic(Y, S, lambda u: 1.0 if u > 0.5 else 0.0)
    with pytest.raises(ValueError, match="needs the parameter\\(s\\) \\['u0'\\]"):
        rw.rank_statistic(Y, S, "local_auc")
    with pytest.raises(ValueError, match="needs the parameter"):
        rw.rank_statistic(Y, S, rw.phi.pnorm_push)
    with pytest.raises(ValueError, match="'phi' parameter of rank_statistic must be one of"):
        rw.rank_statistic(Y, S, "wilcoxon")
    with pytest.raises(TypeError, match="'phi' parameter"):
        rw.rank_statistic(Y, S, 3)
    with pytest.raises(ValueError, match="nonincreasing"):
        rw.dcg(Y, S, discount=lambda q: q / (q + 1))
    # accepted forms
    a = rw.auc(Y, S)
    for phi in ("auc", rw.phi.auc, rw.phi.auc(), lambda u: u, np.sqrt):
        v = rw.rank_statistic(Y, S, phi, scale="minmax")
        if phi is not np.sqrt:
            assert v == pytest.approx(a)
    assert rw.rank_statistic(Y, S, "pnorm_push:p=2") == rw.rank_statistic(Y, S, rw.phi.pnorm_push(2))
    assert rw.rank_statistic(Y, S, "pnorm_push", p=2) == rw.rank_statistic(Y, S, rw.phi.pnorm_push(2))


def test_evaluate_specs():
    with pytest.raises(ValueError, match="Unknown criterion 'gin1'; valid criteria are auc, rank_statistic"):
        rw.evaluate(Y, S, ["gin1"])
    with pytest.raises(ValueError, match="Malformed parameter"):
        rw.evaluate(Y, S, ["local_auc:top"])
    with pytest.raises(ValueError, match="Bad parameters for criterion 'local_auc:tp=0.1'"):
        rw.evaluate(Y, S, ["local_auc:tp=0.1"])
    with pytest.raises(ValueError, match="twice"):
        rw.evaluate(Y, S, ["auc", "auc"])
    with pytest.raises(ValueError, match="empty"):
        rw.evaluate(Y, S, [])
    assert rw.evaluate(Y, S, ("dcg", {"k": 2})) == {"dcg:k=2": rw.dcg(Y, S, k=2)}
    assert rw.evaluate(Y, S, {"my auc": "auc"}) == {"my auc": rw.auc(Y, S)}


def test_inputs_never_modified():
    y = np.array([1, 0, 1, 0, 0])
    s = np.array([0.3, 0.1, 0.2, 0.5, 0.4])
    w = np.array([1.0, 2.0, 1.0, 1.0, 3.0])
    y0, s0, w0 = y.copy(), s.copy(), w.copy()
    rw.evaluate(y, s)
    rw.evaluate(y, s, sample_weight=w)
    rw.roc_curve(y, s, sample_weight=w)
    rw.ranking_risk(s, y, sample_weight=w)
    assert (y == y0).all() and (s == s0).all() and (w == w0).all()


def test_undefined_minmax_warns():
    with pytest.warns(rw.UndefinedMetricWarning, match="same value at the best and the worst"):
        v = rw.rank_statistic([0, 1], [0.0, 1.0], rw.phi.local_auc(0.9), scale="minmax")
    assert np.isnan(v)


def test_roc_curve_one_class():
    with pytest.warns(rw.UndefinedMetricWarning):
        c = rw.roc_curve([1, 1], [0.1, 0.2])
    assert np.isnan(c.fpr[1:]).all() and (c.tpr == [0, 0.5, 1]).all()


def test_zero_weight_levels_are_not_thresholds():
    c = rw.roc_curve([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[1, 1, 0, 1])
    np.testing.assert_array_equal(c.thresholds[1:], [0.4, 0.2, 0.1])
    assert rw.auc([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[1, 1, 0, 1]) == 1.0
