"""bench/bench_censored_kernel.py's quick mode (helpers of tests/bench/test_bench.py): one
row per (data, case) at n = 2e4 and one for the AUC estimate, times positive, the engines
agreeing."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_censored_kernel_quick(capsys):
    pytest.importorskip("numba")
    mod = script("bench_censored_kernel.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "data", "case", "numba (s)", "numpy (s)", "numpy / numba", "numba / estimate(AUC)"]
    cases = ["unweighted", "integer weights", "fractional weights", "10 strata", "case weights, tie rule off"]
    assert [(r[1], r[2]) for r in rows] == [(d, c) for d in ("float", "tied")
                                            for c in cases + ["rw.stats.estimate (AUC), for scale"]]
    for r in rows:
        assert num(r[0]) == 2e4 and positive_finite(r[3])
        if r[2] in cases:
            assert positive_finite(r[4]) and positive_finite(r[5]) and positive_finite(r[6])
    assert "engine agreement: all passed" in out
