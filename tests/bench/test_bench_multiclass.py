"""bench/bench_multiclass.py's quick mode (helpers of tests/bench/test_bench.py): at n = 2e4
for K = 3 and 5, one row per average (OvR macro, OvO macro, micro) with rankwise's value
equal to scikit-learn's roc_auc_score on the script's own data, the VUS row (K = 3) with
rw.vus's value, and, when rankwise has rw.stats.MulticlassEstimate, one estimate row per
criterion whose value and standard error are rw.stats.estimate's. Times and their ratios
are only required to be positive finite numbers."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location("_rw_test_bench", pathlib.Path(__file__).with_name("test_bench.py"))
_tb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tb)
script, tables, num, positive_finite = _tb.script, _tb.tables, _tb.num, _tb.positive_finite

AVERAGES = {"OvR macro": ("ovr", "macro"), "OvO macro": ("ovo", "macro"), "micro": ("ovr", "micro")}


def test_bench_multiclass_quick(capsys):
    from sklearn.metrics import roc_auc_score

    import rankwise as rw

    mod = script("bench_multiclass.py")
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    found = tables(out)
    has_se = hasattr(rw.stats, "MulticlassEstimate")
    assert len(found) == (3 if has_se else 2)
    (header, *rows), (vheader, *vrows) = found[:2]
    assert header == ["n", "K", "average", "rw.multiclass_auc (s)", "sklearn roc_auc_score (s)", "speed-up", "value",
                      "rel. difference"]
    assert [(r[1], r[2]) for r in rows] == [(str(K), a) for K in (3, 5) for a in AVERAGES]
    data = {K: mod["make"](20_000, K) for K in (3, 5)}
    for r in rows:
        assert num(r[0]) == 2e4 and all(positive_finite(c) for c in r[3:6])
        # the printed speed-up is the ratio of the times, up to their rounding (4 decimals, 1)
        lo = (num(r[4]) - 5e-5) / (num(r[3]) + 5e-5) - 0.05
        hi = (num(r[4]) + 5e-5) / max(num(r[3]) - 5e-5, 1e-9) + 0.05
        assert lo <= num(r[5]) <= hi, r
        y, S = data[int(r[1])]
        mc, av = AVERAGES[r[2]]
        assert num(r[6]) == pytest.approx(roc_auc_score(y, S, multi_class=mc, average=av), abs=5e-7)
        assert num(r[6]) == pytest.approx(rw.multiclass_auc(y, S, multi_class=mc, average=av), abs=5e-7)
        assert 0 <= num(r[7]) <= 1e-12
    assert vheader == ["n", "rw.vus (s)", "3 x rw.auc (s)", "vus / 3 auc", "np.sort(score) (s)", "vus / sort", "value"]
    (vr,) = vrows
    y, S = data[3]
    s = mod["vus_score"](S)
    assert all(positive_finite(c) for c in vr[1:6])
    assert num(vr[6]) == pytest.approx(rw.vus(y, s, labels=[0, 1, 2]), abs=5e-7)
    if has_se:
        sheader, *srows = found[2]
        assert sheader == ["n", "K", "rw.stats.estimate", "time (s)", "/ point value", "value", "std. error"]
        want = [("3", f"multiclass_auc, {a}") for a in AVERAGES] + [("3", "vus")]
        want += [("5", f"multiclass_auc, {a}") for a in AVERAGES]
        assert [(r[1], r[2]) for r in srows] == want
        for r in srows:
            assert positive_finite(r[3]) and positive_finite(r[4])
            y, S = data[int(r[1])]
            if r[2] == "vus":
                e = rw.stats.estimate(y, mod["vus_score"](S), criterion="vus", labels=[0, 1, 2])
            else:
                mc, av = AVERAGES[r[2].split(", ")[1]]
                e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av)
            assert num(r[5]) == pytest.approx(e.value, abs=5e-7)
            assert num(r[6]) == pytest.approx(e.std_error, abs=5e-7)
    assert "agreement checks: all passed" in out
