"""Pair counts for real-valued labels (paper 001's ranking risk) in O(n log n).

``discordant_pairs`` returns, over unordered pairs ``{i, j}`` with pair weight
``w_i w_j``:

* ``D``: pairs ordered against their labels, ``(y_i - y_j)(s_i - s_j) < 0``;
* ``T``: pairs tied in score with different labels;
* ``all``: every pair, ``sum_{i<j} w_i w_j``;
* ``comparable``: pairs with different labels.

``D`` is an inversion count of the labels read in score order. It is computed
bit by bit on the dense label ranks (a wavelet-tree style count): at bit ``b``,
a pair is counted when the two label ranks agree on the bits above ``b`` and the
earlier (lower-scored) element has bit ``b`` set while the later one has it
clear. Each level is a few cumulative sums and a stable partition, O(n); there
are ``ceil(log2(#distinct labels))`` levels.
"""

from __future__ import annotations

import numpy as np

__all__ = ["discordant_pairs"]


def _sum_sq(group_mass: np.ndarray) -> float:
    return float(np.dot(group_mass, group_mass))


def discordant_pairs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> dict[str, float]:
    n = y.shape[0]
    order = np.lexsort((y, s))  # by score, then by label: tied scores never count in D
    ys = y[order]
    ss = s[order]
    wt = np.ones(n) if w is None else w[order]
    labels, a = np.unique(ys, return_inverse=True)
    a = a.astype(np.int64).ravel()

    total = float(wt.sum())
    sq = float(np.dot(wt, wt))
    all_pairs = 0.5 * (total * total - sq)
    # Mass per label value.
    label_mass = np.bincount(a, weights=wt, minlength=labels.shape[0])
    comparable = 0.5 * (total * total - _sum_sq(label_mass))

    # T: pairs tied in score with different labels = same-score pairs - same-(score, label) pairs.
    if n > 1:
        s_change = np.flatnonzero(ss[1:] != ss[:-1]) + 1
        sy_change = np.flatnonzero((ss[1:] != ss[:-1]) | (a[1:] != a[:-1])) + 1
        s_mass = np.add.reduceat(wt, np.concatenate(([0], s_change)))
        sy_mass = np.add.reduceat(wt, np.concatenate(([0], sy_change)))
        tied = 0.5 * (_sum_sq(s_mass) - _sum_sq(sy_mass))
    else:
        tied = 0.0

    d = 0.0
    m = labels.shape[0]
    nbits = int(m - 1).bit_length()
    idx = np.arange(n, dtype=np.int64)
    for b in range(nbits - 1, -1, -1):
        bit = (a >> b) & 1
        group = a >> (b + 1)
        start_flag = np.empty(n, dtype=bool)
        start_flag[0] = True
        np.not_equal(group[1:], group[:-1], out=start_flag[1:])
        gstart = np.maximum.accumulate(np.where(start_flag, idx, 0))
        # Weighted count of set bits before each element within its group.
        w1 = wt * bit
        c1 = np.cumsum(w1)
        c1_excl = c1 - w1
        ones_before = c1_excl - c1_excl[gstart]
        zero = bit == 0
        d += float(np.dot(wt[zero], ones_before[zero]))
        # Stable partition of each group: clear bits first, then set bits.
        nz = np.cumsum(zero)  # zeros up to and including i
        nz_excl = nz - zero
        zeros_before = nz_excl - nz_excl[gstart]
        # Zeros in each element's group: zeros before the group's end.
        end_flag = np.empty(n, dtype=bool)
        end_flag[-1] = True
        end_flag[:-1] = start_flag[1:]
        gend = np.minimum.accumulate(np.where(end_flag, idx, n - 1)[::-1])[::-1]
        zeros_in_group = nz[gend] - nz_excl[gstart]
        within = idx - gstart
        new_pos = np.where(zero, gstart + zeros_before, gstart + zeros_in_group + (within - zeros_before))
        a_new = np.empty_like(a)
        w_new = np.empty_like(wt)
        a_new[new_pos] = a
        w_new[new_pos] = wt
        a, wt = a_new, w_new
    return {"discordant": d, "tied": tied, "all": all_pairs, "comparable": comparable}
