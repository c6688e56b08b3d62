"""The rank table: distinct score levels with their positive and negative mass.

Every bipartite criterion of rankwise is a functional of this table (see
``docs/architecture.md``). Building it is the only super-linear step; every criterion's
pass (:mod:`rankwise.criteria`) is a vectorised pass over it.

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

import math

import numpy as np

from ._merge import level_counts, merge_below, split_classes

__all__ = [
    "RankTable",
    "ClassSide",
    "RowSide",
    "ShiftedTable",
    "MassRows",
    "Mirrored",
    "build_rank_table",
    "table_with_rows",
    "range_rows",
    "RANGE_ROWS",
    "use_ranges",
    "class_sorted",
    "range_tables",
    "table_from_runs",
]

_ONE = np.float64(1.0)
_ZERO = np.float64(0.0)


class ClassSide:
    """One class's view of the table, over the levels where it has mass, increasing.

    Passes (:mod:`rankwise.criteria`) are written against this interface so that the same
    code runs on one table (these 1-D arrays), on a table seen through the offsets of the
    buckets below it (:class:`ShiftedTable`: the running sums include them) and on a batch
    of resampled tables (:class:`RowSide`, 2-D arrays, one row per table). A pass must
    give the same result whether or not levels of zero mass are included (a batch keeps
    every level of the sample in every row): ``total`` weighs a level by its mass, and a
    division by a mass or a count goes through :meth:`ratio`.

    ``own_below`` and ``other_below`` may be given as functions that make them: they are
    made when a pass first reads them (an untied side's ``own_below`` is a range that
    most passes never read; a bucket's ``other_below`` is shifted by its offset only if
    read). ``own0``: on an untied side, ``own_below[0]`` (the levels' own counts are
    ``own0, own0 + 1, ...``) when known without making the array; None: read it there.
    """

    __slots__ = ("mass", "_own_below", "_other_below", "other_tied", "unit", "own0")

    def __init__(self, mass, own_below, other_below, other_tied, unit: bool = False, own0: float | None = None):
        self.mass = mass
        self._own_below = own_below
        self._other_below = other_below
        self.other_tied = other_tied
        #: True when every mass is 1 and nothing is tied (untied, unweighted): ``mass`` and
        #: ``other_tied`` are then read-only broadcast constants, and passes skip them.
        self.unit = unit
        self.own0 = own0

    def _made(self, slot: str) -> np.ndarray:
        a = getattr(self, slot)
        if callable(a):  # made on first read, then kept
            a = a()
            setattr(self, slot, a)
        return a

    own_below = property(lambda self: self._made("_own_below"))
    other_below = property(lambda self: self._made("_other_below"))

    @staticmethod
    def counting(m: int, own0: float, other_below) -> "ClassSide":
        """An untied side of ``m`` levels whose own counts run ``own0, own0 + 1, ...``
        (made on first read)."""
        return ClassSide(np.broadcast_to(_ONE, (m,)), lambda: np.arange(own0, own0 + m, dtype=np.float64),
                         other_below, np.broadcast_to(_ZERO, (m,)), True, own0)

    def total(self, x: np.ndarray, keep: np.ndarray | None = None) -> float:
        """``sum(mass * x)``, over the levels selected by the boolean ``keep`` if given."""
        if keep is not None:
            x = x[keep]
        if self.unit:
            return float(x.sum())
        return float(np.dot(self.mass if keep is None else self.mass[keep], x))

    def maximum(self, x: np.ndarray) -> float:
        """``max(x)`` over the side's levels (``-inf`` when there are none)."""
        return float(x.max()) if x.shape[0] else float("-inf")

    @staticmethod
    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        """``num / den``; on a 1-D side every level has mass, so ``den > 0`` there."""
        return num / den

    def tail(self, thr: float) -> "ClassSide":
        """The levels with ``own_below + mass > thr`` (a suffix, found by bisection): a
        pass that only reads those levels may skip the others."""
        m = self.mass.shape[0]
        if self.unit:  # own_below[i] = own0 + i: own0 + i + 1 <= thr for i < j (exact in integers)
            own0 = self.own0
            if own0 is None:
                own0 = float(self.own_below[0]) if m else 0.0
            v = (thr - 1.0) - own0
            j = 0 if not v >= 0 else min(m, math.floor(v) + 1)
            if j == 0:
                return self
            ob = self._other_below
            return ClassSide.counting(m - j, own0 + j, ob.tail(j) if isinstance(ob, _Shifted) else self.other_below[j:])
        j = int(np.searchsorted(self.own_below + self.mass, thr, side="right"))
        if j == 0:
            return self
        return ClassSide(self.mass[j:], self.own_below[j:], self.other_below[j:], self.other_tied[j:], self.unit)

    def flipped(self, n_own: float, n_other: float) -> "ClassSide":
        """The same class seen from the top of the list (scores negated): levels in
        decreasing score, ``own_below`` and ``other_below`` the masses strictly *above*."""
        return ClassSide(self.mass[::-1], (n_own - self.own_below - self.mass)[::-1],
                         (n_other - self.other_below - self.other_tied)[::-1], self.other_tied[::-1], self.unit)


class _Shifted:
    """``base + offset``, made when called: a bucket's counts of the other class below,
    shifted by the buckets under it; a tail of it shifts only the levels kept."""

    __slots__ = ("base", "offset")

    def __init__(self, base: np.ndarray, offset: float):
        self.base, self.offset = base, offset

    def __call__(self) -> np.ndarray:
        return self.base + self.offset

    def tail(self, j: int) -> "_Shifted":
        return _Shifted(self.base[j:], self.offset)


class RowSide:
    """:class:`ClassSide` for a batch of tables over shared levels: every array is
    ``(k, L)``, one row per table, and every level is present in every row (possibly with
    zero mass). Totals and maxima are ``(k, 1)`` columns, so that they broadcast against
    the per-row class totals. An array may be given as a function that computes it, so
    that a pass pays only for the running sums it reads."""

    __slots__ = ("_arrays",)
    unit = False

    def __init__(self, mass, own_below, other_below, other_tied):
        self._arrays = [mass, own_below, other_below, other_tied]

    def _get(self, i: int) -> np.ndarray:
        a = self._arrays[i]
        if callable(a):
            a = self._arrays[i] = a()
        return a

    mass = property(lambda self: self._get(0))
    own_below = property(lambda self: self._get(1))
    other_below = property(lambda self: self._get(2))
    other_tied = property(lambda self: self._get(3))

    def total(self, x: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
        m = self.mass if keep is None else np.where(keep, self.mass, 0.0)
        if x.shape != m.shape:
            x = np.broadcast_to(x, m.shape)
        return np.einsum("ij,ij->i", m, x)[:, None]

    def maximum(self, x: np.ndarray) -> np.ndarray:
        if x.shape[1] == 0:
            return np.full((x.shape[0], 1), -np.inf)
        return x.max(axis=1, keepdims=True)

    @staticmethod
    def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        ok = den > 0
        return np.where(ok, num / np.where(ok, den, 1.0), 0.0)

    def tail(self, thr) -> "RowSide":
        return self

    def flipped(self, n_own, n_other) -> "RowSide":
        return RowSide(self.mass[:, ::-1], (n_own - self.own_below - self.mass)[:, ::-1],
                       (n_other - self.other_below - self.other_tied)[:, ::-1], self.other_tied[:, ::-1])


class _Masses:
    """What every form of the table shares (one table, a batch of rows, a mirror)."""

    __slots__ = ()

    @property
    def n(self):
        """The pooled mass ``n+ + n-``."""
        return self.n_pos + self.n_neg

    def mirrored(self) -> "Mirrored":
        """The table of the mirrored sample (classes swapped, scores negated)."""
        return Mirrored(self)


class RankTable(_Masses):
    """Distinct score levels in increasing order with per-level class mass.

    Masses are float64: counts are exact up to 2**53, and every sum rankwise forms
    from them (e.g. ``n+ n-`` = 2.5e15 at n = 1e8) stays exact.
    """

    __slots__ = (
        "_levels", "n_pos", "n_neg", "weighted", "_lab", "_runs", "_dense_fn", "_side_levels",
        "_pos", "_neg", "_pos_below", "_neg_below", "_pos_side", "_neg_side",
    )

    def __init__(self, levels, n_pos, n_neg, *, weighted=False, pos=None, neg=None, lab=None, runs=None,
                 dense_fn=None, sides=None, side_levels=None):
        self._levels = levels
        self.n_pos = float(n_pos)
        self.n_neg = float(n_neg)
        self.weighted = bool(weighted)
        self._lab = lab  # untied unweighted tables: class of each level
        # Untied unweighted tables built from the class runs: (positives' sorted scores,
        # negatives', negatives below each positive, positives below each negative); the
        # sides are read off them and the dense form is made only when asked for.
        self._runs = runs
        self._dense_fn = dense_fn  # () -> (levels, pos, neg): the dense form, made when asked for
        self._side_levels = side_levels  # (positives' levels, negatives'), when built per class
        self._pos, self._neg = pos, neg
        self._pos_below = self._neg_below = None
        self._pos_side, self._neg_side = sides if sides is not None else (None, None)

    @property
    def levels(self) -> np.ndarray:
        """The distinct score levels, increasing."""
        if self._levels is None:
            if self._runs is not None:
                self._merge_runs()
            else:
                self._levels, self._pos, self._neg = self._dense_fn()
                self._dense_fn = None
        return self._levels

    def _merge_runs(self) -> None:
        # The i-th positive sits at pooled position i + (negatives below it): a linear scatter.
        p, q, bp, bq = self._runs
        levels = np.empty(p.shape[0] + q.shape[0], dtype=p.dtype)
        lab = np.zeros(levels.shape[0], dtype=bool)
        at = bp.astype(np.intp)
        at += np.arange(p.shape[0], dtype=np.intp)
        levels[at] = p
        lab[at] = True
        del at
        levels[~lab] = q
        self._levels, self._lab = levels, lab

    def end_masses(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """``((a, b) at the lowest level, (a, b) at the highest)``, each class's mass there
        (zeros when the table is empty), read from the class runs or sides when the dense
        form is not made."""
        if self._pos is None and self._runs is not None:  # untied: one row per level
            p, q = self._runs[0], self._runs[1]
            if not p.shape[0] or not q.shape[0]:
                one = (1.0, 0.0) if p.shape[0] else (0.0, 1.0)
                return one, one
            low = (1.0, 0.0) if p[0] < q[0] else (0.0, 1.0)
            return low, ((1.0, 0.0) if p[-1] > q[-1] else (0.0, 1.0))
        if self._pos is None and self._side_levels is not None:
            (lp, ln), (sp, sn) = self._side_levels, (self._pos_side, self._neg_side)
            if not lp.shape[0] or not ln.shape[0]:
                own = sp if lp.shape[0] else sn
                lo, hi = float(own.mass[0]), float(own.mass[-1])
                return ((lo, 0.0), (hi, 0.0)) if lp.shape[0] else ((0.0, lo), (0.0, hi))
            ends = []
            for i in (0, -1):
                x, z = lp[i], ln[i]
                if x == z:
                    ends.append((float(sp.mass[i]), float(sn.mass[i])))
                elif (x < z) == (i == 0):  # the positives' level is the end one
                    ends.append((float(sp.mass[i]), 0.0))
                else:
                    ends.append((0.0, float(sn.mass[i])))
            return ends[0], ends[1]
        a, b = self.pos, self.neg
        if not a.shape[0]:
            return (0.0, 0.0), (0.0, 0.0)
        return (float(a[0]), float(b[0])), (float(a[-1]), float(b[-1]))

    @property
    def size(self) -> int:
        if self._levels is None and self._runs is not None:
            return int(self._runs[0].shape[0] + self._runs[1].shape[0])
        return int(self.levels.shape[0])

    # --- dense form ------------------------------------------------------------------
    @property
    def pos(self) -> np.ndarray:
        if self._pos is None:
            if self._lab is None:
                self.levels  # noqa: B018 - makes the dense form
            if self._pos is None:
                self._pos = self._lab.astype(np.float64)
        return self._pos

    @property
    def neg(self) -> np.ndarray:
        if self._neg is None:
            if self._lab is None:
                self.levels  # noqa: B018 - makes the dense form
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
        if self._runs is not None:
            # Untied, unweighted: the i-th member of the class has i of its own class below
            # it and the merge count of the other.
            other = self._runs[2] if positive else self._runs[3]
            return ClassSide.counting(other.shape[0], 0.0, other)
        if self._lab is not None:
            # The i-th member of the class sits at pooled position j_i: j_i - i of the
            # other class are below it. Kept lean: at most two arrays of the class's size.
            where = np.flatnonzero(self._lab if positive else ~self._lab)
            m = where.shape[0]
            where -= np.arange(m, dtype=where.dtype)
            other = where.astype(np.float64)
            del where
            return ClassSide.counting(m, 0.0, other)
        mine, theirs = (self.pos, self.neg) if positive else (self.neg, self.pos)
        their_below = self.neg_below if positive else self.pos_below
        sel = mine > 0
        mass = mine[sel]
        return ClassSide(mass, _exclusive_cumsum(mass), their_below[sel], theirs[sel])

    def side_levels(self, positive: bool) -> np.ndarray:
        """The score levels of :attr:`pos_side` (``positive``) or :attr:`neg_side`, increasing."""
        c = 0 if positive else 1
        if self._runs is not None:
            return self._runs[c]
        if self._side_levels is not None:
            return self._side_levels[c]
        return self.levels[(self.pos if positive else self.neg) > 0]

    def __repr__(self) -> str:
        return (
            f"RankTable(levels={self.size}, n_pos={self.n_pos:g}, n_neg={self.n_neg:g}, "
            f"weighted={self.weighted})"
        )


def _exclusive_cumsum(x: np.ndarray) -> np.ndarray:
    """Mass strictly below each level: the running sum shifted by one (not ``cumsum(x) -
    x``, whose rounding would make two levels with nothing between them differ in the
    last bit)."""
    c = np.empty(x.shape[0], dtype=np.float64)
    if c.shape[0]:
        c[0] = 0.0
        np.cumsum(x[:-1], out=c[1:])
    return c


def build_rank_table(is_pos: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> RankTable:
    """Build the rank table of a labelled score sample.

    Unweighted samples: each class's scores are split into one buffer and sorted in
    place (two sorts that together cost about one sort of the pooled sample), then a
    linear merge count gives every member the number of the other class below it
    (:mod:`rankwise._kernels._merge`); the pooled order itself is made only if a caller
    asks for the dense form. Weighted samples need the permutation to carry the weights:
    one argsort of the pooled scores.
    """
    if weights is not None:
        order = np.argsort(scores, kind="stable")
        return _table_from_sorted(scores[order], is_pos[order], weights[order])
    return _table_from_runs(*class_sorted(is_pos, scores))


def table_from_runs(pos: np.ndarray, neg: np.ndarray) -> RankTable:
    """The unweighted rank table of a sample given each class's sorted scores (only read;
    the table may keep views of them)."""
    return _table_from_runs(pos, neg)


def _has_ties(x: np.ndarray) -> bool:
    return x.shape[0] > 1 and bool((x[1:] == x[:-1]).any())


def _table_from_runs(pos: np.ndarray, neg: np.ndarray) -> RankTable:
    """The unweighted table from each class's sorted scores (only read; the table may
    keep views of them)."""
    m, k = pos.shape[0], neg.shape[0]
    if not _has_ties(pos) and not _has_ties(neg):
        if m == 0 or k == 0:
            return RankTable(pos if m else neg, m, k, lab=np.full(m + k, m > 0, dtype=bool))
        below_pos, below_neg, tied = merge_below(pos, neg)
        if not tied:
            return RankTable(None, m, k, runs=(pos, neg, below_pos, below_neg))
        del below_pos, below_neg
    return _table_from_levels(pos, neg)


def _class_levels(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(levels, mass, own_below)`` of one class's sorted scores (masses float64)."""
    starts = np.flatnonzero(x[1:] != x[:-1]) if x.shape[0] > 1 else np.empty(0, dtype=np.intp)
    starts += 1
    starts = np.concatenate((np.zeros(min(1, x.shape[0]), dtype=np.intp), starts))
    mass = np.diff(np.append(starts, x.shape[0])).astype(np.float64)
    return x[starts], mass, starts.astype(np.float64)


def _table_from_levels(pos: np.ndarray, neg: np.ndarray) -> RankTable:
    """The unweighted table of tied class runs: each class's levels (where its sorted
    scores change) and, from a linear count against the other class's scores, the other
    class's mass below and at each level. The pooled levels are merged only when the
    dense form is asked for."""
    sides = []
    parts = []
    for mine, theirs in ((pos, neg), (neg, pos)):
        lev, mass, own = _class_levels(mine)
        left, right = level_counts(lev, theirs)
        right -= left
        sides.append(ClassSide(mass, own, left, right))
        parts.append((lev, mass))

    def dense_fn():
        (lp, mp), (ln, mn) = parts
        lv = np.concatenate((lp, ln))
        order = np.argsort(lv, kind="stable")  # a timsort: linear on two sorted runs
        lab = np.zeros(lv.shape[0], dtype=bool)
        lab[: lp.shape[0]] = True
        t = _table_from_sorted(lv[order], lab[order], np.concatenate((mp, mn))[order])
        return t.levels, t.pos, t.neg

    return RankTable(None, pos.shape[0], neg.shape[0], dense_fn=dense_fn, sides=tuple(sides),
                     side_levels=(parts[0][0], parts[1][0]))


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


def table_with_rows(is_pos: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> tuple[RankTable, np.ndarray]:
    """The dense rank table and the level of every input row (one argsort).

    Rows with zero weight point at level 0 and carry no mass. Used where per-row terms are
    read back off the table (paired comparisons, the weighted bootstrap, the Dask buckets
    of ``compare``)."""
    n = s.shape[0]
    order = np.argsort(s)
    ss = s[order]
    flag = np.empty(n, dtype=bool)
    flag[0] = True
    if n > 1:
        np.not_equal(ss[1:], ss[:-1], out=flag[1:])
    inv = np.empty(n, dtype=np.int64)
    if w is None and flag.all():
        # Untied: every row is its own level (the common case of continuous scores).
        inv[order] = np.arange(n, dtype=np.int64)
        levels = ss
        a = is_pos[order].astype(np.float64)
        b = 1.0 - a
    else:
        starts = np.flatnonzero(flag)
        levels = ss[starts]
        lev_sorted = np.cumsum(flag, dtype=np.int64)
        lev_sorted -= 1
        inv[order] = lev_sorted
        lab = is_pos[order]
        if w is None:
            a = np.add.reduceat(lab, starts, dtype=np.int64).astype(np.float64)
            b = np.diff(np.append(starts, n)).astype(np.float64) - a
        else:
            ws = w[order]
            a = np.add.reduceat(np.where(lab, ws, 0.0), starts)
            b = np.add.reduceat(np.where(lab, 0.0, ws), starts)
            keep = (a + b) > 0
            if not keep.all():
                newidx = np.cumsum(keep) - 1
                inv = np.where(keep[inv], newidx[inv], 0)
                levels, a, b = levels[keep], a[keep], b[keep]
    table = RankTable(levels, a.sum(), b.sum(), weighted=w is not None, pos=a, neg=b)
    return table, inv


class ShiftedTable(RankTable):
    """A bucket's rank table seen from the whole sample: class totals are global and the
    running state (``own_below``, ``other_below``, ``pos_below``, ``neg_below``) includes
    the mass of the buckets below. Every pass runs on it unchanged and returns the
    bucket's exact share of a global sum (the exact distributed algorithm)."""

    __slots__ = ("_base", "_cp", "_cn")

    def __init__(self, base: RankTable, cum_pos: float, cum_neg: float, n_pos: float, n_neg: float):
        super().__init__(None, n_pos, n_neg, weighted=base.weighted)
        self._base, self._cp, self._cn = base, float(cum_pos), float(cum_neg)

    # The dense form is the base table's, made when first asked for.
    levels = property(lambda self: self._base.levels)
    pos = property(lambda self: self._base.pos)
    neg = property(lambda self: self._base.neg)
    size = property(lambda self: self._base.size)

    @property
    def pos_below(self) -> np.ndarray:
        if self._pos_below is None:
            self._pos_below = self._base.pos_below + self._cp
        return self._pos_below

    @property
    def neg_below(self) -> np.ndarray:
        if self._neg_below is None:
            self._neg_below = self._base.neg_below + self._cn
        return self._neg_below

    @property
    def pos_side(self) -> ClassSide:
        if self._pos_side is None:
            self._pos_side = self._shifted_side(True, self._cp, self._cn)
        return self._pos_side

    @property
    def neg_side(self) -> ClassSide:
        if self._neg_side is None:
            self._neg_side = self._shifted_side(False, self._cn, self._cp)
        return self._neg_side

    def range_masses(self) -> tuple[float, float, float, float]:
        """``(positive mass below the range, negative mass below, the range's positive
        mass, its negative mass)``: enough to bound every running sum of the range (a
        criterion whose terms are constant over a range tells so from these alone)."""
        return self._cp, self._cn, self._base.n_pos, self._base.n_neg

    def end_masses(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """``((a, b) at the range's lowest level, (a, b) at its highest)``: each class's mass
        there, read without making the dense form."""
        return self._base.end_masses()

    def _shifted_side(self, positive: bool, own: float, other: float) -> ClassSide:
        runs = self._base._runs
        if runs is not None:  # untied: the own class's running count starts at the offset
            below = runs[2] if positive else runs[3]
            return ClassSide.counting(below.shape[0], float(own), _Shifted(below, other))
        b = self._base.pos_side if positive else self._base.neg_side
        return ClassSide(b.mass, b.own_below + own, b.other_below + other, b.other_tied, b.unit)


class MassRows(_Masses):
    """A batch of ``k`` rank tables over the same ``L`` levels: row ``r`` has positive
    masses ``A[r]`` and negative masses ``B[r]``. A stratified bootstrap resample of a
    sample keeps its score levels, so every resample is one row and a criterion is a few
    cumulative sums along the rows: no sort, no loop over resamples.

    ``cum_pos``, ``cum_neg`` (``(k,)``, optional): per-row masses of the buckets below (the
    Dask bootstrap); ``n_pos``, ``n_neg``: the class totals (default: the row sums). Class
    totals are ``(k, 1)`` columns, or scalars when given as such."""

    weighted = True  # masses need not be counts of distinct rows: DCG uses its interpolated form

    def __init__(self, A: np.ndarray, B: np.ndarray, cum_pos=None, cum_neg=None, n_pos=None, n_neg=None):
        self.A, self.B = A, B
        self._cp = 0.0 if cum_pos is None else np.asarray(cum_pos, dtype=np.float64)[:, None]
        self._cn = 0.0 if cum_neg is None else np.asarray(cum_neg, dtype=np.float64)[:, None]
        self.n_pos = A.sum(axis=1, keepdims=True) if n_pos is None else n_pos
        self.n_neg = B.sum(axis=1, keepdims=True) if n_neg is None else n_neg
        self._pb = self._nb = None

    @property
    def size(self) -> int:
        return int(self.A.shape[1])

    @property
    def pos_below(self) -> np.ndarray:
        if self._pb is None:
            self._pb = _exclusive_cumsum_rows(self.A)
            self._pb += self._cp
        return self._pb

    @property
    def neg_below(self) -> np.ndarray:
        if self._nb is None:
            self._nb = _exclusive_cumsum_rows(self.B)
            self._nb += self._cn
        return self._nb

    # The sides read the running sums from the table when first asked (so a pass pays
    # only for those it uses) and are not kept: a side kept by the table would make a
    # reference cycle, and the batch's (k, L) arrays would wait for the cyclic collector.
    @property
    def pos_side(self) -> RowSide:
        return RowSide(self.A, lambda: self.pos_below, lambda: self.neg_below, self.B)

    @property
    def neg_side(self) -> RowSide:
        return RowSide(self.B, lambda: self.neg_below, lambda: self.pos_below, self.A)


def _exclusive_cumsum_rows(x: np.ndarray) -> np.ndarray:
    c = np.empty(x.shape, dtype=np.float64)
    if c.shape[1]:
        c[:, 0] = 0.0
        np.cumsum(x[:, :-1], axis=1, out=c[:, 1:])
    return c


class Mirrored(_Masses):
    """The rank table of the mirrored sample: classes swapped and scores negated. The
    sensitivity-focused partial AUC of a sample is the false-positive-focused partial AUC
    of its mirror (over the reflected range), so one pass serves both."""

    def __init__(self, table):
        self._t = table
        self.n_pos, self.n_neg = table.n_neg, table.n_pos
        self.weighted = table.weighted

    @property
    def pos_side(self):
        t = self._t
        return t.neg_side.flipped(t.n_neg, t.n_pos)

    @property
    def neg_side(self):
        t = self._t
        return t.pos_side.flipped(t.n_pos, t.n_neg)

    def mirrored(self):
        return self._t


#: Unweighted samples above twice this many rows are read range by range (see
#: :func:`use_ranges`): memory about one copy of the scores in their own dtype instead of
#: the whole rank table's float64 arrays (8 to 48 bytes per row).
RANGE_ROWS = 1 << 20


def range_rows(fine: bool = False) -> int:
    """Rows per range: :data:`RANGE_ROWS`, or an eighth of it (2^17) for ``fine`` ranges,
    those of the Hajek path when a criterion reads its projection range by range. Most
    ranges of a large sample are then flat for a criterion that reads a cut or the top
    (their terms follow from their class masses): the five default estimates at 10^7
    take 0.38 s in ranges of 2^17 rows against 0.51 s in ranges of 2^20, and at 10^6 0.05 s
    against 0.24 s for the one table (``bench/bench_estimates.py``; BENCHMARKS.md). Values alone gain nothing from small ranges and pay
    a little per range (evaluate on tied scores: 1.03x one auc at 10^7 in ranges of 2^20,
    1.14x in ranges of 2^17)."""
    return max(1, RANGE_ROWS >> 3) if fine else RANGE_ROWS


def use_ranges(n: int, weights, fine: bool = False) -> bool:
    """Whether a sample of ``n`` rows is read range by range (unweighted, and more than two
    ranges of :func:`range_rows`)."""
    return weights is None and n > 2 * range_rows(fine)


def class_sorted(is_pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each class's scores, sorted, in their own dtype (float32 stays float32)."""
    pos, neg = split_classes(is_pos, scores)
    pos.sort()
    neg.sort()
    return pos, neg


def range_tables(pos: np.ndarray, neg: np.ndarray, chunk_rows: int | None = None):
    """The rank table of an unweighted sample, given each class's sorted scores, as
    consecutive score ranges of about ``chunk_rows`` rows (default :data:`RANGE_ROWS`),
    each a :class:`ShiftedTable` (global class totals, the masses of the ranges below as
    offsets): a criterion's sums over the ranges add up to its sums over the whole table,
    and its projection terms are those of the whole table (the exact distributed
    algorithm, on one machine). A range never splits a score level; the arrays are only
    read, so the ranges can be walked again."""
    n_pos, n_neg = pos.shape[0], neg.shape[0]
    half = max(1, (range_rows() if chunk_rows is None else chunk_rows) // 2)
    i = j = 0
    while i < n_pos or j < n_neg:
        # The range ends below the score `half` rows further on in either class.
        ends = [c[k + half] for c, k in ((pos, i), (neg, j)) if k + half < c.shape[0]]
        if ends:
            v = min(ends)
            i1, j1 = int(np.searchsorted(pos, v, "left")), int(np.searchsorted(neg, v, "left"))
            if i1 == i and j1 == j:  # one level holds more than `half` rows: take it whole
                i1, j1 = int(np.searchsorted(pos, v, "right")), int(np.searchsorted(neg, v, "right"))
        else:
            i1, j1 = n_pos, n_neg
        # Each class's slice is sorted: the range's table needs only the linear merge count.
        yield ShiftedTable(_table_from_runs(pos[i:i1], neg[j:j1]), i, j, n_pos, n_neg)
        i, j = i1, j1
