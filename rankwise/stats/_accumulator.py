"""``RankAccumulator``: the rank table of a sample that arrives in batches, kept exactly.

A bipartite criterion is a functional of the rank table: the distinct scores with the
positive and negative mass at each. So a stream of labelled scores (the validation
batches of a training loop, the parts of a file, the shards of a cluster) need only keep
that table: for each class, its distinct scores, increasing (float64), with the mass at
each (int64 counts without weights, float64 sums of weights with them). Any split of the
sample into batches, in any order, merged along any tree, gives the same table, hence
the same criteria, standard errors and curves as the whole sample at once.

Cost. A batch is validated and copied (float64 scores, classes, weights) into a pending
list; nothing is sorted per batch. The pending rows are merged lazily: when a result is
asked for, or when they outgrow twice the merged state (and :data:`MIN_PENDING` rows).
A merge splits them by class, sorts each class once (with the levels held, while every
mass is 1) and run-length codes them, so the total work is O(n log n) and the memory
O(distinct scores) plus that bounded pending list.

The quantised mode (``resolution=`` and/or ``max_levels=``) keeps masses per cell of a
grid of width ``resolution`` instead of per distinct score; when ``max_levels`` cells are
exceeded the width doubles and cells merge pairwise. It gives the AUC with a certified
bound (:meth:`RankAccumulator.auc_bounds`), in memory ``O(max_levels)``.

Definitions, the state, the file format and the quantised bound with its derivation:
``docs/accumulator.md``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import stat
import struct
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._kernels import (ClassSide, RankTable, class_sorted, range_rows, range_tables, split_classes, table_from_runs,
                       use_ranges)
from .._labels import BINARY, LabelSummary, kind_of
from .._validation import (
    check_param,
    check_same_length,
    check_sample_weight,
    check_scores,
    labels_equal,
    ranked_score_values,
    to_numpy,
    warn_undefined,
    weight_scale,
)
from ..io import write_atomic
from ..metrics import (
    DEFAULT_CRITERIA,
    OperatingPoints,
    PRCurve,
    ROCCurve,
    check_operating_request,
    points_from_table,
    pr_from_points,
)
from ..metrics.blocks import roc_corners, roc_points
from . import _core
from ._estimate import (
    OWN_ENTRIES,
    Estimate,
    Inference,
    _fine,
    _from_sample,
    _undefined,
    check_bandwidth,
    check_method,
    resolve_criterion,
)

__all__ = ["RankAccumulator", "FORMAT_NAME", "FORMAT_VERSION", "MAGIC", "MIN_PENDING", "MAX_WEIGHT"]

#: The first eight bytes of a saved accumulator.
MAGIC = b"RWACCUM\x00"
#: The ``format`` field of the header.
FORMAT_NAME = "rankwise-accumulator"
#: The only version this reader reads and this writer writes.
FORMAT_VERSION = 1
#: The largest JSON header a reader accepts (bytes).
MAX_HEADER = 1 << 20
#: The largest file :meth:`RankAccumulator.load` reads unless told otherwise (bytes).
DEFAULT_MAX_BYTES = 1 << 32
#: Pending entries (rows of batches and levels of merged accumulators not merged yet)
#: allowed before a merge, at least: they are merged when they outnumber
#: ``max(2 * merged levels, MIN_PENDING)``.
MIN_PENDING = 1 << 22
#: Weights above this are refused: sums of up to 2^63 of them stay finite in float64.
MAX_WEIGHT = 2.0 ** 900
#: Scores as float64 must be exact: integers beyond this magnitude are refused.
_EXACT_INT = 2 ** 53
#: Quantised cells are int64 indices below this magnitude.
_CELL_LIMIT = 2.0 ** 62
#: Quantised mode: grid widths and scores below this magnitude (so that doubling the width
#: until two cells hold every score never overflows).
_GRID_LIMIT = 2.0 ** 900
#: The grid width when only ``max_levels`` is given (a power of two, so that any two such
#: accumulators can be merged).
DEFAULT_RESOLUTION = 2.0 ** -32
#: Quantised mode: a batch whose cells span at most this many (or twice its rows) is
#: counted into a dense array (``np.bincount``), not sorted.
_DENSE_SPAN = 1 << 20
_CHECKSUM = 32  # SHA-256
_FUNC = "RankAccumulator"


# --- runs: one class's distinct scores, increasing, with their masses ------------------------

def _starts(x: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted ``x`` starts."""
    n = x.shape[0]
    if n == 0:
        return np.empty(0, dtype=np.intp)
    change = np.flatnonzero(x[1:] != x[:-1])
    starts = np.empty(change.shape[0] + 1, dtype=np.intp)
    starts[0] = 0
    np.add(change, 1, out=starts[1:])
    return starts


def _distinct(x: np.ndarray) -> bool:
    """Whether the sorted ``x`` holds no value twice (no index array is made)."""
    return x.shape[0] < 2 or not bool(np.equal(x[1:], x[:-1]).any())


def _lengths(starts: np.ndarray, n: int) -> np.ndarray:
    return np.diff(np.append(starts, n)).astype(np.int64)


def _empty_run(weighted: bool) -> tuple:
    return np.empty(0, dtype=np.float64), (np.empty(0, dtype=np.float64) if weighted else None)


def _run_of(x: np.ndarray, w: np.ndarray | None, presorted: bool = False) -> tuple:
    """``(levels, mass)`` of one class's scores ``x`` (float64, owned: sorted in place
    unless ``presorted``) and weights; ``mass`` None when every mass is 1 (no weights, no
    ties). Rows of zero weight carry no mass and make no level."""
    if w is None:
        if not presorted:
            x.sort()
        if _distinct(x):
            return _plus_zero(x), None
        starts = _starts(x)
        return _plus_zero(x[starts]), _lengths(starts, x.shape[0])
    keep = w > 0
    if not keep.all():
        x, w = x[keep], w[keep]
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], w[order]
    starts = _starts(xs)
    if starts.shape[0] == xs.shape[0]:
        return _plus_zero(xs), ws
    return _plus_zero(xs[starts]), np.add.reduceat(ws, starts)


def _plus_zero(levels: np.ndarray) -> np.ndarray:
    """``levels`` (distinct, increasing, owned) with a ``-0.0`` made ``0.0``: one level,
    one bit pattern (at most one level is zero; found by bisection)."""
    i = int(np.searchsorted(levels, 0.0))
    if i < levels.shape[0] and levels[i] == 0.0:
        levels[i] = 0.0
    return levels


def _as_weighted(run: tuple) -> tuple:
    levels, mass = run
    return levels, (np.ones(levels.shape[0]) if mass is None else mass.astype(np.float64))


def _merge_runs(runs: list, weighted: bool) -> tuple:
    """One run from several of the same class: the union of the levels, masses added
    (counts exactly; weights in the order of ``runs``)."""
    runs = [r for r in runs if r[0].shape[0]]
    if not runs:
        return _empty_run(weighted)
    if len(runs) == 1:
        return runs[0]
    levels = np.concatenate([r[0] for r in runs])
    if all(r[1] is None for r in runs):
        levels.sort()
        if _distinct(levels):
            return levels, None
        starts = _starts(levels)
        return levels[starts], _lengths(starts, levels.shape[0])
    dt = np.float64 if weighted else np.int64
    mass = np.concatenate([np.ones(r[0].shape[0], dtype=dt) if r[1] is None else r[1] for r in runs])
    order = np.argsort(levels, kind="stable")
    levels, mass = levels[order], mass[order]
    starts = _starts(levels)
    if starts.shape[0] == levels.shape[0]:
        return levels, mass
    return levels[starts], np.add.reduceat(mass, starts)


def _run_nbytes(run: tuple) -> int:
    return int(run[0].nbytes + (0 if run[1] is None else run[1].nbytes))


def _run_mass(run: tuple) -> float:
    levels, mass = run
    return float(levels.shape[0]) if mass is None else float(mass.sum())


def _counted_run(x: np.ndarray, k: np.ndarray) -> tuple:
    """``(levels, mass)`` of one class's scores ``x`` counted ``k`` times (positive int64
    counts): int64 masses, None when every mass is 1 (as :func:`_run_of` gives it)."""
    if x.shape[0] == 0:
        return _empty_run(False)
    order = np.argsort(x, kind="stable")
    xs, ks = x[order], k[order]
    starts = _starts(xs)
    mass = ks if starts.shape[0] == xs.shape[0] else np.add.reduceat(ks, starts)
    return _plus_zero(xs[starts]), (None if bool((mass == 1).all()) else mass)


def _counted(y: np.ndarray, y_score, sample_weight, counts) -> tuple:
    """``(y, scores, counts)`` of a counted batch, its rows of count zero dropped; the
    counts as int64 (non-negative integers, at most 2^53 in all)."""
    if sample_weight is not None:
        raise ValueError("give 'counts' or 'sample_weight', not both (a row of weight w counted c times is a "
                         "row of weight c * w).")
    c = to_numpy(counts, "counts")
    check_same_length(y.shape[0], c.shape[0], "counts")
    if c.dtype.kind == "b" or c.dtype.kind not in "iuf":
        raise TypeError(f"the 'counts' argument must hold integers. Got an array of dtype {c.dtype} instead.")
    if c.dtype.kind == "f":
        if not (np.isfinite(c).all() and (c == np.floor(c)).all()):
            raise ValueError("the 'counts' argument must hold non-negative integers; it holds fractions or "
                             "non-finite values (use sample_weight for weights).")
    if c.shape[0] and (c.min() < 0 or float(c.max()) > _EXACT_INT):
        raise ValueError("the 'counts' argument must hold non-negative integers up to 2^53.")
    c = c.astype(np.int64)
    if c.shape[0] and int(c.sum(dtype=object)) > _EXACT_INT:
        raise ValueError("the 'counts' argument adds up to more than 2^53 rows.")
    if c.all():
        return y, y_score, c
    keep = c > 0
    s = to_numpy(y_score, "y_score")
    check_same_length(y.shape[0], s.shape[0])
    return y[keep], s[keep], c[keep]


def _counted_cells(t: tuple, counted: bool) -> tuple:
    """A counted batch's cell table (masses summed as float64 counts) with int64 masses."""
    if not counted:
        return t
    return t[0], t[1].astype(np.int64), t[2].astype(np.int64), t[3]


class _ExactStore:
    """Each class's distinct scores with their masses (index 0: negatives, 1: positives):
    the merged run of each class, plus what is not merged yet: batches as they came
    (``raw``: scores, classes, weights, unsorted) and runs of merged accumulators. A
    merge splits the raw batches by class and sorts them (one pass for all of them), then
    merges the runs. Arrays are never modified once stored, so stores may share them."""

    quantised = False

    def __init__(self, weighted: bool = False):
        self.weighted = weighted
        self.state = [_empty_run(weighted), _empty_run(weighted)]
        self.raw: list = []  # (scores float64, is_pos, weights or None): owned copies
        self.pending: list[list] = [[], []]  # runs of merged accumulators, per class
        self.n_pending = 0  # raw rows plus pending levels
        self._union = None

    def copy(self) -> "_ExactStore":
        other = _ExactStore(self.weighted)
        other.state = list(self.state)
        other.raw = list(self.raw)
        other.pending = [list(p) for p in self.pending]
        other.n_pending = self.n_pending
        other._union = self._union
        return other

    def make_weighted(self) -> None:
        if self.weighted:
            return
        self.weighted = True
        self.state = [_as_weighted(r) for r in self.state]
        self.pending = [[_as_weighted(r) for r in p] for p in self.pending]
        self._union = None

    def _held(self) -> int:
        return self.state[0][0].shape[0] + self.state[1][0].shape[0]

    def _maybe_compact(self) -> None:
        self._union = None
        if self.n_pending > max(2 * self._held(), MIN_PENDING):
            self.compact()

    def add(self, s: np.ndarray, is_pos: np.ndarray, w: np.ndarray | None) -> None:
        """A validated batch: float64 scores and classes (owned), weights (owned) or None."""
        self.raw.append((s, is_pos, w))
        self.n_pending += s.shape[0]
        self._maybe_compact()

    def add_runs(self, runs: tuple) -> None:
        """A counted batch of an unweighted store: each class's run (levels, int64 counts)."""
        for c in (0, 1):
            if runs[c][0].shape[0]:
                self.pending[c].append(runs[c])
                self.n_pending += runs[c][0].shape[0]
        self._maybe_compact()

    def absorb(self, other: "_ExactStore") -> None:
        """Add another store's data (``other`` untouched: its arrays are shared, not changed)."""
        conv = _as_weighted if self.weighted else (lambda r: r)
        for c in (0, 1):
            for r in [other.state[c]] + list(other.pending[c]):
                if r[0].shape[0]:
                    self.pending[c].append(conv(r))
                    self.n_pending += r[0].shape[0]
        self.raw.extend(other.raw)
        self.n_pending += sum(b[0].shape[0] for b in other.raw)
        self._maybe_compact()

    def _raw_runs(self) -> tuple:
        """The raw batches as one run per class."""
        raw = self.raw
        s = raw[0][0] if len(raw) == 1 else np.concatenate([b[0] for b in raw])
        is_pos = raw[0][1] if len(raw) == 1 else np.concatenate([b[1] for b in raw])
        if not self.weighted:
            return tuple(_run_of(x, None, presorted=True) for x in class_sorted(is_pos, s)[::-1])
        w = np.concatenate([np.ones(b[0].shape[0]) if b[2] is None else b[2] for b in raw])
        return tuple(_run_of(s[sel], w[sel]) for sel in (~is_pos, is_pos))

    def compact(self) -> None:
        if self.raw and not self.weighted and all(
                r[1] is None for c in (0, 1) for r in [self.state[c]] + self.pending[c]):
            # Every mass 1 so far (untied counts): each class's levels and raw scores in
            # one sort, without sorting the raw scores first.
            raw = self.raw
            s = raw[0][0] if len(raw) == 1 else np.concatenate([b[0] for b in raw])
            is_pos = raw[0][1] if len(raw) == 1 else np.concatenate([b[1] for b in raw])
            parts = split_classes(is_pos, s)[::-1]
            del s, is_pos
            for c in (0, 1):
                held = [self.state[c][0]] + [r[0] for r in self.pending[c]]
                x = parts[c] if not any(h.shape[0] for h in held) else np.concatenate(held + [parts[c]])
                self.state[c] = _run_of(x, None)
                self.pending[c] = []
            self.raw = []
            self.n_pending = 0
            return
        if self.raw:
            new = self._raw_runs()
            self.raw = []
            for c in (0, 1):
                self.pending[c].append(new[c])
        for c in (0, 1):
            if self.pending[c]:
                self.state[c] = _merge_runs([self.state[c]] + self.pending[c], self.weighted)
                self.pending[c] = []
        self.n_pending = 0

    @property
    def nbytes(self) -> int:
        runs = sum(_run_nbytes(r) for c in (0, 1) for r in [self.state[c]] + self.pending[c])
        return runs + sum(int(b[0].nbytes + b[1].nbytes + (0 if b[2] is None else b[2].nbytes)) for b in self.raw)

    def union(self) -> tuple:
        """The dense table: ``(levels, pos, neg)``, every distinct score of either class
        with each class's mass there (float64)."""
        if self._union is None:
            self.compact()
            (ln, mn), (lp, mp) = self.state
            self._union = _union_of(lp, mp, ln, mn)
        return self._union

    def arrays(self) -> dict:
        self.compact()
        (ln, mn), (lp, mp) = self.state
        out = {"pos_levels": lp, "neg_levels": ln}
        if mp is not None:
            out["pos_mass"] = mp
        if mn is not None:
            out["neg_mass"] = mn
        return out


class _GridStore:
    """Quantised masses: cells ``floor(s / resolution)`` (int64, increasing) with the
    positive and negative mass in each. Each stored table carries its resolution; they
    are aligned to the coarsest when merged (a power-of-two ratio: cells shift right)."""

    quantised = True

    def __init__(self, resolution: float, max_levels: int | None, weighted: bool = False):
        self.resolution = resolution  # the grid of new batches: the coarsest held
        self.max_levels = max_levels
        self.weighted = weighted
        dt = np.float64 if weighted else np.int64
        self.state = (np.empty(0, dtype=np.int64), np.empty(0, dtype=dt), np.empty(0, dtype=dt), resolution)
        self.pending: list = []
        self.n_pending = 0

    def copy(self) -> "_GridStore":
        other = _GridStore(self.resolution, self.max_levels, self.weighted)
        other.state = self.state
        other.pending = list(self.pending)
        other.n_pending = self.n_pending
        return other

    @staticmethod
    def _to_float(t: tuple) -> tuple:
        return (t[0], t[1].astype(np.float64), t[2].astype(np.float64), t[3])

    def make_weighted(self) -> None:
        if self.weighted:
            return
        self.weighted = True
        self.state = self._to_float(self.state)
        self.pending = [self._to_float(t) for t in self.pending]

    def cells_of(self, s: np.ndarray) -> tuple:
        """``(cells, width)``: the cells of scores ``s`` on the current grid, widened (with
        ``max_levels``) until their indices stay below 2^61; ValueError beyond int64."""
        if s.shape[0] and not max(-float(s.min()), float(s.max())) <= _GRID_LIMIT:
            raise ValueError(f"the scores reach {float(np.abs(s).max()):.6g}; a quantised accumulator takes "
                             f"scores up to 2^900 in magnitude")
        res = self.resolution
        if self.max_levels is not None and s.shape[0]:
            # A grid that coarsens may also widen until the cells' indices fit int64.
            top = max(-float(s.min()), float(s.max()))
            while top / res >= _CELL_LIMIT / 2:
                res = math.ldexp(res, 1)
        q = s / res
        np.floor(q, out=q)
        if q.shape[0] and not max(-float(q.min()), float(q.max())) < _CELL_LIMIT:
            raise ValueError(f"the scores reach {float(np.abs(s).max()):.6g}, which at resolution "
                             f"{res:.6g} is beyond 2^62 cells; use a coarser resolution")
        return q.astype(np.int64), res

    def table_of(self, cells: np.ndarray, res: float, is_pos: np.ndarray, w: np.ndarray | None,
                 counted: bool = False) -> tuple:
        """One batch's cell table on the grid of width ``res``, coarsened to ``max_levels``:
        counted into a dense array of the cells' span when that span is at most
        :data:`_DENSE_SPAN` or twice the rows (no sort), else through a sort."""
        n = cells.shape[0]
        if n:
            lo = int(cells.min())
            span = int(cells.max()) - lo + 1
            if span <= max(_DENSE_SPAN, 2 * n):
                off = cells - lo
                if w is None:
                    pos = np.bincount(off[is_pos], minlength=span).astype(np.int64, copy=False)
                    neg = np.bincount(off[~is_pos], minlength=span).astype(np.int64, copy=False)
                else:
                    pos = np.bincount(off, weights=np.where(is_pos, w, 0.0), minlength=span)
                    neg = np.bincount(off, weights=np.where(is_pos, 0.0, w), minlength=span)
                keep = np.flatnonzero((pos + neg) > 0)
                return self.fit(_counted_cells((keep + lo, pos[keep], neg[keep], res), counted))
        uc, inv = np.unique(cells, return_inverse=True)
        inv = inv.reshape(-1)
        L = uc.shape[0]
        if w is None:
            pos = np.bincount(inv[is_pos], minlength=L).astype(np.int64)
            neg = np.bincount(inv[~is_pos], minlength=L).astype(np.int64)
        else:
            pos = np.bincount(inv, weights=np.where(is_pos, w, 0.0), minlength=L)
            neg = np.bincount(inv, weights=np.where(is_pos, 0.0, w), minlength=L)
            keep = (pos + neg) > 0
            if not keep.all():
                uc, pos, neg = uc[keep], pos[keep], neg[keep]
        return self.fit(_counted_cells((uc, pos, neg, res), counted))

    def fit(self, t: tuple) -> tuple:
        """``t`` coarsened (the width doubled, cells merged pairwise) until it has at
        most ``max_levels`` cells."""
        while self.max_levels is not None and t[0].shape[0] > self.max_levels:
            t = _shift(t, 1)
        return t

    def add(self, t: tuple) -> None:
        if t[0].shape[0]:
            self.pending.append(t)
            self.n_pending += t[0].shape[0]
        self.resolution = max(self.resolution, t[3])
        room = MIN_PENDING if self.max_levels is None else min(MIN_PENDING, 4 * self.max_levels)
        if self.n_pending > max(2 * self.state[0].shape[0], room):
            self.compact()  # with max_levels, memory O(max_levels)

    def absorb(self, other: "_GridStore") -> None:
        conv = self._to_float if self.weighted and not other.weighted else (lambda t: t)
        for t in [other.state] + list(other.pending):
            if t[0].shape[0]:
                self.pending.append(conv(t))
                self.n_pending += t[0].shape[0]
        self.resolution = max(self.resolution, other.resolution)
        self.compact()  # the merged grid may need coarsening

    def compact(self) -> None:
        tables = [t for t in [self.state] + self.pending if t[0].shape[0]]
        res = max([self.resolution] + [t[3] for t in tables])
        self.resolution = res
        if not tables:
            self.state = self.state[:3] + (res,)
        else:
            tables = [_shift(t, _steps(t[3], res)) for t in tables]
            if len(tables) == 1:
                merged = tables[0]
            else:
                cells = np.concatenate([t[0] for t in tables])
                pos = np.concatenate([t[1] for t in tables])
                neg = np.concatenate([t[2] for t in tables])
                order = np.argsort(cells, kind="stable")
                cells, pos, neg = cells[order], pos[order], neg[order]
                starts = _starts(cells)
                if starts.shape[0] != cells.shape[0]:
                    cells, pos, neg = cells[starts], np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
                merged = (cells, pos, neg, res)
            self.state = self.fit(merged)
            self.resolution = self.state[3]
        self.pending = []
        self.n_pending = 0

    @property
    def nbytes(self) -> int:
        return sum(int(t[0].nbytes + t[1].nbytes + t[2].nbytes) for t in [self.state] + self.pending)

    def arrays(self) -> dict:
        self.compact()
        return {"cells": self.state[0], "pos": self.state[1], "neg": self.state[2]}


def _union_of(lp, mp, ln, mn) -> tuple:
    """``(levels, pos, neg)``: the distinct scores of both classes' runs, increasing, with
    each class's mass there (float64, 0 where the class has none)."""
    levels = np.concatenate((lp, ln))
    levels.sort()
    levels = levels[_starts(levels)]
    pos = np.zeros(levels.shape[0])
    neg = np.zeros(levels.shape[0])
    pos[np.searchsorted(levels, lp)] = 1.0 if mp is None else mp
    neg[np.searchsorted(levels, ln)] = 1.0 if mn is None else mn
    return levels, pos, neg


def _steps(res: float, target: float) -> int:
    """How many doublings take the width ``res`` to ``target`` (a power-of-two multiple)."""
    return math.frexp(target)[1] - math.frexp(res)[1]


def _shift(t: tuple, k: int) -> tuple:
    """The cell table ``t`` on the grid ``2^k`` times as wide: cell ``c`` becomes
    ``floor(c / 2^k)`` (an arithmetic shift), equal cells merged."""
    if k == 0:
        return t
    cells = t[0] >> k
    starts = _starts(cells)
    pos, neg = t[1], t[2]
    if starts.shape[0] != cells.shape[0]:
        cells, pos, neg = cells[starts], np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
    return cells, pos, neg, math.ldexp(t[3], k)


def _aligned(a: float, b: float) -> bool:
    """Whether two grid widths differ by a power of two (so that one grid refines the other)."""
    return math.frexp(a)[0] == math.frexp(b)[0]


# --- labels in the file ----------------------------------------------------------------------

def _tag(v: Any, what: str) -> list:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool):
        return ["bool", v]
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float) and math.isfinite(v):
        return ["float", v]
    if isinstance(v, str):
        return ["str", v]
    raise TypeError(f"RankAccumulator.to_bytes cannot store the {what} {v!r} (of type {type(v).__name__}); "
                    f"labels are saved as booleans, integers, finite floats or strings.")


def _untag(x: Any, what: str) -> Any:
    types = {"bool": bool, "int": int, "float": float, "str": str}
    if not (isinstance(x, list) and len(x) == 2 and x[0] in types):
        raise _Malformed(f"malformed header: {what} must be a [type, value] pair with type one of "
                         f"{', '.join(types)}; got {x!r}")
    kind, v = x
    if kind == "float" and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if type(v) is not types[kind] or (kind == "float" and not math.isfinite(v)):
        raise _Malformed(f"malformed header: {what} {x!r} does not hold a {kind}")
    return v


# --- the accumulator ---------------------------------------------------------------------------

class RankAccumulator:
    r"""The rank table of a binary sample fed in batches: every criterion, standard error
    and curve of the whole sample, from memory that grows with the distinct scores only.

    Parameters
    ----------
    pos_label : object, optional
        The positive label. Not needed for labels in {0, 1}, {-1, 1} or booleans
        (positive = 1 / True); needed for any other labels, even when a batch holds one
        class only (a batch of ``"spam"`` alone cannot say which class it is).
    resolution : float, optional
        Quantised mode: keep masses per cell ``floor(s / resolution)`` of a fixed grid
        instead of per distinct score. Only the AUC is then available, with its
        certified bound (:meth:`auc_bounds`).
    max_levels : int, optional
        Quantised mode: at most this many cells (at least 2). When more are occupied the
        cell width doubles and neighbouring cells merge, as often as needed. Without
        ``resolution`` the grid starts at width :data:`DEFAULT_RESOLUTION` (2^-32).

    Attributes
    ----------
    n_rows : int
        Rows seen (``len(acc)``), zero-weight rows included.
    n_pos, n_neg : float
        Each class's mass: its number of rows, or its total weight.
    n_levels : int
        Distinct scores held (cells, in the quantised mode).
    n_batches : int
        Batches passed to :meth:`update` (merged accumulators' included).
    nbytes : int
        Bytes of the arrays held (merged state and pending batches).
    weighted : bool
        Whether any batch had ``sample_weight``.
    pos_label : object
        The positive label in effect (None until labels are seen, unless given).
    labels : tuple
        The distinct labels seen, increasing.
    quantised : bool
    resolution : float or None
        The current cell width (quantised mode).

    Notes
    -----
    The state is the rank table of the sample seen so far: for each class, its distinct
    scores (float64, increasing) and the mass at each, int64 counts without weights and
    float64 sums of weights with them. Every bipartite criterion is a functional of this
    table (the AUC is :math:`\sum_l a_l (B_l + b_l/2) / (n_+ n_-)` with :math:`a_l, b_l`
    the class masses at level :math:`l` and :math:`B_l` the negative mass below it), and
    so are the DeLong and Hájek projections behind the standard errors (DeLong, DeLong &
    Clarke-Pearson 1988, "Comparing the areas under two or more correlated receiver
    operating characteristic curves: a nonparametric approach"; Clémençon & Vayatis 2008,
    "Empirical performance maximization for linear rank statistics"). So the results
    equal those of :func:`rankwise.evaluate` and :func:`rankwise.stats.estimate` on the
    concatenated batches: bit for bit without weights (counts add exactly, in any order
    and along any merge tree), to rounding (1e-12 relative) with them, where the order in
    which float64 weights are added may change the last bit. An unweighted batch in a
    weighted accumulator counts each row with weight 1.

    Scores must be exact in float64: floats (float32 included) and integers up to 2^53
    in magnitude; larger integers are refused. The bootstrap of :meth:`estimate` resamples
    rows within each class from the counts (as :func:`rankwise.stats.estimate` does);
    with weights the rows are not kept and the bootstrap is refused.

    Quantised mode: the AUC of the cells, within-cell pairs counted 1/2, and the bound
    :math:`h = \tfrac12 \sum_c a_c b_c / (n_+ n_-)`: the exact AUC lies in
    :math:`[A_q - h, A_q + h]`, because pairs in different cells are ordered as their
    scores are and each within-cell pair contributes 1, 1/2 or 0 where 1/2 was counted
    (``docs/accumulator.md``).

    Building blocks. :mod:`rankwise.distributed` holds each score bucket of its exact
    algorithm as an accumulator and computes on it with :meth:`shifted`,
    :meth:`range_sums`, :meth:`range_round1`, :meth:`combine_ranges`,
    :meth:`range_moments`, :meth:`range_terms` and :meth:`range_roc`: the table seen as
    one score range of a larger sample, given ``offsets = (positive mass below, negative
    mass below, n_pos, n_neg)`` of the whole sample, whose partial sums add up across
    ranges to the whole sample's (the range algorithm that :func:`rankwise.stats.estimate`
    runs on one machine for a large sample). They are not needed for a stream of batches.

    Examples
    --------
    Two batches; the second holds negatives only:

    >>> import rankwise as rw
    >>> acc = rw.stats.RankAccumulator()
    >>> acc.update([0, 1, 1], [0.1, 0.35, 0.8]).update([0, 0], [0.4, 0.9])
    RankAccumulator(rows=5, levels=5, labels=(0, 1), positive=1, n_pos=2, n_neg=3, nbytes=40)
    >>> acc.compute("auc")
    0.5

    By hand: 0.35 beats 0.1 only (1 of 3 negatives), 0.8 beats 0.1 and 0.4 (2 of 3):
    (1 + 2) / (2 * 3) = 0.5, as ``rw.auc([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9])``.
    """

    def __init__(self, pos_label: Any = None, *, resolution: float | None = None,
                 max_levels: int | None = None):
        if resolution is not None:
            resolution = check_param(resolution, "resolution", _FUNC, low=0.0, low_inclusive=False)
            if not resolution < _GRID_LIMIT:
                raise ValueError(f"The 'resolution' parameter of {_FUNC} must be a positive number below 2^900. "
                                 f"Got {resolution!r} instead.")
        if max_levels is not None:
            max_levels = check_param(max_levels, "max_levels", _FUNC, low=2, integer=True)
        self._pos_label_given = pos_label
        if resolution is None and max_levels is None:
            self._store = _ExactStore()
        else:
            self._store = _GridStore(DEFAULT_RESOLUTION if resolution is None else float(resolution), max_levels)
        self._labels: LabelSummary | None = None
        self._positive = None
        self._n_rows = 0
        self._n_batches = 0
        self._rows = [0, 0]  # rows of each class (negatives, positives), zero-weight rows included
        self._mass = [0, 0]  # each class's mass (int counts, or float sums of weights)
        self._max_weight = 0.0
        self._tables: dict = {}

    # --- feeding -----------------------------------------------------------------------------
    def update(self, y_true, y_score, sample_weight=None, *, counts=None) -> "RankAccumulator":
        """Add a batch of labelled scores; returns the accumulator.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            Binary labels, read as :func:`rankwise.auc` reads them. A batch may hold one
            class only. The labels of all batches together must make two classes with
            the same positive label.
        y_score : array-like of shape (n,)
            Finite scores, exact in float64 (floats, integers up to 2^53).
        sample_weight : array-like of shape (n,), optional
            Non-negative finite weights, at most 2^900 each.
        counts : array-like of shape (n,), optional
            Non-negative integers: row ``i`` stands for ``counts[i]`` rows with its label
            and score (a table already reduced to its distinct scores, per class, is fed
            as one row per score and class). The same as repeating the rows, without
            making them: an unweighted accumulator stays unweighted. Not with
            ``sample_weight``.

        Raises
        ------
        ValueError, TypeError
            Naming the batch (``"batch 7"``, counted from 1) and what is wrong. A
            refused batch leaves the accumulator as it was.

        Notes
        -----
        An empty batch (no labels, no scores) is accepted: it changes nothing but the
        count of batches; so is a batch whose counts are all zero.
        """
        k = self._n_batches + 1
        try:
            prepared = self._prepare(y_true, y_score, sample_weight, k, counts)
        except _BatchError as exc:
            raise ValueError(str(exc)) from None
        except (ValueError, TypeError) as exc:
            kind = TypeError if isinstance(exc, TypeError) else ValueError
            raise kind(f"batch {k} of {_FUNC}.update: {exc}") from None
        self._commit(prepared)
        return self

    def _prepare(self, y_true, y_score, sample_weight, k: int, counts=None) -> dict:
        """Everything a batch adds, validated; nothing of the accumulator is changed."""
        y = to_numpy(y_true, "y_true")
        if counts is not None:
            y, y_score, counts = _counted(y, y_score, sample_weight, counts)
        if y.shape[0] == 0:
            s = to_numpy(y_score, "y_score")
            if s.shape[0] != 0:
                raise ValueError(f"y_true has 0 values but y_score has {s.shape[0]}; they must have the same length.")
            if sample_weight is not None and to_numpy(sample_weight, "sample_weight").shape[0] != 0:
                raise ValueError("the 'sample_weight' argument has values but y_true has none.")
            return {"empty": True}
        pos_label = self._pos_label_given
        try:
            is_pos, alone = BINARY.read(y, pos_label=pos_label, func=_FUNC)  # the batch on its own
        except (ValueError, TypeError):
            # A batch's own reading fails; where it brings a label the earlier batches did not
            # have, that is what the user must hear (not, say, that pos_label is absent from it).
            self._foreign_labels(y, k)
            raise
        n = int(y.shape[0]) if counts is None else int(counts.sum())
        n_pos_rows = int(np.count_nonzero(is_pos)) if counts is None else int(counts[is_pos].sum())
        summary = LabelSummary("binary", n, y.dtype.kind, tuple(
            (v, c, float(c)) for v in alone.values
            for c in [n_pos_rows if labels_equal(v, alone.pos_label) else n - n_pos_rows]), len(alone.values))
        merged = summary if self._labels is None else self._labels.merge(summary)
        try:
            res = merged.resolve(pos_label, func=_FUNC)
        except (ValueError, TypeError) as exc:
            raise _BatchError(f"batch {k} of {_FUNC}.update has the labels {_shown(summary)}, which do not go "
                              f"with the labels of the earlier batches ({_shown(self._labels)}): {exc}") from None
        if not labels_equal(res.pos_label, alone.pos_label) or (
                self._positive is not None and not labels_equal(res.pos_label, self._positive)):
            raise _BatchError(f"batch {k} of {_FUNC}.update would make {res.pos_label!r} the positive label, "
                              f"where the earlier batches had {self._positive!r}.")
        s = check_scores(y_score)
        check_same_length(y.shape[0], s.shape[0])
        w = check_sample_weight(sample_weight, n)
        s = _exact_float64(s, y_score)
        if w is not None and w.shape[0] and float(w.max()) > MAX_WEIGHT:
            raise ValueError(f"the 'sample_weight' argument holds weights up to {float(w.max()):.6g}; the "
                             f"accumulator takes weights up to 2^900 (divide them all by a common factor: "
                             f"every criterion but DCG is unchanged by it).")
        out = {"empty": False, "labels": merged, "positive": res.pos_label, "n": n,
               "rows": (n - n_pos_rows, n_pos_rows), "weighted": w is not None,
               "max_weight": (float(w.max()) if w is not None else 1.0)}
        store = self._store
        weighted = store.weighted or w is not None
        if store.quantised:
            if counts is not None:
                table = store.table_of(*store.cells_of(s), is_pos, counts.astype(np.float64), counted=True)
            else:
                table = store.table_of(*store.cells_of(s), is_pos, w)
            if store.weighted and table[1].dtype.kind != "f":
                table = _GridStore._to_float(table)
            out["table"] = table
            out["mass"] = (_mass_sum(table[2]), _mass_sum(table[1]))
        elif counts is not None:
            if store.weighted:  # counted rows of weight 1: their masses are the counts
                out["raw"] = (s, is_pos, counts.astype(np.float64))
                out["mass"] = (float(n - n_pos_rows), float(n_pos_rows))
            else:
                out["runs"] = (_counted_run(s[~is_pos], counts[~is_pos]), _counted_run(s[is_pos], counts[is_pos]))
                out["mass"] = (n - n_pos_rows, n_pos_rows)
        else:
            out["raw"] = (s, is_pos, None if w is None else w.copy())
            if w is None:
                out["mass"] = (n - n_pos_rows, n_pos_rows) if not weighted else (float(n - n_pos_rows),
                                                                                 float(n_pos_rows))
            else:
                out["mass"] = (float(w[~is_pos].sum()), float(w[is_pos].sum()))
        return out

    def _foreign_labels(self, y: np.ndarray, k: int) -> None:
        """A :class:`_BatchError` when batch ``k``'s labels ``y`` and the earlier batches'
        make more than two values."""
        if self._labels is None or not self._labels.values:
            return
        earlier = [v for v, _, _ in self._labels.values]
        distinct = list(dict.fromkeys(y.tolist()))
        new = [v for v in distinct if not any(labels_equal(v, u) for u in earlier)]
        if new and len(earlier) + len(new) > 2:
            raise _BatchError(f"batch {k} of {_FUNC}.update has the label(s) {', '.join(repr(v) for v in new)}, "
                              f"not among the labels of the earlier batches ({_shown(self._labels)}): a "
                              f"bipartite accumulator takes two label values in all.")

    def _commit(self, p: dict) -> None:
        self._n_batches += 1
        if p["empty"]:
            return
        self._tables = {}
        if p["weighted"] and not self._store.weighted:
            self._store.make_weighted()
            self._mass = [float(m) for m in self._mass]
        self._labels = p["labels"]
        self._positive = p["positive"]
        self._n_rows += p["n"]
        self._rows = [self._rows[0] + p["rows"][0], self._rows[1] + p["rows"][1]]
        self._mass = [self._mass[0] + p["mass"][0], self._mass[1] + p["mass"][1]]
        self._max_weight = max(self._max_weight, p["max_weight"])
        if self._store.quantised:
            self._store.add(p["table"])
        elif "runs" in p:
            self._store.add_runs(p["runs"])
        else:
            self._store.add(*p["raw"])

    def merge(self, other: "RankAccumulator") -> "RankAccumulator":
        """Add another accumulator's data; returns this one (``other`` is unchanged).

        Merging is associative and commutative: any merge tree over the same batches
        gives the same state (bit for bit without weights). Refused (ValueError): an
        accumulator of another ``pos_label``, labels that do not make two classes with
        this one's, one quantised and one exact, or grids that cannot be aligned (widths
        not a power of two apart, or different ``max_levels``).
        """
        if not isinstance(other, RankAccumulator):
            raise TypeError(f"The 'other' argument of {_FUNC}.merge must be a RankAccumulator. "
                            f"Got {type(other).__name__} instead.")
        mine, theirs = self._pos_label_given, other._pos_label_given
        if (mine is None) != (theirs is None) or (mine is not None and not labels_equal(mine, theirs)):
            raise ValueError(f"{_FUNC}.merge: the accumulators have different pos_label ({mine!r} and {theirs!r}).")
        if self._store.quantised != other._store.quantised:
            which = "this one is" if self._store.quantised else "the other is"
            raise ValueError(f"{_FUNC}.merge: one accumulator is quantised and the other exact ({which} quantised); "
                             f"their tables cannot be merged.")
        if self._store.quantised:
            a, b = self._store, other._store
            if a.max_levels != b.max_levels:
                raise ValueError(f"{_FUNC}.merge: the quantised accumulators have different max_levels "
                                 f"({a.max_levels} and {b.max_levels}).")
            if not _aligned(a.resolution, b.resolution):
                raise ValueError(f"{_FUNC}.merge: the grids of resolution {a.resolution!r} and {b.resolution!r} "
                                 f"cannot be aligned (their ratio is not a power of two).")
        labels, positive = self._labels, self._positive
        if other._labels is not None:
            labels = other._labels if labels is None else labels.merge(other._labels)
            try:
                res = labels.resolve(mine, func=_FUNC)
            except (ValueError, TypeError) as exc:
                raise ValueError(f"{_FUNC}.merge: the other accumulator's labels {_shown(other._labels)} do not go "
                                 f"with this one's ({_shown(self._labels)}): {exc}") from None
            if positive is not None and not labels_equal(res.pos_label, positive):
                raise ValueError(f"{_FUNC}.merge: the other accumulator would make {res.pos_label!r} the positive "
                                 f"label, where this one has {positive!r}.")
            positive = res.pos_label
        # Validated: now change this accumulator (a snapshot of other first: other may be self).
        snap = other._store.copy()
        o_rows, o_mass, o_n, o_batches, o_max = list(other._rows), list(other._mass), other._n_rows, \
            other._n_batches, other._max_weight
        if snap.weighted and not self._store.weighted:
            self._store.make_weighted()
        if self._store.weighted:
            self._mass = [float(m) for m in self._mass]
            o_mass = [float(m) for m in o_mass]
        self._store.absorb(snap)
        self._labels, self._positive = labels, positive
        self._n_rows += o_n
        self._n_batches += o_batches
        self._rows = [self._rows[0] + o_rows[0], self._rows[1] + o_rows[1]]
        self._mass = [self._mass[0] + o_mass[0], self._mass[1] + o_mass[1]]
        self._max_weight = max(self._max_weight, o_max)
        self._tables = {}
        return self

    def copy(self) -> "RankAccumulator":
        """An independent accumulator with the same data (arrays are shared, never modified)."""
        new = RankAccumulator.__new__(RankAccumulator)
        new.__dict__.update(self.__dict__)
        new._store = self._store.copy()
        new._rows, new._mass, new._tables = list(self._rows), list(self._mass), {}
        return new

    # --- what it holds ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._n_rows

    @property
    def n_rows(self) -> int:
        return self._n_rows

    @property
    def n_batches(self) -> int:
        return self._n_batches

    @property
    def n_pos(self) -> float:
        return float(self._mass[1])

    @property
    def n_neg(self) -> float:
        return float(self._mass[0])

    @property
    def weighted(self) -> bool:
        return self._store.weighted

    @property
    def quantised(self) -> bool:
        return self._store.quantised

    @property
    def resolution(self) -> float | None:
        if not self._store.quantised:
            return None
        self._store.compact()
        return self._store.resolution

    @property
    def max_levels(self) -> int | None:
        return self._store.max_levels if self._store.quantised else None

    @property
    def pos_label(self) -> Any:
        return self._pos_label_given if self._positive is None else self._positive

    @property
    def labels(self) -> tuple:
        return () if self._labels is None else tuple(v for v, _, _ in self._labels.values)

    @property
    def nbytes(self) -> int:
        return self._store.nbytes

    @property
    def n_levels(self) -> int:
        if self._store.quantised:
            self._store.compact()
            return int(self._store.state[0].shape[0])
        return int(self._store.union()[0].shape[0])

    def __repr__(self) -> str:
        labels = ", ".join(repr(v) for v in self.labels)
        labels = f"({labels},)" if len(self.labels) == 1 else f"({labels})"
        extra = ""
        if self.quantised:
            extra = f", resolution={self.resolution!r}" + (f", max_levels={self.max_levels}" if self.max_levels else "")
        mass = (lambda m: f"{m:.6g}") if self.weighted else (lambda m: f"{int(m)}")
        return (f"RankAccumulator(rows={self.n_rows}, levels={self.n_levels}, labels={labels}, "
                f"positive={self.pos_label!r}, n_pos={mass(self.n_pos)}, n_neg={mass(self.n_neg)}"
                f"{', weighted' if self.weighted else ''}{extra}, nbytes={self.nbytes})")

    # --- the rank table ---------------------------------------------------------------------------
    def _defined(self) -> bool:
        return self._mass[0] > 0 and self._mass[1] > 0

    def _need_rows(self, func: str) -> None:
        if self._n_rows == 0:
            raise ValueError(f"{_FUNC}.{func}: no rows yet; call update() with data first.")

    def _need_exact(self, func: str) -> None:
        if self._store.quantised:
            raise ValueError(f"{_FUNC}.{func} needs the exact rank table; this accumulator is quantised "
                             f"(resolution {self.resolution!r}), which gives the AUC with its certified "
                             f"bound only: use auc_bounds().")

    def _scale(self) -> float:
        """The power of two the weights are divided by (:func:`rankwise._validation.scale_weights`
        on the concatenated sample: from the largest weight and the number of rows)."""
        return weight_scale(self._max_weight, self._n_rows) if self._store.weighted else 1.0

    def _scale_of(self, unit) -> float:
        return _criteria.table_weights(unit, _ONE, self._scale())[1]

    def _runs(self) -> tuple | None:
        """Each class's sorted scores, as :func:`rankwise._kernels.class_sorted` gives them
        (unweighted): the levels themselves when every mass is 1, else the levels repeated
        when that costs at most twice the state; None otherwise."""
        store = self._store
        store.compact()
        (ln, mn), (lp, mp) = store.state
        if mn is None and mp is None:
            return lp, ln
        held = lp.shape[0] + ln.shape[0]
        if self._n_rows <= 2 * held:
            return (lp if mp is None else np.repeat(lp, mp)), (ln if mn is None else np.repeat(ln, mn))
        return None

    def _table(self, scale: float = 1.0) -> RankTable:
        """The rank table for the criteria (kept until the data change)."""
        if scale not in self._tables:
            self._tables[scale] = _table_of(self._snapshot(), scale)
        return self._tables[scale]

    def _snapshot(self) -> tuple:
        """``(weighted, arrays)``: the merged state, in arrays that later updates leave alone."""
        store = self._store
        if store.weighted:
            return True, store.union()
        store.compact()
        (ln, mn), (lp, mp) = store.state
        return False, (lp, mp, ln, mn)

    def _dense_table(self) -> RankTable:
        """The dense table (levels with both classes' masses), for the curves; with
        weights, the masses divided by the weights' scale, as the curve functions do."""
        levels, pos, neg = self._store.union()
        scale = self._scale()
        if scale != 1.0:
            e = -math.frexp(scale)[1] + 1
            pos, neg = np.ldexp(pos, e), np.ldexp(neg, e)
        n_pos = pos.sum() if self._store.weighted else float(self._rows[1])
        n_neg = neg.sum() if self._store.weighted else float(self._rows[0])
        return RankTable(levels, n_pos, n_neg, weighted=self._store.weighted, pos=pos, neg=neg)

    def _ranked_units(self, units: list, func: str) -> None:
        for label, unit in units:
            if kind_of(unit) is not BINARY:
                raise ValueError(f"{_FUNC}.{func}: {label!r} reads {kind_of(unit).name} labels; an accumulator "
                                 f"holds a binary sample's rank table only.")

    def _values(self, units: list) -> list:
        """Every criterion of ``units`` (both classes present), as ``rw.evaluate`` computes it."""
        if not self._store.weighted and use_ranges(self._n_rows, None):
            runs = self._runs()
            if runs is not None:
                parts = [[] for _ in units]
                n_pos = n_neg = None
                for st in range_tables(*runs):
                    n_pos, n_neg = st.n_pos, st.n_neg
                    for k, unit in enumerate(units):
                        parts[k].append(unit.sums(st))
                return [unit.total(unit.merge(p), n_pos, n_neg) for unit, p in zip(units, parts)]
        return [unit.value(self._table(self._scale_of(unit))) for unit in units]

    # --- results ------------------------------------------------------------------------------------
    def evaluate(self, criteria=None) -> dict:
        """Several criteria of the data seen, as :func:`rankwise.evaluate` on the
        concatenated batches gives them.

        Parameters
        ----------
        criteria : as in :func:`rankwise.evaluate`
            Default: :data:`rankwise.metrics.DEFAULT_CRITERIA`. Criteria of binary labels
            only (``ranking_risk`` needs the rows).

        Returns
        -------
        dict
            Criterion label -> value (``nan``, with a warning, when a class is missing).
        """
        self._need_exact("evaluate")
        units = _criteria.parse(criteria, f"{_FUNC}.evaluate", DEFAULT_CRITERIA)
        self._ranked_units(units, "evaluate")
        self._need_rows("evaluate")
        if not self._defined():
            warn_undefined("evaluate")
            return {label: float("nan") for label, _ in units}
        return dict(zip((label for label, _ in units), self._values([u for _, u in units])))

    def compute(self, criterion) -> float:
        """One criterion (a spec such as ``"local_auc:top=0.1"``, a ``(name, params)`` pair
        or a unit), as :func:`rankwise.evaluate` gives it."""
        self._need_exact("compute")
        unit = _criteria.get(criterion)
        self._ranked_units([(unit.label, unit)], "compute")
        self._need_rows("compute")
        if not self._defined():
            return warn_undefined(unit.name)
        return self._values([unit])[0]

    def estimate(self, criterion: str = "auc", *, method: str | None = None, bandwidth: float | None = None,
                 **criterion_args) -> Estimate:
        """A criterion with its standard error and intervals, as
        :func:`rankwise.stats.estimate` on the concatenated batches gives them (same value,
        standard error and, for a given ``random_state``, the same bootstrap).

        ``criterion``, ``method``, ``bandwidth`` and ``**criterion_args`` as there. With
        weights the bootstrap is refused (it resamples rows, which are not kept)."""
        self._need_exact("estimate")
        if isinstance(criterion, str) and criterion in OWN_ENTRIES:
            raise ValueError(f"{_FUNC}.estimate: {criterion!r} reads structured samples (strata, classes); an "
                             f"accumulator holds one binary rank table.")
        unit, params = resolve_criterion(criterion, criterion_args, f"{_FUNC}.estimate")
        bandwidth = check_bandwidth(bandwidth)
        self._ranked_units([(unit.label, unit)], "estimate")
        method = check_method(method, unit, f"{_FUNC}.estimate")
        self._need_rows("estimate")
        weighted = self._store.weighted
        if not self._defined():
            return _undefined(unit, params, method, weighted)
        if not weighted and use_ranges(self._n_rows, None, _fine([unit])):
            runs = self._runs()
            if runs is not None:
                return self._by_ranges(unit, params, method, bandwidth, runs)
        su = self._scale_of(unit)
        n = self._n_rows
        sample = _core.Sample(_no_rows(n), None, _no_rows(n, 1.0) if weighted else None, mass_scale=su,
                              table=self._table(su))
        est = _from_sample(unit, params, sample, method, bandwidth)
        if weighted:
            est = dataclasses.replace(est, _inference=Inference(_no_bootstrap, est._acceleration, "accumulator"))
        return est

    def _by_ranges(self, unit, params, method, bandwidth, runs) -> Estimate:
        """``rw.stats.estimate``'s path for a large unweighted sample: values and standard
        errors range by range over the class runs; the bootstrap reads the whole table."""
        pos, neg = runs
        value, se, bounds = _core.fit_by_ranges([unit], pos, neg, bandwidth, range_rows(_fine([unit])))[0]
        n_rows, snapshot = self._n_rows, self._snapshot()
        made = []

        def whole() -> Estimate:  # the whole table, built when a bootstrap is first asked for
            if not made:
                sample = _core.Sample(_no_rows(n_rows), None, None, table=_table_of(snapshot))
                made.append(_from_sample(unit, params, sample, method, bandwidth))
            return made[0]

        return Estimate(criterion=unit.name, params=params, value=value, std_error=se, method=method,
                        n_pos=float(pos.shape[0]), n_neg=float(neg.shape[0]), bounds=bounds,
                        _inference=Inference(lambda n_resamples, random_state: whole()._inference.resample(
                            n_resamples, random_state), lambda: whole()._acceleration(), "ranges"))

    def rank_table(self) -> RankTable:
        """The rank table of the data seen, as :func:`rankwise._kernels.build_rank_table`
        builds it from the concatenated batches: the one every criterion of this
        accumulator reads (masses as fed: counts, or sums of weights unscaled). Its arrays
        are shared with the accumulator: read them, never write them. Empty before the
        first row."""
        self._need_exact("rank_table")
        return self._table(1.0)

    # --- building blocks: the accumulator as one score range of a larger sample --------------------
    # rankwise.distributed holds each score bucket as an accumulator; these methods are its
    # computations on a bucket (the range algorithm of rankwise.stats._core), so that the
    # buckets and a stream of batches go through one merge code.
    @classmethod
    def from_rank_table(cls, table: RankTable) -> "RankAccumulator":
        """An accumulator holding ``table`` (a :class:`rankwise._kernels.RankTable` with
        boolean classes: its levels with each class's mass, counts when unweighted) as if
        fed one row per level and class, whose :meth:`rank_table` is ``table`` itself
        until the data change: for a table already built (a Dask bucket of paired
        comparisons, which also needs each row's level)."""
        if not isinstance(table, RankTable):
            raise TypeError(f"The 'table' argument of {_FUNC}.from_rank_table must be a RankTable. "
                            f"Got {type(table).__name__} instead.")
        acc = cls()
        if table.size:
            a, b = table.pos, table.neg
            ia, ib = np.flatnonzero(a > 0), np.flatnonzero(b > 0)
            cls_ = np.repeat(np.array([True, False]), (ia.shape[0], ib.shape[0]))
            levels = np.concatenate((table.levels[ia], table.levels[ib]))
            mass = np.concatenate((a[ia], b[ib]))
            if table.weighted:
                acc.update(cls_, levels, mass)
            else:
                acc.update(cls_, levels, counts=mass.astype(np.int64))
            acc._tables[1.0] = table
        return acc

    def shifted(self, offsets=None):
        """The rank table seen as one score range of a larger sample: a
        :class:`rankwise._kernels.ShiftedTable` whose running sums include the mass below
        the range and whose class totals are the sample's.

        Parameters
        ----------
        offsets : tuple of 4 floats, optional
            ``(positive mass below the range, negative mass below it, the sample's positive
            mass, its negative mass)``. Default: the accumulator is the whole sample
            ``(0, 0, n_pos, n_neg)`` of its table.
        """
        from .._kernels import ShiftedTable

        t = self.rank_table()
        return ShiftedTable(t, *self._offsets(offsets, t))

    @staticmethod
    def _offsets(offsets, t) -> tuple:
        """``offsets`` checked: four real numbers (default: the table is the whole sample)."""
        if offsets is None:
            return 0.0, 0.0, t.n_pos, t.n_neg
        try:
            out = tuple(float(x) for x in offsets)
        except (TypeError, ValueError):
            out = ()
        if len(out) != 4 or not all(math.isfinite(x) for x in out):
            raise ValueError(f"The 'offsets' argument of {_FUNC} must be four finite numbers (positive and "
                             f"negative mass below the range, the sample's positive and negative mass). "
                             f"Got {offsets!r} instead.")
        return out

    def _range(self, offsets):
        """:meth:`shifted`, or None when the table is empty (a bucket with no mass)."""
        t = self.rank_table()
        if t.size == 0:
            return None
        from .._kernels import ShiftedTable

        return ShiftedTable(t, *self._offsets(offsets, t))

    def range_sums(self, units: list, offsets=None) -> list | None:
        """Each criterion's sums (:meth:`rankwise.criteria.RankCriterion.sums`) over the
        range: its exact share of the sample's sums, merged across ranges by
        ``unit.merge``. None when the table is empty."""
        st = self._range(offsets)
        return None if st is None else [unit.sums(st) for unit in units]

    def range_round1(self, unit, bandwidth, offsets=None) -> tuple | None:
        """Round 1 of the range algorithm on the range: ``(sums, bound sums, projection
        summary)`` of ``unit`` (its summary with ``bandwidth``, None for the default
        window); combined across ranges by :meth:`combine_ranges`. None when empty."""
        st = self._range(offsets)
        return None if st is None else _core.range_round1(st, [unit], [bandwidth])[0]

    @staticmethod
    def combine_ranges(unit, results: list, n_pos: float, n_neg: float) -> tuple:
        """The ranges' :meth:`range_round1` results (None for an empty range), lowest
        scores first, combined: ``(value, per-range globals, chain-rule factor,
        bounds)``; the globals are None for a criterion without a projection."""
        return _core.combine_ranges(unit, results, n_pos, n_neg)

    def range_moments(self, unit, bandwidth, g: dict, f: float, offsets=None) -> tuple | None:
        """Round 2 on the range: each class's ``(mass, mean, centred sum of squares)`` of
        the projection terms times ``f`` (``g``: the range's globals from
        :meth:`combine_ranges`), None for a class without mass; merged across ranges by
        :func:`rankwise.stats.variance_of_moments`. None when the table is empty."""
        st = self._range(offsets)
        if st is None:
            return None
        return _core.range_moments(st, unit, unit.bandwidth(st.n, bandwidth), g, f, _core.dense_once(st))

    def range_terms(self, unit, bandwidth, g: dict, f: float, offsets=None) -> tuple | None:
        """``(dense view, h_pos, h_neg)`` of the range: the projection terms at its levels
        times ``f``, equal to the whole sample's terms there. None when empty."""
        st = self._range(offsets)
        if st is None:
            return None
        from .._kernels import dense

        d = dense(st)
        hp, hn = unit.projection(d, unit.bandwidth(d.N, bandwidth), g)
        return d, f * hp, f * hn

    def range_roc(self, offsets=None, quota: int | None = None) -> tuple:
        """The range's ROC points as masses ``(fps, tps, thresholds)`` by decreasing
        threshold (each level's false and true positive mass at or above it, in the
        sample); ``quota``: keep about that many evenly spaced levels (always the highest
        and the lowest), None for all. Empty arrays when the table is empty."""
        t = self.rank_table()
        if t.size == 0:
            e = np.empty(0)
            return e, e, t.levels[:0]
        st = self.shifted(offsets)
        if quota is None or quota >= t.size:
            idx = slice(None)
        else:
            idx = np.unique(np.round(np.linspace(0, t.size - 1, max(quota, 2))).astype(np.int64))
        fps = st.n_neg - st.neg_below[idx]
        tps = st.n_pos - st.pos_below[idx]
        return fps[::-1], tps[::-1], t.levels[idx][::-1]

    def roc_curve(self, *, drop_intermediate: bool = False) -> ROCCurve:
        """The ROC curve, as :func:`rankwise.roc_curve` on the concatenated batches gives it
        (thresholds as float64)."""
        fps, tps, thr, t = self._points("roc_curve", drop_intermediate)
        if drop_intermediate:
            keep = roc_corners(fps, tps)  # scikit-learn's rule, on the masses (rw.roc_curve's)
            fps, tps, thr = fps[keep], tps[keep], thr[keep]
        with np.errstate(invalid="ignore", divide="ignore"):
            return ROCCurve(fps / t.n_neg, tps / t.n_pos, thr)

    def precision_recall_curve(self, *, drop_intermediate: bool = False) -> PRCurve:
        """The precision-recall curve, as :func:`rankwise.precision_recall_curve` on the
        concatenated batches gives it (thresholds as float64)."""
        fps, tps, thr, t = self._points("precision_recall_curve", drop_intermediate)
        return pr_from_points(fps, tps, thr, t.n_pos, bool(drop_intermediate))

    def _points(self, func: str, drop_intermediate) -> tuple:
        if not isinstance(drop_intermediate, (bool, np.bool_)):
            raise TypeError(f"The 'drop_intermediate' parameter of {_FUNC}.{func} must be a bool. "
                            f"Got {drop_intermediate!r} instead.")
        self._need_exact(func)
        self._need_rows(func)
        t = self._dense_table()
        if not self._defined():
            warn_undefined(func)
        fps, tps, thr = roc_points(t)  # the levels are float64: float64 thresholds
        return fps, tps, thr, t

    def operating_points(self, *, fpr=None, tpr=None, thresholds=None) -> OperatingPoints:
        """Operating points at requested rates or thresholds, as
        :func:`rankwise.operating_points` on the concatenated batches gives them."""
        func = f"{_FUNC}.operating_points"
        by, q = check_operating_request(fpr, tpr, thresholds, func)
        self._need_exact("operating_points")
        self._need_rows("operating_points")
        t = self._dense_table()
        if not self._defined():
            warn_undefined("operating_points")
            nan = np.full(q.shape, np.nan)
            return OperatingPoints(by, q.copy() if by == "threshold" else nan, nan, nan, nan, t.n_pos, t.n_neg)
        return points_from_table(t, by, q)

    def auc_bounds(self) -> tuple[float, float, float]:
        """``(lower, value, upper)``: the AUC with a bound that certainly holds the exact AUC.

        Exact accumulator: the AUC three times. Quantised: ``value`` is the AUC of the
        cells (pairs within a cell count 1/2) and the exact AUC of the scores lies in
        ``[value - h, value + h]``, ``h = sum_c a_c b_c / (2 n+ n-)`` over the cells'
        class masses. Without weights the three are correctly rounded ratios of exact
        integers (so the bound holds for the correctly rounded exact AUC too); with
        weights they are float64 sums (to rounding). ``nan`` three times, with a warning,
        when a class is missing.
        """
        self._need_rows("auc_bounds")
        if not self._defined():
            nan = warn_undefined("auc_bounds")
            return nan, nan, nan
        if not self._store.quantised:
            a = self.compute("auc")
            return a, a, a
        self._store.compact()
        _, pos, neg, _ = self._store.state
        if not self._store.weighted:
            P, N = int(pos.sum()), int(neg.sum())
            if P * N < 2 ** 61:
                below = np.zeros(neg.shape[0], dtype=np.int64)
                np.cumsum(neg[:-1], out=below[1:])
                cross, within = int(np.dot(pos, below)), int(np.dot(pos, neg))
            else:  # beyond int64: Python integers
                po, ne = pos.astype(object), neg.astype(object)
                below = np.concatenate(([0], np.cumsum(ne)[:-1])).astype(object)
                cross, within = int((po * below).sum()), int((po * ne).sum())
            num, den = 2 * cross + within, 2 * P * N
            return (num - within) / den, num / den, (num + within) / den
        P, N = float(pos.sum()), float(neg.sum())
        below = np.zeros(neg.shape[0])
        np.cumsum(neg[:-1], out=below[1:])
        within = float(np.dot(pos, neg)) / 2.0
        num = float(np.dot(pos, below)) + within
        PN = P * N
        return (num - within) / PN, num / PN, (num + within) / PN

    # --- bytes and files --------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The accumulator as bytes (``docs/accumulator.md``, "File format"): an 8-byte
        magic, a little-endian uint32 header length, a JSON header, the arrays as raw
        little-endian bytes, and the SHA-256 of everything before it. No pickle."""
        arrays = self._store.arrays()
        if self._labels is not None:
            labels = [[_tag(v, "label"), int(c)] for v, c, _ in self._labels.values]
            dtype = self._labels.dtype
        else:
            labels, dtype = [], ""
        names, blobs = [], []
        for name, a in arrays.items():
            le = a.astype(a.dtype.newbyteorder("<"), copy=False)
            names.append({"name": name, "dtype": le.dtype.str, "length": int(a.shape[0])})
            blobs.append(le.tobytes())
        store = self._store
        header = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "pos_label": None if self._pos_label_given is None else _tag(self._pos_label_given, "pos_label"),
            "labels": labels,
            "label_dtype": dtype,
            "weighted": store.weighted,
            "quantised": ({"resolution": store.resolution, "max_levels": store.max_levels}
                          if store.quantised else None),
            "n_rows": self._n_rows,
            "n_batches": self._n_batches,
            "rows": list(self._rows),
            "max_weight": self._max_weight,
            "arrays": names,
        }
        head = json.dumps(header, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
        if len(head) > MAX_HEADER:
            raise ValueError(f"{_FUNC}.to_bytes: the header would take {len(head)} bytes, more than the "
                             f"{MAX_HEADER} a reader accepts (labels too long).")
        body = b"".join([MAGIC, struct.pack("<I", len(head)), head] + blobs)
        return body + hashlib.sha256(body).digest()

    @classmethod
    def from_bytes(cls, data) -> "RankAccumulator":
        """The accumulator that :meth:`to_bytes` wrote. Refused (ValueError naming what is
        wrong): another magic, format or version, an oversized header, truncated or extra
        bytes, a checksum mismatch, lengths or dtypes that disagree, levels that are not
        finite and increasing, masses that are not positive, counts that disagree with
        the rows, labels that do not resolve."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{_FUNC}.from_bytes takes bytes. Got {type(data).__name__} instead.")
        return _read(bytes(data))

    def save(self, path, *, overwrite: bool = False) -> None:
        """Write :meth:`to_bytes` to ``path`` atomically (a temporary file, then one
        rename; :func:`rankwise.io.write_atomic`). An existing file is replaced only with
        ``overwrite=True``; a path that is not a regular file (a pipe, a device, a
        directory) is never replaced."""
        write_atomic(path, self.to_bytes(), binary=True, force=overwrite, option="overwrite=True")

    @classmethod
    def load(cls, path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> "RankAccumulator":
        """Read a file that :meth:`save` wrote. The path must be a regular file (a FIFO or
        a device is refused without being read) of at most ``max_bytes`` bytes; its
        contents are checked as :meth:`from_bytes` checks them."""
        max_bytes = check_param(max_bytes, "max_bytes", f"{_FUNC}.load", low=1, integer=True)
        path = os.fspath(path)
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{_FUNC}.load: {path} is not a regular file.")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise ValueError(f"{_FUNC}.load: {path} is not a regular file.")
            if st.st_size > max_bytes:
                raise ValueError(f"{_FUNC}.load: {path} has {st.st_size} bytes, more than max_bytes={max_bytes}.")
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(max_bytes + 1)
        finally:
            os.close(fd)
        if len(data) > max_bytes:
            raise ValueError(f"{_FUNC}.load: {path} grew beyond max_bytes={max_bytes} while being read.")
        return _read(data, where=f"{path}: ")


class _BatchError(Exception):
    """A label inconsistency across batches, raised as a ValueError with this message."""


_ONE = np.ones(1)


def _mass_sum(m: np.ndarray):
    return float(m.sum()) if m.dtype.kind == "f" else int(m.sum())


def _shown(summary: LabelSummary | None) -> str:
    if summary is None or not summary.values:
        return "none"
    return ", ".join(repr(v) for v, _, _ in summary.values)


def _no_rows(n: int, fill: Any = False) -> np.ndarray:
    """A read-only array of ``n`` rows that holds nothing (the estimate's sample reads its
    length only: the bootstrap's chunk size)."""
    return np.broadcast_to(np.asarray(fill), (n,))


def _no_bootstrap(n_resamples, random_state):
    raise ValueError(f"The bootstrap resamples rows; a weighted {_FUNC} keeps the masses at each score, not the "
                     f"rows and their weights, so it cannot draw one. Use an analytic method.")


def _exact_float64(s: np.ndarray, y_score) -> np.ndarray:
    """The scores as float64, exactly (a copy the caller may sort), or the error for
    scores float64 cannot hold (integers beyond 2^53, or values given as their ranks)."""
    if s.dtype.kind in "iu":
        if s.dtype == np.int64 and ranked_score_values(y_score) is not None:
            raise ValueError("the 'y_score' argument holds integers beyond 2^53 (or next to floats that "
                             "cannot hold them); the accumulator keeps scores as float64, which would round them.")
        if s.shape[0] and (int(s.max()) > _EXACT_INT or int(s.min()) < -_EXACT_INT):
            raise ValueError("the 'y_score' argument holds integers beyond 2^53 in magnitude; the accumulator "
                             "keeps scores as float64, which would round them.")
    return s.astype(np.float64)  # a copy: sorted in place later


def _table_of(snapshot: tuple, scale: float = 1.0) -> RankTable:
    """The rank table of a state (:meth:`RankAccumulator._snapshot`), built as
    :func:`rankwise._kernels.build_rank_table` builds it from the whole sample, so that
    every pass reads the same arrays; with weights, the masses divided by ``scale``."""
    weighted, arrays = snapshot
    if weighted:
        levels, pos, neg = arrays
        if scale != 1.0:
            e = -math.frexp(scale)[1] + 1
            pos, neg = np.ldexp(pos, e), np.ldexp(neg, e)
        return RankTable(levels, pos.sum(), neg.sum(), weighted=True, pos=pos, neg=neg)
    lp, mp, ln, mn = arrays
    if mp is None and mn is None:
        return table_from_runs(lp, ln)
    return _table_from_counts(lp, mp, ln, mn)


def _table_from_counts(lp, mp, ln, mn) -> RankTable:
    """The unweighted table of tied classes from their levels and counts: the class sides
    that :func:`rankwise._kernels.table_from_runs` makes from the repeated scores (each
    class's levels, masses, own mass below, the other class's mass below and tied), the
    dense form made when first asked for."""
    sides = []
    for (lev, m), (olev, om) in (((lp, mp), (ln, mn)), ((ln, mn), (lp, mp))):
        mass = np.ones(lev.shape[0]) if m is None else m.astype(np.float64)
        own = np.zeros(lev.shape[0])
        if lev.shape[0] > 1:
            np.cumsum(mass[:-1], out=own[1:])
        ocum = np.zeros(olev.shape[0] + 1)
        np.cumsum(np.ones(olev.shape[0]) if om is None else om.astype(np.float64), out=ocum[1:])
        left = ocum[np.searchsorted(olev, lev, "left")]
        right = ocum[np.searchsorted(olev, lev, "right")]
        right -= left
        sides.append(ClassSide(mass, own, left, right))
    n_pos = float(lp.shape[0] if mp is None else int(mp.sum()))
    n_neg = float(ln.shape[0] if mn is None else int(mn.sum()))
    return RankTable(None, n_pos, n_neg, dense_fn=lambda: _union_of(lp, mp, ln, mn), sides=tuple(sides),
                     side_levels=(lp, ln))


# --- reading ---------------------------------------------------------------------------------------

_HEADER_KEYS = {"format", "version", "pos_label", "labels", "label_dtype", "weighted", "quantised", "n_rows",
                "n_batches", "rows", "max_weight", "arrays"}


def _read(data: bytes, where: str = "") -> RankAccumulator:
    def fail(msg: str) -> ValueError:
        return ValueError(f"{where}not a valid rankwise accumulator: {msg}")

    if data[: len(MAGIC)] != MAGIC[: len(data)] or len(data) == 0:
        raise fail("it does not start with the accumulator magic bytes")
    if len(data) < len(MAGIC) + 4:
        raise fail(f"only {len(data)} bytes (truncated)")
    (hlen,) = struct.unpack("<I", data[len(MAGIC): len(MAGIC) + 4])
    if hlen > MAX_HEADER:
        raise fail(f"the header claims {hlen} bytes, more than the {MAX_HEADER} allowed")
    start = len(MAGIC) + 4 + hlen
    if len(data) < start + _CHECKSUM:
        raise fail(f"{len(data)} bytes, fewer than its header needs (truncated)")
    body, digest = data[:-_CHECKSUM], data[-_CHECKSUM:]
    try:
        header = json.loads(data[len(MAGIC) + 4: start].decode("utf-8"),
                            parse_constant=lambda c: (_ for _ in ()).throw(ValueError(f"{c} is not allowed")))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        if hashlib.sha256(body).digest() != digest:
            raise fail("checksum mismatch (the data is corrupted or truncated)") from None
        raise fail(f"the header is not JSON ({exc})") from None
    if not isinstance(header, dict):
        raise fail("the header is not a JSON object")
    if header.get("format") != FORMAT_NAME:
        raise fail(f"format {header.get('format')!r}, expected {FORMAT_NAME!r}")
    if header.get("version") != FORMAT_VERSION:
        raise fail(f"version {header.get('version')!r}; this rankwise reads version {FORMAT_VERSION} only")
    arrays_spec = header.get("arrays")
    if not isinstance(arrays_spec, list):
        raise fail("malformed header: 'arrays' must be a list")
    need = 0
    for a in arrays_spec:
        if not (isinstance(a, dict) and set(a) == {"name", "dtype", "length"} and isinstance(a["length"], int)
                and not isinstance(a["length"], bool) and a["length"] >= 0 and a["dtype"] in ("<f8", "<i8")):
            raise fail(f"malformed array entry {a!r} (name, dtype '<f8' or '<i8', non-negative length)")
        need += 8 * a["length"]
    if len(body) - start != need:
        what = "truncated" if len(body) - start < need else "extra bytes after the arrays"
        raise fail(f"the arrays need {need} bytes after the header, the data holds {len(body) - start} ({what})")
    if hashlib.sha256(body).digest() != digest:
        raise fail("checksum mismatch (the data is corrupted)")
    if set(header) != _HEADER_KEYS:
        raise fail(f"header keys {sorted(header)}, expected {sorted(_HEADER_KEYS)}")
    arrays, at = {}, start
    for a in arrays_spec:
        if a["name"] in arrays:
            raise fail(f"the array {a['name']!r} is listed twice")
        arrays[a["name"]] = np.frombuffer(data, dtype=np.dtype(a["dtype"]), count=a["length"], offset=at).astype(
            np.dtype(a["dtype"]).newbyteorder("="))
        at += 8 * a["length"]
    try:
        return _build(header, arrays)
    except _Malformed as exc:
        raise fail(str(exc)) from None


class _Malformed(Exception):
    pass


def _int(header: dict, key: str, low: int = 0) -> int:
    v = header[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise _Malformed(f"{key!r} must be an integer >= {low}, got {v!r}")
    return v


def _levels(a: np.ndarray, name: str, cells: bool = False) -> None:
    if not cells and not np.isfinite(a).all():
        raise _Malformed(f"{name} holds NaN or infinite values")
    if a.shape[0] > 1 and not (a[1:] > a[:-1]).all():
        raise _Malformed(f"{name} is not strictly increasing")


def _masses(a: np.ndarray, name: str, weighted: bool, allow_zero: bool = False) -> None:
    if a.dtype != (np.float64 if weighted else np.int64):
        raise _Malformed(f"{name} has dtype {a.dtype.str}, expected {'<f8' if weighted else '<i8'}")
    if weighted and not np.isfinite(a).all():
        raise _Malformed(f"{name} holds NaN or infinite values")
    if a.shape[0] and (a.min() < 0 or (not allow_zero and a.min() == 0)):
        raise _Malformed(f"{name} holds {'negative' if a.min() < 0 else 'zero'} masses")


def _build(h: dict, arrays: dict) -> RankAccumulator:
    weighted = h["weighted"]
    if not isinstance(weighted, bool):
        raise _Malformed(f"'weighted' must be true or false, got {weighted!r}")
    n_rows, n_batches = _int(h, "n_rows"), _int(h, "n_batches")
    rows = h["rows"]
    if not (isinstance(rows, list) and len(rows) == 2 and all(isinstance(r, int) and not isinstance(r, bool)
                                                              and r >= 0 for r in rows)) or sum(rows) != n_rows:
        raise _Malformed(f"'rows' must be two non-negative integers adding up to n_rows={n_rows}, got {rows!r}")
    mw = h["max_weight"]
    if isinstance(mw, int) and not isinstance(mw, bool):
        mw = float(mw)
    if not isinstance(mw, float) or not 0.0 <= mw <= MAX_WEIGHT or (
            not weighted and mw != (1.0 if n_rows else 0.0)):
        raise _Malformed(f"'max_weight' must be a number in [0, 2^900], got {h['max_weight']!r}")
    pos_label = None if h["pos_label"] is None else _untag(h["pos_label"], "pos_label")
    q = h["quantised"]
    if q is None:
        acc = RankAccumulator(pos_label)
    else:
        if not (isinstance(q, dict) and set(q) == {"resolution", "max_levels"}):
            raise _Malformed(f"'quantised' must hold resolution and max_levels, got {q!r}")
        res, ml = q["resolution"], q["max_levels"]
        if not (isinstance(res, float) and 0 < res < 4.0 * _GRID_LIMIT):
            raise _Malformed(f"the quantised resolution must be a positive finite float, got {res!r}")
        if ml is not None and not (isinstance(ml, int) and not isinstance(ml, bool) and ml >= 2):
            raise _Malformed(f"max_levels must be null or an integer >= 2, got {ml!r}")
        acc = RankAccumulator(pos_label, resolution=1.0, max_levels=ml)
        acc._store.resolution = res  # a coarsened grid may be wider than a width one can ask for
    # labels
    labels, ldtype = h["labels"], h["label_dtype"]
    if not isinstance(labels, list) or len(labels) > 2 or not isinstance(ldtype, str) or len(ldtype) > 1:
        raise _Malformed("'labels' must list at most two labels with their rows, 'label_dtype' a dtype kind")
    values = []
    for e in labels:
        if not (isinstance(e, list) and len(e) == 2 and isinstance(e[1], int) and not isinstance(e[1], bool)
                and e[1] > 0):
            raise _Malformed(f"each label must be [[type, value], rows > 0], got {e!r}")
        values.append((_untag(e[0], "a label"), e[1], float(e[1])))
    if sum(c for _, c, _ in values) != n_rows:
        raise _Malformed(f"the labels' rows add up to {sum(c for _, c, _ in values)}, not n_rows={n_rows}")
    try:
        values.sort(key=lambda v: v[0])
    except TypeError:
        raise _Malformed("the labels are of types that do not compare") from None
    if len(values) == 2 and labels_equal(values[0][0], values[1][0]):
        raise _Malformed("the same label is listed twice")
    positive = None
    if values:
        summary = LabelSummary("binary", n_rows, ldtype, tuple(values), len(values))
        try:
            res = summary.resolve(pos_label, func=_FUNC)
        except (ValueError, TypeError) as exc:
            raise _Malformed(f"its labels do not resolve: {exc}") from None
        positive = res.pos_label
        pos_rows = sum(c for v, c, _ in values if labels_equal(v, positive))
        if pos_rows != rows[1]:
            raise _Malformed(f"the positive label has {pos_rows} rows but 'rows' says {rows[1]}")
        acc._labels = summary
    elif n_rows:
        raise _Malformed(f"n_rows={n_rows} but no labels")
    # arrays
    store = acc._store
    store.weighted = weighted
    if store.quantised:
        if set(arrays) != {"cells", "pos", "neg"}:
            raise _Malformed(f"a quantised accumulator holds the arrays cells, pos, neg; got {sorted(arrays)}")
        cells, pos, neg = arrays["cells"], arrays["pos"], arrays["neg"]
        if not cells.shape[0] == pos.shape[0] == neg.shape[0]:
            raise _Malformed("cells, pos and neg have different lengths")
        if cells.dtype != np.int64:
            raise _Malformed(f"cells has dtype {cells.dtype.str}, expected <i8")
        _levels(cells, "cells", cells=True)
        if cells.shape[0] and max(-float(cells.min()), float(cells.max())) >= _CELL_LIMIT:
            raise _Malformed("cells beyond 2^62")
        _masses(pos, "pos", weighted, allow_zero=True)
        _masses(neg, "neg", weighted, allow_zero=True)
        if cells.shape[0] and not ((pos + neg) > 0).all():
            raise _Malformed("a cell holds no mass")
        if store.max_levels is not None and cells.shape[0] > store.max_levels:
            raise _Malformed(f"{cells.shape[0]} cells, more than max_levels={store.max_levels}")
        store.state = (cells, pos, neg, store.resolution)
        mass = (neg.sum(), pos.sum())
        counts = (int(mass[0]), int(mass[1])) if not weighted else None
        held = cells.shape[0]
    else:
        allowed = {"pos_levels", "neg_levels", "pos_mass", "neg_mass"}
        if not {"pos_levels", "neg_levels"} <= set(arrays) <= allowed:
            raise _Malformed(f"an exact accumulator holds pos_levels, neg_levels and optionally pos_mass, "
                             f"neg_mass; got {sorted(arrays)}")
        runs = []
        for c in ("neg", "pos"):
            lev = arrays[f"{c}_levels"]
            if lev.dtype != np.float64:
                raise _Malformed(f"{c}_levels has dtype {lev.dtype.str}, expected <f8")
            _levels(lev, f"{c}_levels")
            m = arrays.get(f"{c}_mass")
            if m is None and weighted:
                raise _Malformed(f"a weighted accumulator needs {c}_mass")
            if m is not None:
                if m.shape[0] != lev.shape[0]:
                    raise _Malformed(f"{c}_mass has {m.shape[0]} values for {lev.shape[0]} levels")
                _masses(m, f"{c}_mass", weighted)
            runs.append((lev + 0.0, m))
        store.state = runs
        mass = tuple(_run_mass(r) if weighted else (r[0].shape[0] if r[1] is None else int(r[1].sum()))
                     for r in runs)
        counts = mass if not weighted else None
        held = runs[0][0].shape[0] + runs[1][0].shape[0]
    if counts is not None and list(counts) != rows:
        raise _Malformed(f"the counts ({counts[0]} negatives, {counts[1]} positives) disagree with 'rows' {rows}")
    if weighted and held > n_rows:
        raise _Malformed(f"{held} levels from {n_rows} rows")
    if held and not mw > 0:
        raise _Malformed("'max_weight' is 0 but the accumulator holds masses")
    acc._positive = positive
    acc._n_rows, acc._n_batches, acc._rows = n_rows, n_batches, list(rows)
    acc._mass = [float(m) for m in mass] if weighted else [int(m) for m in mass]
    acc._max_weight = mw
    return acc
