"""bench/bench_time_auc.py's quick mode (helpers of tests/bench/test_bench.py): the rows it
prints (rankwise at 2e4 rows and 10 times; scikit-survival beside it when installed;
rankwise at 300 rows and 2 times, timeROC beside it when R has it), times and ratios
positive, rankwise's numbers those of rw.survival.cumulative_dynamic_auc on the same data,
and the agreement checks passed."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_time_auc_quick(capsys):
    import rankwise as rw

    mod = script("bench_time_auc.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "times", "call", "time (s)", "ratio", "mean AUC", "first std. error"]
    calls = [r[2] for r in rows]
    assert calls[0] == "rw.survival.cumulative_dynamic_auc (with SE)"
    assert calls.count("rw.survival.cumulative_dynamic_auc (with SE)") == 2
    assert set(calls) <= {"rw.survival.cumulative_dynamic_auc (with SE)",
                          "scikit-survival cumulative_dynamic_auc (no SE)", "R timeROC(iid = TRUE)"}
    for r in rows:
        assert positive_finite(r[3]) and positive_finite(r[4])
    ours = [r for r in rows if r[2].startswith("rw.")]
    assert [(num(r[0]), num(r[1])) for r in ours] == [(2e4, 10), (300, 2)]
    for r, (n, k, seed) in zip(ours, [(20_000, 10, 0), (300, 2, 1)]):
        t, e, risk = mod["make"](n, seed)
        res = rw.survival.cumulative_dynamic_auc(t, e, risk, mod["eval_times"](t, e, k))
        assert num(r[5]) == pytest.approx(res.mean_value, abs=5e-7)
        assert num(r[6]) == pytest.approx(res.std_errors[0], abs=5e-7)
    if "scikit-survival cumulative_dynamic_auc (no SE)" in calls:
        assert "ratio: scikit-survival / rankwise" in out
    if "R timeROC(iid = TRUE)" in calls:
        assert "ratio: timeROC / rankwise" in out
    assert "agreement checks: all passed" in out
