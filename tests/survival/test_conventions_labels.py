"""The censored label kind (rankwise._labels.CensoredKind): registered beside the binary and
real kinds; reads (time, event) in its accepted forms, validates with messages naming the
argument, knows its cells and its comparable pairs (against the literal pair loop), its
summaries merge, and check_sample takes it."""

import functools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankwise import _labels as L
from _support import reference_survival as ref


def test_registered_after_binary_and_real():
    assert L.kind_names()[:3] == ("binary", "real", "censored")
    assert L.get_kind("censored") is L.CENSORED
    assert pickle.loads(pickle.dumps(L.CENSORED)) is L.CENSORED
    assert L.CENSORED.n_cells == 2 and L.CENSORED.cell_pairs == ((1, 1), (1, 0))
    with pytest.raises(ValueError, match="already registered"):
        L.register_kind(L.CensoredKind())


@pytest.mark.parametrize("form", ["tuple", "list", "structured", "columns"])
def test_read_forms(form):
    t, e = [3.0, 1.0, 2.0], [1, 0, True]
    if form == "tuple":
        y = (t, e)
    elif form == "list":
        y = [np.array(t), np.array(e)]
    elif form == "structured":
        # scikit-survival's field order
        y = np.array(list(zip([bool(v) for v in e], t)), dtype=[("event", "?"), ("time", "f8")])
    else:
        y = np.column_stack([t, e])
    labels, res = L.CENSORED.read(y, func="f")
    assert labels.dtype == L.CensoredKind.dtype
    np.testing.assert_array_equal(labels["time"], t)
    np.testing.assert_array_equal(labels["event"], [True, False, True])
    assert res.both and res.defined and res.pos_label is None
    np.testing.assert_array_equal(L.CENSORED.cells(labels), [1, 0, 1])


def test_check_sample_takes_the_kind():
    s = L.check_sample(([1, 2, 3], [1, 0, 1]), [0.3, 0.2, 0.1], kind="censored", func="f")
    assert s.kind is L.CENSORED and s.defined and s.n_rows == 3
    np.testing.assert_array_equal(s.cells, [1, 0, 1])
    # the only event is last: no pair is comparable
    assert not L.check_sample(([1, 2, 3], [0, 0, 1]), [0.3, 0.2, 0.1], kind="censored").defined
    # weights decide too: the one comparable pair has a row of weight 0
    assert not L.check_sample(([1, 2], [1, 0]), [1, 2], kind="censored", sample_weight=[1, 0]).defined
    with pytest.raises(TypeError, match="takes censored times; 'pos_label' does not apply"):
        L.check_sample(([1, 2], [1, 0]), [1, 2], kind="censored", pos_label=1, func="f")
    with pytest.raises(TypeError, match="not real-valued labels"):
        L.CENSORED.as_real(s.labels)


@pytest.mark.parametrize("time, event, exc, match", [
    ([1, -2, 3], [1, 0, 1], ValueError, "The 'time' parameter of f must hold non-negative times. Got 1 negative "
                                        "value\\(s\\), the first at row 1."),
    ([1, np.nan, np.inf], [1, 0, 1], ValueError, "The 'time' parameter of f must hold finite times. Got 2 NaN or "
                                                 "infinite value\\(s\\), first at row 1, 2."),
    (["a", "b"], [1, 0], TypeError, "The 'time' parameter of f must hold times \\(real numbers\\)"),
    ([True, False], [1, 0], TypeError, "Got booleans instead"),
    ([], [], ValueError, "f got an empty sample: 'time' has no values."),
    ([1, 2, 3], [1, 2, 1], ValueError, "The 'event' parameter of f must hold booleans or 0/1 \\(1: the event "
                                       "happened, 0: censored\\). Got \\[2.0\\] at rows \\[1\\]."),
    ([1, 2, 3], [1, np.nan, 0], ValueError, "'event' parameter of f must hold booleans or 0/1"),
    ([1, 2, 3], ["x", "y", "z"], ValueError, "'event' parameter of f must hold booleans or 0/1 .* dtype <U1"),
    ([1, 2, 3], [1, 0], ValueError, "'time' has 3 values but 'event' has 2"),
    ([[1, 2]], [1], ValueError, "'time' argument must be one-dimensional"),
])
def test_bad_input_names_the_argument(time, event, exc, match):
    with pytest.raises(exc, match=match):
        L.CENSORED.check_parts(time, event, "f")


def test_bad_forms_of_y_true():
    with pytest.raises(TypeError, match="must be censored times: a pair \\(time, event\\)"):
        L.CENSORED.read([1, 2, 3], func="f")
    with pytest.raises(TypeError, match="must be censored times"):
        L.CENSORED.read(np.zeros((3, 3)), func="f")


def test_summaries_merge_and_resolve():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 5, 40).astype(float)
    e = rng.random(40) < 0.5
    w = rng.random(40)
    parts = [L.CENSORED.summarize((t[a:b], e[a:b]), w[a:b]) for a, b in ((0, 7), (7, 30), (30, 40))]
    merged = functools.reduce(L.LabelSummary.merge, parts)
    whole = L.CENSORED.summarize((t, e), w)
    assert merged.values[0][:2] == whole.values[0][:2] and merged.n == 40
    assert merged.values[1][2] == pytest.approx(w[e].sum())
    res = merged.resolve()
    assert res.both and res.defined and res.values == (False, True)
    bad = L.CENSORED.summarize(([1.0, -1.0, np.nan, 2.0], [1, 0, 1, 3]))
    assert bad.n_bad == 3 and bad.bad_rows == (1, 2, 3)
    with pytest.raises(ValueError, match="3 invalid row\\(s\\) \\(first at index 1, 2, 3\\)"):
        bad.resolve()
    none = L.CENSORED.summarize(([1.0, 2.0], [0, 0])).resolve()
    assert not none.both and not none.defined
    with pytest.raises(ValueError, match="empty"):
        L.CENSORED.summarize(([], [])).resolve()


def test_comparable_predicate():
    c = L.CensoredKind.comparable
    assert c(1, True, 2, False) and c(1, True, 1, False) and not c(1, True, 1, True)
    assert not c(1, False, 2, True) and not c(2, True, 1, False)
    assert not c(1, True, 1, False, tied_event_censored=False)
    np.testing.assert_array_equal(c([1, 1, 1], [1, 1, 0], [2, 1, 3], [1, 0, 1]), [True, True, False])


@settings(max_examples=50)
@given(st.integers(0, 2 ** 31), st.integers(0, 20), st.booleans(), st.booleans(), st.booleans())
def test_comparable_weight_is_the_pair_count(seed, n, weighted, stratified, tec):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 5, n).astype(float)
    e = rng.random(n) < 0.6
    w = rng.integers(0, 3, n).astype(float) if weighted else None
    s = rng.integers(0, 3, n) if stratified else None
    want = ref.harrell(t, e, np.zeros(n), w, s, tied_event_censored=tec)[2]
    assert L.CensoredKind.comparable_weight(t, e, w, s, tied_event_censored=tec) == pytest.approx(want, abs=1e-12)
