"""The volume under the ROC surface (VUS) for three ordered classes and the hypervolume
under the ROC manifold (HUM) for more: the probability that one observation drawn from
each class, in the classes' order, has increasing scores. Computed by a chain count over
one sort of the scores (a radix sort when numba is installed), then a pass over the sorted
scores in O(nK) without ties; never the O(n^K) loop over chains."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._kernels import ordered_chain_share, score_levels
from .._labels import ORDINAL
from .._validation import check_sample_weight, check_same_length, check_scores, format_values, warn_undefined

__all__ = ["vus"]


def vus(y_true, y_score, *, labels, sample_weight=None) -> float:
    r"""Volume under the ROC surface (3 ordered classes) or hypervolume under the ROC
    manifold (K > 3 ordered classes); for K = 2 the AUC.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class labels; every value must be one of ``labels``.
    y_score : array-like of shape (n,)
        Real scores; a higher score means a higher class in the order of ``labels``.
    labels : sequence of K >= 2 distinct labels
        The classes in their order, lowest first.
    sample_weight : array-like of shape (n,), optional
        Non-negative frequency weights.

    Returns
    -------
    float
        In [0, 1]; 1/K! for scores that carry no information (all equal, or random);
        ``nan`` (with :class:`rankwise.UndefinedMetricWarning`) when a class of ``labels``
        has no observation (or only zero weights).

    Notes
    -----
    Draw one observation from each class, in the order of ``labels``: the criterion is the
    probability that their scores increase strictly along the class order,

    .. math:: \mathrm{VUS} = \frac{1}{\prod_k W_k} \sum_{i_1 \in C_1} \cdots \sum_{i_K \in C_K}
              w_{i_1} \cdots w_{i_K}\, \tau(s_{i_1}, \dots, s_{i_K}),

    with :math:`W_k` the total weight of class :math:`C_k`. Ties are broken at random:
    :math:`\tau` is the share of the orderings of the tied values that put the chain in
    order, 0 unless :math:`s_{i_1} \le \dots \le s_{i_K}`, and otherwise the product over
    the runs of equal scores in the chain of :math:`1/m!` for a run of :math:`m` members
    (1/2 for a tied pair, 1/6 for three tied). With K = 2 this is the AUC of the second
    class against the first, ties counting 1/2 (:func:`rankwise.auc`); K = 3 is the VUS of
    Mossman (1999), "Three-way ROCs", Medical Decision Making 19, and Nakas & Yiannoutsos
    (2004), "Ordered multiple-class ROC analysis with continuous measurements", Statistics
    in Medicine 23; K > 3 the HUM of Li & Fine (2008), "ROC analysis with multiple classes
    and multiple tests: methodology and its application in microarray studies",
    Biostatistics 9.

    The chains are counted, not enumerated (Waegeman, De Baets & Boullart (2008), "On the
    scalability of ordered multi-class ROC analysis", Computational Statistics & Data
    Analysis 52): after one sort, a pass over the distinct score values keeps, for each
    class :math:`k`, the weighted number :math:`F_k` of ordered chains of classes
    :math:`1..k` lying strictly below the current value. A value :math:`v` holding the
    masses :math:`m_1(v), \dots, m_K(v)` adds to the chains of classes :math:`1..k`

    .. math:: \Delta_k(v) = \sum_{j=1}^{k} F_{k-j} \, \frac{1}{j!} \prod_{i=k-j+1}^{k} m_i(v),
              \qquad F_0 = 1,

    the term :math:`j` being the chains whose last :math:`j` members are tied at
    :math:`v` (one tie-break in :math:`j!` orders them). The criterion is
    :math:`\sum_v \Delta_K(v)` on masses divided by the class totals. Without ties only
    :math:`j = 1` occurs and the pass is O(nK); a term :math:`j` is computed only at the
    values holding at least :math:`j` classes (at most n/j of them). With numba installed,
    unweighted scores are sorted by a radix sort of their 64-bit keys (O(n)) and the pass
    runs compiled, in O(n) memory; otherwise numpy's sort (O(n log n)) and a pass in
    whole-array steps, memory O(nK).

    Examples
    --------
    Classes a < b < c, two observations each. Of the 8 chains (one of each class), the
    scores increase along 6: the two through a at 0.5 and b at 0.4 are out of order.

    >>> import rankwise as rw
    >>> from rankwise.metrics._vus import vus
    >>> vus(["a", "a", "b", "b", "c", "c"], [0.1, 0.5, 0.4, 0.6, 0.9, 0.7], labels=["a", "b", "c"])
    0.75

    A tie between a and b at 0.3 counts half: the chains through it score 1/2.

    >>> vus(["a", "b", "c"], [0.3, 0.3, 0.8], labels=["a", "b", "c"])
    0.5
    """
    codes, k, score = _check_vus_inputs(y_true, y_score, labels)
    w = check_sample_weight(sample_weight, codes.shape[0])
    totals = np.bincount(codes, weights=w, minlength=k)
    if not (totals > 0).all():
        empty = [lab for lab, t in zip(_as_label_list(labels), totals) if not t > 0]
        what = "no observation" if w is None else "no observation with positive weight"
        return warn_undefined("vus", f"label(s) {format_values(np.array(empty, dtype=object))} of 'labels' have {what}")
    return _vus_value(codes, k, score, w, totals)


# --- validation ----------------------------------------------------------------------------

def _as_label_list(labels: Any) -> list:
    return ORDINAL.order(labels, "vus")


def _check_vus_inputs(y_true: Any, y_score: Any, labels: Any) -> tuple[np.ndarray, int, np.ndarray]:
    """(class codes 0..K-1 in the order of ``labels``, K, scores): the labels' order, the
    labels, the scores, their lengths, then each label's position, in that order."""
    index = ORDINAL.index(labels, "vus")
    y = ORDINAL.check_values(y_true, "vus")
    score = check_scores(y_score)
    if score.ndim != 1:
        raise ValueError(
            f"The 'y_score' argument of vus must be 1-dimensional (one score per row). Got shape {score.shape} instead."
        )
    check_same_length(y.shape[0], score.shape[0])
    return ORDINAL.codes(y, index), len(index), score


# --- the chain count -----------------------------------------------------------------------

def _vus_value(codes: np.ndarray, k: int, score: np.ndarray, w: np.ndarray | None, totals: np.ndarray) -> float:
    """The chain count over one sort; masses are divided by the class totals first, so
    every partial count lies in [0, 1] whatever the weights' scale. Unweighted rows go
    to the compiled chain count when numba is in use (one radix sort with the classes,
    then one walk, compensated sums); otherwise the walk below, in whole-array steps."""
    if w is None:
        value = ordered_chain_share(score, codes, k)
        if value is not None:
            return float(min(max(value, 0.0), 1.0))
    order, group, d = score_levels(score)
    flat = group * k + codes[order]
    weights = None if w is None else w[order]
    mass = np.bincount(flat, weights=weights, minlength=d * k).reshape(d, k).astype(np.float64, copy=False)
    mass /= totals  # class shares: each column sums to 1
    return float(min(max(chains_below(mass)[1], 0.0), 1.0))


def chains_below(mass: np.ndarray) -> tuple[list, float]:
    """``below[c][v]``: the chains of classes 1..c whose elements all lie strictly below
    value ``v`` (tied elements of consecutive classes counted by the share of their
    tie-breakings in order, 1/j! for j tied), ``c = 0..K``; and the whole chain count."""
    d, K = mass.shape
    present = np.count_nonzero(mass > 0, axis=1)
    runs = []
    rows, prev = np.arange(d), mass
    for j in range(2, K + 1):
        keep = present[rows] >= j
        if not keep.any():
            break
        rows, prev = rows[keep], prev[keep]
        prod = np.zeros_like(prev)
        prod[:, j - 1:] = prev[:, j - 2:-1] * mass[rows, j - 1:]
        runs.append((rows, prod))
        prev = prod
    below = [np.ones(d)]
    delta = None
    for c in range(1, K + 1):
        delta = below[c - 1] * mass[:, c - 1]
        for j, (idx, prod) in enumerate(runs, start=2):
            if j > c:
                break
            delta[idx] += below[c - j][idx] * prod[:, c - 1] / math.factorial(j)
        nxt = np.empty(d)
        nxt[0] = 0.0
        np.cumsum(delta[:-1], out=nxt[1:])
        below.append(nxt)
    return below, float(delta.sum())
