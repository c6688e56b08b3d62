"""Thresholds are kept exact end to end (issue 27): int64 and uint64 scores beyond 2^53,
Python integers beyond 64 bits, float32 scores and ties. For every threshold reported by
``operating_points`` (rates and thresholds requested), ``rankwise.stats.operating_points``,
``optimal_threshold``, ``cut_at_fpr`` and ``rankwise points``, the rates recomputed by direct
comparison ``score >= threshold`` on the original values are the rates reported."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from rankwise.cli import main as cli_main

B = 2 ** 60


def _direct(y, values, t):
    """(tpr, fpr) of the rule ``score >= t`` by Python's exact comparisons."""
    pos = [v for v, lab in zip(values, y) if lab]
    neg = [v for v, lab in zip(values, y) if not lab]
    return sum(v >= t for v in pos) / len(pos), sum(v >= t for v in neg) / len(neg)


def _values(s):
    if isinstance(s, np.ndarray):
        return [Fraction(v) if s.dtype.kind == "f" else v for v in s.tolist()]
    return list(s)


def _check_all(y, s):
    vals = _values(s)
    exact = (lambda t: Fraction(t) if isinstance(t, float) and math.isfinite(t) else t)
    op = rw.operating_points(y, s, fpr=[0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
    for t, a, b in zip(op.threshold.tolist(), op.tpr, op.fpr):
        if t == t:
            assert _direct(y, vals, exact(t)) == (a, b), t
    for r in op.to_rows():
        if r["threshold"] == r["threshold"]:
            assert _direct(y, vals, exact(r["threshold"])) == (r["tpr"], r["fpr"])
    ts = sorted(set(vals), key=lambda v: v)
    asked = [v for v in ts] + [ts[0] - 1, ts[-1] + 1]
    op = rw.operating_points(y, s, thresholds=[int(v) if isinstance(v, int) else float(v) for v in asked])
    for t, a, b in zip(op.threshold.tolist(), op.tpr, op.fpr):
        assert _direct(y, vals, exact(t)) == (a, b), t
    for method in ("youden", "closest_topleft"):
        o = rw.optimal_threshold(y, s, method=method)
        assert _direct(y, vals, exact(o.threshold)) == (o.tpr, o.fpr)
        for t in o.tied_thresholds.tolist():
            assert isinstance(t, (int, float))
    for f, cut in zip([0.0, 0.25, 0.5, 1.0], rw.metrics.cut_at_fpr(y, s, [0.0, 0.25, 0.5, 1.0]).tolist()):
        assert _direct(y, vals, exact(cut))[1] <= f
        assert cut == math.inf or _direct(y, vals, exact(cut)) == tuple(
            rw.operating_points(y, s, thresholds=cut).to_rows()[0][k] for k in ("tpr", "fpr"))
    est = rw.stats.operating_points(y, s, thresholds=asked[:3])
    for r in est.to_rows():
        assert _direct(y, vals, exact(r["threshold"])) == (r["tpr"], r["fpr"])
    ci = est.confidence_interval(n_resamples=30, random_state=0)
    assert [r["at"] for r in ci.to_rows()] == [r["threshold"] for r in est.to_rows()]


Y = [0, 1, 0, 1, 1, 0, 1, 0, 1, 0]


def test_int64_beyond_2_53_float64_would_merge():
    s = np.array([B, B + 1, B + 2, B + 3, B + 3, B + 5, B + 7, B + 1, B + 8, B + 2], dtype=np.int64)
    _check_all(Y, s)
    op = rw.operating_points(Y, s, thresholds=B + 1)
    assert op.threshold.tolist() == [B + 1]
    assert op.tpr[0] == 1.0 and op.fpr[0] == 0.8  # float64 would have taken B + 1 as B
    assert rw.optimal_threshold(Y, s).threshold == B + 3
    assert isinstance(rw.optimal_threshold(Y, s).threshold, int)


def test_uint64_near_2_64_and_negative_int64_extremes():
    top = 2 ** 64 - 1
    s = np.array([top, top - 1, top - 2, 2 ** 63, top, 5, top - 3, 2 ** 63 + 1, 0, top - 1], dtype=np.uint64)
    _check_all(Y, s)
    low = -2 ** 63
    s = np.array([low, low + 1, 2 ** 63 - 1, 2 ** 63 - 2, low, low + 2, 0, 2 ** 63 - 1, -1, low + 1], dtype=np.int64)
    _check_all(Y, s)
    # thresholds beyond the dtype's range: nothing, or everything, is at or above them
    op = rw.operating_points(Y, s, thresholds=[2 ** 70, -2 ** 70, 2.0 ** 64, -math.inf, math.inf])
    assert op.tpr.tolist() == [0.0, 1.0, 0.0, 1.0, 0.0]


def test_python_integers_beyond_64_bits_and_mixed_with_floats():
    s = [2 ** 70, 2 ** 70 + 1, -2 ** 70, 2 ** 70 + 3, 0.5, 2 ** 70 + 1, 7, 2 ** 80, 2 ** 70, 0.25]
    _check_all(Y, s)
    op = rw.operating_points(Y, s, fpr=0.0)
    assert op.threshold.dtype == object


def test_float32_scores_report_float32_values():
    s = np.array([0.1, 0.2, 0.2, 0.3, 0.7, 0.1, 0.9, 0.30000001, 1e-8, 0.5], dtype=np.float32)
    _check_all(Y, s)
    op = rw.operating_points(Y, s, fpr=[0.2, 0.4])
    for t in op.threshold:
        if t == t and np.isfinite(t):
            assert float(np.float32(t)) == t  # a float32 value, shown exactly in float64
    # a float64 threshold between two float32 values is compared exactly, not rounded to float32
    t = float(np.nextafter(np.float64(np.float32(0.3)), 1.0))
    assert rw.operating_points(Y, s, thresholds=t).tpr[0] == _direct(Y, _values(s), Fraction(t))[0]


def test_ties_and_small_integers_keep_float64():
    s = np.array([1, 1, 1, 2, 2, 3, 3, 3, 1, 2], dtype=np.int64)
    _check_all(Y, s)
    op = rw.operating_points(Y, s, fpr=[0.0, 0.5])
    assert op.threshold.dtype == np.float64  # unchanged where float64 is exact


@settings(max_examples=40)
@given(st.lists(st.integers(-3, 3), min_size=6, max_size=14), st.sampled_from(["int64", "uint64", "py"]),
       st.integers(0, 2 ** 10))
def test_random_integer_scores_near_the_dtype_edges(offsets, kind, seed):
    y = [(seed >> (i % 10)) & 1 for i in range(len(offsets))]
    if len(set(y)) < 2:
        y[0], y[1] = 0, 1
    if kind == "int64":
        s = np.array([2 ** 62 + 2 ** 61 + o for o in offsets], dtype=np.int64)
    elif kind == "uint64":
        s = np.array([2 ** 64 - 4 + o for o in offsets], dtype=np.uint64)
    else:
        s = [2 ** 90 + o for o in offsets]
    _check_all(y, s)


@pytest.mark.parametrize("bad", ["0.5", [0.1, "a"], float("nan"), [1, None], True, [[1, 2]]])
def test_bad_thresholds_are_refused(bad):
    with pytest.raises(ValueError, match="'thresholds' parameter of operating_points"):
        rw.operating_points([0, 1, 0, 1], [1, 2, 3, 4], thresholds=bad)


def test_cli_points_prints_exact_thresholds(tmp_path, capsys):
    s = [B + v for v in (0, 1, 2, 3, 3, 5, 7, 1, 8, 2)]
    f = tmp_path / "big.csv"
    f.write_text("y,s\n" + "".join(f"{a},{b}\n" for a, b in zip(Y, s)))
    args = ["points", str(f), "--label", "y", "--score", "s", "--ci", "none", "--youden"]
    assert cli_main([*args, "--thresholds", f"{B + 1},{B + 2}", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["threshold"] for r in rows[:2]] == [B + 1, B + 2]
    for r in rows:
        assert _direct(Y, s, r["threshold"]) == (r["tpr"], r["fpr"])
    assert cli_main([*args, "--fpr", "0.2", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert str(rows[-1]["threshold"]) in out
    assert cli_main([*args, "--thresholds", str(B + 1)]) == 0
    out = capsys.readouterr().out
    assert f"thresholds={B + 1}" in out and out.count(str(B + 1)) >= 2


BIG_PY = [2 ** 70, 2 ** 70 + 1, -2 ** 70, 2 ** 70 + 3, 0.5, 2 ** 70 + 1, 7, 2 ** 80, 2 ** 70, 0.25]


@pytest.mark.parametrize("s", [np.array([B, B + 1, B + 2, B + 3, B + 3, B + 5, B + 7, B + 1, B + 8, B + 2]), BIG_PY])
def test_curve_thresholds_realise_their_rates(s):
    # Scores beyond 2^53 were rounded by float64; Python ints beyond 64 bits were reported as
    # their ranks (0, 1, 2, ...).
    vals = _values(s)
    c = rw.roc_curve(Y, s)
    for t, a, b in zip(c.thresholds.tolist()[1:], c.tpr[1:], c.fpr[1:]):
        assert _direct(Y, vals, t) == (a, b), t
    assert sorted(c.thresholds.tolist()[1:]) == sorted(set(vals))
    p = rw.precision_recall_curve(Y, s)
    assert set(p.thresholds.tolist()) - {math.inf} <= set(vals)
