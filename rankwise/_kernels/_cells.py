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

from ._merge import _compiled

__all__ = ["CellSort", "set_auc", "GroupCells", "CellAUCs", "CellMoments", "MAX_PLACEMENTS", "placement_moments",
           "merge_placement_moments"]


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
        small = np.uint8 if 2 * G <= 255 else (np.uint16 if 2 * G <= 65535 else np.int64)
        self.cell = (codes * 2 + is_pos).astype(small)
        counts = np.bincount(self.cell, minlength=2 * G)
        self._bounds = np.concatenate(([0], np.cumsum(counts)))
        self._rows = None
        mass = counts.astype(np.float64) if w is None else np.bincount(self.cell, weights=w, minlength=2 * G)
        self.mass = mass.reshape(G, 2)  # [:, 1] positives, [:, 0] negatives
        self.n_rows = np.bincount(codes, minlength=G)
        self.n_pos = float(self.mass[:, 1].sum())
        self.n_neg = float(self.mass[:, 0].sum())

    @property
    def rows(self) -> list:
        """The rows of cell 2g + c (c = 1 positives), each increasing (a stable counting
        sort of the small cell codes, made when first asked for)."""
        if self._rows is None:
            order = np.argsort(self.cell, kind="stable")
            b = self._bounds
            self._rows = [order[b[k]:b[k + 1]] for k in range(2 * self.G)]
        return self._rows

    def defined(self, g: int) -> bool:
        return bool(self.mass[g, 1] > 0 and self.mass[g, 0] > 0)


class CellAUCs:
    """The AUC of any union of positive cells over any union of negative cells (or of cells
    of one class over others of the same class) for one scorer: the placements of each
    group's positives and negatives and of each class, from one sort."""

    def __init__(self, cells: GroupCells, s: np.ndarray):
        self.cells = cells
        self.s = s
        self._cs = None
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

    @property
    def cs(self) -> CellSort:
        """The sort, made when a placement is first asked for."""
        if self._cs is None:
            self._cs = CellSort(self.s, self.cells.w)
        return self._cs

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

    def auc_cells(self, P: list, N: list) -> tuple[float, np.ndarray]:
        """``(value, terms)`` of the union of cells ``P`` over the union ``N`` (cell
        ``2 g + 1``: group g's positives, ``2 g``: its negatives; each union within one class)."""
        return set_auc(self._union_mask(P), self._union_mask(N), self._union_place(P), self._union_place(N),
                       float(sum(self.cells.mass.reshape(-1)[c] for c in P)),
                       float(sum(self.cells.mass.reshape(-1)[c] for c in N)), self.cells.w)

    def _union_mask(self, cells_: list) -> np.ndarray:
        m = np.zeros(self.is_pos.shape[0], dtype=bool)
        for c in cells_:
            m |= self.mask(("pos" if c % 2 else "neg", c // 2))
        return m

    def _union_place(self, cells_: list) -> np.ndarray:
        cls = "pos" if cells_[0] % 2 else "neg"
        same = [2 * g + (cells_[0] % 2) for g in range(self.cells.G)]
        rest = [c for c in same if c not in set(cells_)]
        if len(rest) < len(cells_):  # the class less the few cells left out
            out = self.placement((cls, None)).copy()
            for c in rest:
                out -= self.placement((cls, c // 2))
            return out
        out = np.zeros(self.is_pos.shape[0])
        for c in cells_:
            out += self.placement((cls, c // 2))
        return out

    def forget(self, g: int) -> None:
        """Drop group g's arrays (they are n long each)."""
        for d in (self._place, self._mask):
            for key in [k for k in d if k[1] is not None and (k[1] == g or k[1] == -g - 1)]:
                del d[key]


class CellMoments:
    """Every row's placement in every cell, from one sort, reduced to each cell's
    sufficient statistics: the mean and the centred second moments of its rows'
    placements. Any AUC of a union of cells over another is then a linear functional of
    the means, and its DeLong variance (or the joint covariance of several) a quadratic
    form in the cells' covariances: independent rows, no per-statistic pass.

    Cells ``2 g + 1`` (group g's positives) and ``2 g`` (its negatives), as in
    :class:`GroupCells`. Column ``d`` of a row is ``M_d(s) / n_d``: the share of cell d's
    mass below the row's score, ties 1/2 (0 for an empty cell). With ``same_class``
    False only the other class's columns are kept for each cell (enough for AUCs of
    positives over negatives); True keeps every column (the equality gaps compare cells
    of one class).

    Memory: ``n x 2G`` floats while building (see :data:`MAX_PLACEMENTS`).
    """

    def __init__(self, s: np.ndarray, cells: "GroupCells", same_class: bool, scale: float = 1.0, *,
                 offsets: np.ndarray | None = None, colmass: np.ndarray | None = None):
        G = cells.G
        mass = cells.mass  # (G, 2): [:, 0] negatives, [:, 1] positives
        if colmass is None:
            colmass = np.concatenate((mass[:, 0], mass[:, 1]))
        W, S, M2 = placement_moments(s, cells, same_class, colmass, offsets)
        self._set(G, same_class, scale, colmass, W, S, M2)

    @classmethod
    def merged(cls, parts: list, G: int, same_class: bool, scale: float, colmass: np.ndarray) -> "CellMoments":
        """The moments of a sample from its parts' :func:`placement_moments` (score ranges
        placed with the masses below them: the Dask buckets), merged exactly."""
        W, S, M2 = merge_placement_moments(parts)
        self = cls.__new__(cls)
        self._set(G, same_class, scale, colmass, W, S, M2)
        return self

    def _set(self, G, same_class, scale, colmass, W, S, M2) -> None:
        K = 2 * G
        self.G, self.same_class, self.scale, self.colmass = G, same_class, scale, colmass
        self.W = W
        self.M2 = M2
        #: per cell (index 2g + c): its columns, the mean of its rows' placements and the
        #: covariance of their mean (centred second moments / W / (W scale - 1))
        self.cols, self.mean, self.cov = [], [], []
        for c in range(K):
            cols = _cell_columns(c, G, same_class)
            self.cols.append(cols)
            Wc = float(W[c])
            if not Wc > 0:
                self.mean.append(np.zeros(cols.shape[0]))
                self.cov.append(np.zeros((cols.shape[0], cols.shape[0])))
                continue
            self.mean.append(S[c] / Wc)
            size = Wc * scale
            self.cov.append(M2[c] / Wc / (size - 1.0) if size > 1 else np.full(M2[c].shape, np.nan))

    def pooled(self, P: list, N: list) -> tuple[float, float]:
        """``(value, variance)`` of ``A(P, N)`` with each side's cells pooled into one
        (the variance of DeLong over the two sides, not conditional on the cells' sizes:
        with P and N every cell of a class, :func:`rankwise.stats.estimate`'s). Each side's
        centred sum of squares is its cells' own plus their means' spread (Chan's merge)."""
        nP = float(sum(self.W[c] for c in P))
        nN = float(sum(self.W[c] for c in N))
        if not (nP > 0 and nN > 0):
            return float("nan"), float("nan")
        var = 0.0
        value = float("nan")
        for side, other, n_side, n_other in ((P, N, nP, nN), (N, P, nN, nP)):
            means, ss = [], 0.0
            for c in side:
                if not self.W[c] > 0:
                    continue
                a = self._coef(c, other, n_other)
                means.append((self.W[c], float(self.mean[c] @ a)))
                ss += float(a @ self.M2[c] @ a)
            mu = sum(wc * m for wc, m in means) / n_side
            ss += sum(wc * (m - mu) ** 2 for wc, m in means)
            if side is P:
                value = mu
            size = n_side * self.scale
            var += ss / n_side / (size - 1.0) if size > 1 else float("nan")
        return float(value), float(var)

    def column(self, cell: int) -> int:
        """The placement column of a cell (negatives first)."""
        return cell // 2 + (self.G if cell % 2 == 1 else 0)

    def statistics(self, defs: list) -> tuple[np.ndarray, np.ndarray]:
        """Values and joint covariance of K statistics ``A(P, N)``, each given as
        ``(P_cells, N_cells, sign)`` (lists of cell indices; sign -1 for ``1/2 - A``,
        whose value is returned as such). nan for a statistic with an empty side."""
        K = len(defs)
        values = np.full(K, np.nan)
        # per cell: the statistics touching it, with the coefficient vector of their term
        # and the cell's share of the side it is on
        touch: dict = {}
        for k, (Pc, Nc, sign) in enumerate(defs):
            nP = float(sum(self.W[c] for c in Pc))
            nN = float(sum(self.W[c] for c in Nc))
            if not (nP > 0 and nN > 0):
                continue
            v = 0.0
            for c in Pc:
                a = self._coef(c, Nc, nN)
                if self.W[c] > 0:
                    v += self.W[c] * float(self.mean[c] @ a)
                touch.setdefault(c, []).append((k, sign * self.W[c] / nP * a))
            for c in Nc:
                a = -self._coef(c, Pc, nP)
                touch.setdefault(c, []).append((k, sign * self.W[c] / nN * a))
            A = v / nP
            values[k] = 0.5 - A if sign < 0 else A
        cov = np.zeros((K, K))
        for c, items in touch.items():
            if not self.W[c] > 0:
                continue
            ks = [k for k, _ in items]
            Acoef = np.stack([a for _, a in items], axis=1)  # (cols, k)
            cov[np.ix_(ks, ks)] += Acoef.T @ self.cov[c] @ Acoef
        bad = ~np.isfinite(values)
        cov[bad, :] = np.nan
        cov[:, bad] = np.nan
        return values, cov

    def _coef(self, c: int, other: list, n_other: float) -> np.ndarray:
        """The coefficients, over cell c's columns, of the mass of the cells ``other``
        below a row (the placement shares times the cells' masses), over ``n_other``."""
        cols = self.cols[c]
        a = np.zeros(cols.shape[0])
        start = int(cols[0])
        for d in other:
            j = self.column(d) - start if not self.same_class else self.column(d)
            a[j] += self.colmass[self.column(d)] / n_other
        return a


#: :class:`CellMoments` is used while ``n x 2G`` stays below this many floats (4 bytes x
#: 8 = 640 MB at the limit); beyond it the statistics are computed one by one.
MAX_PLACEMENTS = 80_000_000


def _cell_columns(c: int, G: int, same_class: bool) -> np.ndarray:
    """The placement columns kept for cell ``c``: every cell's (``same_class``), or the
    other class's (columns 0..G-1 are the negatives' cells, G..2G-1 the positives')."""
    if same_class:
        return np.arange(2 * G)
    return np.arange(G) if c % 2 == 1 else np.arange(G, 2 * G)


def placement_moments(s: np.ndarray, cells: "GroupCells", same_class: bool, colmass: np.ndarray,
                      offsets: np.ndarray | None = None) -> tuple:
    """Each cell's mass ``W`` (2G,), sums ``S[c]`` and centred second moments ``M2[c]`` of
    its rows' placements (column d: the mass of cell d below the row, ties 1/2, plus
    ``offsets[d]`` (the mass of cell d below this sample's score range: 0 for a whole
    sample), over ``colmass[d]``). One argsort and a ``2G x n`` cumulative sum.

    Cells ``2 g + 1`` / ``2 g``; columns: negatives' cells 0..G-1, positives' G..2G-1."""
    G, n, w = cells.G, s.shape[0], cells.w
    K = 2 * G
    order = np.argsort(s)  # the order within a tie is immaterial: ties are read as levels
    ss = s[order]
    small = np.uint8 if K <= 255 else (np.uint16 if K <= 65535 else np.int64)
    col = (cells.codes[order] + G * cells.is_pos[order]).astype(small)
    ws = None if w is None else w[order]
    if offsets is None:
        offsets = np.zeros(K)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(colmass > 0, 1.0 / colmass, 0.0)
    fast = _compiled(n)
    if fast is not None:
        return _moments_compiled(fast, ss, col, ws, G, same_class, offsets, inv)
    return _moments_numpy(ss, col, ws, G, same_class, offsets, inv)


def _cell_of_column(cc: int, G: int) -> int:
    """The cell (``2 g + 1`` positives, ``2 g`` negatives) of an own-column index."""
    return 2 * (cc - G) + 1 if cc >= G else 2 * cc


def _moments_compiled(fast, ss, col, ws, G, same_class, offsets, inv) -> tuple:
    """:func:`placement_moments` by one compiled pass writing each row's placements cell
    by cell, then each cell's weighted sums and centred second moments (BLAS)."""
    n, K = ss.shape[0], 2 * G
    new = np.empty(n, dtype=np.bool_)
    if n:
        new[0] = True
        np.not_equal(ss[1:], ss[:-1], out=new[1:])
    counts = np.bincount(col, minlength=K)
    start = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    k = K if same_class else G
    X = np.empty((n, k))
    wout = np.empty(n)
    weighted = ws is not None
    fast.cell_placements_into(col.astype(np.int64), ws if weighted else np.empty(0), weighted, new, offsets, inv,
                              start, X, wout, same_class, G)
    W, S, M2 = np.zeros(K), [None] * K, [None] * K
    for cc in range(K):
        c = _cell_of_column(cc, G)
        a, b = int(start[cc]), int(start[cc]) + int(counts[cc])
        Xc = X[a:b]
        wc = None if not weighted else wout[a:b]
        Wc = float(b - a) if wc is None else float(wc.sum())
        W[c] = Wc
        if not Wc > 0:
            S[c], M2[c] = np.zeros(k), np.zeros((k, k))
            continue
        S[c] = Xc.sum(axis=0) if wc is None else wc @ Xc
        Xc -= S[c] / Wc
        M2[c] = Xc.T @ Xc if wc is None else (Xc.T * wc) @ Xc
    return W, S, M2


def _moments_numpy(ss, col, ws, G, same_class, offsets, inv) -> tuple:
    """:func:`placement_moments` with numpy: a ``2G x n`` cumulative sum of the cells'
    masses in score order, each cell's rows gathered from it."""
    n, K = ss.shape[0], 2 * G
    W = np.zeros(K)
    S: list = [None] * K
    M2: list = [None] * K
    # P[d, k]: the mass of column d's cell at sorted positions up to k (rows: contiguous sums)
    P = np.zeros((K, n))
    if n:
        P[col, np.arange(n)] = 1.0 if ws is None else ws
    np.cumsum(P, axis=1, out=P)
    tied = n > 1 and not bool(np.all(ss[1:] != ss[:-1]))
    # Without ties a row's placement in a cell of the other class is the inclusive sum (the
    # row is not in that cell); in its own cell (same_class) half the row is taken off
    # below, cell by cell: below plus half its level, as with ties (no statistic reads a
    # row's own cell; the compiled engine writes the same).
    if tied:  # levels: below = the sum before the level, plus half the level's own mass
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.not_equal(ss[1:], ss[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        ends = np.append(starts[1:], n) - 1
        lev = np.cumsum(new) - 1
        before = np.zeros((K, starts.shape[0]))
        before[:, 1:] = P[:, starts[1:] - 1]
        within = P[:, ends] - before
        before += 0.5 * within
        P = before[:, lev]
    P += offsets[:, None]
    P *= inv[:, None]
    by_col = np.argsort(col, kind="stable")  # each column's sorted positions, increasing
    bounds = np.concatenate(([0], np.cumsum(np.bincount(col, minlength=K))))
    for c in range(K):
        positive = c % 2 == 1
        own = c // 2 + (G if positive else 0)
        idx = by_col[bounds[own]:bounds[own + 1]]
        cols = _cell_columns(c, G, same_class)
        X = P[:, idx] if same_class else P[cols[0]:cols[-1] + 1, idx]
        wc = None if ws is None else ws[idx]
        if same_class and not tied and idx.shape[0]:  # below plus half itself in its own cell
            X[own] -= 0.5 * (1.0 if wc is None else wc) * inv[own]
        Wc = float(idx.shape[0]) if wc is None else float(wc.sum())
        W[c] = Wc
        if not Wc > 0:
            S[c] = np.zeros(cols.shape[0])
            M2[c] = np.zeros((cols.shape[0], cols.shape[0]))
            continue
        S[c] = X.sum(axis=1) if wc is None else X @ wc
        X -= (S[c] / Wc)[:, None]
        M2[c] = X @ X.T if wc is None else (X * wc) @ X.T
    return W, S, M2


def merge_placement_moments(parts: list) -> tuple:
    """:func:`placement_moments` of disjoint parts of one sample, merged exactly: masses
    and sums add; the centred second moments add with the between-parts term (Chan,
    Golub & LeVeque's pairwise update)."""
    W = np.zeros_like(parts[0][0])
    K = W.shape[0]
    S = [np.zeros_like(parts[0][1][c]) for c in range(K)]
    M2 = [np.zeros_like(parts[0][2][c]) for c in range(K)]
    for Wp, Sp, M2p in parts:
        for c in range(K):
            wa, wb = W[c], Wp[c]
            if not wb > 0:
                continue
            if wa > 0:
                d = Sp[c] / wb - S[c] / wa
                M2[c] = M2[c] + M2p[c] + np.outer(d, d) * (wa * wb / (wa + wb))
            else:
                M2[c] = M2p[c].copy()
            S[c] = S[c] + Sp[c]
            W[c] = wa + wb
    return W, S, M2
