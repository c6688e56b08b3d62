"""bench/bench_coords_ci.py's quick mode (helpers of tests/bench/test_bench.py): the table
has its three rows, every time is a positive number, and the script ends with its checks'
verdict. Times are never compared with anything."""

import importlib.util
import pathlib

import numpy as np

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_coords_ci_quick(capsys):
    mod = script("bench_coords_ci.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    assert "load average" in out and "BLAS threads 1" in out
    (table,) = tables(out)
    header, *rows = table
    assert header[:4] == ["x", "n", "resamples", "rankwise (s)"]
    assert [r[0] for r in rows] == ["best cut", "specificity 0.8, 0.9", "two thresholds"]
    for r in rows:
        assert num(r[1]) == 2000 and r[2] == "50" and positive_finite(r[3])
        assert r[4] == "skipped" and r[5] == "-" and r[6] == "-"
    assert out.rstrip().endswith("agreement checks: all 0 passed")


def test_bench_coords_ci_data():
    mod = script("bench_coords_ci.py")
    y, s = mod["make_data"](20_000)
    assert y.dtype == np.int32 and 0.28 < y.mean() < 0.32 and np.unique(s).shape[0] == 20_000
