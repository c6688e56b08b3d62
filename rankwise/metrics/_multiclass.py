"""AUCs for several classes: one-vs-rest (each class against all others, on its own score
column), one-vs-one (each pair of classes, on the rows of the two classes, Hand & Till's
M), and the micro average (all class columns pooled). One sort per score column, then a
count of the rows of every class below each row: every class-against-class AUC on that
column, linear in n after the sort. No pair of rows is visited. The sorts and counts are
:mod:`rankwise._kernels._multiclass`'s (radix sorts, compiled, when numba is installed)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import class_pair_counts, pooled_pair_count, score_levels
from .._labels import MULTICLASS
from .._validation import check_sample_weight, scale_weights, warn_undefined

__all__ = ["multiclass_auc", "PairwiseAUCs"]

_FUNC = "multiclass_auc"
_AVERAGES = ("macro", "weighted", "micro", None)


class PairwiseAUCs(NamedTuple):
    """The one-vs-one AUCs of :func:`multiclass_auc` with ``average=None``.

    Attributes
    ----------
    directed : ndarray (K, K)
        ``directed[i, j]`` is Hand & Till's :math:`A(i|j)`: on score column ``i``, the
        probability that a row of class ``labels[i]`` scores above a row of class
        ``labels[j]`` (ties 1/2). nan on the diagonal and for a pair with an absent class.
    pairs : ndarray (K, K)
        ``(directed + directed.T) / 2``, symmetric: Hand & Till's :math:`\\hat A(i, j)`.
    labels : ndarray (K,)
        The classes, in the order of the rows, the columns and the score columns.
    """

    directed: np.ndarray
    pairs: np.ndarray
    labels: np.ndarray


def multiclass_auc(y_true, y_score, *, multi_class: str = "ovr", average: str | None = "macro", labels=None,
                   sample_weight=None):
    r"""Multiclass AUC: one-vs-rest, or one-vs-one (Hand & Till's M), with their averages.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Class labels (any hashable values: ints, strings, ...).
    y_score : array-like of shape (n, K) or pandas DataFrame
        Column ``k`` scores class ``labels[k]``; higher means more likely that class.
        Each row must sum to 1 (probabilities), as scikit-learn requires for both
        ``multi_class`` values; rows are never renormalised. A DataFrame whose columns are
        the class names is matched by name, in any column order.
    multi_class : {"ovr", "ovo"}
        ``"ovr"``: each class against all the others. ``"ovo"``: each pair of classes on
        the rows of those two classes.
    average : {"macro", "weighted", "micro"} or None
        ``"macro"``: the plain mean over classes (OvR) or pairs (OvO). ``"weighted"``: OvR
        by each class's mass, OvO by each pair's mass (the two classes' together).
        ``"micro"`` (OvR only): the AUC of the n K pooled (row, class) entries, the entry
        being positive when the row is of that class. ``None``: OvR gives the K per-class
        AUCs (an array); OvO gives a :class:`PairwiseAUCs` (the K x K matrices).
    labels : sequence of K distinct labels, optional
        The classes in the order of the score columns; must contain every value of
        ``y_true``. Default: the sorted distinct values of ``y_true``.
    sample_weight : array-like of shape (n,), optional
        Non-negative frequency weights. With OvO (which scikit-learn does not weight) each
        pair's AUCs are weighted over the rows of the pair, and ``"weighted"`` uses the
        pair's weighted mass.

    Returns
    -------
    float, ndarray (K,) or PairwiseAUCs
        In [0, 1]. ``nan`` with :class:`rankwise.UndefinedMetricWarning` when fewer than
        two classes are present; an OvR class that is absent (or the only one present)
        has a nan AUC, which makes ``"macro"`` nan and is left out of ``"weighted"``
        (its weight is 0), as in scikit-learn; OvO leaves pairs with an absent class out.

    Notes
    -----
    With :math:`W_A` the mass of a set of rows ``A`` and
    :math:`\psi(a, b) = \mathbf 1\{a > b\} + \tfrac12 \mathbf 1\{a = b\}` (ties count 1/2),
    the AUC of ``A`` over ``B`` on score column ``k`` is

    .. math:: \mathrm{AUC}_k(A, B) = \frac{1}{W_A W_B} \sum_{i \in A} \sum_{j \in B}
              w_i w_j\, \psi(s_{ik}, s_{jk}).

    One-vs-rest for class ``k``: :math:`\mathrm{AUC}_k(C_k, \bar C_k)`. One-vs-one
    (Hand & Till, 2001, "A simple generalisation of the area under the ROC curve for
    multiple class classification problems", Machine Learning 45):
    :math:`A(i|j) = \mathrm{AUC}_i(C_i, C_j)`, the pair's value
    :math:`\hat A(i, j) = (A(i|j) + A(j|i))/2`, and M is the mean of :math:`\hat A(i, j)`
    over the :math:`K(K-1)/2` pairs, which is ``average="macro"``. Micro: one binary AUC
    over the pooled entries :math:`(s_{ik}, \mathbf 1\{y_i = k\})`, weight :math:`w_i`.
    Equal to scikit-learn's ``roc_auc_score`` for every combination it supports.

    Each score column is sorted once, and one pass over the sorted column counts, for
    every class, the rows of each class below each row: all of that column's AUCs, no pair
    of rows visited (the micro average sorts the n K pooled entries once). With numba
    installed the sort is a radix sort of the scores' 64-bit keys, O(n) per column and
    O(n) memory; without it numpy's sort, O(n log n) per column and O(nK) memory.

    Examples
    --------
    Class 0 against the rest on column 0: rows of class 0 score 0.6 and 0.5, the others
    0.3, 0.2, 0.1, 0.2: AUC 1; likewise for classes 1 and 2.

    >>> import rankwise as rw
    >>> from rankwise.metrics._multiclass import multiclass_auc
    >>> S = [[0.6, 0.2, 0.2], [0.5, 0.3, 0.2], [0.3, 0.6, 0.1],
    ...      [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.2, 0.2, 0.6]]
    >>> multiclass_auc([0, 0, 1, 1, 2, 2], S)
    1.0

    On column 0, class 0 (0.6, 0.3) over class 1 (0.5, 0.4): pairs 0.6 > 0.5, 0.6 > 0.4,
    0.3 < 0.5, 0.3 < 0.4 give A(0|1) = 2/4.

    >>> S = [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5], [0.4, 0.6]]
    >>> float(multiclass_auc([0, 0, 1, 1], S, multi_class="ovo", average=None).directed[0, 1])
    0.5
    """
    if multi_class not in ("ovr", "ovo"):
        raise ValueError(f"The 'multi_class' argument must be 'ovr' or 'ovo'. Got {multi_class!r} instead.")
    if average not in _AVERAGES:
        raise ValueError(
            f"The 'average' argument must be 'macro', 'weighted', 'micro' or None. Got {average!r} instead.")
    if average == "micro" and multi_class == "ovo":
        raise ValueError("The 'average' argument 'micro' is defined for multi_class='ovr' only.")
    y, classes, codes = _check_labels(y_true, labels)
    S = _check_score_matrix(y_score, classes, labels is not None, y.shape[0])
    w = check_sample_weight(sample_weight, y.shape[0])
    w, _ = scale_weights(w)
    K = classes.shape[0]
    mass = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
    if K < 2 or np.count_nonzero(mass > 0) < 2:
        value = warn_undefined(_FUNC, "fewer than two classes are present in y_true")
        if average is None:
            if multi_class == "ovr":
                return np.full(K, np.nan)
            full = np.full((K, K), np.nan)
            return PairwiseAUCs(full, full.copy(), classes)
        return value
    check_probability_rows(S)
    if multi_class == "ovr":
        return _ovr(S, codes, w, mass, average)
    return _ovo(S, codes, w, mass, average, classes)


# --- validation -------------------------------------------------------------------------

#: The rule on a score matrix, in the words of every message that enforces it.
PROBABILITY_RULE = ("each row summing to 1 over the classes (scikit-learn's rule for multiclass ROC AUC; "
                    "rows are not renormalised)")


def rows_off_one(S: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of the (n, K) matrix ``S`` that do not sum to 1 (``np.isclose``, as
    scikit-learn checks), with every row's sum; None when all do."""
    sums = S @ np.ones(S.shape[1])  # a matrix-vector product: the row sums, several times faster than S.sum(axis=1)
    # np.isclose(1, s) holds on an interval of s: its two ends decide for every row.
    if not sums.size or np.isclose(1.0, [sums.min(), sums.max()]).all():
        return None
    return np.flatnonzero(~np.isclose(1.0, sums)), sums


def check_probability_rows(S: np.ndarray) -> None:
    """A ValueError naming ``y_score`` unless every row of ``S`` sums to 1 (:data:`PROBABILITY_RULE`)."""
    off = rows_off_one(S)
    if off is not None:
        bad, sums = off
        raise ValueError(f"The 'y_score' argument must hold probabilities: {PROBABILITY_RULE}. {bad.size} row(s) do "
                         f"not (first at index {bad[0]}, sum {float(sums[bad[0]])!r}).")


def _check_labels(y_true, labels) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(y, classes, codes)``: the label kind's reading (:class:`rankwise._labels.MulticlassKind`)."""
    return MULTICLASS.classes(y_true, labels, func="multiclass_auc")


def _check_score_matrix(y_score, classes: np.ndarray, named: bool, n: int) -> np.ndarray:
    if y_score is None:
        raise TypeError("The 'y_score' argument must be an array-like of shape (n, K). Got None instead.")
    K = classes.shape[0]
    mod = type(y_score).__module__ or ""
    if mod.startswith("pandas") and hasattr(y_score, "columns"):
        cols = list(y_score.columns)
        if set(cols) != set(classes.tolist()) or len(cols) != K:
            raise ValueError(
                f"The 'y_score' argument is a DataFrame whose columns {cols!r} are not the classes "
                f"{classes.tolist()!r}; name one column per class.")
        y_score = y_score[classes.tolist()].to_numpy()
    try:
        S = np.asarray(y_score)
    except Exception as exc:  # noqa: BLE001 - re-raised with context
        raise TypeError(f"The 'y_score' argument could not be read as an array: {exc}") from exc
    if S.dtype.kind not in "biuf":
        raise TypeError(f"The 'y_score' argument must contain real numbers. Got dtype {S.dtype} instead.")
    S = S.astype(np.float64, copy=False)
    if S.ndim != 2 or S.shape[0] != n or S.shape[1] != K:
        source = "labels" if named else "the distinct values of y_true"
        raise ValueError(
            f"The 'y_score' argument must have shape (n, K) = ({n}, {K}): one row per label and one column "
            f"per class of {source}. Got shape {S.shape} instead.")
    if not np.isfinite(S).all():
        bad = np.flatnonzero(~np.isfinite(S).all(axis=1))
        raise ValueError(
            f"The 'y_score' argument contains NaN or infinite values in {bad.size} row(s) (first at row "
            f"{bad[0]}); scores must be finite.")
    return S


# --- computation ------------------------------------------------------------------------

def _levels(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """One sort: the order and each sorted position's level (dense rank, ties share one)."""
    return score_levels(x)


def _binary_auc(lev: np.ndarray, pos: np.ndarray, w: np.ndarray | None, L: int) -> float:
    """AUC of the rows ``pos`` over the others from the sorted levels (nan if a side is empty)."""
    tot = np.bincount(lev, weights=w, minlength=L).astype(np.float64)
    p = np.bincount(lev[pos], weights=None if w is None else w[pos], minlength=L).astype(np.float64)
    neg = tot - p
    n_pos, n_neg = p.sum(), neg.sum()
    if not (n_pos > 0 and n_neg > 0):
        return float("nan")
    below = np.cumsum(neg) - 0.5 * neg
    return float(np.dot(p, below) / n_pos / n_neg)


def _ovr(S, codes, w, mass, average):
    n, K = S.shape
    if average == "micro":
        if w is None:
            return pooled_pair_count(S, codes) / n / (n * (K - 1))
        order, lev, L = _levels(S.ravel())
        pos = (codes[:, None] == np.arange(K)[None, :]).ravel()[order]
        wr = None if w is None else np.repeat(w, K)[order]
        return _binary_auc(lev, pos, wr, L)
    per = np.empty(K)
    num = class_pair_counts(S, codes, K) if w is None else None
    total = mass.sum()
    for k in range(K):
        if w is None:
            den = mass[k] * (total - mass[k])
            per[k] = num[k].sum() / den if den > 0 else np.nan
        else:
            order, lev, L = _levels(S[:, k])
            per[k] = _binary_auc(lev, codes[order] == k, w[order], L)
    return ovr_average(per, mass, average)


def ovr_average(per: np.ndarray, mass: np.ndarray, average: str | None):
    """The one-vs-rest values ``per`` averaged (``None``: returned as they are), with
    :class:`rankwise.UndefinedMetricWarning` for classes whose value is nan; ``mass``: the
    classes' masses, the weights of ``"weighted"``."""
    if np.isnan(per).any():
        absent = np.flatnonzero(np.isnan(per))
        warn_undefined(_FUNC + " (one-vs-rest)",
                       f"class(es) at column(s) {absent.tolist()} have no rows, or no rows outside them")
    if average is None:
        return per
    if average == "macro":
        return float(per.mean())
    keep = mass > 0
    return float(np.dot(mass[keep], per[keep]) / mass[keep].sum())


def _ovo(S, codes, w, mass, average, classes):
    n, K = S.shape
    directed = np.full((K, K), np.nan)
    present = mass > 0
    num = class_pair_counts(S, codes, K) if w is None else None
    for i in range(K):
        if not present[i]:
            continue
        if w is None:
            with np.errstate(invalid="ignore", divide="ignore"):
                directed[i] = num[i] / (mass[i] * mass)
            directed[i, ~present] = np.nan
            directed[i, i] = np.nan
            continue
        order, lev, L = _levels(S[:, i])
        cell = codes[order] * L + lev
        cnt = np.bincount(cell, weights=w[order], minlength=K * L)
        cnt = cnt.astype(np.float64, copy=False).reshape(K, L)
        below = np.cumsum(cnt, axis=1)
        below -= 0.5 * cnt
        num = below @ cnt[i]  # num[j] = sum over class-i rows of class j's placement
        with np.errstate(invalid="ignore", divide="ignore"):
            directed[i] = num / (mass[i] * mass)
        directed[i, ~present] = np.nan
        directed[i, i] = np.nan
    pairs = (directed + directed.T) / 2
    if average is None:
        return PairwiseAUCs(directed, pairs, classes)
    iu, ju = np.triu_indices(K, 1)
    keep = present[iu] & present[ju]
    vals = pairs[iu[keep], ju[keep]]
    if average == "macro":
        return float(vals.mean())
    pw = mass[iu[keep]] + mass[ju[keep]]
    return float(np.dot(pw, vals) / pw.sum())
