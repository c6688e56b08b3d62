"""``rw.stats.by_group`` and ``rw.bias_aucs`` against fairlearn's ``MetricFrame`` with
scikit-learn's ``roc_auc_score``: the stored golden values (tests/golden/fairlearn_golden.json,
written by tests/golden/make_fairlearn_golden.py; CI needs no fairlearn) and, when fairlearn
is importable, a live comparison on fresh data. Every group AUC to 1e-12; the golden values
are also checked against the literal pairwise definition, so that the anchor itself is
anchored."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import warnings

import numpy as np
import pytest

import rankwise as rw
from _support.paths import GOLDEN
from rankwise.stats import OneClassGroupWarning

TOL = 1e-12

with open(os.path.join(GOLDEN, "fairlearn_golden.json")) as _fh:
    DOC = json.load(_fh)
CASES = DOC["cases"]


def _arrays(case):
    y = np.array(case["y"])
    s = np.array(case["s"])
    g = np.array(case["g"])
    w = None if case["w"] is None else np.array(case["w"])
    return y, s, g, w


def _fair(v):
    return float("nan") if v is None else float(v)


def _same(a, b) -> bool:
    """Equal to TOL, nan matching nan."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= TOL


def _pairwise_auc(y, s, w, sel) -> float:
    """The literal definition on the rows ``sel``: sum over positive x negative pairs of
    w_i w_j (1{s_i > s_j} + 1/2 1{s_i = s_j}) over the product of the class weights."""
    ww = np.ones(y.shape[0]) if w is None else w
    pos, neg = sel & (y == 1), sel & (y == 0)
    if not (pos.any() and neg.any()):
        return float("nan")
    sp, sn = s[pos][:, None], s[neg][None, :]
    kernel = (sp > sn) + 0.5 * (sp == sn)
    wp, wn = ww[pos][:, None], ww[neg][None, :]
    return float((wp * wn * kernel).sum() / (wp.sum() * wn.sum()))


def _by_group(y, s, g, w, one_class: bool):
    if one_class:
        with pytest.warns(OneClassGroupWarning):
            return rw.stats.by_group(y, s, g, sample_weight=w)
    return rw.stats.by_group(y, s, g, sample_weight=w)


def test_golden_file_records_its_origin():
    assert {"fairlearn_version", "sklearn_version", "pandas_version", "numpy_version"} <= set(DOC)
    assert len(CASES) >= 5
    names = [c["name"] for c in CASES]
    assert len(set(names)) == len(names)
    assert any(c["w"] is not None for c in CASES) and any(isinstance(c["g"][0], str) for c in CASES)
    for c in CASES:
        assert len(c["y"]) == len(c["s"]) == len(c["g"]) <= 300
        assert c["call"].startswith("MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g")
        assert ("sample_params={'sample_weight': w}" in c["call"]) == (c["w"] is not None)


def test_golden_inputs_are_the_generators():
    """The stored inputs are what make_cases generates (numpy seeds): the JSON was written by
    the committed generator."""
    spec = importlib.util.spec_from_file_location("_rw_make_fairlearn_golden",
                                                  os.path.join(GOLDEN, "make_fairlearn_golden.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    made = mod.make_cases()
    assert [m["name"] for m in made] == [c["name"] for c in CASES]
    for m, c in zip(made, CASES):
        for key in ("y", "s", "g", "w"):
            assert m[key] == c[key], (c["name"], key)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_values_are_the_pairwise_definition(case):
    y, s, g, w = _arrays(case)
    for k, v in case["by_group"]:
        assert _same(_pairwise_auc(y, s, w, g == k), _fair(v)), (case["name"], k)
    assert _same(_pairwise_auc(y, s, w, np.ones(y.shape[0], dtype=bool)), _fair(case["overall"]))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_by_group_and_bias_aucs_equal_fairlearn_golden(case):
    y, s, g, w = _arrays(case)
    want = {k: _fair(v) for k, v in case["by_group"]}
    one_class = any(math.isnan(v) for v in want.values())
    res = _by_group(y, s, g, w, one_class)
    got = {r.group: r.value for r in res.rows}
    assert sorted(got, key=str) == sorted(want, key=str)
    for k, v in want.items():
        assert _same(got[k], v), (case["name"], k, got[k], v)
        assert _same(res.value(k), v)
    assert _same(res.overall[0].value, _fair(case["overall"]))
    # fairlearn's between-group summaries skip nan groups
    finite = [v for v in got.values() if not math.isnan(v)]
    assert _same(min(finite), case["group_min"]) and _same(max(finite), case["group_max"])
    assert _same(max(finite) - min(finite), case["difference"])
    assert _same(min(finite) / max(finite), case["ratio"])
    assert set(res.one_class) == {k for k, v in want.items() if math.isnan(v)}
    # the bias table's subgroup AUC and rw.bias_aucs: the same group AUCs
    sub = {r.group: r.value for r in res.bias if r.statistic == "subgroup_auc"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        ba = rw.bias_aucs(y, s, g, sample_weight=w)
    for k, v in want.items():
        assert _same(sub[k], v) and _same(ba[k]["subgroup_auc"], v), (case["name"], k)


def _fresh(seed: int, n: int, kind: str):
    rng = np.random.default_rng(seed)
    names = np.array(["north", "south", "east", "west", "centre"])
    g = names[rng.choice(5, size=n, p=[0.35, 0.3, 0.2, 0.1, 0.05])] if kind != "ints" else rng.integers(0, 6, n)
    y = (rng.random(n) < 0.25).astype(int)
    s = rng.normal(size=n) + 0.9 * y
    if kind == "tied":
        s = np.round(s, 1)
    w = rng.uniform(0.1, 5.0, size=n) if kind == "weighted" else None
    return y, s, g, w


@pytest.mark.parametrize("seed,kind", [(11, "ints"), (12, "tied"), (13, "weighted")])
def test_by_group_equals_fairlearn_live(seed, kind):
    """fairlearn's MetricFrame(roc_auc_score) on fresh data, when fairlearn is installed."""
    metrics = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import roc_auc_score

    y, s, g, w = _fresh(seed, 3000, kind)
    kw = {} if w is None else {"sample_params": {"sample_weight": w}}
    mf = metrics.MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g, **kw)
    res = rw.stats.by_group(y, s, g, sample_weight=w)
    got = {r.group: r.value for r in res.rows}
    assert len(got) == len(mf.by_group)
    for k, v in mf.by_group.items():
        assert abs(got[k] - float(v)) <= TOL, (kind, k)
    assert abs(res.overall[0].value - float(mf.overall)) <= TOL
    assert abs(max(got.values()) - min(got.values()) - float(mf.difference())) <= TOL
    ba = rw.bias_aucs(y, s, g, sample_weight=w)
    assert all(abs(ba[k]["subgroup_auc"] - float(v)) <= TOL for k, v in mf.by_group.items())
