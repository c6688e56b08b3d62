"""Golden values from scikit-learn and R pROC 1.18 (tests/golden/), agreement to 1e-9.

The fixtures were produced by ``tests/golden/make_inputs.py`` (inputs and scikit-learn
values) and ``tests/golden/make_proc.R`` (pROC); each key is the call that produced
the number. pROC calls use ``levels=c(0, 1), direction="<"``: controls < cases.
"""

import json
import os

import numpy as np
import pytest

import rankwise as rw
from _support.paths import GOLDEN

HERE = GOLDEN
with open(os.path.join(HERE, "inputs_sklearn.json")) as fh:
    SK = json.load(fh)
with open(os.path.join(HERE, "proc.json")) as fh:
    PROC = json.load(fh)

CASES = sorted(SK["cases"])
TOL = 1e-9


def approx(x):
    return pytest.approx(x, rel=TOL, abs=TOL)


def test_fixture_versions():
    assert PROC["pROC_version"].startswith("1.18")
    assert set(PROC["cases"]) == set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_sklearn_auc_and_partial_auc(name):
    c = SK["cases"][name]
    y, s, w, g = c["y"], c["s"], c["w"], c["sklearn"]
    assert rw.auc(y, s) == approx(g["roc_auc_score(y, s)"])
    assert rw.auc(y, s, sample_weight=w) == approx(g["roc_auc_score(y, s, sample_weight=w)"])
    for m in (0.05, 0.1, 0.3, 0.5):
        assert rw.partial_auc(y, s, max_fpr=m, standardize="mcclish") == approx(g[f"roc_auc_score(y, s, max_fpr={m})"])
        assert rw.partial_auc(y, s, max_fpr=m, standardize="mcclish", sample_weight=w) == approx(
            g[f"roc_auc_score(y, s, max_fpr={m}, sample_weight=w)"])


@pytest.mark.parametrize("name", CASES)
def test_sklearn_roc_curve(name):
    c = SK["cases"][name]
    g = c["sklearn"]["roc_curve(y, s, drop_intermediate=False)"]
    curve = rw.roc_curve(c["y"], c["s"])
    np.testing.assert_allclose(curve.fpr, g["fpr"], rtol=0, atol=TOL)
    np.testing.assert_allclose(curve.tpr, g["tpr"], rtol=0, atol=TOL)
    assert np.isinf(curve.thresholds[0])
    np.testing.assert_array_equal(curve.thresholds[1:], g["thresholds"])


@pytest.mark.parametrize("name", CASES)
def test_sklearn_dcg_ndcg(name):
    """scikit-learn's dcg_score / ndcg_score average the gains of tied scores: the same
    convention as rankwise.dcg, so these agree with and without ties."""
    c = SK["cases"][name]
    y, s, g = c["y"], c["s"], c["sklearn"]
    assert rw.dcg(y, s) == approx(g["dcg_score([y], [s])"])
    assert rw.dcg(y, s, k=10) == approx(g["dcg_score([y], [s], k=10)"])
    assert rw.ndcg(y, s) == approx(g["ndcg_score([y], [s])"])
    assert rw.ndcg(y, s, k=10) == approx(g["ndcg_score([y], [s], k=10)"])


@pytest.mark.parametrize("name", CASES)
def test_proc_auc_and_partial_auc(name):
    c = SK["cases"][name]
    y, s, p = c["y"], c["s"], PROC["cases"][name]
    assert rw.auc(y, s) == approx(p["auc(r)"])
    for m in (0.05, 0.1, 0.3, 0.5):
        key = f"auc(r, partial.auc=c(1, {1 - m:g}), partial.auc.focus='specificity', partial.auc.correct=%s)"
        assert rw.partial_auc(y, s, max_fpr=m) == approx(p[key % "FALSE"])
        assert rw.partial_auc(y, s, max_fpr=m, standardize="mcclish") == approx(p[key % "TRUE"])


def test_no_tie_dcg_equals_rank_statistic():
    """Without ties the DCG is the linear rank statistic with phi = dcg(k)
    (Clémençon & Vayatis 2008, "Empirical performance maximization for linear rank statistics")."""
    c = SK["cases"]["continuous_300"]
    for k in (None, 10, 50):
        assert rw.rank_statistic(c["y"], c["s"], rw.phi.dcg(k)) == approx(rw.dcg(c["y"], c["s"], k=k))
