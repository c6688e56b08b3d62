"""rw.survival.cumulative_dynamic_auc and compare_cumulative_dynamic_auc against timeROC 0.4.1
(tests/golden/timeroc_golden.json, from tests/golden/make_timeroc_golden.R) and
scikit-survival 0.28 (tests/golden/sksurv_time_auc_golden.json, from
tests/golden/make_sksurv_time_auc_golden.py).

timeROC: AUC(t) to 1e-8 on every case; its i.i.d. standard error, the row-by-row i.i.d.
terms, and compare()'s standard error and p-value of a difference to 1e-8 where no censoring
time is tied with another observed time. Where one is (events and censorings at one time,
and the real data sets in days), timeROC's martingale term breaks the tie by the order of
the rows: the literal definition with that row rule reproduces timeROC to 1e-8, rankwise
equals the literal definition with the censorings of one time counted together, and the two
standard errors differ by about 1e-5 relative."""

import json
import os

import numpy as np
import pytest

import rankwise as rw
from _support import reference_time_auc as ref

HERE = os.path.dirname(__file__)
TIMEROC = os.path.join(HERE, os.pardir, "golden", "timeroc_golden.json")
SKSURV = os.path.join(HERE, os.pardir, "golden", "sksurv_time_auc_golden.json")


def load(path):
    with open(path) as fh:
        return json.load(fh)


def timeroc_cases():
    return load(TIMEROC)["cases"]


def censoring_tied(t, e):
    """Whether some censoring time equals another row's time."""
    vals, counts = np.unique(t, return_counts=True)
    shared = set(vals[counts > 1].tolist())
    return any(ti in shared for ti in t[~e])


def data(c):
    return np.array(c["time"], float), np.array(c["status"]) == 1, np.array(c["a"], float), np.array(c["b"], float)


def test_producer_and_every_kind_of_case():
    doc = load(TIMEROC)
    assert "timeROC 0.4.1" in doc["producer"] and doc["producer"].startswith("tests/golden/make_timeroc_golden.R")
    cases = doc["cases"]
    assert {"lung", "pbc"} <= set(cases) and max(c["n"] for c in cases.values()) == 2000
    tied = {k: censoring_tied(*data(c)[:2]) for k, c in cases.items()}
    assert not tied["continuous_n60"] and not tied["tied_events_n300"] and tied["tied_all_n300"] and tied["lung"]
    t, e, a, _ = data(cases["tied_events_n300"])
    assert len(np.unique(t[e])) < e.sum() and len(np.unique(a)) < len(a)  # tied event times and markers


@pytest.mark.parametrize("name", list(timeroc_cases()))
def test_auc_and_standard_error_equal_timeroc(name):
    c = timeroc_cases()[name]
    t, e, a, b = data(c)
    res = rw.survival.cumulative_dynamic_auc(t, e, a, c["times"])
    np.testing.assert_allclose(res.times, c["times"], rtol=0, atol=0)
    np.testing.assert_allclose(res.values, c["auc_a"], rtol=0, atol=1e-8)
    np.testing.assert_array_equal(res.n_cases, c["cases"])
    np.testing.assert_array_equal(res.n_controls, c["controls"])
    if not censoring_tied(t, e):
        np.testing.assert_allclose(res.std_errors, c["se_a"], rtol=0, atol=1e-8)
        cmp = rw.survival.compare_cumulative_dynamic_auc(t, e, {"a": a, "b": b}, c["times"])
        np.testing.assert_allclose(cmp.aucs[1].values, c["auc_b"], rtol=0, atol=1e-8)
        np.testing.assert_allclose(cmp.aucs[1].std_errors, c["se_b"], rtol=0, atol=1e-8)
        rows = [d for d in cmp.differences if d["time"] is not None]
        np.testing.assert_allclose([d["std_error"] for d in rows], c["se_diff"], rtol=0, atol=1e-8)
        np.testing.assert_allclose([d["p_value"] for d in rows], c["p_diff"], rtol=0, atol=1e-8)
        np.testing.assert_allclose([d["difference"] for d in rows], np.subtract(c["auc_a"], c["auc_b"]), atol=1e-8)
    else:
        # Same to about 1e-5 relative: only the tie rule of the censoring martingale differs.
        np.testing.assert_allclose(res.std_errors, c["se_a"], rtol=2e-4)
        assert np.max(np.abs(res.std_errors - c["se_a"])) > 1e-9


@pytest.mark.parametrize("name", ["tied_all_n300", "lung", "pbc"])
def test_tied_censorings_explained_by_the_row_rule(name):
    c = timeroc_cases()[name]
    t, e, a, _ = data(c)
    res = rw.survival.cumulative_dynamic_auc(t, e, a, c["times"])
    for j, tj in enumerate(c["times"][:3]):
        assert ref.std_error(t, e, a, tj, tie_rule="rows") == pytest.approx(c["se_a"][j], abs=1e-8)
        assert ref.std_error(t, e, a, tj, tie_rule="times") == pytest.approx(res.std_errors[j], abs=1e-12)


def test_iid_terms_row_by_row():
    # timeROC's mat_iid_rep_1 lists the rows sorted by time (stable); its terms are n u_k.
    from rankwise._kernels._timeauc import auc_terms_at, prepare_censoring, prepare_score
    from rankwise.survival._km import fit_censoring_km

    c = timeroc_cases()["continuous_n60"]
    t, e, a, _ = data(c)
    n = len(t)
    w = np.ones(n)
    o = np.argsort(t, kind="stable")
    cens = prepare_censoring(fit_censoring_km(t, e), t, e, w, o)
    L = prepare_score(a, t, e, w, cens, cens.row_idx, True)
    iid = np.array(c["iid_a"])
    for j, tj in enumerate(c["times"]):
        auc, _, _, u, _ = auc_terms_at(L, cens, tj)
        uo = np.empty(n)
        uo[L.order] = u
        np.testing.assert_allclose(n * uo[o], iid[:, j], rtol=0, atol=1e-8)
        np.testing.assert_allclose(ref.influence(t, e, a, tj)[o], iid[:, j], rtol=0, atol=1e-8)
        assert auc == pytest.approx(ref.auc_t(t, e, a, tj), abs=1e-12)


def test_pointwise_interval_is_timerocs():
    # confint(): AUC -/+ qnorm(0.975) * vect_sd_1.
    c = timeroc_cases()["continuous_n400"]
    t, e, a, _ = data(c)
    lo, hi = rw.survival.cumulative_dynamic_auc(t, e, a, c["times"]).confidence_intervals(0.95)
    z = 1.959963984540054
    np.testing.assert_allclose(lo, np.subtract(c["auc_a"], z * np.array(c["se_a"])), atol=1e-8)
    np.testing.assert_allclose(hi, np.add(c["auc_a"], z * np.array(c["se_a"])), atol=1e-8)


@pytest.mark.parametrize("name", list(load(SKSURV)["cases"]))
def test_scikit_survival_point_values(name):
    doc = load(SKSURV)
    assert "scikit-survival 0.28" in doc["producer"]
    c = doc["cases"][name]
    t, e, r = np.array(c["time"]), np.array(c["event"]) == 1, np.array(c["risk"])
    tr = (np.array(c["train_time"]), np.array(c["train_event"]) == 1)
    res = rw.survival.cumulative_dynamic_auc(t, e, r, c["times"])
    res2 = rw.survival.cumulative_dynamic_auc(t, e, r, c["times"], censoring=tr)
    if not c["tied"]:
        np.testing.assert_allclose(res.values, c["auc"], atol=1e-12)
        assert res.mean_value == pytest.approx(c["mean_auc"], abs=1e-12)
        np.testing.assert_allclose(res2.values, c["auc_train"], atol=1e-12)
        assert res2.mean_value == pytest.approx(c["mean_auc_train"], abs=1e-12)
    else:
        # scikit-survival weighs a case by 1 / G(T_i): the literal definition with that weight.
        assert np.max(np.abs(res.values - c["auc"])) > 1e-5
        v = [ref.auc_t(t, e, r, tj, case_weight="right") for tj in c["times"]]
        np.testing.assert_allclose(v, c["auc"], atol=1e-12)
        v2 = [ref.auc_t(t, e, r, tj, censoring=(*tr, np.ones(len(tr[0]))), case_weight="right")
              for tj in c["times"]]
        np.testing.assert_allclose(v2, c["auc_train"], atol=1e-12)
        om = ref.mean_weights(t, e, c["times"])
        assert float(np.dot(om, v)) == pytest.approx(c["mean_auc"], abs=1e-12)
    np.testing.assert_allclose(res.mean_weights, ref.mean_weights(t, e, c["times"]), atol=1e-13)
