"""bench/bench_groups.py's quick mode (helpers of tests/bench/test_bench.py): the tables have
their rows, every time is a positive number, each ratio is its two times' quotient, and the
script's agreement checks (by_group against fairlearn, scikit-learn, estimate, bias_aucs and
the stratified AUC, to 1e-12) all pass. Times are never compared with anything."""

import importlib.util
import pathlib
import sys

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def _fairlearn_installed() -> bool:
    return importlib.util.find_spec("fairlearn") is not None


def _check_output(mod, out: str, with_fairlearn: bool) -> None:
    assert "AVX-512:" in out and "load average" in out and "BLAS threads 1" in out
    timings, targets, boot = tables(out)
    header, *rows = timings
    assert header == ["n", "scores", "call", "time (s)", "/ (a) estimate"]
    variants = ["float, no ties", "2 decimals, tied"]
    calls = [f"({mod['LETTER'][c]}) {c}" for c in mod["CALLS"]]
    assert [(r[1], r[2]) for r in rows] == [(v, c) for v in variants for c in calls]
    t = {}
    for r in rows:
        assert num(r[0]) == 2e4
        if r[2] == "(e) fairlearn MetricFrame" and not with_fairlearn:
            assert r[3] == "skipped (fairlearn not installed)" and r[4] == "-"
            continue
        assert positive_finite(r[3]) and positive_finite(r[4]), r
        t[(r[1], r[2])] = num(r[3])
        base = num(next(x[3] for x in rows if x[1] == r[1] and x[2] == "(a) estimate"))
        # times print to 4 decimals: the quotient of the printed times, within their rounding
        lo, hi = (num(r[3]) - 5e-5) / (base + 5e-5), (num(r[3]) + 5e-5) / max(base - 5e-5, 1e-12)
        assert lo - 0.005 <= num(r[4]) <= hi + 0.005, r
    header, *rows = targets
    assert len(header) == 7 and [r[1] for r in rows] == variants
    for r in rows:
        assert r[2].endswith(("(met)", "(missed)"))
        assert positive_finite(r[2].split()[0]) and positive_finite(r[3]) and positive_finite(r[4])
        if with_fairlearn:
            assert r[5].endswith(("(met)", "(missed)")) and positive_finite(r[5].split()[0])
        else:
            assert r[5] == "-" and r[6] == "-"
    header, *rows = boot
    assert header == ["n", "call", "time (s)", "ratio to by_group"] and len(rows) == 2
    assert positive_finite(rows[0][2])
    if with_fairlearn:
        assert positive_finite(rows[1][2]) and positive_finite(rows[1][3])
        assert "DeLong interval width / fairlearn's bootstrap percentile interval width" in out
    else:
        assert rows[1][2] == "skipped (fairlearn not installed)"
    checks = [line for line in out.splitlines() if line.startswith("check: ")]
    assert checks and not any("FAILED" in c for c in checks)
    compared = [c for c in checks if "vs fairlearn" in c]
    assert (len(compared) == 5) == with_fairlearn and (len(compared) == 0) != with_fairlearn
    for c in checks:
        if "largest difference" in c:
            diff = float(c.split("largest difference ")[1].split()[0])
            tol = float(c.rsplit("tolerance ", 1)[1].rstrip(")"))
            assert 0 <= diff <= tol, c
    assert out.rstrip().endswith(f"agreement checks: all {len(checks) - (not with_fairlearn)} passed")


@pytest.mark.skipif(not _fairlearn_installed(), reason="fairlearn not installed (the test below runs without it)")
def test_bench_groups_quick_with_fairlearn(capsys):
    mod = script("bench_groups.py")
    assert mod["main"](["--quick"]) == 0
    _check_output(mod, capsys.readouterr().out, with_fairlearn=True)


def test_bench_groups_quick_without_fairlearn(capsys, monkeypatch):
    """As when fairlearn is not installed (CI): its rows say so, scikit-learn is the anchor."""
    monkeypatch.setitem(sys.modules, "fairlearn", None)  # import fairlearn raises ImportError
    monkeypatch.setitem(sys.modules, "fairlearn.metrics", None)
    mod = script("bench_groups.py")
    assert mod["main"](["--quick"]) == 0
    _check_output(mod, capsys.readouterr().out, with_fairlearn=False)


def test_bench_groups_exits_1_when_a_check_fails(capsys, monkeypatch):
    """A check off by more than its tolerance (nan too) is printed FAILED and main returns 1."""
    spec = importlib.util.spec_from_file_location("_rw_bench_groups", pathlib.Path(_tb.BENCH) / "bench_groups.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    checks = mod.Checks()
    checks.add("agrees", 1e-15)
    assert checks.ok
    checks.add("differs", 1e-9)
    checks.add("nan", float("nan"))
    assert not checks.ok and [i[3] for i in checks.items] == [True, False, False]
    original = mod.check_variant

    def off_by_1e_9(rw, checks, label, *rest):
        original(rw, checks, label, *rest)
        checks.add(f"{label}: injected", 1e-9)

    monkeypatch.setattr(mod, "check_variant", off_by_1e_9)
    monkeypatch.setattr(mod, "run_bootstrap", lambda rw, n, *a: (1.0, None))
    assert mod.main(["--quick", "--no-fairlearn"]) == 1
    out = capsys.readouterr().out
    assert "injected: largest difference 1.0e-09 (FAILED, tolerance 1e-12)" in out
    assert out.rstrip().endswith("agreement checks: FAILED")


def test_bench_groups_data():
    """make_data: clusters of 5 rows inside one group, 10 groups, about 30% positives, the
    tied variant the scores rounded to 2 decimals."""
    import numpy as np

    mod = script("bench_groups.py")
    y, s, s_tied, g, ids = mod["make_data"](10_000)
    assert np.bincount(ids).tolist() == [5] * 2000
    assert all(np.unique(g[ids == c]).shape[0] == 1 for c in range(0, 2000, 97))
    assert set(np.unique(g).tolist()) == set(range(10))
    assert 0.28 < y.mean() < 0.32
    assert np.unique(s).shape[0] == 10_000 and np.array_equal(s_tied, np.round(s, 2))
