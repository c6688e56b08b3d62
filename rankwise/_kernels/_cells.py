"""AUCs between cells: one sort of the scores beside a cell code, then the masses of any
union of cells below each row.

A *cell* is a set of rows picked by a code beside the score (class x group, class x
stratum, ...). The AUC of a set ``A`` of rows over a disjoint set ``B``,
``sum_{i in A, j in B} w_i w_j psi(s_i, s_j) / (n_A n_B)`` with ``psi = 1{>} + 1/2 1{=}``,
and its DeLong terms (each row of ``A``: its share of ``B`` below it; each row of ``B``: the
share of ``A`` above it) come from the *placements* ``M_B(s)``: the mass of ``B`` below
``s`` plus half the mass of ``B`` at ``s``. One argsort numbers the distinct scores; then
``M_B`` at every row is one ``bincount`` of ``B``'s rows by level, a cumulative sum and a
gather: linear in ``n`` for every set after the sort. Placements add over disjoint sets,
so a set such as "the negatives outside group g" is the negatives' placement minus the
group's.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CellSort", "set_auc", "GroupCells", "CellAUCs"]


class CellSort:
    """The rows sorted once: each row's level (dense rank of its score, ties share one).

    Parameters
    ----------
    s : float ndarray (n,)
        Validated scores.
    w : float ndarray (n,) or None
        Validated non-negative weights (None: every row counts once).
    """

    def __init__(self, s: np.ndarray, w: np.ndarray | None = None):
        n = s.shape[0]
        self.n = n
        self.w = w
        order = np.argsort(s, kind="stable")
        ss = s[order]
        new = np.empty(n, dtype=bool)
        if n:
            new[0] = True
            np.not_equal(ss[1:], ss[:-1], out=new[1:])
        lev_sorted = np.cumsum(new) - 1
        self.L = int(lev_sorted[-1]) + 1 if n else 0
        self.level = np.empty(n, dtype=np.intp)
        self.level[order] = lev_sorted

    def mass(self, sel: np.ndarray) -> float:
        """The mass of the rows ``sel`` (bool mask)."""
        if self.w is None:
            return float(np.count_nonzero(sel))
        return float(self.w[sel].sum())

    def placement(self, sel: np.ndarray) -> np.ndarray:
        """``M(s_i)`` at every row ``i``: the mass of the rows ``sel`` (bool mask) with a
        score below ``s_i``, plus half of theirs at ``s_i``."""
        lev = self.level[sel]
        m = np.bincount(lev, weights=None if self.w is None else self.w[sel], minlength=self.L)
        m = m.astype(np.float64, copy=False)
        c = np.cumsum(m)
        c -= 0.5 * m
        return c[self.level]


def set_auc(in_a: np.ndarray, in_b: np.ndarray, place_a: np.ndarray, place_b: np.ndarray, n_a: float, n_b: float,
            w: np.ndarray | None) -> tuple[float, np.ndarray]:
    """The AUC of the rows ``in_a`` over the rows ``in_b`` (disjoint bool masks) and its
    DeLong terms at every row: ``M_B(s_i) / n_B`` on ``A``'s rows, ``1 - M_A(s_j) / n_A``
    on ``B``'s, 0 elsewhere (each set's terms average to the AUC over its mass).
    ``place_a``, ``place_b``: :meth:`CellSort.placement` of ``A`` and ``B``. nan and zero
    terms when a set has no mass."""
    h = np.zeros(in_a.shape[0])
    if not (n_a > 0 and n_b > 0):
        return float("nan"), h
    h[in_a] = place_b[in_a] / n_b
    h[in_b] = 1.0 - place_a[in_b] / n_a
    ha = h[in_a]
    value = float(ha.sum() if w is None else np.dot(w[in_a], ha)) / n_a
    return value, h


class GroupCells:
    """A validated binary sample split into class x group cells (cell ``2 g + 1``: group g's
    positives, ``2 g``: its negatives), with each cell's rows and mass."""

    def __init__(self, is_pos, codes, G, w):
        self.is_pos, self.codes, self.G, self.w = is_pos, codes, G, w
        cell = codes * 2 + is_pos
        order = np.argsort(cell, kind="stable")
        counts = np.bincount(cell, minlength=2 * G)
        bounds = np.concatenate(([0], np.cumsum(counts)))
        #: rows of cell 2g + c (c = 1 positives), each sorted
        self.rows = [order[bounds[k]:bounds[k + 1]] for k in range(2 * G)]
        mass = counts.astype(np.float64) if w is None else np.bincount(cell, weights=w, minlength=2 * G)
        self.mass = mass.reshape(G, 2)  # [:, 1] positives, [:, 0] negatives
        self.n_rows = np.bincount(codes, minlength=G)
        self.n_pos = float(self.mass[:, 1].sum())
        self.n_neg = float(self.mass[:, 0].sum())

    def defined(self, g: int) -> bool:
        return bool(self.mass[g, 1] > 0 and self.mass[g, 0] > 0)


class CellAUCs:
    """The AUC of any union of positive cells over any union of negative cells (or of cells
    of one class over others of the same class) for one scorer: the placements of each
    group's positives and negatives and of each class, from one sort."""

    def __init__(self, cells: GroupCells, s: np.ndarray):
        self.cells = cells
        self.cs = CellSort(s, cells.w)
        self.is_pos = cells.is_pos
        self._place: dict = {}
        self._mask: dict = {}

    def mask(self, key) -> np.ndarray:
        """Rows of ``key``: ``("pos"|"neg", g)`` one cell, ``(cls, None)`` the class,
        ``(cls, -g - 1)`` the class outside group g."""
        if key not in self._mask:
            cls, g = key
            base = self.is_pos if cls == "pos" else ~self.is_pos
            if g is None:
                m = base
            elif g >= 0:
                m = base & (self.cells.codes == g)
            else:
                m = base & (self.cells.codes != -g - 1)
            self._mask[key] = m
        return self._mask[key]

    def placement(self, key) -> np.ndarray:
        if key not in self._place:
            cls, g = key
            if g is not None and g < 0:
                self._place[key] = self.placement((cls, None)) - self.placement((cls, -g - 1))
            else:
                self._place[key] = self.cs.placement(self.mask(key))
        return self._place[key]

    def auc(self, a, b) -> tuple[float, np.ndarray]:
        """``(value, terms)`` of the rows ``a`` over the rows ``b`` (keys of :meth:`mask`)."""
        ma, mb = self.mask(a), self.mask(b)
        return set_auc(ma, mb, self.placement(a), self.placement(b), self.cs.mass(ma), self.cs.mass(mb),
                       self.cells.w)

    def forget(self, g: int) -> None:
        """Drop group g's arrays (they are n long each)."""
        for d in (self._place, self._mask):
            for key in [k for k in d if k[1] is not None and (k[1] == g or k[1] == -g - 1)]:
                del d[key]
