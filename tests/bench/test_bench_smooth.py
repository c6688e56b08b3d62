"""bench/bench_smooth.py's quick mode (helpers of tests/bench/test_bench.py): the table has
its rows, every time is a positive number and the script exits 0. Times are never compared
with anything."""

import contextlib
import importlib.util
import io
import pathlib

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, positive_finite = _tb.script, _tb.tables, _tb.positive_finite


def test_bench_smooth_quick():
    mod = script("bench_smooth.py")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert mod["main"](["--quick"]) == 0
    out = buf.getvalue()
    assert "BLAS on one thread" in out
    (header, *rows), = tables(out)
    assert header == ["n", "method", "call", "rankwise (s)", "pROC (s)", "pROC / rankwise"]
    assert [(r[1], r[2][:3]) for r in rows] == [("binormal", "(a)"), ("binormal", "(b)"), ("density", "(a)"),
                                                ("density", "(b)")]
    assert all(positive_finite(r[3]) for r in rows)
