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
    "pooled_ranks",
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
    """``sum_l P_l (Nb_l + N_l / 2) / (n+ n-)``: pairs tied in score count 1/2."""
    num = np.dot(t.pos, t.neg_below + 0.5 * t.neg)
    return float(num / (t.n_pos * t.n_neg))


def pooled_ranks(t: RankTable, ties: str) -> np.ndarray:
    """Pooled rank of each level in mass units: the mid-rank ``Pb + Nb + (c + 1) / 2``
    (``ties="average"``) or the paper's ``#{j : s_j <= s_i}`` = ``Pb + Nb + c`` (``"max"``)."""
    below = t.pos_below + t.neg_below
    if ties == "average":
        return below + 0.5 * (t.count + 1.0)
    return below + t.count


def _within_positive_ranks(t: RankTable, ties: str) -> np.ndarray:
    if ties == "average":
        return t.pos_below + 0.5 * (t.pos + 1.0)
    return t.pos_below + t.pos


def rank_statistic(t: RankTable, phi, ties: str, scale: str) -> tuple[float, float, float]:
    """Return ``(W, W_min, W_max)``: ``W = sum_l P_l phi(r_l / (n + 1))`` and the values
    of the same statistic when every positive is ranked below (``W_min``) or above
    (``W_max``) every negative, positives keeping their order among themselves."""
    sel = t.pos > 0
    P = t.pos[sel]
    n = t.n
    r = pooled_ranks(t, ties)[sel]
    w = float(np.dot(P, phi.at_ranks(r, n)))
    if scale != "minmax":
        return w, float("nan"), float("nan")
    rp = _within_positive_ranks(t, ties)[sel]
    wmin = float(np.dot(P, phi.at_ranks(rp, n)))
    wmax = float(np.dot(P, phi.at_ranks(rp + t.n_neg, n)))
    return w, wmin, wmax


def local_auc(t: RankTable, top: float) -> float:
    """CV07's LocAUC: ``P{s(X) > s(X'), s(X) >= Q | Y = 1, Y' = -1}`` with ties in
    score counted 1/2, ``Q`` the empirical upper ``top``-quantile of the pooled
    scores: the largest level with at least a fraction ``top`` of the mass at or above it."""
    at_or_above = t.n - (t.pos_below + t.neg_below)
    thr = top * t.n * (1.0 - _REL)
    cut = int(np.count_nonzero(at_or_above >= thr)) - 1  # decreasing, first entry is n
    num = np.dot(t.pos[cut:], t.neg_below[cut:] + 0.5 * t.neg[cut:])
    return float(num / (t.n_pos * t.n_neg))


def pnorm_push(t: RankTable, p: float, ties: str, normalize: bool) -> float:
    """Rudin's height form: ``Height(k) = #{pos i : s_i < s~_k} + 1/2 #{s_i = s~_k}``
    (``ties="average"``; ``"max"`` counts ties fully as in Rudin's ``<=``),
    ``R_p = sum over negatives of Height^p``; normalised: ``(R_p / (n- n+^p))^(1/p)``."""
    sel = t.neg > 0
    h = t.pos_below[sel] + (0.5 if ties == "average" else 1.0) * t.pos[sel]
    if normalize:
        return float((np.dot(t.neg[sel], np.power(h / t.n_pos, p)) / t.n_neg) ** (1.0 / p))
    return float(np.dot(t.neg[sel], np.power(h, p)))


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
    the curve linearly interpolated at ``max_fpr``."""
    if max_fpr >= 1.0:
        return auc(t)
    # Points with fpr <= max_fpr, taken from the top of the table only.
    fps_desc = t.n_neg - t.neg_below[::-1]  # after each level, from the top
    stop = int(np.searchsorted(fps_desc, max_fpr * t.n_neg * (1.0 + _REL), side="right"))
    # fps_desc[stop] is the first point beyond max_fpr (exists since max_fpr < 1).
    fpr = np.empty(stop + 2)
    tpr = np.empty(stop + 2)
    fpr[0] = tpr[0] = 0.0
    fpr[1:] = fps_desc[: stop + 1] / t.n_neg
    tpr[1:] = (t.n_pos - t.pos_below[::-1][: stop + 1]) / t.n_pos
    x0, x1 = fpr[stop], fpr[stop + 1]
    y0, y1 = tpr[stop], tpr[stop + 1]
    y_at = y0 + (max_fpr - x0) * (y1 - y0) / (x1 - x0) if x1 > x0 else y1
    fpr[stop + 1], tpr[stop + 1] = max_fpr, y_at
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) * 0.5)


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
    sel = t.pos > 0
    c = t.count[sel]
    above = t.n - (t.pos_below[sel] + t.neg_below[sel]) - c
    if not t.weighted:
        m = np.clip(cut - above, 0.0, c)
        block = _discount_sum_exact(discount, above + 1.0, m.astype(np.int64))
    else:
        block = _cumulative_discount(discount, above + c, cut) - _cumulative_discount(discount, above, cut)
    return float(np.dot(t.pos[sel], block / c))


def ideal_dcg(t: RankTable, k: float | None, discount) -> float:
    """DCG of the ordering that puts every positive above every negative."""
    cut = t.n if k is None else min(float(k), t.n)
    return float(_cumulative_discount(discount, np.array([t.n_pos]), cut)[0])
