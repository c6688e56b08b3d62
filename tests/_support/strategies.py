"""Hypothesis strategies shared by the tests: labelled score samples with heavy ties,
weights, tiny and single-class samples. Hypothesis runs derandomised (tests/conftest.py)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

__all__ = ["samples", "real_label_samples", "pair_samples"]

@st.composite
def samples(draw, min_n=1, max_n=25, weights=False, integer_weights=False, both_classes=True):
    n = draw(st.integers(min_n if not both_classes else max(min_n, 2), max_n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if both_classes:
        # Force both classes at two drawn positions.
        i = draw(st.integers(0, n - 1))
        j = draw(st.integers(0, n - 1).filter(lambda j: j != i))
        y[i], y[j] = True, False
    # Few distinct values: heavy ties; sometimes continuous values.
    if draw(st.booleans()):
        s = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
        s = [float(v) for v in s]
    else:
        s = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False, width=64), min_size=n, max_size=n))
    w = None
    if weights:
        if integer_weights:
            w = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
        else:
            w = draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n))
        w = [float(v) for v in w]
    return y, s, w


@st.composite
def real_label_samples(draw):
    n = draw(st.integers(2, 25))
    y = [float(v) for v in draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))]
    s = [float(v) for v in draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n))]
    if draw(st.booleans()):
        s = draw(st.lists(st.floats(-10, 10, allow_nan=False), min_size=n, max_size=n))
    w = None
    if draw(st.booleans()):
        w = draw(st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n))
    return y, s, w


@st.composite
def pair_samples(draw, scores=st.integers(-3, 3), max_n=12, weights=True):
    """Both classes present (``assume``), scores from ``scores``, weights with zeros."""
    n = draw(st.integers(2, max_n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    assume(any(y) and not all(y))
    s = draw(st.lists(scores, min_size=n, max_size=n))
    w = None
    if weights and draw(st.booleans()):
        w = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n))
        assume(sum(wi for wi, yi in zip(w, y) if yi) > 0 and sum(wi for wi, yi in zip(w, y) if not yi) > 0)
    return y, s, w
