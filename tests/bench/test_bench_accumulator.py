"""bench/bench_accumulator.py's quick mode (helpers of tests/bench/test_bench.py): the three
tables with their rows, the accumulator's value and standard error equal to
rw.stats.estimate's on the script's own data, the memory table's sizes those of an
accumulator fed the same batches, the quantised row's bound holding the exact AUC of its
rows, and the PySpark line. Times and their ratios are only required to be positive
finite numbers (and the ratios the quotients of the printed times, to their rounding)."""

import importlib.util
import pathlib

import numpy as np
import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_accumulator_quick(capsys):
    import rankwise as rw
    from rankwise.stats import RankAccumulator

    mod = script("bench_accumulator.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (ha, *ra), (hb, *rb), (hc, *rc) = tables(out)
    assert ha == ["scores", "n", "batches", "updates (s)", "acc.estimate (s)", "accumulator (s)",
                  "rw.stats.estimate (s)", "ratio (best)", "ratio (median)", "value", "std. error", "same floats"]
    assert [r[0] for r in ra] == ["float64", "float32"]
    y, s = mod["make"](100_000)
    for r, scores in zip(ra, (s, s.astype(np.float32))):
        assert num(r[1]) == 1e5 and r[2] == "100" and r[11] == "yes"
        assert all(positive_finite(c) for c in r[3:9])
        # one round: the ratio is the quotient of the printed times, to their rounding (4 decimals)
        lo = (num(r[5]) - 5e-5) / (num(r[6]) + 5e-5) - 0.005
        hi = (num(r[5]) + 5e-5) / max(num(r[6]) - 5e-5, 1e-9) + 0.005
        assert lo <= num(r[7]) <= hi and r[7] == r[8], r
        e = rw.stats.estimate(y, scores, "auc")
        assert num(r[9]) == pytest.approx(e.value, abs=5e-7) and num(r[10]) == pytest.approx(e.std_error, abs=5e-7)
    assert hb[:7] == ["scores", "n", "batch", "distinct scores", "acc.nbytes (MB)", "traced peak (MB)",
                      "rows as arrays (MB)"]
    assert [r[0] for r in rb] == ["float32", "round4"]
    for r in rb:
        acc, _ = mod["feed"](100_000, 1000, r[0])
        assert int(r[3]) == acc.n_levels and num(r[4]) == pytest.approx(acc.nbytes / 1e6, abs=5e-4)
        assert positive_finite(r[5]) and r[8] == "not run (quick mode)"
    (c,) = rc
    assert hc[:4] == ["n", "batch", "resolution", "cells"] and c[2] == "2^-12"
    assert all(positive_finite(x) for x in c[4:8])
    lower, value, upper = num(c[8]), num(c[9]), num(c[10])
    assert lower <= value <= upper and num(c[11]) == pytest.approx(upper - lower, rel=0.05)
    acc = RankAccumulator(resolution=2.0 ** -12)
    for yb, sb in mod["batches"](1_000_000, 100_000, seed=3):
        acc.update(yb, sb)
    assert int(c[3]) == acc.n_levels and num(c[9]) == pytest.approx(acc.auc_bounds()[1], abs=5e-7)
    assert "PySpark: not installed" in out or "PySpark: installed" in out
    assert "within the bound" in out and "agreement checks: all passed" in out
