"""Label kinds, their mergeable summaries, the positive-label rule and the one validated
Sample (rankwise._labels; issue 28, item 2)."""

from __future__ import annotations

import dataclasses
import functools
import pickle
import re

import numpy as np
import pytest

from rankwise import _labels as L
from rankwise import _validation as V
from rankwise import criteria


def _merged(kind, y, cuts, w=None):
    """The summaries of ``y`` cut at ``cuts``, merged left to right."""
    edges = [0, *cuts, len(y)]
    parts = [kind.summarize(y[a:b], None if w is None else w[a:b]) for a, b in zip(edges[:-1], edges[1:])]
    return functools.reduce(L.LabelSummary.merge, parts), parts


def _raised(f):
    try:
        return ("ok", f())
    except (TypeError, ValueError) as exc:
        return (type(exc).__name__, str(exc))


# --- the binary kind's messages ---------------------------------------------------------------

BINARY_ERRORS = [
    ([], ValueError, "The 'y_true' argument is empty; at least one label is needed."),
    (np.array(["a", 1], dtype=object), TypeError,
     "The 'y_true' argument must hold comparable label values. Got mixed types: "
     "'<' not supported between instances of 'int' and 'str'"),
    ([0.0, np.nan, 1.0, np.inf, np.nan, 1.0, np.nan, np.nan, -np.inf], ValueError,
     "The 'y_true' argument contains 6 NaN or infinite value(s) (first at index 1, 3, 4, 6, 7, ...); "
     "labels must be two distinct values."),
    ([0, 1, 2, 3, 4, 5, 6, 7], ValueError,
     "The 'y_true' argument must hold two distinct label values for a bipartite criterion. Got 8 distinct "
     "values (0, 1, 2, 3, 4, 5, ...) instead; for graded labels use ranking_risk."),
    (["a", "b", "c"], ValueError,
     "The 'y_true' argument must hold two distinct label values for a bipartite criterion. Got 3 distinct "
     "values ('a', 'b', 'c') instead."),
    (np.array([1.0, np.nan], dtype=object), ValueError,
     "The 'y_true' argument contains missing values (None/NaN); labels must be two distinct values."),
    (["bad", "good"], ValueError,
     "The 'y_true' argument has labels 'bad', 'good'; they are not {0, 1}, {-1, 1} or booleans, so pass "
     "pos_label= to say which value is the positive class."),
    ([0, 2], ValueError,
     "The 'y_true' argument has labels 0, 2; they are not {0, 1}, {-1, 1} or booleans, so pass "
     "pos_label= to say which value is the positive class."),
]


@pytest.mark.parametrize("y, exc, message", BINARY_ERRORS)
def test_binary_messages(y, exc, message):
    with pytest.raises(exc, match=re.escape(message) + "$"):
        L.BINARY.read(y)
    with pytest.raises(exc, match=re.escape(message) + "$"):
        L.check_sample(y, np.zeros(len(y)))


def test_binary_pos_label_not_present():
    with pytest.raises(ValueError, match=re.escape(
            "The 'pos_label' parameter must be one of the labels present in y_true ('bad', 'good'). "
            "Got 'Good' instead.")):
        L.BINARY.read(["good", "bad"], pos_label="Good")


@pytest.mark.parametrize("y, pos_label, is_pos, both, pos", [
    ([0, 1, 1, 0], None, [0, 1, 1, 0], True, 1),
    ([-1, 1, 1], None, [0, 1, 1], True, 1),
    ([True, False], None, [1, 0], True, 1),
    ([0.0, 1.0], None, [0, 1], True, 1),
    (["good", "bad", "good"], "good", [1, 0, 1], True, "good"),
    (["good", "bad", "good"], "bad", [0, 1, 0], True, "bad"),
    ([0, 1, 1], 0, [1, 0, 0], True, 0),
    ([0, 0, 0], None, [0, 0, 0], False, 1),       # one class: accepted, undefined
    ([1, 1], None, [1, 1], False, 1),
    (["x", "x"], "y", [0, 0], False, "y"),        # one class, pos_label absent: all negative
    (["x", "x"], "x", [1, 1], False, "x"),
])
def test_positive_label_rule(y, pos_label, is_pos, both, pos):
    got, res = L.BINARY.read(y, pos_label=pos_label)
    assert got.dtype == np.bool_ and got.astype(int).tolist() == is_pos
    assert res.both is both and res.pos_label == pos and type(res.pos_label) is type(pos)


def test_positive_label_as_read_and_own_words():
    words = L.Wording(not_binary="{shown} need a positive", not_present="{given!r} not in {shown}",
                      too_many="{count} values: {shown}", show=lambda v: "|".join(map(str, v)))
    rule = functools.partial(L.BINARY.positive_label, as_read=True, wording=words)
    assert rule([0.0, 1.0]) == 1.0 and isinstance(rule([0.0, 1.0]), float)
    assert rule([np.False_, np.True_]) is np.True_
    assert rule([-1, 1]) == 1
    # more than two values: pos_label names one, the others are the negatives
    assert rule(["a", "b", "c"], "b") == "b"
    with pytest.raises(ValueError, match=r"^3 values: a\|b\|c$"):
        rule(["a", "b", "c"])
    with pytest.raises(ValueError, match=r"^a\|b need a positive$"):
        rule(["a", "b"])
    with pytest.raises(ValueError, match=r"^'z' not in a\|b$"):
        rule(["a", "b"], "z")
    # a matcher of text against the values as read (the command line's)
    assert L.BINARY.positive_label([1, 2], "2", match=lambda v, g: str(v) == g, as_read=True) == 2


# --- the real kind's messages -------------------------------------------------------------------

@pytest.mark.parametrize("y, kw, exc, message", [
    ([], {}, ValueError, "The 'y_true' argument is empty; at least one label is needed."),
    (["a", "b"], {}, TypeError, "The 'y_true' argument must contain real numbers. Got dtype <U1 instead."),
    ([0.5, np.inf, 2.0, np.nan], {}, ValueError,
     "The 'y_true' argument contains 2 NaN or infinite value(s) (first at index 1, 3); labels must be finite "
     "real numbers."),
    ([0.5, 1.0], {"pos_label": 1, "func": "ranking_risk"}, TypeError,
     "ranking_risk takes real-valued labels; 'pos_label' does not apply."),
])
def test_real_messages(y, kw, exc, message):
    with pytest.raises(exc, match=re.escape(message) + "$"):
        L.REAL.read(y, **kw)
    with pytest.raises(exc, match=re.escape(message) + "$"):
        L.REAL.summarize(y).resolve(**kw)


def test_real_labels_and_cells():
    y, res = L.REAL.read([3, 1.5, 3])
    assert y.dtype == np.float64 and y.tolist() == [3.0, 1.5, 3.0] and res.pos_label is None and res.defined
    assert L.REAL.cells(y).tolist() == [0, 0, 0] and L.REAL.cells(y).dtype == np.int8
    assert L.REAL.n_cells == 1 and L.REAL.cell_pairs == ((0, 0),)
    assert not L.REAL.read([2.0, 2.0])[1].defined
    # defined needs two distinct labels with positive weight
    assert L.REAL.defined(y, np.array([1.0, 0.0, 1.0]), res) is False  # 3 and 3 only
    assert L.REAL.defined(y, np.array([1.0, 1.0, 0.0]), res) is True


# --- summaries -------------------------------------------------------------------------------------

def test_binary_summary_literal():
    s = L.BINARY.summarize(["b", "a", "b", "b"], [0.5, 1.0, 0.25, 2.0])
    assert s == L.LabelSummary("binary", 4, "U", (("a", 1, 1.0), ("b", 3, 2.75)), 2, True, 0, (), None)
    res = s.resolve("b")
    assert res.pos_label == "b" and res.values == ("a", "b") and res.both and res.defined
    # a class of zero weight: both present, not defined
    assert not L.BINARY.summarize([0, 1, 1], [0.0, 1.0, 1.0]).resolve().defined
    assert L.BINARY.summarize([0, 1, 1], [0.0, 1.0, 1.0]).resolve().both


SUMMARY_COLUMNS = [
    np.array([0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0]),
    np.array([-1.0, 1.0] * 6),
    np.array([True, False, False] * 4),
    np.array(["good", "bad", "bad"] * 4),
    np.array([0, 1, 2, 1, 0, 2, 1, 1, 0, 0, 2, 2]),                 # an error for binary labels
    np.array([0.0, 1.0, np.nan, 1.0, np.inf, 0.0, 1.0, 1.0, np.nan, 0.0, 1.0, 0.0]),
    np.arange(12.0) * 10,                                            # graded
]


@pytest.mark.parametrize("kind, y", [(k, y) for k in (L.BINARY, L.REAL) for y in SUMMARY_COLUMNS
                                     if not (k is L.REAL and y.dtype.kind == "U")])
def test_merged_summaries_equal_the_whole(kind, y):
    w = np.arange(1, 13) / 8.0  # dyadic: every sum is exact in any order
    whole = kind.summarize(y, w)
    for cuts in ([6], [1, 2, 7], [3, 3, 9], [0, 11], [4, 8]):
        merged, parts = _merged(kind, y, cuts, w)
        assert merged == whole, cuts
        assert _raised(lambda: merged.resolve()) == _raised(lambda: whole.resolve())
        # associative: ((a b) c) d == a (b (c d)) == (a b) (c d)
        right = functools.reduce(lambda acc, p: p.merge(acc), parts[::-1])
        assert right == merged
        if len(parts) >= 4:
            assert parts[0].merge(parts[1]).merge(parts[2].merge(parts[3])) == merged
    # the whole's resolution (or error) is the single-machine reader's
    if kind is L.BINARY:
        assert _raised(lambda: whole.resolve().pos_label) == _raised(lambda: L.BINARY.read(y)[1].pos_label)


def test_bad_rows_shift_through_merges():
    y = np.array([0.0, 1.0, 1.0, np.nan, 0.0, np.nan, np.inf, 1.0, np.nan, np.nan, np.nan])
    merged, _ = _merged(L.BINARY, y, [2, 5, 6])
    assert merged.n_bad == 6 and merged.bad_rows == (3, 5, 6, 8, 9)
    with pytest.raises(ValueError, match=re.escape("contains 6 NaN or infinite value(s) (first at index "
                                                   "3, 5, 6, 8, 9, ...)")):
        merged.resolve()


def test_pieces_of_different_types():
    ints, texts = L.BINARY.summarize(np.array([0, 1])), L.BINARY.summarize(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="must hold comparable label values. Got mixed types"):
        ints.merge(texts).resolve()
    # int and float pieces: one label 1 == 1.0, an object column
    m = L.BINARY.summarize(np.array([0, 1])).merge(L.BINARY.summarize(np.array([1.0, 1.0])))
    assert m.dtype == "O" and m.values == ((0, 1, 1.0), (1, 3, 3.0)) and m.resolve().pos_label == 1
    # an empty piece takes no part
    empty = L.BINARY.summarize(np.zeros(0))
    assert empty.merge(ints) == ints and ints.merge(empty) == ints
    with pytest.raises(ValueError, match="do not merge"):
        ints.merge(L.REAL.summarize([0.0]))
    with pytest.raises(TypeError, match="'other' argument must be a LabelSummary"):
        ints.merge(None)


def test_many_values_are_counted_and_the_smallest_kept():
    y = np.arange(300.0)[::-1]
    whole = L.BINARY.summarize(y)
    assert whole.n_distinct == 300 and whole.exact and len(whole.values) == L.MAX_VALUES
    assert [v for v, _, _ in whole.values] == list(range(L.MAX_VALUES))
    with pytest.raises(ValueError, match=r"Got 300 distinct values \(0\.0, 1\.0, 2\.0, 3\.0, 4\.0, 5\.0, \.\.\.\)"):
        whole.resolve()
    merged, parts = _merged(L.BINARY, y, [100, 200])
    assert not merged.exact and merged.n_distinct >= L.MAX_VALUES + 1
    assert [v for v, _, _ in merged.values] == list(range(L.MAX_VALUES))
    assert functools.reduce(lambda acc, p: p.merge(acc), parts[::-1]).values == merged.values
    with pytest.raises(ValueError, match=r"Got at least \d+ distinct values \(0\.0, 1\.0"):
        merged.resolve()
    # pieces small enough to hold: the count stays exact
    merged, _ = _merged(L.BINARY, np.arange(100.0), [50])
    assert merged.exact and merged.n_distinct == 100


# --- the sample ---------------------------------------------------------------------------------------

def test_sample_is_frozen_and_complete():
    x = L.check_sample(["b", "a", "b"], [0.3, 0.1, 0.2], sample_weight=[1.0, 2.0, 0.5], pos_label="b",
                       clusters=["p", "q", "p"], func="estimate")
    with pytest.raises(dataclasses.FrozenInstanceError):
        x.labels = None
    assert x.kind is L.BINARY and x.pos_label == "b" and x.n_rows == 3 and x.defined
    assert x.labels.tolist() == [True, False, True] and x.is_pos is x.labels
    assert x.cells.dtype == np.int8 and x.cells.tolist() == [1, 0, 1]
    assert x.scores.tolist() == [0.3, 0.1, 0.2] and x.weights.tolist() == [1.0, 2.0, 0.5] and x.weight_scale == 1.0
    assert x.clusters.dtype == np.int64 and x.clusters.tolist() == [0, 1, 0] and x.n_clusters == 2
    assert L.BINARY.cell_pairs == ((1, 0),)


def test_sample_scales_weights_and_keeps_the_scale():
    w = np.array([3e300, 1e300, 2e300])
    x = L.check_sample([0, 1, 1], [1, 2, 3], sample_weight=w)
    # 3e300 = 0.5636... * 2^999: divided by 2^999, the largest weight lies in [0.5, 1)
    assert x.weight_scale == 2.0 ** 999 and 0.5 <= x.weights.max() < 1.0
    assert x.unscaled_weights().tolist() == w.tolist()
    assert L.check_sample([0, 1], [1, 2]).clusters is None and L.check_sample([0, 1], [1, 2]).n_clusters is None


@pytest.mark.parametrize("w, defined", [(None, True), ([1, 1, 0], True), ([0, 1, 1], False), ([1, 0, 0], False)])
def test_sample_defined_needs_both_classes_with_weight(w, defined):
    assert L.check_sample([0, 1, 1], [1, 2, 3], sample_weight=w).defined is defined


def test_sample_messages_in_order():
    with pytest.raises(ValueError, match=r"^y_true has 2 values but y_prob has 3; they must have the same length\.$"):
        L.check_sample([0, 1], [0.1, 0.2, 0.3], score_name="y_prob")
    with pytest.raises(ValueError, match=r"'y_prob' argument contains 1 NaN"):
        L.check_sample([0, 1], [0.1, np.nan], score_name="y_prob", sample_weight=[-1, 1])
    with pytest.raises(ValueError, match="'sample_weight' argument contains 1 negative"):
        L.check_sample([0, 1], [0.1, 0.2], sample_weight=[-1, 1], clusters=[1])
    with pytest.raises(ValueError, match=r"^The 'clusters' parameter of estimate must have one id per row: 2 rows"):
        L.check_sample([0, 1], [0.1, 0.2], clusters=[1], func="estimate")
    with pytest.raises(ValueError, match=r"The 'clusters' parameter of compare has missing ids \(None/NaN\) at rows 1"):
        L.check_sample([0, 1], [0.1, 0.2], clusters=["a", None], func="compare")
    with pytest.raises(ValueError, match=r"^The 'kind' parameter of f must be one of 'binary', 'real'"):
        L.check_sample([0, 1], [0.1, 0.2], kind="ranked", func="f")


def test_real_sample():
    x = L.check_sample([2.0, 0.5, 1.0], [1, 2, 3], kind="real", sample_weight=[1, 1, 0], clusters=[5, 5, 6])
    assert x.kind is L.REAL and x.labels.tolist() == [2.0, 0.5, 1.0] and x.pos_label is None
    assert x.cells.tolist() == [0, 0, 0] and x.defined and x.n_clusters == 2
    with pytest.raises(TypeError, match="has no positive class"):
        x.is_pos
    assert not L.check_sample([2.0, 0.5], [1, 2], kind="real", sample_weight=[1, 0]).defined


def test_check_binary_inputs_wrapper_gives_the_old_tuple():
    args = ([1, 0, 1, 0], [0.9, 0.1, 0.4, 0.5], [1.0, 2.0, 1e-310, 0.0])
    new = L.check_binary_inputs(*args, return_scale=True)
    s = L.check_sample(args[0], args[1], sample_weight=args[2])
    assert len(new) == 5
    assert np.array_equal(new[0], s.is_pos) and np.array_equal(new[1], s.scores) and new[3] == s.defined
    assert len(L.check_binary_inputs(*args)) == 4


# --- the registry ------------------------------------------------------------------------------------

def test_registry_and_criteria_kinds():
    assert L.kind_names()[:2] == ("binary", "real")
    assert L.get_kind("real") is L.REAL and L.get_kind(L.BINARY) is L.BINARY
    assert pickle.loads(pickle.dumps(L.BINARY)) is L.BINARY  # Dask tasks carry the registered kind
    with pytest.raises(ValueError, match="already registered"):
        L.register_kind(L.BinaryKind())
    assert L.kind_of(criteria.get("auc")) is L.BINARY
    assert L.kind_of(criteria.get("ranking_risk")) is L.REAL
    with pytest.raises(TypeError, match="does not say which labels it reads"):
        L.kind_of(object())
