"""Pair counts for real-valued labels (the ranking risk of Clémençon, Lugosi & Vayatis 2008) in O(n log n).

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

__all__ = ["discordant_pairs", "discordant_per_element"]


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
    # sum_{k<l} m_k m_l as a sum of products (no cancellation): exactly 0 with one label,
    # where (total^2 - sum m_k^2) / 2 left a rounding residue that made the risk 0, not nan.
    comparable = float(np.dot(label_mass[1:], np.cumsum(label_mass)[:-1]))

    # T: pairs tied in score with different labels = same-score pairs - same-(score, label) pairs.
    if n > 1:
        s_change = np.flatnonzero(ss[1:] != ss[:-1]) + 1
        sy_change = np.flatnonzero((ss[1:] != ss[:-1]) | (a[1:] != a[:-1])) + 1
        sy_start = np.concatenate(([0], sy_change))
        sy_mass = np.add.reduceat(wt, sy_start)
        # Same score, different labels: each (score, label) block times the mass of the
        # earlier blocks of its score (a sum of products: exactly 0 when no such pair).
        block_of_score = np.searchsorted(s_change, sy_start, side="right")  # score group of each block
        before = np.cumsum(sy_mass) - sy_mass
        first = np.flatnonzero(np.r_[True, block_of_score[1:] != block_of_score[:-1]])
        before -= np.repeat(before[first], np.diff(np.r_[first, sy_mass.shape[0]]))
        tied = float(np.dot(sy_mass, before))
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


def discordant_per_element(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """For every ``i``: ``sum_j w_j (1{(y_i - y_j)(s_i - s_j) < 0} + 1/2 1{s_i = s_j, y_i != y_j})``.

    The row sums of the ranking risk's pair kernel, which give the Hoeffding projection of
    the ranking risk. Same bit decomposition as :func:`discordant_pairs`: a pair with
    ``y_j > y_i`` is counted at the highest bit where their dense label ranks differ,
    where both share the higher bits (a group) and ``i`` has the bit clear. Within a
    group ordered by score, ``i`` (bit clear) counts the set-bit mass strictly below
    its score plus half the tied set-bit mass; ``j`` (bit set) counts the clear-bit
    mass strictly above plus half the tied. O(n log n) per bit.
    """
    n = y.shape[0]
    wt = np.ones(n) if w is None else w
    _, a = np.unique(y, return_inverse=True)
    a = a.astype(np.int64).ravel()
    order = np.argsort(s, kind="stable")
    ss = s[order]
    a_s = a[order]
    w_s = wt[order]
    slev = np.zeros(n, dtype=np.int64)
    if n > 1:
        np.cumsum(ss[1:] != ss[:-1], out=slev[1:])
    out = np.zeros(n)
    nbits = int(a.max()).bit_length() if n else 0
    idx = np.arange(n, dtype=np.int64)
    for b in range(nbits):
        g = a_s >> (b + 1)
        perm = np.argsort(g, kind="stable")  # groups, score order kept inside each
        gg = g[perm]
        bb = ((a_s[perm] >> b) & 1).astype(bool)
        ww = w_s[perm]
        ll = slev[perm]
        new_group = np.empty(n, dtype=bool)
        new_group[0] = True
        np.not_equal(gg[1:], gg[:-1], out=new_group[1:])
        new_block = new_group.copy()
        new_block[1:] |= ll[1:] != ll[:-1]
        gstart = np.maximum.accumulate(np.where(new_group, idx, 0))
        bstart = np.maximum.accumulate(np.where(new_block, idx, 0))
        end_g = np.append(new_group[1:], True)
        end_b = np.append(new_block[1:], True)
        gend = np.minimum.accumulate(np.where(end_g, idx, n - 1)[::-1])[::-1]
        bend = np.minimum.accumulate(np.where(end_b, idx, n - 1)[::-1])[::-1]
        one_w = np.where(bb, ww, 0.0)
        zero_w = ww - one_w
        c1 = np.cumsum(one_w)
        c0 = np.cumsum(zero_w)
        c1x = c1 - one_w  # exclusive
        c0x = c0 - zero_w
        ones_below = c1x[bstart] - c1x[gstart]
        ones_tied = c1[bend] - c1x[bstart]
        zeros_above = c0[gend] - c0[bend]
        zeros_tied = c0[bend] - c0x[bstart]
        contrib = np.where(bb, zeros_above + 0.5 * zeros_tied, ones_below + 0.5 * ones_tied)
        out[perm] += contrib
    res = np.empty(n)
    res[order] = out
    return res
