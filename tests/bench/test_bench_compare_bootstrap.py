"""bench/bench_compare_bootstrap.py's quick mode (helpers of tests/bench/test_bench.py)."""

import importlib.util
import pathlib

import numpy as np

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_compare_bootstrap_quick(capsys):
    """--quick: one row per kind of scores at n = 2e4, every time positive and each ratio the
    quotient of its two times (to the printed rounding); no R."""
    mod = script("bench_compare_bootstrap.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "scores", "DeLong compare, CPU (s)", "bootstrap, CPU (s)", "per resample (ms)",
                      "bootstrap / DeLong"]
    assert [r[1] for r in rows] == list(mod["KINDS"])
    for r in rows:
        assert num(r[0]) == 2e4 and all(positive_finite(c) for c in r[2:]), r
        lo = (num(r[3]) - 5e-5) / (num(r[2]) + 5e-5)
        hi = (num(r[3]) + 5e-5) / max(num(r[2]) - 5e-5, 1e-12)
        assert lo - 0.05 <= num(r[5]) <= hi + 0.05, r
    assert "pROC: not run (quick mode)" in out


def test_grid_data_is_on_the_grid():
    mod = script("bench_compare_bootstrap.py")
    y, a, b = mod["make_data"](1000, "grid 0..100")
    assert set(np.unique(a)) <= set(range(101)) and set(np.unique(b)) <= set(range(101))
    y, a, b = mod["make_data"](1000, "3 decimals")
    assert np.array_equal(a, np.round(a, 3))

