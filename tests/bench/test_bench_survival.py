"""bench/bench_survival.py's quick mode (helpers of tests/bench/test_bench.py): one row per
(data, call) at n = 2e4, times positive, each ratio its time over the AUC estimate's, the
values those of rw.survival.estimate on the same data."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_survival_quick(capsys):
    import rankwise as rw

    mod = script("bench_survival.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "data", "call", "time (s)", "/ estimate(AUC)", "value", "std. error"]
    assert [(r[1], r[2]) for r in rows] == [(d, c) for d in ("float", "tied")
                                            for c in ("rw.stats.estimate (AUC)", "rw.survival.estimate")]
    for r in rows:
        assert num(r[0]) == 2e4 and positive_finite(r[3]) and positive_finite(r[4])
    for r, tied in ((rows[1], False), (rows[3], True)):
        e = rw.survival.estimate(*mod["make"](20_000, tied))
        assert num(r[5]) == pytest.approx(e.value, abs=5e-7) and num(r[6]) == pytest.approx(e.std_error, abs=5e-7)
    assert "agreement checks: all passed" in out
