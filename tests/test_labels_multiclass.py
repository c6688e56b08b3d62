"""The multiclass and ordinal label kinds (issue 31): reading, codes, summaries that merge
as the whole column, messages."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import rankwise._labels as L

COLUMNS = [
    np.array([0, 1, 2, 1, 0, 2, 1, 1, 0, 0, 2, 2]),
    np.array(["b", "a", "c", "a", "b", "b", "c", "a", "a", "c", "b", "b"]),
    np.array([0.5, 1.5, 2.5, 1.5, 0.5, np.nan, 1.5, 0.5, 2.5, np.nan, 0.5, 1.5]),
    np.array(["x", None, "y", "x", "y", "x", "z", "x", None, "y", "z", "x"], dtype=object),
]


def _pieces(kind, y, cuts, w):
    bounds = [0, *cuts, y.shape[0]]
    return [kind.summarize(y[a:b], None if w is None else w[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]


def _raised(f):
    try:
        return f()
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("y", COLUMNS)
def test_merged_summaries_equal_the_whole(y):
    w = np.arange(1, 13) / 8.0
    whole = L.MULTICLASS.summarize(y, w)
    for cuts in ([6], [1, 2, 7], [0, 11], [4, 8]):
        parts = _pieces(L.MULTICLASS, y, cuts, w)
        merged = functools.reduce(lambda a, b: a.merge(b), parts)
        assert merged == whole
        assert _raised(lambda: merged.resolve()) == _raised(lambda: whole.resolve())
    # a valid column resolves to its sorted classes, as the reader codes them
    if not whole.n_bad:
        codes, res = L.MULTICLASS.read(y)
        assert res.values == tuple(np.unique(y).tolist())
        np.testing.assert_array_equal(np.asarray(res.values, dtype=object)[codes], y.astype(object))
        assert res.both and res.defined


def test_missing_labels_are_refused_with_their_rows():
    s = L.MULTICLASS.summarize(COLUMNS[3])
    assert s.n_bad == 2 and s.bad_rows == (1, 8)
    with pytest.raises(ValueError, match=r"2 missing value\(s\) \(first at index 1, 8\)"):
        s.resolve()
    with pytest.raises(ValueError, match="missing value"):
        L.MULTICLASS.classes(COLUMNS[3])
    with pytest.raises(ValueError, match="contains NaN"):
        L.MULTICLASS.classes(COLUMNS[2])


def test_classes_follow_labels_and_codes_index_them():
    y, classes, codes = L.MULTICLASS.classes(["lo", "hi", "mid", "hi"], ["hi", "mid", "lo"])
    assert classes.tolist() == ["hi", "mid", "lo"] and codes.tolist() == [2, 0, 1, 0]
    with pytest.raises(ValueError, match="must contain every class of y_true; missing"):
        L.MULTICLASS.classes(["a", "b", "c"], ["a", "b"])
    with pytest.raises(ValueError, match="'x' is repeated"):
        L.MULTICLASS.classes(["x", "y"], ["x", "y", "x"])
    with pytest.raises(TypeError, match="pos_label"):
        L.MULTICLASS.read([0, 1, 2], pos_label=1)
    with pytest.raises(TypeError, match="ordinal"):
        L.MULTICLASS.as_real(np.array([0, 1]))


def test_one_class_is_not_defined():
    codes, res = L.MULTICLASS.read(["a", "a"])
    assert not res.both and not L.MULTICLASS.defined(codes, None, res)
    codes, res = L.MULTICLASS.read(["a", "b", "b"])
    assert not L.MULTICLASS.defined(codes, np.array([0.0, 1.0, 2.0]), res)  # class 'a' has no weight


def test_ordinal_positions_and_messages():
    codes, K = L.ORDINAL.positions(["mild", "severe", "moderate", "mild"], ["mild", "moderate", "severe"])
    assert K == 3 and codes.tolist() == [0, 2, 1, 0]
    assert L.ORDINAL.as_real(codes).tolist() == [0.0, 2.0, 1.0, 0.0]
    with pytest.raises(TypeError, match="in their order. Got None"):
        L.ORDINAL.positions([0, 1], None)
    with pytest.raises(TypeError, match="Got a str"):
        L.ORDINAL.positions(["a", "b"], "ab")
    with pytest.raises(ValueError, match="at least 2 classes"):
        L.ORDINAL.positions([0, 0], [0])
    with pytest.raises(ValueError, match="twice"):
        L.ORDINAL.positions([0, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="not among labels"):
        L.ORDINAL.positions([0, 1, 5], [0, 1, 2])
    assert L.kind_names()[-2:] == ("multiclass", "ordinal")
    import pickle
    assert pickle.loads(pickle.dumps(L.ORDINAL)) is L.ORDINAL
