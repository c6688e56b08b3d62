"""``compare(..., method="bootstrap")`` and ``compare_unpaired(..., method="bootstrap")``.

* Exactness: the engine's replicates (one draw of the units shared by the K scorers, each
  scorer's table a bincount of the counts) equal the criterion evaluated literally, from
  its definition in ``tests/_support/reference.py``, on the same resample given as row
  weights: AUC, KS, average precision, partial AUC, with ties and weights; over clusters
  the resample is drawn literally too (the cluster counts from the same generator, rows
  weighted by their cluster's count).
* The statistic, p-value and intervals from the replicates by their definitions (pROC's
  D = difference / sd of the bootstrap differences; percentile and BCa with a literal
  leave-one-out jackknife); seeds reproduce; the blocking of the resamples does not
  change them.
* The law against pROC (tests/golden/proc_bootstrap.json): point values to 1e-9, the
  bootstrap sd of the difference within 5% (Monte Carlo error: about 1.1% here and 0.7%
  in pROC's run of 10,000 resamples).
* Bad input.
"""

import json
import pathlib

import numpy as np
import pytest

import rankwise as rw
from _support import reference as ref
from rankwise.stats import _compare_boot as cb
from rankwise.stats import _dist

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden" / "proc_bootstrap.json"

#: criterion spec -> literal function (y bool, s, w)
LITERAL = {
    "auc": ref.auc_ref,
    "ks_statistic": ref.ks_ref,
    "average_precision": ref.average_precision_ref,
    "partial_auc:max_fpr=0.3": lambda y, s, w: ref.partial_auc_range_ref(y, s, w, lo=0.0, hi=0.3),
}


def _data(n=28, seed=0, ties=True, weights=False):
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=int)
    y[: n // 2] = 1
    rng.shuffle(y)
    a = y * 0.8 + rng.normal(size=n)
    b = 0.5 * a + y * 0.3 + rng.normal(size=n)
    if ties:
        a, b = np.round(a, 0), np.round(b, 0)
    w = rng.integers(1, 4, size=n).astype(float) if weights else None
    return y, a, b, w


def _engine(spec, y, scores, w, clusters=None):
    from rankwise import criteria as _criteria

    unit = _criteria.get(spec)
    is_pos = np.asarray(y).astype(bool)
    ww = None if w is None else np.asarray(w, dtype=float)
    _, levels = cb.sample_levels(is_pos, [np.asarray(s, dtype=float) for s in scores], ww, 1.0)
    cl = None if clusters is None else rw._validation.check_clusters(clusters, is_pos.shape[0])
    return unit, cb.BootDraws(is_pos, levels, ww, cl)


@pytest.mark.parametrize("spec", list(LITERAL))
@pytest.mark.parametrize("weights", [False, True])
def test_replicates_equal_literal_stratified(spec, weights):
    y, a, b, w = _data(weights=weights)
    unit, draws = _engine(spec, y, [a, b], w)
    B = 12
    reps = cb.replicates(unit, draws, B, 7)
    W = draws.unit_weights(draws.streams(7), B)
    rowsw = draws.row_weights(W, y.shape[0])
    yb = y.astype(bool)
    base = np.ones(y.shape[0]) if w is None else w
    for r in range(B):
        # the class sizes are kept (stratified): as many rows drawn per class as it has,
        # each carrying its weight
        counts = rowsw[r] / base
        assert np.array_equal(counts, np.round(counts))
        assert counts[yb].sum() == yb.sum() and counts[~yb].sum() == (~yb).sum()
        for k, s in enumerate((a, b)):
            assert reps[r, k] == pytest.approx(LITERAL[spec](yb, s, rowsw[r]), abs=1e-12)


@pytest.mark.parametrize("spec", list(LITERAL))
def test_replicates_equal_literal_few_levels(spec):
    """Few distinct scores: the units (rows alike under both scorers) are drawn by a
    multinomial of their counts rather than row by row."""
    rng = np.random.default_rng(4)
    y = np.r_[np.ones(60, dtype=int), np.zeros(70, dtype=int)]
    a = rng.integers(0, 3, 130) + y
    b = rng.integers(0, 2, 130) + (a > 1)
    unit, draws = _engine(spec, y, [a, b], None)
    assert not any(c["by_row"] for c in draws.classes)
    reps = cb.replicates(unit, draws, 8, 2)
    rowsw = draws.row_weights(draws.unit_weights(draws.streams(2), 8), 130)
    for r in range(8):
        assert rowsw[r, :60].sum() == 60 and rowsw[r, 60:].sum() == 70
        for k, s in enumerate((a, b)):
            assert reps[r, k] == pytest.approx(LITERAL[spec](y.astype(bool), s, rowsw[r]), abs=1e-12)


def test_row_draw_counts_are_integers_of_the_rows():
    """Unweighted: each resample gives every row a whole count, per class summing to its size."""
    y, a, b, _ = _data(n=40, ties=False)
    _, draws = _engine("auc", y, [a, b], None)
    rowsw = draws.row_weights(draws.unit_weights(draws.streams(3), 50), y.shape[0])
    assert np.array_equal(rowsw, np.round(rowsw))
    assert (rowsw[:, y == 1].sum(axis=1) == (y == 1).sum()).all()


@pytest.mark.parametrize("spec", ["auc", "ks_statistic", "average_precision"])
def test_replicates_equal_literal_clusters(spec):
    y, a, b, w = _data(n=30, weights=True)
    ids = np.repeat(np.arange(10), 3)[np.random.default_rng(1).permutation(30)]
    unit, draws = _engine(spec, y, [a, b], w, clusters=ids)
    B = 10
    reps = cb.replicates(unit, draws, B, 11)
    # Literal: the cluster counts drawn as rankwise draws them, each row weighted by its count.
    table = {}
    codes = np.array([table.setdefault(v, len(table)) for v in ids.tolist()])
    G = len(table)
    counts = np.random.default_rng(11).spawn(1)[0].multinomial(G, [1.0 / G] * G, size=B)
    yb = y.astype(bool)
    for r in range(B):
        rw_ = counts[r][codes] * w
        for k, s in enumerate((a, b)):
            if rw_[yb].sum() == 0 or rw_[~yb].sum() == 0:
                assert np.isnan(reps[r, k])
            else:
                assert reps[r, k] == pytest.approx(LITERAL[spec](yb, s, rw_), abs=1e-12)


def test_blocking_and_seed_do_not_change_the_stream():
    y, a, b, _ = _data(n=60, ties=False)
    unit, draws = _engine("auc", y, [a, b], None)
    one = cb.replicates(unit, draws, 30, 5)
    blocked = cb.replicates(unit, draws, 30, 5, chunk_elems=1)
    assert np.array_equal(one, blocked)
    assert not np.array_equal(one, cb.replicates(unit, draws, 30, 6))


def test_comparison_from_the_replicates():
    """cov = covariance of the replicates (B - 1); D = difference / sd of the differences;
    normal p-value; percentile interval = quantiles of the differences."""
    y, a, b, w = _data(n=40, weights=True)
    c = rw.stats.compare(y, {"a": a, "b": b}, "ks_statistic", sample_weight=w, method="bootstrap",
                         n_resamples=300, random_state=4, interval="percentile")
    unit, draws = _engine("ks_statistic", y, [a, b], w)
    reps = cb.replicates(unit, draws, 300, 4)
    d = reps[:, 0] - reps[:, 1]
    p = c.pairs[0]
    assert c.method == "bootstrap" and c.n_resamples == 300 and c.interval == "percentile"
    assert np.allclose(c.cov, np.cov(reps, rowvar=False), rtol=1e-12, atol=0)
    assert p.difference == pytest.approx(ref.ks_ref(y.astype(bool), a, w) - ref.ks_ref(y.astype(bool), b, w),
                                         abs=1e-12)
    assert p.std_error == pytest.approx(np.std(d, ddof=1), rel=1e-10)
    assert p.statistic == pytest.approx(p.difference / np.std(d, ddof=1), rel=1e-10)
    assert p.p_value == pytest.approx(2 * _dist.norm_sf(abs(p.statistic)), rel=1e-10)
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert (p.low, p.high) == pytest.approx((lo, hi), abs=1e-14)
    # same seed, same numbers
    again = rw.stats.compare(y, {"a": a, "b": b}, "ks_statistic", sample_weight=w, method="bootstrap",
                             n_resamples=300, random_state=4, interval="percentile")
    assert again.pairs == c.pairs and np.array_equal(again.cov, c.cov)


def _bca(value, reps, level, a):
    """Efron's BCa interval, literally."""
    z0 = _dist.norm_ppf((np.sum(reps < value) + 0.5 * np.sum(reps == value)) / reps.size)
    out = []
    for q in ((1 - level) / 2, (1 + level) / 2):
        zq = _dist.norm_ppf(q)
        out.append(np.quantile(reps, _dist.norm_cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))))
    return tuple(out)


def _literal_acceleration(y, cols, w, f):
    """Leave one row out within each class: U = mean_class(theta_(i)) - theta_(i) of the
    difference, a = sum U^3 / (6 (sum U^2)^1.5)."""
    yb = y.astype(bool)
    w = np.ones(y.shape[0]) if w is None else w
    num = den = 0.0
    for cls in (True, False):
        vals = []
        for i in np.flatnonzero(yb == cls):
            wi = w.copy()
            wi[i] = 0.0
            vals.append(f(yb, cols[0], wi) - f(yb, cols[1], wi))
        u = np.mean(vals) - np.array(vals)
        num += np.sum(u ** 3)
        den += np.sum(u ** 2)
    return num / (6 * den ** 1.5)


@pytest.mark.parametrize("spec", ["auc", "average_precision"])
def test_bca_interval_with_a_literal_jackknife(spec):
    y, a, b, _ = _data(n=30)
    c = rw.stats.compare(y, {"a": a, "b": b}, spec, method="bootstrap", n_resamples=400, random_state=9)
    unit, draws = _engine(spec, y, [a, b], None)
    reps = cb.replicates(unit, draws, 400, 9)
    d = reps[:, 0] - reps[:, 1]
    acc = _literal_acceleration(y, (a, b), None, LITERAL[spec])
    p = c.pairs[0]
    assert c.interval == "bca"
    assert (p.low, p.high) == pytest.approx(_bca(p.difference, d, 0.95, acc), abs=1e-12)


def test_one_sided_and_margin_intervals():
    y, a, b, _ = _data(n=40)
    kw = dict(method="bootstrap", n_resamples=200, random_state=1, interval="percentile")
    two = rw.stats.compare(y, [a, b], confidence_level=0.9, **kw).pairs[0]
    g = rw.stats.compare(y, [a, b], alternative="greater", **kw).pairs[0]
    le = rw.stats.compare(y, [a, b], alternative="less", **kw).pairs[0]
    ni = rw.stats.compare(y, [a, b], alternative="noninferiority", margin=0.05, **kw).pairs[0]
    eq = rw.stats.compare(y, [a, b], alternative="equivalence", margin=0.05, **kw).pairs[0]
    assert (g.low, g.high) == (two.low, np.inf)
    assert (le.low, le.high) == (-np.inf, two.high)
    assert (ni.low, ni.high) == (two.low, np.inf)
    assert (eq.low, eq.high) == (two.low, two.high)
    se = two.std_error
    assert g.p_value == pytest.approx(_dist.norm_sf(g.difference / se), rel=1e-12)
    assert ni.p_value == pytest.approx(_dist.norm_sf((ni.difference + 0.05) / se), rel=1e-12)


def test_global_test_uses_the_bootstrap_covariance():
    y, a, b, _ = _data(n=50, ties=False)
    c3 = a + np.random.default_rng(2).normal(size=50)
    c = rw.stats.compare(y, [a, b, c3], method="bootstrap", n_resamples=200, random_state=0)
    S = c.cov
    C = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])
    dd = C @ c.values
    stat = dd @ np.linalg.pinv(C @ S @ C.T) @ dd
    assert c.global_statistic == pytest.approx(stat, rel=1e-8) and c.global_df == 2
    assert len(c.pairs) == 3


def test_unpaired_bootstrap():
    y, a, b, _ = _data(n=40)
    y2, _, b2, _ = _data(n=36, seed=3)
    c = rw.stats.compare_unpaired(y, a, y2, b2, "ks_statistic", method="bootstrap", n_resamples=300,
                                  random_state=2, interval="percentile")
    assert c.df is None and not c.paired and c.method == "bootstrap"
    assert c.cov[0, 1] == 0.0
    # each sample on its own: the streams of a and b are the generator's two children
    ra, rb = np.random.default_rng(2).spawn(2)
    ua, da = _engine("ks_statistic", y, [a], None)
    ub, db = _engine("ks_statistic", y2, [b2], None)
    reps_a = cb.replicates(ua, da, 300, ra)[:, 0]
    reps_b = cb.replicates(ub, db, 300, rb)[:, 0]
    p = c.pairs[0]
    assert c.cov[0, 0] == pytest.approx(np.var(reps_a, ddof=1), rel=1e-12)
    assert p.std_error == pytest.approx(np.sqrt(np.var(reps_a, ddof=1) + np.var(reps_b, ddof=1)), rel=1e-12)
    assert (p.low, p.high) == pytest.approx(tuple(np.quantile(reps_a - reps_b, [0.025, 0.975])), abs=1e-14)
    bca = rw.stats.compare_unpaired(y, a, y2, b2, "ks_statistic", method="bootstrap", n_resamples=300,
                                    random_state=2)
    assert bca.pairs[0].std_error == p.std_error and "BCa" in bca.summary()


def test_clusters_and_summary():
    y, a, b, _ = _data(n=60, ties=False)
    ids = np.arange(60) // 2
    c = rw.stats.compare(y, {"a": a, "b": b}, "ks_statistic", method="bootstrap", n_resamples=100,
                         random_state=0, clusters=ids)
    assert c.n_clusters == 30
    assert "30 clusters resampled whole" in c.summary()
    assert np.isfinite(c.pairs[0].low) and np.isfinite(c.pairs[0].high)


def test_close_to_delong_for_the_auc():
    """The bootstrap sd of an AUC difference estimates the same quantity as DeLong's."""
    rng = np.random.default_rng(5)
    n = 400
    y = rng.integers(0, 2, n)
    a = y + rng.normal(size=n)
    b = 0.5 * a + 0.5 * y + rng.normal(size=n)
    boot = rw.stats.compare(y, [a, b], method="bootstrap", n_resamples=2000, random_state=0).pairs[0]
    delong = rw.stats.compare(y, [a, b]).pairs[0]
    assert boot.difference == delong.difference
    assert boot.std_error == pytest.approx(delong.std_error, rel=0.08)


def test_inputs_not_modified_and_single_class():
    y, a, b, w = _data(n=20, weights=True)
    copies = [x.copy() for x in (y, a, b, w)]
    rw.stats.compare(y, [a, b], sample_weight=w, method="bootstrap", n_resamples=20, random_state=0)
    for x, c in zip((y, a, b, w), copies):
        assert np.array_equal(x, c)
    with pytest.warns(UserWarning):
        c = rw.stats.compare(np.ones(5), [np.arange(5.0), np.arange(5.0)[::-1]], method="bootstrap",
                             n_resamples=10, random_state=0)
    assert np.isnan(c.values).all()


def test_delong_path_unchanged_and_ks_still_refused_there():
    y, a, b, _ = _data(n=30)
    with pytest.raises(ValueError, match="has none"):
        rw.stats.compare(y, [a, b], "ks_statistic")
    c = rw.stats.compare(y, [a, b])
    assert c.method == "delong" and c.n_resamples is None and c.interval is None


@pytest.mark.parametrize("kw, word", [
    (dict(n_resamples=1), "n_resamples"),
    (dict(n_resamples=2.5), "n_resamples"),
    (dict(n_resamples="100"), "n_resamples"),
    (dict(n_resamples=True), "n_resamples"),
    (dict(interval="bc"), "interval"),
    (dict(bandwidth=0.1), "bandwidth"),
])
def test_bad_bootstrap_arguments(kw, word):
    y, a, b, _ = _data(n=20)
    with pytest.raises(ValueError, match=word):
        rw.stats.compare(y, [a, b], method="bootstrap", **kw)
    with pytest.raises(ValueError, match=word):
        rw.stats.compare_unpaired(y, a, y, b, method="bootstrap", **kw)


@pytest.mark.parametrize("kw", [dict(n_resamples=100), dict(interval="bca"), dict(random_state=0)])
def test_bootstrap_arguments_refused_without_the_bootstrap(kw):
    y, a, b, _ = _data(n=20)
    name = next(iter(kw))
    with pytest.raises(ValueError, match=name):
        rw.stats.compare(y, [a, b], **kw)
    with pytest.raises(ValueError, match=name):
        rw.stats.compare_unpaired(y, a, y, b, method="delong", **kw)


def test_bootstrap_refused_where_it_does_not_apply():
    rng = np.random.default_rng(0)
    yr = rng.normal(size=20)
    with pytest.raises(ValueError, match="bootstrap"):
        rw.stats.compare(yr, [rng.normal(size=20), rng.normal(size=20)], "ranking_risk", method="bootstrap")
    y, a, b, _ = _data(n=20)
    with pytest.raises(ValueError, match="bootstrap"):
        rw.stats.compare(y, [a, b], "stratified_auc", method="bootstrap", strata=np.arange(20) % 2)


# --- the law against pROC ----------------------------------------------------------------------

def _golden_cases():
    if not GOLDEN.exists():
        return []
    return json.loads(GOLDEN.read_text())["cases"]


def _case_arrays(g, case):
    ds = g["datasets"]
    if case["name"].startswith("aSAH"):
        d = ds["aSAH"]
        y = np.array(d["y"], dtype=int)
        male = np.array(d["male"], dtype=bool)
        if case["paired"]:
            return y, np.array(d[case["a"]], float), y, np.array(d[case["b"]], float)
        s = np.array(d["s100b"], float)
        return y[male], s[male], y[~male], s[~male]
    d = ds["simulated"]
    y = np.array(d["y"], dtype=int)
    if case["paired"]:
        return y, np.array(d["s1"], float), y, np.array(d["s2"], float)
    return y, np.array(d["s1"], float), np.array(d["y_b"], dtype=int), np.array(d["s_b"], float)


@pytest.mark.parametrize("case", _golden_cases(), ids=lambda c: c["name"])
def test_law_against_proc(case):
    g = json.loads(GOLDEN.read_text())
    ya, sa, yb, sb = _case_arrays(g, case)
    crit = "partial_auc" if case["criterion"] == "partial_auc" else "auc"
    kw = dict(case["criterion_args"] or {})
    boot = dict(method="bootstrap", n_resamples=4000, random_state=case["seed"])
    if case["paired"]:
        c = rw.stats.compare(ya, {"a": sa, "b": sb}, crit, **boot, **kw)
    else:
        c = rw.stats.compare_unpaired(ya, sa, yb, sb, crit, **boot, **kw)
    # deterministic: the point values
    assert c.values[0] == pytest.approx(float(case["theta_a"]), abs=1e-9)
    assert c.values[1] == pytest.approx(float(case["theta_b"]), abs=1e-9)
    # random: the bootstrap sd of the difference within Monte Carlo error (5%: about 4 of
    # the combined relative errors, 1/sqrt(2 * 4000) here and 1/sqrt(2 * 10000) in pROC's run)
    p = c.pairs[0]
    assert p.std_error == pytest.approx(abs(float(case["sd"])), rel=0.05)
    assert p.statistic == pytest.approx(float(case["statistic"]), rel=0.05)


def test_compiled_engine_gives_the_same_replicates(monkeypatch):
    """numba's scatter of the drawn rows and numpy's bincount: identical replicates."""
    pytest.importorskip("numba")
    from rankwise._kernels import use_engine

    y, a, b, w = _data(n=200, ties=False, weights=True)
    monkeypatch.setattr(cb, "MIN_COMPILED_DRAWS", 0)
    out = {}
    for eng in ("numpy", "numba"):
        with use_engine(eng):
            for weighted in (False, True):
                unit, draws = _engine("average_precision", y, [a, np.round(b, 1)], w if weighted else None)
                assert all(c["by_row"] for c in draws.classes)
                out[eng, weighted] = cb.replicates(unit, draws, 40, 3)
    assert "fn" in cb._KERNEL
    for weighted in (False, True):
        assert np.array_equal(out["numpy", weighted], out["numba", weighted])


def test_block_jackknife_close_to_the_full_one():
    """Above MAX_JACKKNIFE_UNITS units a class is left out by blocks: the acceleration
    keeps its sign and size (sums of cubes and squares add over a block's units)."""
    rng = np.random.default_rng(8)
    n = 1200
    y = np.r_[np.ones(n // 2, dtype=int), np.zeros(n // 2, dtype=int)]
    a = np.exp(y + rng.normal(size=n))  # skewed, so the acceleration is not ~0
    b = a + rng.normal(size=n)
    unit, draws = _engine("auc", y, [a, b], None)
    full = [draws.full_tables(k) for k in range(2)]
    coef = np.array([1.0, -1.0])
    exact = cb.acceleration_of(cb.jackknife_acceleration(unit, draws, full, cap=10 ** 6), coef)
    blocks = cb.acceleration_of(cb.jackknife_acceleration(unit, draws, full), coef)
    assert np.isfinite(exact) and np.isfinite(blocks)
    assert abs(blocks - exact) < 0.5 * abs(exact) + 2e-3, (exact, blocks)


# --- the fused AUC path (one compiled pass per resample from the drawn rows) ------------

def _fused_cases():
    rng = np.random.default_rng(21)
    out = []
    for n, ties, weights, K in [(2, False, False, 1), (3, True, True, 2), (5, False, True, 2),
                                (28, True, False, 2), (28, True, True, 3), (61, False, False, 2),
                                (61, False, True, 1), (200, True, True, 2)]:
        y = np.zeros(n, dtype=int)
        y[: max(1, n // 3)] = 1
        rng.shuffle(y)
        scores = [y * 0.7 + rng.normal(size=n) for _ in range(K)]
        if ties:
            scores = [np.round(s, 1) if j % 2 else np.round(s, 0) for j, s in enumerate(scores)]
        w = rng.choice([0.5, 1.0, 2.5], size=n) if weights else None
        out.append((y, scores, w))
    return out


@pytest.mark.parametrize("spec", ["auc", "gini"])
@pytest.mark.parametrize("case", range(8))
def test_fused_auc_equals_table_path(spec, case):
    """The fused path draws the same rows in the same blocks: every replicate equals the
    table path's (to rounding), with ties, weights, one to three scorers, tiny samples;
    blocked or not."""
    pytest.importorskip("numba")
    from rankwise._kernels import use_engine

    y, scores, w = _fused_cases()[case]
    unit, draws = _engine(spec, y, scores, w)
    if not cb._fused_auc(unit, draws):
        assert not all(c["by_row"] for c in draws.classes)  # few units: the table path only
        return
    with use_engine("numba"):
        fused = cb.replicates(unit, draws, 40, 9, fused=True)
        blocked = cb.replicates(unit, draws, 40, 9, chunk_elems=1, fused=True)
    table = cb.replicates(unit, draws, 40, 9, fused=False)
    np.testing.assert_allclose(fused, table, rtol=0, atol=1e-12)
    np.testing.assert_allclose(blocked, table, rtol=0, atol=1e-12)


def test_fused_auc_equals_literal():
    """Fused replicates against the AUC by its definition on the resample as row weights."""
    pytest.importorskip("numba")
    from rankwise._kernels import use_engine

    y, a, b, w = _data(n=23, weights=True)
    unit, draws = _engine("auc", y, [a, b], w)
    assert cb._fused_auc(unit, draws)
    with use_engine("numba"):
        reps = cb.replicates(unit, draws, 10, 3, fused=True)
    rowsw = draws.row_weights(draws.unit_weights(draws.streams(3), 10), y.shape[0])
    for r in range(10):
        for k, s in enumerate((a, b)):
            assert reps[r, k] == pytest.approx(ref.auc_ref(y.astype(bool), s, rowsw[r]), abs=1e-12)


def test_fused_auc_not_taken_where_it_does_not_apply():
    """Other criteria, clusters, and the numpy engine take the table path (same numbers)."""
    from rankwise._kernels import use_engine

    y, a, b, w = _data(n=30, ties=False, weights=True)
    unit, draws = _engine("ks_statistic", y, [a, b], w)
    assert not cb._fused_auc(unit, draws)
    unit, draws = _engine("auc", y, [a, b], w, clusters=np.arange(30) % 7)
    assert not cb._fused_auc(unit, draws)
    unit, draws = _engine("auc", y, [a, b], w)
    with use_engine("numpy"):
        assert np.array_equal(cb.replicates(unit, draws, 6, 1, fused=True),
                              cb.replicates(unit, draws, 6, 1, fused=False))
