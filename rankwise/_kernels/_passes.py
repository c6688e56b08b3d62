"""Criteria as vectorised passes over a :class:`RankTable`.

Each function takes a validated table with both classes present and returns a
float (or arrays for the ROC curve). Notation: level ``l`` has positive mass
``P_l`` and negative mass ``N_l``; ``Pb_l``, ``Nb_l`` are the masses strictly
below it; ``n = n+ + n-``.
"""

from __future__ import annotations

import numpy as np

from ._ranktable import RankTable

__all__ = [
    "auc",
    "rank_statistic",
    "local_auc",
    "pnorm_push",
    "roc_points",
    "partial_auc",
    "dcg",
    "ideal_dcg",
]

# Relative slack for comparisons of accumulated masses with a fraction of n
# (e.g. 0.7 * 10 = 7.000000000000001 in floating point).
_REL = 1e-12


def auc(t: RankTable) -> float:
    """``sum over positive levels of P (Nb + Nt / 2) / (n+ n-)``: pairs tied in score count 1/2."""
    side = t.pos_side
    return side.total(_below_plus_tied(side, 0.5)) / (t.n_pos * t.n_neg)


def _below_plus_tied(side, c: float) -> np.ndarray:
    """``other_below + c * other_tied``; when untied this is ``other_below`` itself (not a
    copy), so callers that write into the result must copy it."""
    if side.unit:
        return side.other_below
    return side.other_below + c * side.other_tied


def _pooled_ranks(side, ties: str) -> np.ndarray:
    """Pooled rank at each of the side's levels in mass units: the mid-rank
    ``below + (c + 1) / 2`` (``ties="average"``) or the paper's ``#{j : s_j <= s_i}``
    = ``below + c`` (``"max"``), with ``c`` the mass at the level."""
    below = side.own_below + side.other_below
    count = side.mass + side.other_tied
    if ties == "average":
        return below + 0.5 * (count + 1.0)
    return below + count


def rank_statistic(t: RankTable, phi, ties: str, scale: str) -> tuple[float, float, float]:
    """Return ``(W, W_min, W_max)``: ``W = sum_l P_l phi(r_l / (n + 1))`` and the values
    of the same statistic when every positive is ranked below (``W_min``) or above
    (``W_max``) every negative, positives keeping their order among themselves."""
    side = t.pos_side
    n = t.n
    w = side.total(phi.at_ranks(_pooled_ranks(side, ties), n))
    if scale != "minmax":
        return w, float("nan"), float("nan")
    if ties == "average":
        rp = side.own_below + 0.5 * (side.mass + 1.0)
    else:
        rp = side.own_below + side.mass
    wmin = side.total(phi.at_ranks(rp, n))
    wmax = side.total(phi.at_ranks(rp + t.n_neg, n))
    return w, wmin, wmax


def local_auc(t: RankTable, top: float) -> float:
    """CV07's LocAUC: ``P{s(X) > s(X'), s(X) >= Q | Y = 1, Y' = -1}`` with ties in
    score counted 1/2, ``Q`` the empirical upper ``top``-quantile of the pooled
    scores: the largest level with at least a fraction ``top`` of the mass at or
    above it. A level is at or above ``Q`` exactly when the mass strictly above it
    is below ``top * n``, which is a test on the positive side alone."""
    side = t.pos_side
    strictly_above = t.n - (side.own_below + side.other_below + side.mass + side.other_tied)
    keep = strictly_above < top * t.n * (1.0 - _REL)
    return side.total(_below_plus_tied(side, 0.5), keep) / (t.n_pos * t.n_neg)


def pnorm_push(t: RankTable, p: float, ties: str, normalize: bool) -> float:
    """Rudin's height form: ``Height(k) = #{pos i : s_i < s~_k} + 1/2 #{s_i = s~_k}``
    (``ties="average"``; ``"max"`` counts ties fully as in Rudin's ``<=``),
    ``R_p = sum over negatives of Height^p``; normalised: ``(R_p / (n- n+^p))^(1/p)``."""
    side = t.neg_side
    h = _below_plus_tied(side, 0.5 if ties == "average" else 1.0)
    if side.unit:
        h = h.copy()  # _power works in place
    if normalize:
        h /= t.n_pos
        return (side.total(_power(h, p)) / t.n_neg) ** (1.0 / p)
    return side.total(_power(h, p))


def _power(x: np.ndarray, p: float) -> np.ndarray:
    """``x**p`` in place; powers of two by repeated squaring (several times faster than
    ``np.power`` with a float exponent), small integers by repeated multiplication."""
    if p == 1:
        return x
    e = int(p) if float(p).is_integer() else 0
    if e and e & (e - 1) == 0 and e <= 64:
        while e > 1:
            np.multiply(x, x, out=x)
            e //= 2
        return x
    if e and e <= 16:
        base = x.copy()
        for _ in range(e - 1):
            x *= base
        return x
    return np.power(x, p, out=x)


def roc_points(t: RankTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC points by decreasing threshold, starting at (0, 0) with threshold +inf.

    At threshold ``levels[l]`` (predict positive when score >= threshold):
    ``tpr = (n+ - Pb_l) / n+``, ``fpr = (n- - Nb_l) / n-``.
    """
    fps = np.empty(t.size + 1)
    tps = np.empty(t.size + 1)
    fps[0] = tps[0] = 0.0
    fps[1:] = t.n_neg - t.neg_below[::-1]
    tps[1:] = t.n_pos - t.pos_below[::-1]
    thr = np.empty(t.size + 1, dtype=np.float64 if t.levels.dtype.kind != "f" else t.levels.dtype)
    thr[0] = np.inf
    thr[1:] = t.levels[::-1]
    return fps / t.n_neg, tps / t.n_pos, thr


def partial_auc(t: RankTable, max_fpr: float) -> float:
    """Area under the ROC curve (ties as diagonal segments) over ``fpr in [0, max_fpr]``,
    the curve linearly interpolated at ``max_fpr``.

    Read from the negative side: going down from the top, a negative level of mass
    ``N`` moves the curve right by ``N / n-`` while the TPR rises from
    ``T0 = (n+ - Pb - Pt) / n+`` by ``Pt / n+`` (``Pt`` tied positives: a diagonal).
    A fraction ``f`` of that segment (clipped at ``max_fpr``) adds
    ``f (N / n-) (T0 + f Pt / (2 n+))``. Levels with positives only add no width."""
    if max_fpr >= 1.0:
        return auc(t)
    side = t.neg_side
    # Levels whose segment starts left of max_fpr: negative mass strictly above the level
    # below max_fpr * n-, i.e. own_below[i] + mass[i] = own_below[i + 1] > (1 - max_fpr) n-.
    # own_below is increasing, so they are a suffix, found by bisection.
    thr = (1.0 - max_fpr) * t.n_neg * (1.0 + _REL)
    start = max(int(np.searchsorted(side.own_below, thr, side="right")) - 1, 0)
    sl = slice(start, None)
    mass = np.asarray(side.mass[sl], dtype=np.float64)
    w = mass / t.n_neg
    fpr_before = (t.n_neg - side.own_below[sl] - mass) / t.n_neg
    f = np.clip((max_fpr - fpr_before) / w, 0.0, 1.0)
    t0 = (t.n_pos - side.other_below[sl] - side.other_tied[sl]) / t.n_pos
    dt = side.other_tied[sl] / t.n_pos
    return float(np.dot(f * w, t0 + 0.5 * f * dt))


def _discount_sum_exact(discount, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """``sum_{q = start}^{start + length - 1} discount(q)`` for integer starts/lengths >= 0."""
    out = np.zeros(start.shape[0])
    one = length == 1
    if one.any():
        out[one] = discount(start[one].astype(np.float64))
    many = length > 1
    if many.any():
        lens = length[many].astype(np.int64)
        first = start[many].astype(np.int64)
        ends = np.cumsum(lens)
        offsets = np.repeat(first - (ends - lens), lens)
        positions = offsets + np.arange(ends[-1], dtype=np.int64)
        vals = discount(positions.astype(np.float64))
        out[many] = np.add.reduceat(vals, ends - lens)
    return out


_MAX_GRID = 10**8


def _cumulative_discount(discount, x: np.ndarray, cut: float) -> np.ndarray:
    """``D(x) = sum_{q <= x} discount(q)`` over integer positions ``q <= cut``, linearly
    interpolated between integers, so that integer weights act as repetitions."""
    x = np.minimum(x, cut)
    top = int(np.ceil(x.max())) if x.size else 0
    if top > _MAX_GRID:
        raise ValueError(
            f"DCG with these sample weights spans {top} positions (weights count repetitions); "
            f"pass k <= {_MAX_GRID} or rescale the weights."
        )
    grid = np.zeros(top + 2)
    if top > 0:
        np.cumsum(discount(np.arange(1, top + 1, dtype=np.float64)), out=grid[1 : top + 1])
    grid[top + 1] = grid[top]
    fl = np.floor(x).astype(np.int64)
    frac = x - fl
    inc = grid[np.minimum(fl + 1, top + 1)] - grid[fl]
    return grid[fl] + frac * inc


def dcg(t: RankTable, k: float | None, discount) -> float:
    """Binary-relevance DCG: a positive at position ``q`` (1 = top) gains ``discount(q)``
    if ``q <= k``; a block of tied scores shares the mean discount of the positions it
    occupies (the expected DCG under random tie-breaking, scikit-learn's convention)."""
    cut = t.n if k is None else min(float(k), t.n)
    side = t.pos_side
    c = side.mass + side.other_tied
    above = t.n - (side.own_below + side.other_below) - c
    if not t.weighted:
        m = np.clip(cut - above, 0.0, c)
        block = _discount_sum_exact(discount, above + 1.0, m.astype(np.int64))
    else:
        block = _cumulative_discount(discount, above + c, cut) - _cumulative_discount(discount, above, cut)
    return side.total(block / c)


def ideal_dcg(t: RankTable, k: float | None, discount) -> float:
    """DCG of the ordering that puts every positive above every negative."""
    cut = t.n if k is None else min(float(k), t.n)
    return float(_cumulative_discount(discount, np.array([t.n_pos]), cut)[0])
