"""Numeric pieces the criteria's passes share (:mod:`rankwise.criteria`).

Notation: a class side of the rank table (:class:`ClassSide`) gives, at each level where
the class has mass, that ``mass``, the class's own mass strictly below (``own_below``),
the other class's mass strictly below (``other_below``) and at the same level
(``other_tied``).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "REL",
    "below_plus_tied",
    "pooled_ranks",
    "power_inplace",
    "power_total",
    "discount_block_sums",
    "cumulative_discount",
    "ideal_dcg",
    "check_positions",
]

#: Relative slack for comparisons of accumulated masses with a fraction of n
#: (e.g. 0.7 * 10 = 7.000000000000001 in floating point).
REL = 1e-12


def below_plus_tied(side, c: float) -> np.ndarray:
    """``other_below + c * other_tied``; when untied this is ``other_below`` itself (not a
    copy), so callers that write into the result must copy it."""
    if side.unit:
        return side.other_below
    return side.other_below + c * side.other_tied


def pooled_ranks(side, ties: str) -> np.ndarray:
    """Pooled rank at each of the side's levels in mass units: the mid-rank
    ``below + (c + 1) / 2`` (``ties="average"``) or ``#{j : s_j <= s_i}`` = ``below + c``
    (``"max"``), with ``c`` the mass at the level."""
    below = side.own_below + side.other_below
    if side.unit:  # every mass 1, nothing tied: the count is 1 (mid-rank and max agree)
        below += 1.0
        return below
    count = side.mass + side.other_tied
    if ties == "average":
        return below + 0.5 * (count + 1.0)
    return below + count


def power_inplace(x: np.ndarray, p: float) -> np.ndarray:
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


def power_total(side, x: np.ndarray, p: float) -> float:
    """``side.total(x**p)``, ``x`` overwritten. On an untied 1-D side with an even integer
    ``p`` the sum of ``(x^(p/2))^2`` is one dot product (a pass fewer than powering and
    summing)."""
    e = int(p) if float(p).is_integer() else 0
    if side.unit and x.ndim == 1 and e >= 2 and e % 2 == 0 and e <= 64:
        y = power_inplace(x, e // 2)
        return float(np.dot(y, y))
    return side.total(power_inplace(x, p))


def discount_block_sums(discount, start: np.ndarray, length: np.ndarray) -> np.ndarray:
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


#: Positions from the top are absolute masses: float64 resolves them to 1 only below 2^53.
MAX_POSITIONS = 2.0 ** 53


def check_positions(n) -> None:
    """DCG reads positions from the top in units of (frequency) weight; above a total of
    2^53 the positions near the top cannot be told apart in float64 (the mass above a
    level is a difference of totals whose rounding exceeds k), so the value would be
    arbitrary: refuse instead."""
    top = float(np.max(n))
    if top > MAX_POSITIONS:
        raise ValueError(
            f"DCG counts positions from the top in units of weight (weights are frequency weights), and the "
            f"total weight here is {top:.4g}, above 2^53 = 9.0e15 positions that float64 can resolve; divide "
            f"the weights by a common factor (DCG@k then counts k units of the new scale).")


def cumulative_discount(discount, x, cut):
    """``D(x) = sum_{q <= x} discount(q)`` over integer positions ``q <= cut``, linearly
    interpolated between integers, so that integer weights act as repetitions. ``x`` and
    ``cut`` broadcast (a batch of tables passes ``(k, 1)`` cuts)."""
    # Masses "above" come from differences of totals: with huge weights their rounding
    # can leave a top level slightly below 0.
    x = np.clip(x, 0.0, cut)
    top = float(np.ceil(np.max(x))) if np.size(x) else 0.0
    if top > _MAX_GRID:
        raise ValueError(
            f"DCG with these sample weights spans {top:.4g} positions (weights count repetitions); "
            f"pass k <= {_MAX_GRID} or rescale the weights."
        )
    top = int(top)
    grid = np.zeros(top + 2)
    if top > 0:
        np.cumsum(discount(np.arange(1, top + 1, dtype=np.float64)), out=grid[1: top + 1])
    grid[top + 1] = grid[top]
    fl = np.floor(x).astype(np.int64)
    frac = x - fl
    inc = grid[np.minimum(fl + 1, top + 1)] - grid[fl]
    return grid[fl] + frac * inc


def ideal_dcg(n_pos, n, k, discount):
    """DCG of the ordering that puts every positive above every negative (scalars or
    ``(k, 1)`` columns)."""
    cut = n if k is None else np.minimum(float(k), n)
    return cumulative_discount(discount, np.asarray(n_pos, dtype=np.float64), cut)
