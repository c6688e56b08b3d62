"""bench/bench_survival.py's quick mode (helpers of tests/bench/test_bench.py): one row per
(data, call) at n = 2e4 (the AUC baseline, Harrell's C, Uno's C, Uno's C truncated at
tau), times positive, each ratio its time over the AUC estimate's, the values those of
rw.survival.estimate on the same data."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite

CALLS = ["rw.stats.estimate (AUC)", "rw.survival.estimate", "rw.survival.estimate, weighting='uno'",
         "rw.survival.estimate, weighting='uno', tau"]


def test_bench_survival_quick(capsys):
    import rankwise as rw

    mod = script("bench_survival.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "data", "call", "time (s)", "/ estimate(AUC)", "value", "std. error"]
    assert [(r[1], r[2]) for r in rows] == [(d, c) for d in ("float", "tied") for c in CALLS]
    for r in rows:
        assert num(r[0]) == 2e4 and positive_finite(r[3]) and positive_finite(r[4])
    for k, tied in ((0, False), (4, True)):
        t, e, r = mod["make"](20_000, tied)
        tau = mod["truncation"](t, e)
        assert 0 < tau < t.max()
        for j, kw in enumerate([{}, {"weighting": "uno"}, {"weighting": "uno", "tau": tau}], start=1):
            est = rw.survival.estimate(t, e, r, **kw)
            got = rows[k + j]
            assert num(got[5]) == pytest.approx(est.value, abs=5e-7), got
            assert num(got[6]) == pytest.approx(est.std_error, abs=5e-7), got
    assert "agreement checks: all passed" in out
