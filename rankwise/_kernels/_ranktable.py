"""The rank table: distinct score levels with their positive and negative mass.

Every bipartite criterion of rankwise is a functional of this table (see
``DESIGN.md``). Building it is the only super-linear step; everything in
:mod:`rankwise._kernels._passes` is a vectorised pass over its ``k <= n`` rows.

Inputs are assumed validated (finite scores, boolean labels, non-negative
weights of the same length).
"""

from __future__ import annotations

import numpy as np

__all__ = ["RankTable", "build_rank_table"]


class RankTable:
    """Distinct score levels in increasing order with per-level class mass.

    Attributes
    ----------
    levels : ndarray of shape (k,)
        Distinct scores, increasing, in the input dtype.
    pos, neg : ndarray of shape (k,), float64
        Mass (count, or sum of weights) of positives / negatives at each level.
        Counts are stored as float64: exact up to 2**53, and every sum rankwise
        forms from them (e.g. ``n+ n-`` up to 2.5e15 at n = 1e8) stays exact.
    n_pos, n_neg : float
        Total positive / negative mass.
    weighted : bool
        Whether the masses come from sample weights.
    """

    __slots__ = ("levels", "pos", "neg", "n_pos", "n_neg", "weighted", "_pos_below", "_neg_below")

    def __init__(self, levels, pos, neg, weighted=False):
        self.levels = levels
        self.pos = pos
        self.neg = neg
        # Sums of integer-valued float64 are exact below 2**53; fsum guards weights.
        self.n_pos = float(pos.sum())
        self.n_neg = float(neg.sum())
        self.weighted = bool(weighted)
        self._pos_below = None
        self._neg_below = None

    @property
    def n(self) -> float:
        return self.n_pos + self.n_neg

    @property
    def size(self) -> int:
        return int(self.levels.shape[0])

    @property
    def pos_below(self) -> np.ndarray:
        """Positive mass strictly below each level."""
        if self._pos_below is None:
            c = np.cumsum(self.pos)
            c -= self.pos
            self._pos_below = c
        return self._pos_below

    @property
    def neg_below(self) -> np.ndarray:
        """Negative mass strictly below each level."""
        if self._neg_below is None:
            c = np.cumsum(self.neg)
            c -= self.neg
            self._neg_below = c
        return self._neg_below

    @property
    def count(self) -> np.ndarray:
        """Total mass at each level."""
        return self.pos + self.neg

    def __repr__(self) -> str:
        return (
            f"RankTable(levels={self.size}, n_pos={self.n_pos:g}, n_neg={self.n_neg:g}, "
            f"weighted={self.weighted})"
        )


def build_rank_table(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> RankTable:
    """Build the rank table of a labelled score sample.

    Unweighted samples: each class is sorted on its own (two sorts that together
    cost about one sort of the pooled sample), then the two sorted runs are merged
    by a stable argsort, which numpy runs as a timsort and so completes in linear
    time on two runs. Weighted samples need the permutation to carry the weights:
    one argsort of the pooled scores.
    """
    n = scores.shape[0]
    if weights is None:
        sp = scores[is_pos]
        sp.sort()
        n_pos = sp.shape[0]
        sn = scores[~is_pos]
        sn.sort()
        if n_pos == 0 or n_pos == n:
            ss = sp if n_pos else sn
            lab = np.full(n, bool(n_pos), dtype=bool)
        else:
            merged = np.concatenate((sp, sn))
            del sp, sn
            order = np.argsort(merged, kind="stable")
            ss = merged[order]
            del merged
            lab = order < n_pos
            del order
        return _table_from_sorted(ss, lab, None)
    order = np.argsort(scores, kind="stable")
    return _table_from_sorted(scores[order], is_pos[order], weights[order])


def _table_from_sorted(ss: np.ndarray, lab: np.ndarray, w: np.ndarray | None) -> RankTable:
    n = ss.shape[0]
    if n > 1:
        change = np.flatnonzero(ss[1:] != ss[:-1])
    else:
        change = np.empty(0, dtype=np.intp)
    if change.shape[0] == n - 1:
        # No ties: one observation per level.
        levels = ss
        if w is None:
            pos = lab.astype(np.float64)
            neg = 1.0 - pos
        else:
            pos = np.where(lab, w, 0.0)
            neg = np.where(lab, 0.0, w)
            keep = w > 0
            if not keep.all():
                levels, pos, neg = levels[keep], pos[keep], neg[keep]
        return RankTable(levels, pos, neg, weighted=w is not None)
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
    if w is not None:
        # Levels that carry no mass (zero weights) are not score levels of the sample.
        keep = (pos + neg) > 0
        if not keep.all():
            levels, pos, neg = levels[keep], pos[keep], neg[keep]
    return RankTable(levels, pos, neg, weighted=w is not None)
