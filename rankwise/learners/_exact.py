r"""The exact empirical maximiser of a linear rank statistic over linear scorers in two dimensions.

S. Clémençon and N. Vayatis ("Empirical performance maximization for linear rank
statistics", NIPS 2008) study the scorer that maximises ``W_n(s) = sum over positives of
phi(Rank(s(x_i)) / (n + 1))`` over a class and leave its computation open. For linear
scorers ``s(x) = <w, x>`` in two dimensions the class induces finitely many orderings of
the sample: the order of ``x_i`` and ``x_j`` changes only when ``w`` crosses a direction
orthogonal to ``x_i - x_j``. :func:`linear_rank_sweep` sorts those ``n(n - 1)`` critical
directions by angle and sweeps the circle once, so it visits every ordering (the open arcs
between critical directions, where no two points tie) and every tied ordering (at the
critical directions themselves) and evaluates ``W_n`` on each: ``O(n^2 log n)`` time,
``O(n^2)`` memory. :class:`ExactLinearRankMaximizer` keeps the best.

Exactness: the angles are floating-point numbers, but no decision rests on their rounding.
Each angle carries a bound on its rounding error; directions whose error intervals overlap
are ordered and grouped with exact rational arithmetic on the input floats, so collinear
points, repeated points and parallel differences (grid data) tie exactly where they should.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .. import phi as _phi
from ..io import register_model
from .._validation import check_choice
from ._base import BinaryLinearRanker, store_params

__all__ = ["ExactLinearRankMaximizer", "LinearRankSweep", "linear_rank_sweep"]

_EPS = np.finfo(np.float64).eps


@dataclass(frozen=True)
class LinearRankSweep:
    r"""Every ordering a linear scorer ``<w, x>`` induces on a two-column sample, with ``W_n``.

    The critical directions ``critical[g]`` are sorted by angle (counter-clockwise from
    ``start``). ``tie_values[g]`` is ``W_n`` of the scorer ``<critical[g], x>``, under which
    the points whose difference is orthogonal to it tie; ``arc_values[g]`` is ``W_n`` on the
    open arc of directions strictly between ``critical[g]`` and ``critical[g + 1]`` (the
    last arc wraps around to ``critical[0]``; it holds ``start``), where no two distinct
    points tie, and ``arc_directions[g]`` is a unit direction inside that arc (its bisector).
    All values are raw sums (``scale="raw"`` of :func:`rankwise.rank_statistic`); divide by
    ``n_pos`` for the mean. With fewer than two distinct points there is no critical
    direction: the arrays are empty and ``start_value`` is the only value.
    """

    critical: np.ndarray        # (G, 2) critical directions (rows of the difference rotated by 90 degrees)
    angles: np.ndarray          # (G,) their angles in [start_angle, start_angle + 2 pi)
    tie_values: np.ndarray      # (G,)
    arc_values: np.ndarray      # (G,)
    arc_directions: np.ndarray  # (G, 2)
    start: np.ndarray           # (2,) a unit direction on no critical direction
    start_angle: float
    start_value: float
    n_pos: float                # positive mass (n+)
    n: float                    # total mass (n)

    def best(self, include_ties: bool = True):
        """``(value, direction, is_tie)`` of the largest ``W_n`` (the first in angular order
        among equal values; arcs before ties at the same value)."""
        if self.tie_values.shape[0] == 0:
            return float(self.start_value), self.start.copy(), False
        ga = int(np.argmax(self.arc_values))
        value, direction, tie = float(self.arc_values[ga]), self.arc_directions[ga], False
        if include_ties:
            gt = int(np.argmax(self.tie_values))
            if self.tie_values[gt] > value:
                value, direction, tie = float(self.tie_values[gt]), self.critical[gt], True
        return value, np.array(direction, dtype=np.float64), tie


def _rank_of(below, mass, ties):
    """Pooled rank, in mass units, of an atom of ``mass`` with ``below`` mass under it."""
    return below + 0.5 * (mass + 1.0) if ties == "average" else below + mass


def _exact_vec(X, i, j, sign):
    """The critical direction of the pair (i, j) as exact rationals: ``sign * rot90(x_i - x_j)``."""
    dx = Fraction(float(X[i, 0])) - Fraction(float(X[j, 0]))
    dy = Fraction(float(X[i, 1])) - Fraction(float(X[j, 1]))
    return (-dy * sign, dx * sign)


def _primitive(v):
    """A canonical integer key of the ray of the rational vector ``v``."""
    a, b = v
    den = a.denominator * b.denominator // math.gcd(a.denominator, b.denominator)
    A, B = int(a * den), int(b * den)
    g = math.gcd(abs(A), abs(B))
    return (A // g, B // g)


def _angle_cmp(u, v):
    """-1, 0, 1 as the ray ``u`` comes before, with, after ``v`` (both in one open half-plane)."""
    c = u[0] * v[1] - u[1] * v[0]
    return -1 if c > 0 else (1 if c < 0 else 0)


def _clusters(angles, err):
    """Start index of each run of sorted angles whose error intervals overlap."""
    hi = np.maximum.accumulate(angles + err)
    new = np.empty(angles.shape[0], dtype=bool)
    new[0] = True
    new[1:] = angles[1:] - err[1:] > hi[:-1]
    return np.flatnonzero(new)


def _check_xy(X, y, sample_weight, name):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"{name}: X must have exactly 2 columns (the exact sweep enumerates the orderings "
                         f"of a two-dimensional linear class); got shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name}: X holds NaN or infinite values.")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"{name}: y must be 1-D with one label per row of X; got shape {y.shape} for {X.shape[0]} rows.")
    if y.dtype == bool:
        is_pos = y
    else:
        vals = set(np.unique(y).tolist())
        if not vals <= {0, 1}:
            raise ValueError(f"{name}: y must hold 0/1 or booleans (1 = positive); got values {sorted(vals)[:5]}.")
        is_pos = y == 1
    if sample_weight is None:
        sw = np.ones(X.shape[0])
    else:
        sw = np.asarray(sample_weight, dtype=np.float64)
        if sw.shape != (X.shape[0],):
            raise ValueError(f"{name}: sample_weight must have one weight per row; got shape {sw.shape}.")
        if not np.all(np.isfinite(sw)) or np.any(sw < 0):
            raise ValueError(f"{name}: sample_weight must be finite and >= 0.")
    if X.shape[0] == 0 or not sw.sum() > 0:
        raise ValueError(f"{name}: the sample is empty (no row with positive weight).")
    return X, is_pos, sw


def linear_rank_sweep(X, y, phi="auc", *, ties: str = "average", sample_weight=None) -> LinearRankSweep:
    r"""``W_n`` of every ordering of the sample by a linear scorer ``<w, x>``, ``x`` in two dimensions.

    Parameters
    ----------
    X : array (n, 2)
    y : array (n,) of 0/1 or booleans (1 = positive). One class only is allowed: the sum
        is then the same on every open arc and differs only where ties change the
        mid-ranks (:func:`rankwise.rank_statistic` returns NaN for one class; this does not).
    phi : as in :func:`rankwise.rank_statistic` (``"auc"``, ``"pnorm_push:p=8"``, ...).
    ties : {"average", "max"}
        Ranks of tied points, as in :func:`rankwise.rank_statistic`.
    sample_weight : array (n,) of weights >= 0, optional; ranks in mass units.

    Returns
    -------
    LinearRankSweep

    Notes
    -----
    Identical rows are merged into one atom carrying their positive and negative mass
    (they tie under every scorer). Each unordered pair of distinct atoms ``(i, j)`` gives the
    two critical directions ``+-rot90(x_i - x_j)``; just before one of them (counter-clockwise)
    one atom of the pair is below the other and just after it is above. Along the sweep the
    mass below an atom changes only at its own critical directions, by the other atom's mass,
    so the mass below every atom after every critical direction is a cumulative sum per atom,
    and ``W_n`` after each direction is a cumulative sum of the changes ``phi`` of the new
    rank minus ``phi`` of the old rank of each moving positive atom: no ordering is ever
    re-sorted. At a critical direction where several pairs tie at once (collinear points,
    parallel differences) the atoms that tie form blocks (connected by the tying pairs),
    which reverse their order; the tied value gives every atom of a block the block's rank.
    """
    name = "linear_rank_sweep"
    ties = check_choice(ties, "ties", name, ("average", "max"))
    phi = _phi.resolve(phi, name)
    X, is_pos, sw = _check_xy(X, y, sample_weight, name)
    keep = sw > 0
    X, is_pos, sw = X[keep], is_pos[keep], sw[keep]
    atoms, inv = np.unique(X, axis=0, return_inverse=True)
    inv = inv.ravel()
    A = atoms.shape[0]
    pos_mass = np.bincount(inv, weights=sw * is_pos, minlength=A)
    mass = np.bincount(inv, weights=sw, minlength=A)
    n = float(mass.sum())
    n_pos = float(pos_mass.sum())

    def rank_phi(below, idx):
        return phi.at_ranks(_rank_of(below, mass[idx], ties), n)

    def value_of_order(order):
        below = np.empty(A)
        below[order] = np.cumsum(mass[order]) - mass[order]
        return float(pos_mass @ rank_phi(below, np.arange(A))), below

    if A < 2:
        v, _ = value_of_order(np.arange(A))
        e = np.empty((0, 2))
        return LinearRankSweep(e, np.empty(0), np.empty(0), np.empty(0), e, np.array([1.0, 0.0]), 0.0, v, n_pos, n)

    # --- the critical directions: both orientations of rot90(x_i - x_j), i < j -----------------
    I, J = (k.astype(np.int32) for k in np.triu_indices(A, 1))
    d = atoms[I] - atoms[J]
    base = np.arctan2(d[:, 0], -d[:, 1])  # angle of rot90(d) = (-d_y, d_x)
    scale = np.maximum(np.abs(atoms[I]).max(axis=1), np.abs(atoms[J]).max(axis=1))
    norm = np.hypot(d[:, 0], d[:, 1])
    # Rounding of d (relative to |d|) and of arctan2, generously bounded.
    err1 = 16.0 * _EPS * (scale / norm) + 16.0 * _EPS * math.pi
    P = I.shape[0]
    ang = np.concatenate([np.mod(base, 2 * math.pi), np.mod(base + math.pi, 2 * math.pi)])
    err = np.concatenate([err1, err1])
    sign = np.concatenate([np.ones(P, dtype=np.int8), -np.ones(P, dtype=np.int8)])
    pair = np.concatenate([np.arange(P, dtype=np.int32), np.arange(P, dtype=np.int32)])
    # For +rot90(d): just before it, <w, x_i - x_j> > 0 (j below i), so j moves up; for -rot90(d), i.
    up = np.where(sign > 0, J[pair], I[pair])
    down = np.where(sign > 0, I[pair], J[pair])

    # --- a start direction in the widest gap between error intervals; angles measured from it ----
    o = np.argsort(ang, kind="stable")
    a_s, e_s = ang[o], err[o]
    starts = _clusters(a_s, e_s)
    hi = np.maximum.accumulate(a_s + e_s)
    ends_hi = np.append(hi[starts[1:] - 1], hi[-1])
    gaps_lo = ends_hi
    gaps_hi = np.append(a_s[starts[1:]] - e_s[starts[1:]], a_s[starts[0]] - e_s[starts[0]] + 2 * math.pi)
    k = int(np.argmax(gaps_hi - gaps_lo))
    theta0 = float(np.mod(0.5 * (gaps_lo[k] + gaps_hi[k]), 2 * math.pi))
    w0 = np.array([math.cos(theta0), math.sin(theta0)])
    rel = np.mod(ang - theta0, 2 * math.pi)
    o = np.argsort(rel, kind="stable")
    rel, err, sign, pair, up, down = rel[o], err[o], sign[o], pair[o], up[o], down[o]
    del ang, o, base, err1, scale, norm, a_s, e_s, hi
    E = rel.shape[0]

    # --- exact order and grouping inside clusters of overlapping error intervals ----------------
    starts = _clusters(rel, err)
    sizes = np.diff(np.append(starts, E))
    perm = np.arange(E)
    is_start = np.zeros(E, dtype=bool)  # first event of each group (in the final order)
    is_start[starts] = True
    for s0, sz in zip(starts[sizes > 1].tolist(), sizes[sizes > 1].tolist()):
        idx = list(range(s0, s0 + sz))
        vecs = {e: _exact_vec(atoms, I[pair[e]], J[pair[e]], int(sign[e])) for e in idx}
        keys: dict = {}
        for e in idx:
            keys.setdefault(_primitive(vecs[e]), []).append(e)
        reps = sorted(keys, key=functools.cmp_to_key(lambda k1, k2: _angle_cmp(vecs[keys[k1][0]], vecs[keys[k2][0]])))
        pos = s0
        for kk in reps:
            members = keys[kk]
            perm[pos:pos + len(members)] = members
            is_start[pos] = True
            pos += len(members)
    rel, sign, pair, up, down = rel[perm], sign[perm], pair[perm], up[perm], down[perm]
    del perm
    gstart = np.flatnonzero(is_start)
    G = gstart.shape[0]
    gsize = np.diff(np.append(gstart, E))

    # --- initial order at w0, exact ------------------------------------------------------------
    proj = atoms @ w0
    order = np.argsort(proj, kind="stable")
    gap = np.diff(proj[order])
    tol = 8.0 * _EPS * (np.abs(atoms[order[1:]]).sum(axis=1) + np.abs(atoms[order[:-1]]).sum(axis=1))
    if np.any(gap <= tol):
        w0f = (Fraction(float(w0[0])), Fraction(float(w0[1])))
        exact = [Fraction(float(a[0])) * w0f[0] + Fraction(float(a[1])) * w0f[1] for a in atoms]
        order = np.asarray(sorted(range(A), key=lambda i: exact[i]), dtype=np.int64)
    W0, below0 = value_of_order(order)

    # --- the sweep: mass below each atom after each event, by a cumulative sum per atom ---------
    # Records in time order (event e gives records 2e: its up atom, 2e + 1: its down atom); a
    # stable sort by atom keeps each atom's records in time order.
    ro = np.argsort(np.column_stack([up, down]).ravel(), kind="stable")
    rt = ro // 2
    is_up = (ro % 2) == 0
    del ro
    ra = np.where(is_up, up[rt], down[rt])
    rd = np.where(is_up, mass[down[rt]], -mass[up[rt]])
    cs = np.cumsum(rd)
    first = np.ones(ra.shape[0], dtype=bool)
    first[1:] = ra[1:] != ra[:-1]
    seg_start = np.maximum.accumulate(np.where(first, np.arange(ra.shape[0]), 0))
    del first
    after = below0[ra] + (cs - (cs[seg_start] - rd[seg_start]))
    del cs, seg_start
    before = after - rd
    del rd
    contrib = pos_mass[ra] * (rank_phi(after, ra) - rank_phi(before, ra))
    del after
    delta_e = np.bincount(rt, weights=contrib, minlength=E)
    del contrib
    W_after_event = W0 + np.cumsum(delta_e)
    gend = np.append(gstart[1:], E) - 1
    arc_values = W_after_event[gend]
    W_before_group = np.concatenate([[W0], arc_values[:-1]])
    # Pre-group mass below of each record's atom (for the tied values).
    before_by_event_up = np.empty(E)
    before_by_event_down = np.empty(E)
    before_by_event_up[rt[is_up]] = before[is_up]
    before_by_event_down[rt[~is_up]] = before[~is_up]
    del before, rt, is_up, ra

    # Tied values: one pair per group (the generic case), vectorised.
    tie_values = np.empty(G)
    single = gsize == 1
    e1 = gstart[single]
    u1, d1 = up[e1], down[e1]
    blk_below = before_by_event_up[e1]
    blk_mass = mass[u1] + mass[d1]
    r_tie = _rank_of(blk_below, blk_mass, ties)
    phi_tie = phi.at_ranks(r_tie, n)
    tie_values[single] = (W_before_group[single]
                          + pos_mass[u1] * (phi_tie - rank_phi(before_by_event_up[e1], u1))
                          + pos_mass[d1] * (phi_tie - rank_phi(before_by_event_down[e1], d1)))
    # Several pairs at one direction: blocks of tied atoms (union-find), each reversed.
    for gi in np.flatnonzero(~single).tolist():
        evs = range(int(gstart[gi]), int(gstart[gi]) + int(gsize[gi]))
        parent: dict = {}

        def find(a):
            while parent.setdefault(a, a) != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        start_below: dict = {}
        for e in evs:
            a_up, a_dn = int(up[e]), int(down[e])
            start_below.setdefault(a_up, before_by_event_up[e])
            start_below.setdefault(a_dn, before_by_event_down[e])
            ra_, rb_ = find(a_up), find(a_dn)
            if ra_ != rb_:
                parent[ra_] = rb_
        blocks: dict = {}
        for a in start_below:
            blocks.setdefault(find(a), []).append(a)
        total = W_before_group[gi]
        n_pairs = 0
        for members in blocks.values():
            members.sort(key=lambda a: start_below[a])
            bl = np.array([start_below[a] for a in members])
            ms = mass[members]
            # The atoms of a block are consecutive in the ordering before it (a check of the grouping).
            if not np.allclose(bl[1:], bl[:-1] + ms[:-1], rtol=1e-12, atol=1e-9 * max(1.0, n)):
                raise RuntimeError("linear_rank_sweep: a tied block is not contiguous (internal error).")
            n_pairs += len(members) * (len(members) - 1) // 2
            rt_ = _rank_of(bl[0], ms.sum(), ties)
            idx = np.asarray(members)
            total += float(pos_mass[idx] @ (phi.at_ranks(np.full(len(members), rt_), n) - rank_phi(bl, idx)))
        if n_pairs != gsize[gi]:
            raise RuntimeError("linear_rank_sweep: tied blocks are not complete (internal error).")
        tie_values[gi] = total

    # --- directions -----------------------------------------------------------------------------
    rep = gstart
    dd = d[pair[rep]] * sign[rep][:, None]
    critical = np.column_stack([-dd[:, 1], dd[:, 0]])
    unit = critical / np.hypot(critical[:, 0], critical[:, 1])[:, None]
    nxt = np.roll(unit, -1, axis=0)
    # The arc from unit to nxt (counter-clockwise): below pi when cross > 0, above when < 0. On
    # the edge cases the sign of the rounded cross product is not used: nearly equal directions
    # bound a tiny arc (their sum bisects it); nearly opposite ones an arc of pi (rot90 bisects it).
    cross = unit[:, 0] * nxt[:, 1] - unit[:, 1] * nxt[:, 0]
    dot = np.einsum("ij,ij->i", unit, nxt)
    flat = np.abs(cross) <= 1e-12
    half_turn = flat & (dot < 0)
    bis = unit + nxt
    bis[half_turn] = np.column_stack([-unit[half_turn, 1], unit[half_turn, 0]])
    wide = ~flat & (cross < 0)
    bis[wide] = -bis[wide]
    bis /= np.hypot(bis[:, 0], bis[:, 1])[:, None]
    return LinearRankSweep(critical, theta0 + rel[gstart], tie_values, arc_values, bis, w0, theta0, W0, n_pos, n)


@register_model
class ExactLinearRankMaximizer(BinaryLinearRanker):
    r"""The exact empirical maximiser of ``W_phi`` over linear scorers of two features.

    Maximises ``W_n(s) = sum over positives of phi(Rank(s(x_i)) / (n + 1))`` (Clémençon &
    Vayatis 2008) over ``s(x) = <w, x>``, ``w`` in the plane, by enumerating every ordering
    of the training sample such a scorer induces (:func:`linear_rank_sweep`): the value is
    the true empirical maximum, not a surrogate's.

    Parameters
    ----------
    phi : str or rankwise.phi object, default "pnorm_push:p=4"
        As in :func:`rankwise.rank_statistic`.
    ties : {"average", "max"}, default "average"
        Ranks of tied training points in ``W_n``.
    include_ties : bool, default True
        Whether the orderings with ties (the scorers on a critical direction) compete. With
        ``False`` only the open arcs do, whose orderings survive a small change of ``w``.

    Attributes
    ----------
    coef_ : array (2,)
        A maximising direction: a unit vector inside the best arc, or the critical direction
        itself (``rot90`` of a difference of two training points) when a tied ordering wins.
    intercept_ : float
        As for the other linear rankers (the ranking does not depend on it).
    criterion_ : float
        The maximum of ``W_n / n+`` (``scale="mean"``).
    is_tie_ : bool
        Whether the maximum is attained only on a critical direction.
    n_orderings_ : int
        Number of critical directions (as many open arcs), ``n(n - 1)`` for points in general position.

    Notes
    -----
    Cost ``O(n^2 log n)`` time and ``O(n^2)`` memory. In ``d`` dimensions the orderings are the
    regions of the arrangement of the ``n(n - 1)/2`` hyperplanes ``<w, x_i - x_j> = 0`` through
    the origin, at most ``O(n^{2(d - 1)})`` of them (T. M. Cover, 1965, "Geometrical and statistical
    properties of systems of linear inequalities with applications in pattern recognition",
    IEEE Trans. Electronic Computers), so exact maximisation is confined to small ``d``.

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2)); y = (X[:, 0] + rng.normal(size=60) > 0.5).astype(int)
    >>> m = rw.ExactLinearRankMaximizer(phi="pnorm_push:p=8").fit(X, y)
    >>> m.criterion_ >= rw.rank_statistic(y, X[:, 0], "pnorm_push:p=8", scale="mean")
    True
    """

    def __init__(self, phi="pnorm_push:p=4", ties: str = "average", include_ties: bool = True):
        store_params(self, locals())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False  # two dense columns
        return tags

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, 2), binary ``y``, optional ``sample_weight``."""
        name = type(self).__name__
        _phi.resolve(self.phi, name)
        ties = check_choice(self.ties, "ties", name, ("average", "max"))
        if not isinstance(self.include_ties, (bool, np.bool_)):
            raise TypeError(f"{name}: include_ties must be True or False; got {self.include_ties!r}.")
        if hasattr(X, "toarray") or hasattr(X, "tocsr"):
            raise TypeError(f"{name}: X must be a dense array of two columns; got a sparse matrix (use X.toarray()).")
        X, is_pos, sw = self._validate_fit(X, y, sample_weight, accept_sparse=())
        if X.shape[1] != 2:
            raise ValueError(f"{name}: exact maximisation needs exactly 2 features (the sweep enumerates "
                             f"the orderings of a two-dimensional linear class); got n_features = {X.shape[1]}. "
                             "Project the data to two columns first, or use RankStatisticRanker.")
        sweep = linear_rank_sweep(X, is_pos, self.phi, ties=ties, sample_weight=sw)
        value, w, tie = sweep.best(bool(self.include_ties))
        self.coef_ = np.asarray(w, dtype=np.float64)
        self.criterion_ = float(value / sweep.n_pos)
        self.is_tie_ = bool(tie)
        self.n_orderings_ = int(sweep.critical.shape[0])
        self._set_threshold(X, is_pos, sw)
        return self

    _extra_state_names = ("criterion_", "is_tie_", "n_orderings_")
    _extra_state_kinds = {"criterion_": "number", "is_tie_": "flag", "n_orderings_": "count"}

    def _extra_state(self):
        return {"criterion_": float(self.criterion_), "is_tie_": bool(self.is_tie_),
                "n_orderings_": int(self.n_orderings_)}
