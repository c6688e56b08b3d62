"""The rank table: distinct score levels with their positive and negative mass.

Every bipartite criterion of rankwise is a functional of this table (see
``DESIGN.md``). Building it is the only super-linear step; everything in
:mod:`rankwise._kernels._passes` is a vectorised pass over it.

The table is held in two equivalent forms, each computed when first asked for:

* **dense**: over all ``k`` levels, ``pos``, ``neg`` and their running sums
  ``pos_below``, ``neg_below`` (the ROC curve needs these);
* **per class**: over the levels where one class has mass, that mass and the
  running state a pass needs there. For positives: ``mass``, ``own_below``
  (positive mass strictly below), ``other_below`` (negative mass strictly
  below), ``other_tied`` (negative mass at the same level); negatives likewise.
  Criteria that sum over positives (AUC, ``W_phi``, local AUC, DCG) read the
  positive side only, those that sum over negatives (p-norm push, partial AUC)
  the negative side, so a pass costs O(n+) or O(n-), not O(n).

For untied unweighted scores (the common case of a continuous score) the per
class form comes straight from the merge: the ``i``-th positive sits at pooled
position ``j_i``, so ``other_below = j_i - i``; no dense array is ever made.

Inputs are assumed validated (finite scores, boolean labels, non-negative
weights of the same length).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["RankTable", "ClassSide", "build_rank_table"]

_ONE = np.float64(1.0)
_ZERO = np.float64(0.0)


class ClassSide(NamedTuple):
    """One class's view of the table, over the levels where it has mass, increasing."""

    mass: np.ndarray
    own_below: np.ndarray
    other_below: np.ndarray
    other_tied: np.ndarray
    #: True when every mass is 1 and nothing is tied (untied, unweighted): ``mass`` and
    #: ``other_tied`` are then read-only broadcast constants, and passes skip them.
    unit: bool = False

    def total(self, x: np.ndarray, keep: np.ndarray | None = None) -> float:
        """``sum(mass * x)``, over the levels selected by the boolean ``keep`` if given."""
        if keep is not None:
            x = x[keep]
        if self.unit:
            return float(x.sum())
        return float(np.dot(self.mass if keep is None else self.mass[keep], x))


class RankTable:
    """Distinct score levels in increasing order with per-level class mass.

    Masses are float64: counts are exact up to 2**53, and every sum rankwise forms
    from them (e.g. ``n+ n-`` = 2.5e15 at n = 1e8) stays exact.
    """

    __slots__ = (
        "levels", "n_pos", "n_neg", "weighted", "_lab",
        "_pos", "_neg", "_pos_below", "_neg_below", "_pos_side", "_neg_side",
    )

    def __init__(self, levels, n_pos, n_neg, *, weighted=False, pos=None, neg=None, lab=None):
        self.levels = levels
        self.n_pos = float(n_pos)
        self.n_neg = float(n_neg)
        self.weighted = bool(weighted)
        self._lab = lab  # untied unweighted tables: class of each level
        self._pos, self._neg = pos, neg
        self._pos_below = self._neg_below = None
        self._pos_side = self._neg_side = None

    @property
    def n(self) -> float:
        return self.n_pos + self.n_neg

    @property
    def size(self) -> int:
        return int(self.levels.shape[0])

    # --- dense form ------------------------------------------------------------------
    @property
    def pos(self) -> np.ndarray:
        if self._pos is None:
            self._pos = self._lab.astype(np.float64)
        return self._pos

    @property
    def neg(self) -> np.ndarray:
        if self._neg is None:
            self._neg = (~self._lab).astype(np.float64)
        return self._neg

    @property
    def pos_below(self) -> np.ndarray:
        """Positive mass strictly below each level."""
        if self._pos_below is None:
            self._pos_below = _exclusive_cumsum(self.pos)
        return self._pos_below

    @property
    def neg_below(self) -> np.ndarray:
        """Negative mass strictly below each level."""
        if self._neg_below is None:
            self._neg_below = _exclusive_cumsum(self.neg)
        return self._neg_below

    # --- per-class form ----------------------------------------------------------------
    @property
    def pos_side(self) -> ClassSide:
        if self._pos_side is None:
            self._pos_side = self._side(True)
        return self._pos_side

    @property
    def neg_side(self) -> ClassSide:
        if self._neg_side is None:
            self._neg_side = self._side(False)
        return self._neg_side

    def _side(self, positive: bool) -> ClassSide:
        if self._lab is not None:
            # The i-th member of the class sits at pooled position j_i: j_i - i of the
            # other class are below it. Kept lean: at most two arrays of the class's size.
            where = np.flatnonzero(self._lab if positive else ~self._lab)
            m = where.shape[0]
            where -= np.arange(m, dtype=where.dtype)
            other = where.astype(np.float64)
            del where
            own = np.arange(m, dtype=np.float64)
            return ClassSide(np.broadcast_to(_ONE, (m,)), own, other, np.broadcast_to(_ZERO, (m,)), True)
        mine, theirs = (self.pos, self.neg) if positive else (self.neg, self.pos)
        their_below = self.neg_below if positive else self.pos_below
        sel = mine > 0
        mass = mine[sel]
        return ClassSide(mass, _exclusive_cumsum(mass), their_below[sel], theirs[sel])

    def __repr__(self) -> str:
        return (
            f"RankTable(levels={self.size}, n_pos={self.n_pos:g}, n_neg={self.n_neg:g}, "
            f"weighted={self.weighted})"
        )


def _exclusive_cumsum(x: np.ndarray) -> np.ndarray:
    c = np.cumsum(x)
    c -= x
    return c


def build_rank_table(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> RankTable:
    """Build the rank table of a labelled score sample.

    Unweighted samples: each class is gathered into one buffer and sorted in place
    (two sorts that together cost about one sort of the pooled sample); the two sorted
    runs are then merged by a stable argsort, which numpy runs as a timsort and so
    completes in linear time on two runs. Weighted samples need the permutation to
    carry the weights: one argsort of the pooled scores.
    """
    n = scores.shape[0]
    if weights is not None:
        order = np.argsort(scores, kind="stable")
        return _table_from_sorted(scores[order], is_pos[order], weights[order])
    n_pos = int(np.count_nonzero(is_pos))
    merged = np.empty(n, dtype=scores.dtype)
    np.compress(is_pos, scores, out=merged[:n_pos])
    np.compress(~is_pos, scores, out=merged[n_pos:])
    merged[:n_pos].sort()
    merged[n_pos:].sort()
    if 0 < n_pos < n:
        order = np.argsort(merged, kind="stable")
        lab = order < n_pos
        del order
        merged.sort(kind="stable")  # linear merge of the two sorted runs, in place
    else:
        lab = np.full(n, n_pos > 0, dtype=bool)
    if n < 2 or not (merged[1:] == merged[:-1]).any():
        return RankTable(merged, n_pos, n - n_pos, lab=lab)
    return _table_from_sorted(merged, lab, None)


def _table_from_sorted(ss: np.ndarray, lab: np.ndarray, w: np.ndarray | None) -> RankTable:
    n = ss.shape[0]
    change = np.flatnonzero(ss[1:] != ss[:-1]) if n > 1 else np.empty(0, dtype=np.intp)
    starts = np.empty(change.shape[0] + 1, dtype=np.intp)
    starts[0] = 0
    np.add(change, 1, out=starts[1:])
    levels = ss[starts]
    if w is None:
        pos = np.add.reduceat(lab, starts, dtype=np.int64).astype(np.float64)
        counts = np.diff(np.append(starts, n)).astype(np.float64)
        neg = counts - pos
    else:
        pos = np.add.reduceat(np.where(lab, w, 0.0), starts)
        neg = np.add.reduceat(np.where(lab, 0.0, w), starts)
        # Levels that carry no mass (zero weights) are not score levels of the sample.
        keep = (pos + neg) > 0
        if not keep.all():
            levels, pos, neg = levels[keep], pos[keep], neg[keep]
    return RankTable(levels, pos.sum(), neg.sum(), weighted=w is not None, pos=pos, neg=neg)
