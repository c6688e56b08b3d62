"""bench/bench_clusters.py's quick mode (helpers of tests/bench/test_bench.py)."""

import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite


def test_bench_clusters_quick(capsys):
    """bench_clusters.py --quick: one row per (weights, criterion, call) at n = 2e4, every time
    positive, each ratio its two times' quotient (to the printed rounding), and the check that
    clusters=np.arange(n) gives the unclustered numbers printed below 1e-9."""
    mod = script("bench_clusters.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    assert "AVX-512:" in out and "load average" in out
    (table,) = tables(out)
    header, *rows = table
    assert header == ["n", "weights", "criterion", "call", "clusters=None (s)", "size 5 (s)", "size 5 / None",
                      "arange(n) (s)", "arange(n) / None"]
    want = [(wt, c, call) for wt in ("none", "weighted") for c in mod["CRITERIA"]
            for call in ("estimate, K = 1", "compare, K = 3")]
    assert [(r[1], r[2], r[3]) for r in rows] == want
    for r in rows:
        assert num(r[0]) == 2e4
        assert all(positive_finite(c) for c in (r[4], r[5], r[6], r[7], r[8])), r
        for t, ratio in ((r[5], r[6]), (r[7], r[8])):
            # times print to 4 decimals: the quotient of the printed times, within their rounding
            lo, hi = (num(t) - 5e-5) / (num(r[4]) + 5e-5), (num(t) + 5e-5) / max(num(r[4]) - 5e-5, 1e-12)
            assert lo - 0.005 <= num(ratio) <= hi + 0.005, r
    worst = float(out.split("largest relative difference ")[1].split()[0])
    assert 0 <= worst < 1e-9
    assert "R survival: not run (quick mode)" in out


def test_bench_clusters_interleaved_best():
    """time_interleaved keeps each call's best over the rounds and calls each once a round."""
    mod = script("bench_clusters.py")
    calls = []
    best = mod["time_interleaved"]([lambda: calls.append("a"), lambda: calls.append("b")], 3)
    assert sorted(calls) == ["a"] * 3 + ["b"] * 3 and calls[:2] in (["a", "b"], ["b", "a"])
    assert len(best) == 2 and all(0 <= t < 1 for t in best)
