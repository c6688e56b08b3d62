"""Every registered criterion, through every entry point, from its unit alone.

The tests here know no criterion by name: they run the ``examples`` of every unit of
:mod:`rankwise.criteria`, so a criterion added as one module is checked everywhere at once:

* its pass adds up over score ranges seen through their offsets (the exact Dask
  algorithm, here in plain numpy) and over batches of resampled tables;
* its projection computed bucket by bucket equals the one-table projection;
* ``evaluate``, ``stats.estimate`` (analytic and bootstrap intervals), ``stats.compare``,
  the command line, the report and ``rankwise.distributed`` all run it and agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from rankwise import criteria
from rankwise._kernels import MassRows, RankTable, ShiftedTable, build_rank_table, dense
from _support.strategies import samples
from _support.quiet import quiet as _quiet

RANK_UNITS = [n for n in criteria.names() if issubclass(criteria.unit_class(n), criteria.RankCriterion)]
EXAMPLES = [spec for n in criteria.names() for spec in criteria.unit_class(n).examples]
RANK_EXAMPLES = [spec for n in RANK_UNITS for spec in criteria.unit_class(n).examples]
PROJ_EXAMPLES = [spec for spec in RANK_EXAMPLES if criteria.get(spec).has_projection]


def _close(a, b, tol=1e-9):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def _data(n=400, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = rng.normal(size=n) + 0.5 * y
    if ties:
        s = np.round(s, 1)
    return y, s


# --- the registry ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", criteria.names())
def test_every_criterion_has_examples_that_round_trip(name):
    cls = criteria.unit_class(name)
    assert cls.examples, f"{name} lists no examples"
    for spec in cls.examples:
        unit = criteria.get(spec)
        assert type(unit) is cls and unit.name == name
        assert criteria.get(unit.label) == unit  # the label is a spec of the same unit
        assert isinstance(unit.greater_is_better, bool)
        assert all(m in ("delong", "hajek", "hoeffding") for m in unit.methods)


def test_registry_errors_name_the_valid_criteria():
    with pytest.raises(ValueError, match="Unknown criterion 'no_such'; valid criteria are " + ", ".join(criteria.names())):
        criteria.get("no_such")
    with pytest.raises(TypeError, match="local_auc got unexpected parameter"):
        criteria.get("local_auc:top=0.1,tp=2")
    with pytest.raises(TypeError, match="local_auc needs the parameter"):
        criteria.get("local_auc")


# --- the pass: buckets with offsets, batches of rows ------------------------------------------

def _buckets(t: RankTable, cuts: list[int]):
    """The table cut at level positions ``cuts``, each part seen through its offsets."""
    pos, neg = t.pos, t.neg
    edges = [0] + sorted(set(c for c in cuts if 0 < c < t.size)) + [t.size]
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        part = RankTable(t.levels[a:b], pos[a:b].sum(), neg[a:b].sum(), weighted=t.weighted,
                         pos=pos[a:b], neg=neg[a:b])
        out.append((part, ShiftedTable(part, pos[:a].sum(), neg[:a].sum(), t.n_pos, t.n_neg)))
    return out


@pytest.mark.parametrize("spec", RANK_EXAMPLES)
@given(samples(weights=True, max_n=30) | samples(max_n=30), st.lists(st.integers(1, 29), min_size=1, max_size=3))
@settings(max_examples=40)
def test_pass_adds_up_over_score_ranges(spec, sample, cuts):
    y, s, w = sample
    unit = criteria.get(spec)
    t = build_rank_table(np.asarray(y, bool), np.asarray(s, float), None if w is None else np.asarray(w))
    whole = _quiet(unit.value, t)
    parts = [unit.sums(st_) for _, st_ in _buckets(t, cuts)]
    merged = _quiet(lambda: float(unit.finish(unit.merge(parts), t.n_pos, t.n_neg)))
    assert _close(merged, whole, 1e-10), (spec, merged, whole)


@pytest.mark.parametrize("spec", RANK_EXAMPLES)
@given(samples(weights=True, max_n=14) | samples(max_n=14))
@settings(max_examples=25)
def test_batch_rows_equal_the_weighted_tables(spec, sample):
    # A bootstrap resample is a row of level masses: the criterion on the row must equal the
    # criterion of the weighted sample with those masses (zero masses included).
    y, s, w = sample
    unit = criteria.get(spec)
    t = build_rank_table(np.asarray(y, bool), np.asarray(s, float), None if w is None else np.asarray(w))
    rng = np.random.default_rng(len(y))
    A = rng.integers(0, 3, size=(4, t.size)).astype(float) * (t.pos > 0)
    B = rng.integers(0, 3, size=(4, t.size)).astype(float) * (t.neg > 0)
    A[0], B[0] = t.pos, t.neg
    got = unit.values(MassRows(A, B))
    for r in range(4):
        if A[r].sum() == 0 or B[r].sum() == 0:
            continue
        keep = (A[r] + B[r]) > 0
        tr = RankTable(t.levels[keep], A[r].sum(), B[r].sum(), weighted=True, pos=A[r][keep], neg=B[r][keep])
        want = _quiet(unit.value, tr)
        assert _close(got[r], want), (spec, r, got[r], want)


@pytest.mark.parametrize("spec", RANK_EXAMPLES)
@given(samples(max_n=14), st.integers(1, 13))
@settings(max_examples=20)
def test_batch_rows_with_offsets_add_up(spec, sample, cut):
    # The Dask bootstrap: each bucket evaluates its rows with the resampled mass below it.
    y, s, _ = sample
    unit = criteria.get(spec)
    t = build_rank_table(np.asarray(y, bool), np.asarray(s, float), None)
    rng = np.random.default_rng(cut)
    A = rng.integers(0, 3, size=(3, t.size)).astype(float)
    B = rng.integers(0, 3, size=(3, t.size)).astype(float)
    A[:, 0] += 1.0
    B[:, -1] += 1.0
    P, M = A.sum(axis=1, keepdims=True), B.sum(axis=1, keepdims=True)
    c = min(cut, t.size - 1) if t.size > 1 else 0
    low = MassRows(A[:, :c], B[:, :c], np.zeros(3), np.zeros(3), P, M)
    high = MassRows(A[:, c:], B[:, c:], A[:, :c].sum(axis=1), B[:, :c].sum(axis=1), P, M)
    with np.errstate(all="ignore"):
        merged = unit.finish(unit.merge([unit.sums(low), unit.sums(high)]), P, M).ravel()
    assert np.allclose(merged, unit.values(MassRows(A, B)), rtol=1e-10, atol=1e-10, equal_nan=True)


# --- the projection, bucket by bucket -----------------------------------------------------------

@pytest.mark.parametrize("spec", PROJ_EXAMPLES)
@given(samples(weights=True, max_n=30) | samples(max_n=30), st.lists(st.integers(1, 29), min_size=1, max_size=3))
@settings(max_examples=40)
def test_projection_by_buckets_equals_one_table(spec, sample, cuts):
    y, s, w = sample
    unit = criteria.get(spec)
    t = build_rank_table(np.asarray(y, bool), np.asarray(s, float), None if w is None else np.asarray(w))
    d = dense(t)
    bw = unit.bandwidth(d.N, None)
    g1 = unit.combine([unit.summary(d, bw)], t.n_pos, t.n_neg)[0]
    hp1, hn1 = unit.projection(d, bw, g1)
    parts = _buckets(t, cuts)
    dd = [dense(st_) for _, st_ in parts]
    gs = unit.combine([unit.summary(x, bw) for x in dd], t.n_pos, t.n_neg)
    hp = np.concatenate([unit.projection(x, bw, g)[0] for x, g in zip(dd, gs)])
    hn = np.concatenate([unit.projection(x, bw, g)[1] for x, g in zip(dd, gs)])
    # Terms matter where the class has mass.
    assert np.allclose(hp[t.pos > 0], hp1[t.pos > 0], rtol=1e-9, atol=1e-9), spec
    assert np.allclose(hn[t.neg > 0], hn1[t.neg > 0], rtol=1e-9, atol=1e-9), spec


# --- every entry point ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec", EXAMPLES)
def test_evaluate_and_estimate(spec):
    y, s = _data(ties=True)
    unit = criteria.get(spec)
    value = rw.evaluate(y, s, [spec])[spec]
    assert value == rw.metrics.compute(spec, y, s) if unit.family == "rank" else np.isfinite(value)
    e = rw.stats.estimate(y, s, spec)
    assert _close(e.value, value)
    assert e.method == (unit.methods[0] if unit.methods else "bootstrap")
    if unit.methods:
        assert np.isfinite(e.std_error) and e.std_error > 0
    else:
        assert math.isnan(e.std_error)
    ci = e.confidence_interval(0.9, n_resamples=300, random_state=1)
    assert ci.low <= e.value <= ci.high and ci.low < ci.high
    reps = e.bootstrap_distribution(300, random_state=1)
    assert np.array_equal(reps, rw.stats.estimate(y, s, spec).bootstrap_distribution(300, random_state=1))
    boot = e.confidence_interval(0.9, method="bootstrap", n_resamples=300, random_state=1)
    assert boot.low < boot.high and boot.std_error > 0
    if unit.methods:  # the analytic and the bootstrap standard errors estimate the same thing
        assert boot.std_error == pytest.approx(e.std_error, rel=0.35)
    assert unit.name in e.summary()


@pytest.mark.parametrize("spec", [s for s in EXAMPLES if criteria.get(s).methods])
def test_compare(spec):
    y, s = _data(ties=True)
    rng = np.random.default_rng(3)
    s2 = s + rng.normal(size=s.shape[0])
    c = rw.stats.compare(y, {"a": s, "b": s2}, spec)
    ea, eb = rw.stats.estimate(y, s, spec), rw.stats.estimate(y, s2, spec)
    assert np.allclose(c.values, [ea.value, eb.value], rtol=1e-12)
    if criteria.get(spec).family == "rank":
        # The diagonal of the joint covariance is each scorer's own variance.
        assert np.allclose(c.std_errors, [ea.std_error, eb.std_error], rtol=1e-9)
    assert 0.0 <= c.pairs[0].p_value <= 1.0


@pytest.mark.parametrize("spec", [s for s in EXAMPLES if not criteria.get(s).methods])
def test_compare_refuses_a_criterion_without_projection(spec):
    y, s = _data()
    with pytest.raises(ValueError, match="has none"):
        rw.stats.compare(y, [s, -s], spec)


def test_cli_evaluates_every_criterion(tmp_path, capsys):
    import json

    from rankwise.cli import main

    y, s = _data(ties=True)
    path = tmp_path / "scores.csv"
    path.write_text("label,score\n" + "".join(f"{'yes' if a else 'no'},{b}\n" for a, b in zip(y, s)))
    specs = ",".join(EXAMPLES)
    assert main(["evaluate", str(path), "--label", "label", "--pos-label", "yes", "--score", "score",
                 "--criteria", specs, "--format", "json", "--resamples", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["criterion"] for r in rows] == EXAMPLES
    for r in rows:
        e = rw.stats.estimate(y == 1, s, r["criterion"])
        assert _close(r["value"], e.value)
        assert r["low"] <= r["value"] <= r["high"]


def test_report_shows_every_criterion(tmp_path):
    pytest.importorskip("matplotlib")
    from rankwise.report import write_report

    y, s = _data(n=300, ties=True)
    out = write_report(tmp_path / "r.html", title="all criteria", scores={"s": s, "t": -s}, y_true=y,
                       criteria=EXAMPLES, n_resamples=100, random_state=0)
    page = (tmp_path / "r.html").read_text()
    for spec in EXAMPLES:
        assert _close(out["criteria"]["s"][spec]["value"], rw.stats.estimate(y, s, spec).value)
        assert spec in page


def test_distributed_runs_every_rank_criterion():
    pytest.importorskip("dask")
    import rankwise.distributed as rwd

    y, s = _data(n=3000, ties=True)
    got = rwd.evaluate(y, s, RANK_EXAMPLES, n_partitions=4, chunk_size=700)
    want = rw.evaluate(y, s, RANK_EXAMPLES)
    for spec in RANK_EXAMPLES:
        assert _close(got[spec], want[spec], 1e-12), spec
    for spec in RANK_EXAMPLES:
        ed = rwd.estimate(y, s, spec, n_partitions=3, chunk_size=1000)
        es = rw.stats.estimate(y, s, spec)
        assert _close(ed.value, es.value, 1e-12)
        assert _close(ed.std_error, es.std_error, 1e-9), spec
        reps = ed.bootstrap_distribution(100, random_state=0)
        assert reps.shape == (100,) and np.isfinite(reps).all()
